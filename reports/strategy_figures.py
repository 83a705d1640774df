"""Figures of the strategy report: the ranking, the pairwise heatmap, the hand deciles."""

from __future__ import annotations

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports.figures import new_figure, whiskers
from simulator.runs.standings import stars


def ranking(table: pd.DataFrame) -> Figure:
    """Mean place per strategy with its 95 % interval, plain and luck-adjusted."""
    fig = new_figure(7, 0.5 * len(table) + 1.6)
    ax = fig.add_subplot()
    y = np.arange(len(table))[::-1]
    for offset, column, label in ((0.12, "mean_place", "mean place"),
                                  (-0.12, "adjusted", "luck-adjusted")):  # fmt: skip
        part = table.rename(
            columns={column: "estimate", f"{column}_lo": "lo", f"{column}_hi": "hi"}
        )
        ax.errorbar(part["estimate"], y + offset, xerr=whiskers(part), fmt="o", capsize=3,
                    label=label)  # fmt: skip
    ax.set_yticks(y, list(table["strategy"]))
    ax.set_xlabel("mean place (1 = President), 95 % interval")
    ax.set_title("Ranking")
    ax.legend(fontsize="small")
    return fig


def pairwise_heatmap(pairs: pd.DataFrame, order: list[str]) -> Figure:
    """Each pair once (row better-ranked): mean place of row minus column, coloured
    (blue: the row places better), with Holm-adjusted stars."""
    rows, columns = order[:-1], order[1:]
    grid = np.full((len(rows), len(columns)), np.nan)
    labels = {}
    for r in pairs.itertuples():
        i, j = rows.index(r.a), columns.index(r.b)
        grid[i, j] = r.diff
        labels[(i, j)] = f"{r.diff:+.2f}{stars(r.p_holm)}\n±{r.diff_hi - r.diff:.2f}"
    fig = new_figure(1.2 * len(columns) + 2.6, 0.9 * len(rows) + 1.8)
    ax = fig.add_subplot()
    bound = np.nanmax(np.abs(grid)) if np.isfinite(grid).any() else 1.0
    image = ax.imshow(grid, cmap="RdBu_r", vmin=-bound, vmax=bound)
    for (i, j), text in labels.items():
        dark = abs(grid[i, j]) > 0.55 * bound
        ax.text(j, i, text, ha="center", va="center", fontsize=8,
                color="white" if dark else "black")  # fmt: skip
    ax.set_xticks(range(len(columns)), columns, rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_title("Row minus column, mean place (* p < 0.05, ** p < 0.01, Holm)")
    fig.colorbar(image, ax=ax, shrink=0.8, label="difference of mean place")
    return fig


def deciles(bands: pd.DataFrame) -> Figure:
    """Each strategy's mean place by decile of its dealt-hand strength, 95 % intervals."""
    fig = new_figure(7, 3.8)
    ax = fig.add_subplot()
    strategies = list(dict.fromkeys(bands["strategy"]))
    for k, strategy in enumerate(strategies):
        part = bands[bands["strategy"] == strategy]
        shift = (k - (len(strategies) - 1) / 2) * 0.06
        ax.errorbar(part["decile"] + shift, part["estimate"], yerr=whiskers(part), marker="o",
                    capsize=2, label=strategy)  # fmt: skip
    ax.set_xticks(range(1, 11))
    ax.set_xlabel("decile of dealt-hand strength (1 = weakest hands)")
    ax.set_ylabel("mean place")
    ax.invert_yaxis()
    ax.set_title("Where a strategy gains: mean place by hand strength")
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig
