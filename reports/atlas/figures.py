"""The atlas page's figure: relative skill per rule set, one row each, with its interval.

The wide layout names each row on the axis; the narrow one (a 400 px phone) writes each
name above its row instead, so that long names ("french: OPTION=VALUE") take the
whole width rather than squeeze the plot.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.transforms import blended_transform_factory

from reports.atlas.words import RS, RS_LINEAR, base_of, measure_rows
from reports.colours import colour
from reports.figures import NARROW, WIDE, legend_above, new_figure, whiskers

ROW_INCH = 0.27  # a row of the wide layout
NARROW_ROW_INCH = 0.46  # a row of the narrow layout: its name above its dot


def rs_dots(frame: pd.DataFrame, narrow: bool = False) -> Figure:
    """RS per rule set with its 95 % interval, highest at the top; the base in its own
    colour with a line through its value, capped rule sets hollow; RS with tuned
    ``linear`` in the place of champion as a small grey mark beside each."""
    rs = measure_rows(frame, RS)
    order = rs["estimate"].sort_values(ascending=True, kind="stable").index
    rs = rs.reindex(order).reset_index()
    capped = rs["capped"].to_numpy(bool)
    base = base_of(frame)
    rows = len(rs)
    height = (NARROW_ROW_INCH if narrow else ROW_INCH) * rows + 1.4
    fig = new_figure(NARROW if narrow else WIDE * 0.9, height)
    ax = fig.add_subplot()
    y = pd.RangeIndex(rows).to_numpy(float)
    linear = measure_rows(frame, RS_LINEAR).reindex(rs["rule_set"])
    if linear["estimate"].notna().any():
        ax.scatter(linear["estimate"], y - 0.2, marker="s", s=14, color="#999999",
                   label="RS, linear for champion", zorder=2)  # fmt: skip
    span = _span(rs)
    is_base = (rs["rule_set"] == base).to_numpy()
    for mask, name, fill in (
        (~is_base & ~capped, "RS", colour("champion")),
        (~is_base & capped, "RS, capped", "none"),
        (is_base, f"base: {base}", "#000000"),
    ):
        if mask.any():
            part = rs[mask]
            ax.errorbar(part["estimate"], y[mask], xerr=whiskers(_bounded(part, span)), fmt="o",
                        color="#000000" if name.startswith("base: ") else colour("champion"),
                        mfc=fill, label=name, zorder=3)  # fmt: skip
    if is_base.any():
        ax.axvline(rs.loc[is_base, "estimate"].iloc[0], color="#000000", lw=0.8, ls="--")
    ax.set_ylim(-0.7, rows - 0.3 + (0.3 if narrow else 0))
    ax.grid(axis="y", visible=False)
    open_ended = ~np.isfinite(rs[["low", "high"]].to_numpy()).all(axis=1)
    tags = [", ".join(t for t, on in (("capped", c), ("open interval", o)) if on)
            for c, o in zip(capped, open_ended, strict=True)]  # fmt: skip
    names = [f"{n} ({t})" if t else n for n, t in zip(rs["rule_set"], tags, strict=True)]
    if narrow:
        ax.set_yticks([])
        where = blended_transform_factory(ax.transAxes, ax.transData)
        for k, text in enumerate(names):
            ax.text(0.0, k + 0.3, text, transform=where, fontsize=10, va="bottom", clip_on=False)
    else:
        ax.set_yticks(y, names)
    ax.set_xlabel("relative skill (0: the cards decide, 1: the play does)")
    legend_above(fig, ax, 2)
    return fig


def _span(rs: pd.DataFrame) -> tuple[float, float]:
    """The x range of the finite estimates and bounds, widened by a tenth each side: where
    an open-ended interval's whisker stops (its row says the interval is open)."""
    values = rs[["estimate", "low", "high"]].to_numpy(float)
    finite = values[np.isfinite(values)]
    if not finite.size:
        return (0.0, 1.0)
    lo, hi = float(finite.min()), float(finite.max())
    pad = 0.1 * (hi - lo) or 0.1
    return (lo - pad, hi + pad)


def _bounded(part: pd.DataFrame, span: tuple[float, float]) -> pd.DataFrame:
    """Estimate and bounds (as :func:`reports.figures.whiskers` names them), an infinite
    bound drawn to the edge of ``span``."""
    return pd.DataFrame({
        "estimate": part["estimate"],
        "lo": part["low"].clip(lower=span[0]),
        "hi": part["high"].clip(upper=span[1]),
    })  # fmt: skip
