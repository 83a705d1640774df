"""``president compare``: the same strategies and deals under several rule sets, side by side."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

import click

from reports.compare import compare_runs
from reports.compare_page import terminal_table, write_page
from reports.data import ReportError
from simulator.cli.common import (
    UserError,
    players_option,
    resolve_rules,
    rounds_per_match_option,
    seed_option,
    strategies_option,
)
from simulator.cli.simulate import ProgressBar
from simulator.runs.job import (
    SimConfig,
    SimulationError,
)
from simulator.runs.simulate import run
from simulator.runs.variants import variant_configs, variant_names

RUNS_DIR = "runs"


@click.command("compare")
@click.option(
    "--rules",
    "rules_specs",
    multiple=True,
    required=True,
    help="A preset name or a TOML rules file; give it once per variant (at least twice). "
    "The first is the baseline of the differences.",
)
@players_option
@strategies_option
@click.option("--matches", type=int, default=None, help="Matches per variant.")
@click.option(
    "--rounds",
    type=int,
    default=None,
    help="Rounds instead of --matches: matches = rounds / rounds-per-match, the same in "
    "every variant (default: 1,000,000 rounds).",
)
@rounds_per_match_option
@seed_option
@click.option("--workers", type=int, default=1, show_default=True, help="Threads to use.")
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder for compare.html, compare.json, figures/ and each variant's run in "
    "runs/NAME/ (without it: the table only).",
)
@click.option("--quiet", is_flag=True, help="No progress on standard error.")
def compare_command(
    rules_specs: tuple[str, ...],
    players: int | None,
    strategy_list: str | None,
    matches: int | None,
    rounds: int | None,
    rounds_per_match: int | None,
    seed: int,
    workers: int,
    out_dir: Path | None,
    quiet: bool,
) -> None:
    """Play the same strategies under several rule sets with the same deals, and compare.

    Every variant plays the same matches with the same seed, so match m starts from the
    same shuffle in every variant (common random numbers). Prints, per variant and as
    differences to the first, paired by match, with 95 % intervals: role persistence
    (P(President → President), tenure), inequality (how much the role decides the next
    place), game length and the strategies' mean places. With --out, also
    OUT/compare.html (self-contained) with figures.
    """
    specs = list(rules_specs)
    seat_names = [s.strip() for s in strategy_list.split(",")] if strategy_list else None
    try:
        configs = variant_configs(
            [(spec, resolve_rules(spec)) for spec in specs],
            players,
            seat_names,
            seed,
            matches,
            rounds,
            rounds_per_match,
        )
    except SimulationError as exc:
        raise UserError(str(exc)) from None
    if workers < 1:
        raise UserError(f"--workers must be at least 1, not {workers}")
    names = variant_names(specs)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="president-compare-") as scratch:
        root = out_dir if out_dir is not None else Path(scratch)
        paths = [root / RUNS_DIR / name for name in names]
        for name, config, path in zip(names, configs, paths, strict=True):
            _play(name, config, path, workers, quiet)
        try:
            comparison = compare_runs(paths, names)
        except ReportError as exc:
            raise UserError(str(exc)) from None
        click.echo(terminal_table(comparison))
        page = write_page(comparison, out_dir) if out_dir is not None else None
    elapsed = time.perf_counter() - started
    rounds_played = sum(s["rounds_played"] for s in comparison.summaries)
    click.echo(
        f"{len(names)} variants, {configs[0].matches:,} matches each, {rounds_played:,} rounds "
        f"in {elapsed:.1f} s" + (f"; page: {page}" if page else "")
    )


def _play(name: str, config: SimConfig, path: Path, workers: int, quiet: bool) -> None:
    """One variant's run into ``path``, with a progress line on a terminal."""
    if not quiet:
        click.echo(f"variant {name} …", err=True)
    bar = ProgressBar(enabled=not quiet and sys.stderr.isatty())
    try:
        run(config, path, workers=workers, progress=bar)
    except SimulationError as exc:
        raise UserError(f"variant {name}: {exc}") from None
    finally:
        bar.close()
