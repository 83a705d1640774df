"""Figures of a report: each function takes estimate frames and returns a Figure.

Figures are built on the Agg canvas directly (no pyplot), so nothing is ever shown, no
global figure state leaks between reports, and no display is needed.

Every figure is drawn for the page, twice: a wide layout for a desktop column and a
narrow one for a 400 px phone (panels stacked, legends above the plot), each at the size
it is shown (:data:`CSS_DPI` CSS pixels per inch) with fonts of 13 CSS pixels or more, so
that no layout is shrunk until its text is unreadable. :func:`publish` draws both under
:data:`STYLE`, writes the wide one to ``figures/`` and returns the HTML.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from reports import html, numbers
from reports.colours import colour
from reports.estimates import POOLED
from simulator.rules.roles import ROLE_NAMES, ROLE_TITLES
from simulator.runs.claims import write_atomic

SHORT = {
    "president": "P",
    "vice_president": "VP",
    "neutral": "N",
    "vice_scum": "VS",
    "scum": "S",
}
ROLE_CODES = "P President, VP Vice-President, N Neutral, VS Vice-Scum, S Scum"
CSS_DPI = 100  # CSS pixels per inch: the size a figure is shown at on the page
RENDER_DPI = 150  # pixels per inch of the PNG: sharp on screens with 1.5 pixels per CSS px
WIDE = 8.6  # inches: the widest figure, the page's column at 1400 px
NARROW = 3.7  # inches: a 400 px phone's column (about 370 CSS px)
DIGIT_INCH = 0.08  # a digit's width at 10 pt, in inches
STYLE = {
    "font.size": 10.5,
    "axes.titlesize": 11.5,
    "axes.labelsize": 10.5,
    "xtick.labelsize": 10,
    "ytick.labelsize": 10,
    "legend.fontsize": 10,
    "figure.titlesize": 12,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.frameon": False,
    "errorbar.capsize": 3,
    "svg.hashsalt": "president-sim",  # SVG ids the same in every drawing of a figure
}
Drawing = Callable[..., Figure]  # called with narrow=True or False


def new_figure(width: float, height: float) -> Figure:
    """A figure on its own Agg canvas (no pyplot state), shared by every page."""
    fig = Figure(figsize=(width, height), layout="constrained")
    FigureCanvasAgg(fig)
    return fig


def render(fig: Figure, fmt: str) -> bytes:
    """A figure as PNG or SVG bytes (written to figures/ and, as PNG, embedded): the
    same bytes for the same figure, an SVG without the date and with ids from a fixed
    salt (:data:`STYLE`), so that a page made again (a resumed tournament) is identical."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=RENDER_DPI, metadata={"Date": None})
    return buffer.getvalue()


def publish(drawings: dict[str, tuple[Drawing, object]], out_dir: Path) -> dict[str, str]:
    """Draw every figure in both layouts, write the wide one as ``out_dir/NAME.png`` and
    ``.svg`` (atomically: a stopped page leaves no half figure), and return each figure's
    HTML (both layouts embedded) by name."""
    out_dir.mkdir(parents=True, exist_ok=True)
    embedded = {}
    with mpl.rc_context(STYLE):
        for name, (draw, caption) in drawings.items():
            wide, narrow = draw(narrow=False), draw(narrow=True)
            png = render(wide, "png")
            write_atomic(out_dir / f"{name}.png", png)
            write_atomic(out_dir / f"{name}.svg", render(wide, "svg"))
            sizes = (_css_size(wide), _css_size(narrow))
            embedded[name] = html.figure(name, png, render(narrow, "png"), caption, sizes)
    return embedded


def _css_size(fig: Figure) -> tuple[int, int]:
    width, height = fig.get_size_inches()
    return round(width * CSS_DPI), round(height * CSS_DPI)


def whiskers(frame: pd.DataFrame) -> np.ndarray:
    """Error-bar lengths (below, above) from estimate/lo/hi; zero where unknown."""
    below = (frame["estimate"] - frame["lo"]).fillna(0).to_numpy()
    above = (frame["hi"] - frame["estimate"]).fillna(0).to_numpy()
    return np.vstack([below, above])


def panels(fig: Figure, count: int, narrow: bool, columns: int | None = None) -> list[Axes]:
    """``count`` axes side by side (wide) or stacked (narrow)."""
    cols = 1 if narrow else (columns or count)
    rows = -(-count // cols)
    axes = list(np.atleast_1d(fig.subplots(rows, cols, squeeze=False)).ravel())
    for ax in axes[count:]:
        ax.set_visible(False)
    return axes[:count]


def legend_above(fig: Figure, ax: Axes, columns: int = 3) -> None:
    """The legend of ``ax`` above the plot, outside it, so it never covers data."""
    handles, labels = ax.get_legend_handles_labels()
    if fig.get_figwidth() <= NARROW:  # a phone's figure: two short labels a row at most
        columns = min(columns, 2)
    if handles:
        fig.legend(handles, labels, loc="outside upper center", ncols=min(columns, len(labels)))


def role_labels(roles: list[str], narrow: bool) -> list[str]:
    """Role names on an axis: written out when there is room, codes on a phone."""
    return [SHORT[r] if narrow else ROLE_TITLES[r] for r in roles]


def place_distribution(dist: pd.DataFrame, by: str = "strategy", narrow: bool = False) -> Figure:
    """Grouped bars: P(place = p) for each strategy, with 95 % whiskers."""
    groups = list(dict.fromkeys(dist[by]))
    places = sorted(dist["place"].unique())
    fig = new_figure(NARROW, 3.4) if narrow else new_figure(7, 3.6)
    ax = fig.add_subplot()
    width = 0.8 / len(groups)
    for k, group in enumerate(groups):
        part = dist[dist[by] == group].set_index("place").reindex(places).reset_index()
        x = np.arange(len(places)) + (k - (len(groups) - 1) / 2) * width
        shade = colour(str(group)) if by == "strategy" else None
        ax.bar(x, part["estimate"], width, yerr=whiskers(part), capsize=2, label=str(group),
               color=shade)  # fmt: skip
    ax.set_xticks(np.arange(len(places)), [str(p) for p in places])
    ax.set_xlabel("place (1 = President, first out)")
    ax.set_ylabel("share of rounds")
    ax.grid(axis="x", visible=False)
    legend_above(fig, ax, 2 if narrow else 4)
    return fig


def rates(
    by_strategy: pd.DataFrame,
    by_seat: pd.DataFrame,
    seat_names: dict[int, str],
    narrow: bool = False,
) -> Figure:
    """President and Scum rates per strategy and per seat: one row per strategy (seat),
    both rates on that row, so each mark plainly belongs to its row's label."""
    rows = len(set(by_strategy["strategy"])) + len(set(by_seat["seat"]))
    fig = new_figure(NARROW, 1.6 + 0.42 * rows) if narrow else new_figure(8, 1.4 + 0.3 * rows)
    axes = panels(fig, 2, narrow)
    for ax, (frame, by) in zip(axes, ((by_strategy, "strategy"), (by_seat, "seat")), strict=True):
        keys = list(dict.fromkeys(frame[by]))
        y = np.arange(len(keys))[::-1]
        for measure, marker in (("President rate", "o"), ("Scum rate", "s")):
            part = frame[frame["measure"] == measure].set_index(by).reindex(keys).reset_index()
            ax.errorbar(part["estimate"], y, xerr=whiskers(part), fmt=marker, label=measure)
        labels = keys if by == "strategy" else [seat_names[int(k)] for k in keys]
        ax.set_yticks(y, [str(v) for v in labels])
        ax.set_ylim(-0.6, len(keys) - 0.4)
        ax.set_xlabel("share of rounds")
        ax.set_title(f"by {by}")
        ax.grid(axis="y", visible=False)
    legend_above(fig, axes[0])
    return fig


def transitions(matrix: pd.DataFrame, narrow: bool = False) -> Figure:
    """One heatmap per strategy (and pooled) of P(role next round | role now)."""
    strategies = list(dict.fromkeys(matrix["strategy"]))
    roles = [r for r in ROLE_NAMES if r in set(matrix["prev_role"])]
    places = numbers.shared(zip(matrix["estimate"], matrix["lo"], matrix["hi"], strict=True))
    cell = DIGIT_INCH * (places + 2) + 0.08  # wide enough for the numbers at 10 pt
    fits = int((WIDE - 1.0) // (cell * len(roles) + 1.0))  # panels a row holds
    cols = 1 if narrow else max(1, min(3, len(strategies), fits))
    rows = -(-len(strategies) // cols)
    # inches per panel: the cells and the axis labels, all panels within the page's width
    size = NARROW - 0.3 if narrow else min(cell * len(roles) + 1.0, (WIDE - 1.0) / cols)
    fig = new_figure(NARROW if narrow else size * cols + 1.0, (size + 0.3) * rows)
    axes = panels(fig, len(strategies), narrow, cols)
    image = None
    ticks = [SHORT[r] for r in roles]
    for ax, strategy in zip(axes, strategies, strict=True):
        part = matrix[matrix["strategy"] == strategy]
        grid = part.pivot(index="prev_role", columns="role", values="estimate")
        grid = grid.reindex(index=roles, columns=roles).to_numpy(float)
        image = ax.imshow(grid, vmin=0, vmax=1, cmap="viridis")
        for (i, j), value in np.ndenumerate(grid):
            if not np.isnan(value):
                color = "black" if value > 0.6 else "white"
                ax.text(j, i, numbers.fixed(value, places), ha="center", va="center",
                        fontsize=10, color=color)  # fmt: skip
        ax.set_xticks(range(len(roles)), ticks)
        ax.set_yticks(range(len(roles)), ticks)
        ax.set_xlabel("role next round")
        ax.set_ylabel("role now")
        ax.set_title("all players" if strategy == POOLED else str(strategy))
        ax.grid(False)
    if image is not None and not narrow:  # a phone reads the numbers in the cells
        fig.colorbar(image, ax=axes, shrink=0.6, label="probability")
    return fig


def role_value(value: pd.DataFrame, measure: str, narrow: bool = False) -> Figure:
    """Pooled value of each role over the next h rounds (``points`` or ``mean place``)."""
    part = value[(value["strategy"] == POOLED) & (value["measure"] == measure)]
    roles = [r for r in ROLE_NAMES if r in set(part["role"])]
    fig = new_figure(NARROW, 3.4) if narrow else new_figure(6.5, 3.6)
    ax = fig.add_subplot()
    for horizon, sub in part.groupby("horizon"):
        sub = sub.set_index("role").reindex(roles).reset_index()
        ax.errorbar(
            np.arange(len(roles)),
            sub["estimate"],
            yerr=whiskers(sub),
            marker="o",
            label=f"next {horizon} round{'s' if horizon > 1 else ''}",
        )
    ax.set_xticks(np.arange(len(roles)), role_labels(roles, narrow))
    ax.set_xlabel("role now")
    if measure == "points":
        ax.set_ylabel("points per round ahead")
    else:
        ax.set_ylabel("mean place ahead (1 = best)")
        ax.invert_yaxis()  # better places up, as for points
    legend_above(fig, ax)
    return fig


def seat_effects(
    leads: pd.DataFrame, by_seat_strategy: pd.DataFrame | None, narrow: bool = False
) -> Figure:
    """President rate of the first trick's leader against the others (first round apart:
    its leader is drawn at random); under duplicate deals also each strategy's mean place
    at each seat (without them each seat keeps one strategy: the strategy table says it)."""
    count = 1 if by_seat_strategy is None else 2
    fig = new_figure(NARROW, 2.8 * count + 0.3) if narrow else new_figure(3.8 * count + 0.4, 3.2)
    axes = panels(fig, count, narrow)
    if by_seat_strategy is not None:  # first: the legend above belongs to it
        ax = axes.pop(0)
        part = by_seat_strategy[by_seat_strategy["measure"] == "mean place"]
        strategies = list(dict.fromkeys(part["strategy"]))
        for k, (strategy, sub) in enumerate(part.groupby("strategy", sort=False)):
            shift = (k - (len(strategies) - 1) / 2) * 0.12
            ax.errorbar(sub["seat"] + shift, sub["estimate"], yerr=whiskers(sub), fmt="o",
                        label=str(strategy), color=colour(str(strategy)))  # fmt: skip
        ax.set_xticks(sorted(part["seat"].unique()))
        ax.set_xlabel("seat")
        ax.set_ylabel("mean place (1 = best)")
        ax.invert_yaxis()
        ax.set_title("Each strategy at each seat")
        legend_above(fig, ax, 2 if narrow else 4)
    ax = axes[0]
    lead = leads[leads["measure"] == "President rate"].reset_index(drop=True)
    labels = [
        f"{'first round' if first else 'later rounds'},\n{'led' if led else 'did not lead'}"
        for first, led in zip(lead["first_round"], lead["led"], strict=True)
    ]
    y = np.arange(len(lead))[::-1]
    ax.barh(y, lead["estimate"], xerr=whiskers(lead), color="#4c72b0")
    ax.set_yticks(y, labels)
    ax.set_xlabel("President rate")
    ax.set_title("Leading the first trick")
    ax.grid(axis="y", visible=False)
    return fig


def game_length(histogram: pd.DataFrame, narrow: bool = False) -> Figure:
    """Histograms of tricks, plays and passes per round."""
    measures = ["tricks", "plays", "passes"]
    fig = new_figure(NARROW, 6.6) if narrow else new_figure(8.4, 2.8)
    for ax, measure in zip(panels(fig, 3, narrow), measures, strict=True):
        part = histogram[histogram["measure"] == measure].sort_values("value")
        ax.bar(part["value"], part["rounds"] / part["rounds"].sum(), width=1.0)
        ax.set_xlabel(f"{measure} per round")
        ax.set_ylabel("share of rounds")
        ax.yaxis.set_major_locator(MaxNLocator(4))
    return fig


def match_length(histogram: pd.DataFrame, narrow: bool = False) -> Figure:
    """Histogram of match lengths in rounds."""
    part = histogram.sort_values("length")
    fig = new_figure(NARROW, 2.8) if narrow else new_figure(6, 3)
    ax = fig.add_subplot()
    ax.bar(part["length"], part["matches"] / part["matches"].sum(), width=1.0)
    ax.set_xlabel("rounds per match")
    ax.set_ylabel("share of matches")
    return fig


def convergence(conv: pd.DataFrame, narrow: bool = False) -> Figure:
    """Running President rate and mean place per strategy, with 95 % bands."""
    fig = new_figure(NARROW, 5.8) if narrow else new_figure(8.4, 3.4)
    axes = panels(fig, 2, narrow)
    for ax, measure in zip(axes, ("President rate", "mean place"), strict=True):
        part = conv[conv["measure"] == measure]
        for strategy, sub in part.groupby("strategy", sort=False):
            shade = colour(str(strategy))
            ax.plot(sub["rounds"], sub["estimate"], label=str(strategy), color=shade)
            ax.fill_between(sub["rounds"], sub["lo"], sub["hi"], alpha=0.2, color=shade)
        ax.set_xscale("log")
        ax.set_xlabel("rounds simulated")
        ax.set_ylabel(measure)
    legend_above(fig, axes[0], 4)
    return fig


def duplicate_gain(gain: pd.DataFrame, narrow: bool = False) -> Figure:
    """95 % half-widths per strategy: duplicate deals (paired) against independent deals."""
    strategies = len(set(gain["strategy"]))
    height = 0.5 * strategies + 1.0
    fig = new_figure(NARROW, 2 * height + 0.8) if narrow else new_figure(8, height + 0.8)
    axes = panels(fig, 2, narrow)
    for ax, measure in zip(axes, ("mean place", "President rate"), strict=True):
        part = gain[gain["measure"] == measure].reset_index(drop=True)
        y = np.arange(len(part))[::-1]
        ax.barh(y + 0.2, part["half_independent"], 0.4, label="independent deals (estimated)")
        ax.barh(y - 0.2, part["half_paired"], 0.4, label="duplicate deals (this run)")
        ax.set_yticks(y, [str(s) for s in part["strategy"]])
        ax.set_xlabel("95 % interval half-width")
        ax.set_title(measure)
        ax.grid(axis="y", visible=False)
        ax.xaxis.set_major_locator(MaxNLocator(4))
    legend_above(fig, axes[0], 1 if narrow else 2)
    return fig
