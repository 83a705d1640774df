"""Figures of ``compare.html``: rule sets side by side, each drawn wide or narrow.

Every figure puts one rule set per row (or one line per rule set) so a reader finds a
variant by its name, and draws its legend outside the plot; the narrow layouts stack the
panels for a 400 px phone (:mod:`reports.figures`).
"""

from __future__ import annotations

import textwrap
from functools import partial

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from reports.colours import colour
from reports.compare import comparison
from reports.compare.comparison import Comparison
from reports.figures import NARROW, Drawing, legend_above, new_figure, panels, role_labels, whiskers
from simulator.rules.roles import ROLE_NAMES

KEY_DIFFERENCES = (  # the panels of the differences figure
    "P(President → President)",
    "P(Scum → Scum)",
    "next place: Scum − President",
    "place correlation, round to next",
    "Gini of match place points",
    "tricks per round",
)


def _pick(frame: pd.DataFrame, measure: str) -> pd.DataFrame:
    return frame[frame["measure"] == measure].reset_index(drop=True)


def _rows(ax: Axes, names: list[str]) -> np.ndarray:
    """One row per rule set, the first at the top; returns the rows' y positions."""
    y = np.arange(len(names))[::-1]
    ax.set_yticks(y, names)
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.grid(axis="y", visible=False)
    return y


def persistence_figure(c: Comparison, narrow: bool = False) -> Figure:
    """P(President → President) and P(Scum → Scum) per variant, with the no-memory
    baseline of P(President → President) marked on each variant's row."""
    fig = new_figure(NARROW if narrow else 7.5, 0.5 * len(c.names) + 1.8)
    ax = fig.add_subplot()
    y = _rows(ax, list(c.names))
    for offset, measure, marker in ((0.12, "P(President → President)", "o"),
                                    (-0.12, "P(Scum → Scum)", "s")):  # fmt: skip
        part = _pick(c.estimates, measure)
        ax.errorbar(part["estimate"], y + offset, xerr=whiskers(part), fmt=marker, label=measure)
    baseline = _pick(c.estimates, "P(President → President) without memory")
    ax.scatter(baseline["estimate"], y + 0.12, marker="|", s=250, color="grey",
               label="P→P without memory")  # fmt: skip
    ax.set_xlabel("P(same role next round)")
    legend_above(fig, ax, 1 if narrow else 3)
    return fig


def next_place_figure(c: Comparison, narrow: bool = False) -> Figure:
    """Mean place next round by role now, one line per variant."""
    fig = new_figure(NARROW, 3.8) if narrow else new_figure(6.5, 3.8)
    ax = fig.add_subplot()
    roles = [r for r in ROLE_NAMES if (c.estimates["measure"] == f"next place after {r}").any()]
    x = np.arange(len(roles))
    for k, name in enumerate(c.names):
        part = c.estimates[c.estimates["variant"] == name].set_index("measure")
        part = part.reindex([f"next place after {r}" for r in roles]).reset_index()
        shift = (k - (len(c.names) - 1) / 2) * 0.06
        ax.errorbar(x + shift, part["estimate"], yerr=whiskers(part), marker="o", label=name)
    ax.set_xticks(x, role_labels(roles, narrow))
    ax.set_xlabel("role now")
    ax.set_ylabel("mean place next round")
    ax.invert_yaxis()  # better places up
    legend_above(fig, ax, 2 if narrow else 4)
    return fig


def differences_figure(c: Comparison, narrow: bool = False) -> Figure:
    """Paired differences to the baseline for the key measures, with 95 % intervals: one
    panel per measure, one row per variant, zero marked."""
    others = list(c.names[1:])
    height = 0.32 * len(others) + 1.0
    if narrow:
        fig = new_figure(NARROW, height * len(KEY_DIFFERENCES) + 0.3)
    else:
        fig = new_figure(8.6, 2 * (height + 0.2) + 0.3)
    axes = panels(fig, len(KEY_DIFFERENCES), narrow, 3)
    for k, (ax, measure) in enumerate(zip(axes, KEY_DIFFERENCES, strict=True)):
        part = _pick(c.differences, measure).set_index("variant").reindex(others).reset_index()
        y = _rows(ax, others)
        if not narrow and k % 3:
            ax.set_yticklabels([])
        ax.errorbar(part["estimate"], y, xerr=whiskers(part), fmt="o")
        ax.axvline(0, color="grey", linestyle="--", linewidth=1)
        lo = np.nanmin(np.append(part["lo"].to_numpy(float), 0.0))
        hi = np.nanmax(np.append(part["hi"].to_numpy(float), 0.0))
        pad = 0.15 * (hi - lo) or 0.01
        ax.set_xlim(lo - pad, hi + pad)
        ax.xaxis.set_major_locator(MaxNLocator(4))
        ax.set_title("\n".join(textwrap.wrap(measure, 34)), fontsize=10.5)
    fig.suptitle(f"difference to {c.baseline} (variant − {c.baseline})")
    return fig


def strategies_figure(c: Comparison, narrow: bool = False) -> Figure:
    """Mean place of each strategy in each variant (the ranking), with 95 % intervals."""
    strategies = list(dict.fromkeys(c.ranking["strategy"]))
    fig = new_figure(NARROW if narrow else 7, 0.5 * len(c.names) + 1.8)
    ax = fig.add_subplot()
    y = _rows(ax, list(c.names))
    for k, strategy in enumerate(strategies):
        part = c.ranking[c.ranking["strategy"] == strategy].set_index("variant")
        part = part.reindex(list(c.names)).reset_index()
        shift = -(k - (len(strategies) - 1) / 2) * 0.15
        ax.errorbar(
            part["estimate"],
            y + shift,
            xerr=whiskers(part),
            fmt="o",
            label=strategy,
            color=colour(strategy),
        )
    ax.set_xlabel("mean place (1 = first out)")
    legend_above(fig, ax, 2 if narrow else 4)
    return fig


def length_figure(c: Comparison, narrow: bool = False) -> Figure:
    """Tricks, plays, passes, skips per round and rounds per match, per variant: one row
    per measure, one bar per variant (horizontal, so the labels never overlap)."""
    measures = [f"{m} per round" for m in comparison.LENGTHS] + ["rounds per match"]
    fig = new_figure(NARROW if narrow else 7.5, 0.25 * len(measures) * len(c.names) + 1.8)
    ax = fig.add_subplot()
    y = _rows(ax, measures)
    width = 0.8 / len(c.names)
    for k, name in enumerate(c.names):
        part = c.estimates[c.estimates["variant"] == name].set_index("measure")
        part = part.reindex(measures).reset_index()
        ax.barh(y + ((len(c.names) - 1) / 2 - k) * width, part["estimate"], width,
                xerr=whiskers(part), label=name)  # fmt: skip
    ax.set_xlabel("mean count")
    legend_above(fig, ax, 2)
    return fig


def make_figures(c: Comparison) -> dict[str, tuple[Drawing, str]]:
    """Every figure of the page with its caption, by file name (each a drawing: called
    with ``narrow``)."""
    return {
        "persistence": (
            partial(persistence_figure, c),
            "Role persistence per rule set, with P(President → President) without memory "
            "(grey bar); 95 % intervals",
        ),
        "next_place": (partial(next_place_figure, c), "Mean place next round by role now"),
        "differences": (
            partial(differences_figure, c),
            f"Differences to {c.baseline}, paired by match, 95 % intervals",
        ),
        "strategies": (partial(strategies_figure, c), "Mean place of each strategy per rule set"),
        "game_length": (partial(length_figure, c), "Game length per rule set"),
    }
