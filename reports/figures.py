"""Figures of a report: each function takes estimate frames and returns a Figure.

Figures are built on the Agg canvas directly (no pyplot), so nothing is ever shown, no
global figure state leaks between reports, and no display is needed.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from reports.estimates import POOLED
from simulator.rules.roles import ROLE_NAMES

SHORT = {
    "president": "P",
    "vice_president": "VP",
    "neutral": "N",
    "vice_scum": "VS",
    "scum": "S",
}


def new_figure(width: float, height: float) -> Figure:
    """A figure on its own Agg canvas (no pyplot state), shared by the report and compare pages."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def render(fig: Figure, fmt: str) -> bytes:
    """A figure as PNG or SVG bytes (written to figures/ and, as PNG, embedded)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=110)
    return buffer.getvalue()


def whiskers(frame: pd.DataFrame) -> np.ndarray:
    """Error-bar lengths (below, above) from estimate/lo/hi; zero where unknown."""
    below = (frame["estimate"] - frame["lo"]).fillna(0).to_numpy()
    above = (frame["hi"] - frame["estimate"]).fillna(0).to_numpy()
    return np.vstack([below, above])


def place_distribution(dist: pd.DataFrame, by: str = "strategy") -> Figure:
    """Grouped bars: P(place = p) for each strategy, with 95 % whiskers."""
    groups = list(dict.fromkeys(dist[by]))
    places = sorted(dist["place"].unique())
    fig = new_figure(7, 3.6)
    ax = fig.add_subplot()
    width = 0.8 / len(groups)
    for k, group in enumerate(groups):
        part = dist[dist[by] == group].set_index("place").reindex(places).reset_index()
        x = np.arange(len(places)) + (k - (len(groups) - 1) / 2) * width
        ax.bar(x, part["estimate"], width, yerr=whiskers(part), capsize=2, label=str(group))
    ax.set_xticks(np.arange(len(places)), [str(p) for p in places])
    ax.set_xlabel("place (1 = President)")
    ax.set_ylabel("share of rounds")
    ax.set_title(f"Place distribution by {by}")
    ax.legend(fontsize="small")
    return fig


def rates(by_strategy: pd.DataFrame, by_seat: pd.DataFrame) -> Figure:
    """President and Scum rates per strategy and per seat, as points with whiskers."""
    fig = new_figure(7, 4.2)
    axes = fig.subplots(1, 2, sharex=True)
    for ax, (frame, by) in zip(axes, ((by_strategy, "strategy"), (by_seat, "seat")), strict=True):
        labels = [str(v) for v in dict.fromkeys(frame[by])]
        for offset, measure in ((-0.15, "President rate"), (0.15, "Scum rate")):
            part = frame[frame["measure"] == measure]
            y = np.arange(len(part)) + offset
            ax.errorbar(part["estimate"], y, xerr=whiskers(part), fmt="o", capsize=3, label=measure)
        ax.set_yticks(np.arange(len(labels)), labels)
        ax.set_title(f"by {by}")
        ax.set_xlabel("share of rounds")
    axes[0].legend(fontsize="small")
    return fig


def transitions(matrix: pd.DataFrame) -> Figure:
    """One heatmap per strategy (and pooled) of P(role next round | role now)."""
    strategies = list(dict.fromkeys(matrix["strategy"]))
    roles = [r for r in ROLE_NAMES if r in set(matrix["prev_role"])]
    cols = min(3, len(strategies))
    rows = -(-len(strategies) // cols)
    fig = new_figure(3.4 * cols, 3.2 * rows)
    axes = np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel()
    image = None
    for ax, strategy in zip(axes, strategies, strict=False):
        part = matrix[matrix["strategy"] == strategy]
        grid = part.pivot(index="prev_role", columns="role", values="estimate")
        grid = grid.reindex(index=roles, columns=roles).to_numpy(float)
        image = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis")
        for (i, j), value in np.ndenumerate(grid):
            if not np.isnan(value):
                color = "black" if value > 0.6 else "white"
                ax.text(j, i, f"{value:.2f}", ha="center", va="center", fontsize=8, color=color)
        ticks = [SHORT[r] for r in roles]
        ax.set_xticks(range(len(roles)), ticks)
        ax.set_yticks(range(len(roles)), ticks)
        ax.set_xlabel("role next round")
        ax.set_ylabel("role now")
        ax.set_title(str(strategy))
    for ax in axes[len(strategies) :]:
        ax.set_visible(False)
    if image is not None:
        fig.colorbar(image, ax=list(axes[: len(strategies)]), shrink=0.8)
    return fig


def role_value(value: pd.DataFrame, measure: str) -> Figure:
    """Pooled value of each role over the next h rounds (``points`` or ``mean place``)."""
    part = value[(value["strategy"] == POOLED) & (value["measure"] == measure)]
    roles = [r for r in ROLE_NAMES if r in set(part["role"])]
    fig = new_figure(6, 3.6)
    ax = fig.add_subplot()
    for horizon, sub in part.groupby("horizon"):
        sub = sub.set_index("role").reindex(roles).reset_index()
        ax.errorbar(
            np.arange(len(roles)),
            sub["estimate"],
            yerr=whiskers(sub),
            marker="o",
            capsize=3,
            label=f"next {horizon} round{'s' if horizon > 1 else ''}",
        )
    ax.set_xticks(np.arange(len(roles)), [SHORT[r] for r in roles])
    ax.set_xlabel("role now")
    ax.set_ylabel("points over the next rounds" if measure == "points" else "mean place")
    ax.set_title(f"Value of a role ({measure}), all players")
    ax.legend(fontsize="small")
    return fig


def seat_effects(by_seat: pd.DataFrame, leads: pd.DataFrame) -> Figure:
    """Mean place by seat, and President rate of the first leader against the others."""
    fig = new_figure(7, 3.4)
    left, right = fig.subplots(1, 2)
    part = by_seat[by_seat["measure"] == "mean place"]
    left.errorbar(part["seat"], part["estimate"], yerr=whiskers(part), fmt="o", capsize=3)
    left.set_xticks(part["seat"])
    left.set_xlabel("seat")
    left.set_ylabel("mean place")
    left.set_title("Seat effect")
    lead = leads[leads["measure"] == "President rate"].reset_index(drop=True)
    labels = [
        f"{'round 0' if first else 'later'}\n{'led' if led else 'did not lead'}"
        for first, led in zip(lead["first_round"], lead["led"], strict=True)
    ]
    right.bar(range(len(lead)), lead["estimate"], yerr=whiskers(lead), capsize=3)
    right.set_xticks(range(len(lead)), labels, fontsize="small")
    right.set_ylabel("President rate")
    right.set_title("First-lead effect")
    return fig


def game_length(histogram: pd.DataFrame) -> Figure:
    """Histograms of tricks, plays and passes per round."""
    measures = ["tricks", "plays", "passes"]
    fig = new_figure(8, 2.8)
    for ax, measure in zip(fig.subplots(1, 3), measures, strict=True):
        part = histogram[histogram["measure"] == measure].sort_values("value")
        ax.bar(part["value"], part["rounds"] / part["rounds"].sum(), width=1.0)
        ax.set_xlabel(f"{measure} per round")
        ax.set_ylabel("share of rounds")
    fig.suptitle("Game length")
    return fig


def match_length(histogram: pd.DataFrame) -> Figure:
    """Histogram of match lengths in rounds."""
    part = histogram.sort_values("length")
    fig = new_figure(6, 3)
    ax = fig.add_subplot()
    ax.bar(part["length"], part["matches"] / part["matches"].sum(), width=1.0)
    ax.set_xlabel("rounds per match")
    ax.set_ylabel("share of matches")
    ax.set_title("Match length")
    return fig


def convergence(conv: pd.DataFrame) -> Figure:
    """Running President rate and mean place per strategy, with 95 % bands."""
    fig = new_figure(8, 3.4)
    axes = fig.subplots(1, 2)
    for ax, measure in zip(axes, ("President rate", "mean place"), strict=True):
        part = conv[conv["measure"] == measure]
        for strategy, sub in part.groupby("strategy", sort=False):
            line = ax.plot(sub["rounds"], sub["estimate"], label=str(strategy))[0]
            ax.fill_between(sub["rounds"], sub["lo"], sub["hi"], alpha=0.2, color=line.get_color())
        ax.set_xscale("log")
        ax.set_xlabel("rounds simulated")
        ax.set_title(f"{measure}: convergence")
    axes[0].legend(fontsize="small")
    return fig


def duplicate_gain(gain: pd.DataFrame) -> Figure:
    """95 % half-widths per strategy: duplicate deals (paired) against independent deals."""
    fig = new_figure(7, 3.2)
    axes = fig.subplots(1, 2)
    for ax, measure in zip(axes, ("mean place", "President rate"), strict=True):
        part = gain[gain["measure"] == measure].reset_index(drop=True)
        y = np.arange(len(part))
        ax.barh(y - 0.2, part["half_independent"], 0.4, label="independent deals (estimated)")
        ax.barh(y + 0.2, part["half_paired"], 0.4, label="duplicate deals (this run)")
        ax.set_yticks(y, [str(s) for s in part["strategy"]])
        ax.set_xlabel("95 % interval half-width")
        ax.set_title(measure)
    axes[0].legend(fontsize="small", loc="lower right")
    return fig
