"""``president report DIR``: read a run once, estimate everything, write DIR/report.html.

One streaming pass over ``rounds.parquet`` fills the tallies (:mod:`reports.chunk_sums`);
everything after works on those small frames: the estimates (:mod:`reports.results`), the
figures and the page (:mod:`reports.sections`). Figures are written beside the report as
PNG and SVG (``DIR/figures/``) and embedded in the HTML as PNG.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pandas as pd

from reports import figures, html, settings
from reports.chunk_sums import NEEDED_COLUMNS, Tallies, combine, declared
from reports.data import ReportError, Run, iter_chunks, open_run
from reports.figures import Drawing
from reports.results import RunResults, analyse
from reports.sections import sections
from reports.strategy.page import standing_figures

REPORT_FILE = "report.html"
FIGURES_DIR = "figures"


def collect(run: Run, progress: Callable[[int, int], None] | None = None) -> Tallies:
    """One pass over the run's rows, chunk by chunk, into the run's tallies: every tally
    :class:`~reports.chunk_sums.Tallies` declares (those of duplicate runs only when the
    run is one).

    ``progress(matches_read, matches)``, when given, is called after each chunk.
    """
    made = {
        name: spec for name, spec in declared().items() if run.duplicate or not spec.duplicate_only
    }
    parts: dict[str, list[pd.DataFrame]] = {name: [] for name in made}
    for chunk in iter_chunks(run, NEEDED_COLUMNS):
        for name, spec in made.items():
            parts[name].append(spec.of(chunk, run))
        if progress:
            progress(int(chunk["match"].iat[-1]) + 1, run.matches)
    return Tallies(**{name: combine(parts[name], spec.keys) for name, spec in made.items()})


def make_figures(
    results: RunResults, t: Tallies, run: Run, scored: bool, target: bool
) -> dict[str, tuple[Drawing, str]]:
    """Every figure of the report, by file name: how to draw it (wide or narrow) and its
    caption."""
    horizons = ", ".join(str(h) for h in sorted(results.role_value["horizon"].unique()))
    seat_names = {
        i: f"seat {i}" if run.duplicate else f"seat {i} ({s})" for i, s in enumerate(run.lineup)
    }
    out: dict[str, tuple[Drawing, str]] = {
        "place_distribution": (
            partial(figures.place_distribution, results.places_strategy),
            "Share of rounds at each place per strategy, 95 % intervals",
        ),
        "rates": (
            partial(
                figures.rates,
                _role_rates(results.rates_strategy, "strategy"),
                _role_rates(results.rates_seat, "seat"),
                seat_names,
            ),
            "President and Scum rates per strategy and per seat, 95 % intervals",
        ),
        "transitions": (
            partial(figures.transitions, results.transitions),
            "P(role next round | role now), per strategy, then all players together "
            f"({figures.ROLE_CODES})",
        ),
        "seat_effects": (
            partial(
                figures.seat_effects,
                results.leads,
                results.rates_seat_strategy if run.duplicate else None,
            ),
            "President rate of the first trick's leader and of the others (who leads, and "
            "why that decides the gap: the note under the table above)"
            + (", and each strategy's mean place at each seat" if run.duplicate else "")
            + ", 95 % intervals",
        ),
        "game_length": (
            partial(figures.game_length, t.length_histogram),
            "Tricks, plays and passes per round",
        ),
        "convergence": (
            partial(figures.convergence, results.convergence),
            "Running estimates against the number of rounds, 95 % bands",
        ),
    }
    if len(results.role_value):
        out["role_value"] = (
            partial(figures.role_value, results.role_value, "points" if scored else "mean place"),
            f"Value of each role over the next {horizons} rounds, all players, 95 % intervals",
        )
    if target:
        out["match_length"] = (partial(figures.match_length, t.match_lengths), "Rounds per match")
    if results.duplicate is not None:
        out["duplicate"] = (
            partial(figures.duplicate_gain, results.duplicate),
            "Interval half-widths with duplicate deals against independent deals",
        )
    return out


def _role_rates(frame: pd.DataFrame, by: str) -> pd.DataFrame:
    """Only the President and Scum rates, sorted by ``by`` (for the rates figure)."""
    return frame[frame["measure"].isin(["President rate", "Scum rate"])].sort_values(
        [by, "measure"], kind="stable"
    )


@dataclass(frozen=True)
class Analysis:
    """A run read once: its folder, its tallies and every estimate of its report."""

    run: Run
    tallies: Tallies
    results: RunResults


def analyse_run(path: str | Path, progress: Callable[[int, int], None] | None = None) -> Analysis:
    """Read the run in ``path`` into its tallies and estimates (``progress``: see
    :func:`collect`): what the page shows, and what :mod:`simulator.api` returns."""
    run = open_run(path)
    t = collect(run, progress)
    if int(t.places["place"].max()) != run.players:
        raise ReportError(
            f"summary.json says {run.players} players but the rows hold places up to "
            f"{int(t.places['place'].max())}"
        )
    if t.transitions.empty:
        raise ReportError(
            "every match of this run lasts one round, so no round follows another and the "
            "roles' memory cannot be measured: report a run of longer matches (president "
            "simulate --rounds-per-match 2 or more)"
        )
    return Analysis(run, t, analyse(t, run))


def write_report(path: str | Path, progress: Callable[[int, int], None] | None = None) -> Path:
    """Read the run in ``path`` and write ``path/report.html`` and ``path/figures/``
    (``progress``: see :func:`collect`)."""
    return write_page(analyse_run(path, progress))


def write_page(analysis: Analysis) -> Path:
    """Write the report of an analysed run: ``report.html`` and ``figures/`` in its folder."""
    run, t, results = analysis.run, analysis.tallies, analysis.results
    rules = run.summary["rules"]
    scored = bool((t.places["points"] != 0).any())
    target = bool(rules.get("target", 0))
    figs = make_figures(results, t, run, scored, target) | standing_figures(results.standings)
    embedded = figures.publish(figs, run.path / FIGURES_DIR)
    document = html.page(
        f"Président simulation report: {run.path.name}",
        sections(run, t, results, embedded, scored, target),
        _lead(run),
    )
    report = run.path / REPORT_FILE
    report.write_text(document, encoding="utf-8")
    return report


def _lead(run: Run) -> str:
    """The line under the title: which rules, how many players and rounds, who sat where."""
    summary = run.summary
    rounds = summary.get("rounds_played")
    size = (
        f"{rounds:,} rounds in {run.matches:,} matches"
        if isinstance(rounds, int)
        else (f"{run.matches:,} matches")
    )
    return (
        f"{settings.rule_set_name(summary['rules'])} rules, {run.players} players, {size}; "
        f"{settings.seating(run.lineup)}"
    )
