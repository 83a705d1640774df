"""The atlas page's figures, each a measure against the level of play (the ladder's rungs
along x, one line per rule set): the paired differences behind the verdicts, the skill
curve (each rung's mean place) and RS at each rung that has its ceiling.

Thirty-five lines cannot each have a legend entry: a line's colour says its rule set's
verdict (:mod:`simulator.runs.atlas.verdicts`), the base is black, the rule sets without a
difference light grey; the verdicts' figure, which shows only the rule sets with a
verdict, names each.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports.figures import NARROW, WIDE, legend_above, new_figure
from simulator.runs.atlas import verdicts as v

STYLE = {  # verdict -> colour, line style
    v.SKILL: ("#1f77b4", "-"),
    v.LUCK: ("#d62728", "-"),
    v.DEPENDS: ("#9467bd", "--"),
    v.NONE: ("#bbbbbb", "-"),
    v.UNPAIRED: ("#bbbbbb", ":"),
}
BASE_STYLE = ("#000000", "-")
HEIGHT, NARROW_HEIGHT = 3.8, 5.4  # inches (a phone's legend takes one entry a line)


def level_table(
    frame: pd.DataFrame, measures: dict[str, dict[str, str]]
) -> dict[str, pd.DataFrame]:
    """``estimate``, ``low`` and ``high`` as tables (rule sets down, levels across) from
    ``measures``: level -> {rule set: its measure} (a rung's measure may differ by rule
    set: the best heuristic's mean place)."""
    names = list(dict.fromkeys(frame["rule_set"]))
    rows = frame.drop_duplicates(["rule_set", "measure"]).set_index(["rule_set", "measure"])
    out = {}
    for field in ("estimate", "low", "high"):
        out[field] = pd.DataFrame(
            {level: [rows[field].get((n, by[n]), np.nan) if n in by else np.nan for n in names]
             for level, by in measures.items()}, index=names, dtype=float,
        )  # fmt: skip
    return out


def curves(
    frame: pd.DataFrame,
    measures: dict[str, dict[str, str]],
    ylabel: str,
    narrow: bool = False,
    lower_is_better: bool = False,
) -> Figure:
    """One line per rule set across the levels, coloured by its verdict, the base in
    black with its 95 % intervals, every other line's intervals where it has a verdict."""
    table = level_table(frame, measures)
    said = verdict_of(frame)
    base = v.base_of(frame)
    fig = new_figure(NARROW if narrow else WIDE * 0.9, NARROW_HEIGHT if narrow else HEIGHT)
    ax = fig.add_subplot()
    x = np.arange(len(measures), dtype=float)
    order = sorted(table["estimate"].index, key=lambda n: _drawn_late(n, said, base))
    shown: set[str] = set()
    for name in order:
        kind = "base" if name == base else said.get(name, v.NONE)
        colour, style = BASE_STYLE if kind == "base" else STYLE[kind]
        legend = f"base: {base}" if kind == "base" else kind
        y = table["estimate"].loc[name].to_numpy()
        strong = kind in ("base", v.SKILL, v.LUCK, v.DEPENDS)
        ax.plot(x, y, color=colour, ls=style, lw=1.8 if strong else 0.9, marker="o",
                ms=4 if strong else 2, label=None if legend in shown else legend,
                zorder=3 if strong else 2)  # fmt: skip
        shown.add(legend)
        if strong:
            low, high = table["low"].loc[name].to_numpy(), table["high"].loc[name].to_numpy()
            ax.vlines(x, _finite(low, y), _finite(high, y), color=colour, lw=1, zorder=3)
    ax.set_xticks(x, _tick_labels(measures, narrow), rotation=30 if narrow else 0,
                  ha="right" if narrow else "center")  # fmt: skip
    ax.set_ylabel(ylabel)
    if lower_is_better:
        ax.invert_yaxis()
    legend_above(fig, ax, 1 if narrow else 3)
    return fig


def differences(frame: pd.DataFrame, narrow: bool = False) -> Figure:
    """The paired difference of the skill gap with the base at each level (and of the
    skill depth), one line per rule set with a verdict, each named, with its interval; the
    zero line is "no difference"."""
    shown = drawn_verdicts(frame)
    levels = v.levels_of(frame)
    fig = new_figure(NARROW if narrow else WIDE * 0.9, NARROW_HEIGHT if narrow else HEIGHT)
    ax = fig.add_subplot()
    x = np.arange(len(levels), dtype=float)
    step = 0.25 / max(len(shown), 1)
    for k, row in enumerate(shown.itertuples(index=False)):
        d = row._asdict()
        style = STYLE[d["verdict"]][1]  # colour: the rule set's own, named in the legend
        xs = x + (k - (len(shown) - 1) / 2) * step
        y = np.array([d[f"{lv}_estimate"] for lv in levels], dtype=float)
        lo = np.array([d[f"{lv}_low"] for lv in levels], dtype=float)
        hi = np.array([d[f"{lv}_high"] for lv in levels], dtype=float)
        line = ax.plot(xs, y, ls=style, marker="o", ms=4, lw=1.4, label=d["rule_set"])[0]
        ax.vlines(xs, _finite(lo, y), _finite(hi, y), color=line.get_color(), lw=1)
    ax.axhline(0, color="#000000", lw=0.8)
    ax.set_xticks(x, _tick_labels(levels, narrow), rotation=30 if narrow else 0,
                  ha="right" if narrow else "center")  # fmt: skip
    ax.set_ylabel("variant − base (paired)")
    legend_above(fig, ax, 1 if narrow else 2)
    return fig


def drawn_verdicts(frame: pd.DataFrame) -> pd.DataFrame:
    """The verdicts' rows :func:`differences` draws: the rule sets with a verdict (none:
    the page draws no such figure, an empty frame)."""
    table = v.verdicts(frame)
    return table[table["verdict"].isin((v.SKILL, v.LUCK, v.DEPENDS))]


def verdict_of(frame: pd.DataFrame) -> dict[str, str]:
    """Each rule set's verdict (the base has none)."""
    table = v.verdicts(frame)
    return dict(zip(table["rule_set"], table["verdict"], strict=True))


def _drawn_late(name: str, said: dict[str, str], base: str) -> int:
    """Grey lines first, the verdicts over them, the base on top."""
    if name == base:
        return 3
    return {v.NONE: 0, v.UNPAIRED: 0, v.DEPENDS: 1}.get(said.get(name, v.NONE), 2)


def _finite(bound: np.ndarray, estimate: np.ndarray) -> np.ndarray:
    """An interval's bound, the estimate where the bound is unknown or open."""
    return np.where(np.isfinite(bound), bound, estimate)


SHORT = {"champion_low": "champion ×¼", "champion_high": "champion ×4", "skill_depth": "depth",
         "champion": "champion ×1"}  # fmt: skip
LONG = {"champion_low": "champion\n×¼ search", "champion_high": "champion\n×4 search",
        "champion": "champion\n×1", "linear": "tuned\nlinear", "skill_depth": "skill depth\n(rating)",
        "heuristic": "best\nheuristic"}  # fmt: skip


def _tick_labels(levels: Sequence[str] | dict[str, object], narrow: bool) -> list[str]:
    """The levels as the axis names them: short on a phone, on two lines on a desktop."""
    return [(SHORT if narrow else LONG).get(lv, lv) for lv in levels]
