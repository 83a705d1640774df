"""Figures of the strategy report: the ranking, the pairwise heatmap, the hand deciles.

Each is drawn wide or narrow (a 400 px phone) like every figure of the pages
(:mod:`reports.figures`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports import numbers
from reports.colours import colour
from reports.figures import NARROW, legend_above, new_figure, whiskers
from simulator.runs.standings import stars


def ranking(table: pd.DataFrame, adjusted: bool = True, narrow: bool = False) -> Figure:
    """Mean place per strategy with its 95 % interval, plain and (``adjusted``, unless it
    would copy the plain one) luck-adjusted."""
    height = (0.42 if narrow else 0.36) * len(table) + 1.5
    fig = new_figure(NARROW if narrow else 7, height)
    ax = fig.add_subplot()
    y = np.arange(len(table))[::-1]
    series = [(0.12, "mean_place", "mean place"), (-0.12, "adjusted", "luck-adjusted")]
    if not adjusted:
        series = [(0.0, "mean_place", "mean place")]
    for offset, column, label in series:
        part = table.rename(
            columns={column: "estimate", f"{column}_lo": "lo", f"{column}_hi": "hi"}
        )
        ax.errorbar(part["estimate"], y + offset, xerr=whiskers(part), fmt="o", label=label)
    ax.set_yticks(y, list(table["strategy"]))
    ax.set_ylim(-0.6, len(table) - 0.4)
    ax.set_xlabel("mean place (1 = first out)")
    ax.grid(axis="y", visible=False)
    legend_above(fig, ax, 2)
    return fig


def pairwise_heatmap(pairs: pd.DataFrame, order: list[str], narrow: bool = False) -> Figure:
    """Each pair once (row better-ranked): mean place of row minus column, coloured
    (blue: the row places better), with Holm-adjusted stars; the wide layout also gives
    each interval's half-width."""
    rows, columns = order[:-1], order[1:]
    grid = np.full((len(rows), len(columns)), np.nan)
    labels = {}
    crowded = narrow and len(columns) > 4  # a phone's cells hold the stars only
    places = numbers.shared(zip(pairs["diff"], pairs["diff_lo"], pairs["diff_hi"], strict=True))
    for r in pairs.itertuples():
        i, j = rows.index(r.a), columns.index(r.b)
        grid[i, j] = r.diff
        diff = numbers.fixed(r.diff, places, signed=True)
        half = numbers.fixed((r.diff_hi - r.diff_lo) / 2, places)
        # a phone's cell is narrow: the stars go under the number, the half-width is left out
        shown = f"{diff}\n{stars(r.p_holm)}" if narrow else f"{diff}{stars(r.p_holm)}\n±{half}"
        labels[(i, j)] = stars(r.p_holm) if crowded else shown
    cell = 0.95 if not narrow else min(0.62, 2.6 / max(1, len(columns)))
    width = NARROW if narrow else cell * len(columns) + 2.8
    fig = new_figure(width, cell * len(rows) + (2.6 if narrow else 1.9))
    ax = fig.add_subplot()
    bound = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
    image = ax.imshow(grid, cmap="RdBu_r", vmin=-bound, vmax=bound)
    size = 10
    for (i, j), text in labels.items():
        dark = abs(grid[i, j]) > 0.55 * bound
        ax.text(j, i, text, ha="center", va="center", fontsize=size,
                color="white" if dark else "black")  # fmt: skip
    ax.set_xticks(range(len(columns)), columns, rotation=40, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_ylabel("better-ranked (row)")
    ax.set_xlabel("other (column)")
    ax.grid(False)
    fig.colorbar(image, ax=ax, shrink=0.8, label="row − column, mean place",
                 location="bottom" if narrow else "right")  # fmt: skip
    return fig


def deciles(bands: pd.DataFrame, narrow: bool = False) -> Figure:
    """Each strategy's mean place by decile of its dealt-hand strength, 95 % intervals."""
    strategies = list(dict.fromkeys(bands["strategy"]))
    fig = new_figure(NARROW, 4.2 + 0.2 * len(strategies)) if narrow else new_figure(7.5, 4.2)
    ax = fig.add_subplot()
    for k, strategy in enumerate(strategies):
        part = bands[bands["strategy"] == strategy]
        shift = (k - (len(strategies) - 1) / 2) * 0.06
        ax.errorbar(part["decile"] + shift, part["estimate"], yerr=whiskers(part), marker="o",
                    capsize=2, label=strategy, color=colour(strategy))  # fmt: skip
    ax.set_xticks(range(1, 11))
    ax.set_xlabel("decile of dealt-hand strength (1 = weakest)")
    ax.set_ylabel("mean place (1 = best)")
    ax.invert_yaxis()
    legend_above(fig, ax, 2 if narrow else 4)
    return fig
