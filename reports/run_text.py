"""The table ``president simulate`` prints, as text: one row per strategy, with what its
intervals mean. The Python API's :meth:`simulator.api.results.Simulation.text` is the same
text.
"""

from __future__ import annotations

import math
import sys

from reports.numbers import format_ci, format_column
from reports.text import PM_MEANS, Column, fitted, table, wrap
from simulator.runs.summary import RunResult


def format_table(result: RunResult, players: int, duplicate: bool, width: int) -> str:
    """The per-strategy table printed at the end of a run, and what its intervals mean,
    every line at most ``width`` columns (:mod:`reports.text`: ``[lo, hi]`` when the
    whole table fits, else ``±`` forms, in blocks when it must)."""
    rows = result.table
    names = Column("strategy", [row["strategy"] for row in rows], "<")
    shares = [Column("seat-rounds", [f"{row['rounds']:,}" for row in rows])] + [
        Column(f"P{i + 1}", [f"{row['shares'][i]:.1%}" for row in rows]) for i in range(players)
    ]
    titles = {"mean_place": "mean place", "adjusted_mean_place": "luck-adjusted",
              "president": "President rate"}  # fmt: skip

    def cells(key: str, compact: bool) -> list[str]:
        """The column to the decimals its intervals need (:mod:`reports.numbers`)."""
        ends = [[math.nan if row[k] is None else row[k] for row in rows]
                for k in (key, f"{key}_low", f"{key}_high")]  # fmt: skip
        return format_column(*ends, style="plus_minus" if compact else "brackets")

    def build(compact: bool) -> list[str]:
        estimates = [Column(title, cells(key, compact), "<") for key, title in titles.items()]
        return table(names, [shares, estimates], width if compact else sys.maxsize)

    lines, compact = fitted(build, width)
    for note in _notes(result, duplicate, compact):
        lines += wrap(note, width)
    return "\n".join(lines)


def _notes(result: RunResult, duplicate: bool, compact: bool) -> list[str]:
    """What the table's columns and intervals mean (``compact``: in ``±`` forms)."""
    est = result.estimation
    unit = "duplicate groups (their matches share deals)" if duplicate else "matches"
    slope, r2 = est["luck_slope"], est["luck_r_squared"]
    shown = PM_MEANS if compact else "[low, high]: 95 % intervals"
    return [
        f"seat-rounds: rounds times the seats the strategy held. {shown}, "
        f"the {est['clusters']:,} clusters being batches of whole {unit}, Student's t with "
        "clusters - 1 degrees of freedom; the President rate's is a score interval (Wilson's, "
        "its sample shrunk by the clusters' design effect, t with fewer degrees of freedom when a "
        "few clusters hold its events), which stays within 0 and 1.",
        "luck-adjusted: the mean place with the luck of the dealt cards removed, place "
        f"{'-' if slope >= 0 else '+'} {abs(slope):.4f} x (dealt-hand strength - the table's "
        f"mean). The slope, {_slope_ci(est)}, is the least-squares slope of place on that "
        "difference over every seat-round of the run (with an intercept; the same with "
        "round fixed effects); its interval and those of the adjusted means are "
        "delete-one-batch jackknife intervals, the slope refitted without each batch"
        + (f"; the dealt hand explains R² = {r2:.3f} of the place variance." if r2 else ".")
        + (
            " Under duplicate deals every strategy gets every dealt hand equally often in "
            "each group, so this luck already cancels."
            if duplicate
            else ""
        ),
    ]


def _slope_ci(est: dict[str, object]) -> str:
    """The luck slope with its interval, as ``-0.00586 [-0.00590, -0.00582]``."""
    ends = [est[k] for k in ("luck_slope", "luck_slope_low", "luck_slope_high")]
    return format_ci(*(math.nan if v is None else v for v in ends))
