"""``president atlas``: what each house rule does to skill and luck, rule set by rule set."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from reports import text
from simulator import notices
from simulator.cli import common
from simulator.cli.engines import KERNEL_ENGINES, engine_context
from simulator.cli.progress import StepProgress, on_terminal
from simulator.cli.simulate import exit_interrupted, terminations_interrupt
from simulator.runs.atlas import AtlasSettings, Play, estimate_minutes, play_locally, skill_rows
from simulator.runs.atlas_folder import PARQUET, AtlasFolder
from simulator.runs.atlas_sets import default_rule_sets, named_rule_sets

# options that define the atlas: --resume reads them from DIR/manifest.json instead
JOB_PARAMS = ("rules_specs", "base", "field", "rounds", "min_batches", "max_batches",
              "max_edge_batches", "match_batches", "seed", "out_dir")  # fmt: skip
DEFAULTS = AtlasSettings()


def _dask_play(workers: int) -> Any:
    """A local Dask cluster's way of playing a batch's tables (imported only for dask)."""
    from simulator.runs.atlas_play import dask_play

    return dask_play(workers)


def player(engine: str, workers: int) -> contextlib.AbstractContextManager[Play]:
    """How a batch's tables are played: here in threads, or on a local Dask cluster."""
    return engine_context(engine, workers, play_locally, _dask_play)


def run_folder(folder: AtlasFolder, engine: str, workers: int, quiet: bool) -> Path:
    """Play what the folder lacks, with progress per rule set; write atlas.html and
    atlas.parquet (last: it marks the atlas complete); the page's path."""
    from reports.atlas_page import write_atlas_page

    status = StepProgress(enabled=not quiet and on_terminal())

    def progress(done: int, total: int, what: str) -> None:
        status.step(done, total, f"{min(done + 1, total)}/{total} {what}")

    try:
        with notices.listening(status.notice), player(engine, workers) as play:
            frame = skill_rows(folder.rule_sets, folder.settings, progress, folder, play)
    finally:
        status.close()
    page = folder.path / "atlas.html"
    write_atlas_page(frame, page)
    folder.finish(frame)
    return page


@click.command("atlas")
@click.option("--rules", "rules_specs", multiple=True, metavar="NAME|FILE",
              shell_complete=common.complete_rules,
              help="A rule set to measure, a preset or a rules file; repeat it for more (the "
              "first is the base the others are paired with; default: the default atlas "
              "around --base).")  # fmt: skip
@click.option("--base", default="french", show_default=True,
              help="The preset of the default atlas: the presets, this preset with each "
              "option changed alone, the tables of examples/rules/, this preset at 3, 5 and 6 "
              "players.")  # fmt: skip
@click.option("--field", default=DEFAULTS.field, show_default=True,
              shell_complete=common.complete_strategies,
              help="The strategy of every seat but the tested ones (linear uses the weights "
              "tuned for the rules).")  # fmt: skip
@click.option("--rounds", type=int, default=DEFAULTS.batch_rounds, show_default=True,
              help="Rounds of each table per batch (whole duplicate groups).")  # fmt: skip
@click.option("--min-batches", type=int, default=DEFAULTS.min_batches, show_default=True,
              help="Batches every rule set plays before its precision is checked.")  # fmt: skip
@click.option("--max-batches", type=int, default=DEFAULTS.max_batches, show_default=True,
              help="The duels' cap (RS): a rule set whose duels reach it short of the "
              "precision targets has its RS rows flagged capped.")  # fmt: skip
@click.option("--max-edge-batches", type=int, default=DEFAULTS.max_edge_batches,
              show_default=True, help="The edges' cap (the pairs on duplicate deals: Δ and "
              "N95): reached short of the Δ targets, those rows are flagged capped.")  # fmt: skip
@click.option("--match-batches", type=int, default=DEFAULTS.match_batches, show_default=True,
              help="Batches of ordinary matches each rule set plays (σ of N95, the deal's "
              "share, persistence, the exchange; no precision target).")  # fmt: skip
@common.seed_option
@common.workers_option
@click.option("--engine", type=click.Choice(KERNEL_ENGINES), default="numba", show_default=True,
              help="numba: the kernel in --workers threads; dask: a batch's tables side by "
              "side on a local Dask cluster of --workers (the same numbers).")  # fmt: skip
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              shell_complete=common.complete_folders,
              help="Folder for atlas.parquet and the batches kept as they are played "
              "(absent or empty).")  # fmt: skip
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, shell_complete=common.complete_folders,
              help="Go on with the atlas in this folder (its settings come from its "
              "manifest; no batch kept there is played again).")  # fmt: skip
@common.quiet_option
def atlas_command(
    rules_specs: tuple[str, ...],
    base: str,
    field: str,
    rounds: int,
    min_batches: int,
    max_batches: int,
    max_edge_batches: int,
    match_batches: int,
    seed: int,
    workers: int,
    engine: str,
    out_dir: Path | None,
    resume_dir: Path | None,
    quiet: bool,
) -> None:
    """Measure skill and luck under each rule set: relative skill, edges, the deal's share.

    For each rule set: relative skill, the edges of two pairs and the rounds until they
    show, the deal's share before and after the exchange, persistence and the exchange's
    effect, each with its 95 % interval (docs/skill.md).
    Each rule set plays batches of duplicate deals (the same deals for every test strategy
    and every rule set) until the precision targets are met or a cap is reached;
    every batch is kept in OUT as it is played, so --resume OUT goes on after any stop.
    """
    if resume_dir is not None:
        common.refuse_job_options("atlas", resume_dir, JOB_PARAMS,
                                  "--workers, --engine, --quiet")  # fmt: skip
        folder = AtlasFolder.reopen(resume_dir)
    elif out_dir is None:
        raise common.UserError("atlas needs --out DIR (or --resume DIR), e.g. president atlas "
                               "--out runs/atlas")  # fmt: skip
    else:
        rule_sets = (named_rule_sets(list(rules_specs), base) if rules_specs
                     else default_rule_sets(base))  # fmt: skip
        settings = replace(DEFAULTS, field=field, seed=seed, batch_rounds=rounds,
                           min_batches=min_batches, max_batches=max_batches,
                           max_edge_batches=max_edge_batches,
                           match_batches=match_batches)  # fmt: skip
        settings.check()
        folder = AtlasFolder.create(out_dir, rule_sets, settings)
    low, high = estimate_minutes(folder.rule_sets, folder.settings, workers)
    took = "under a minute" if high < 1 else f"about {low:.0f} to {high:.0f} minutes"
    cores = f"{workers} worker{'s' if workers > 1 else ''}"
    for line in text.wrap_lines([f"atlas: {len(folder.rule_sets)} rule sets, {took} on {cores} "
                                 "(more on a busy machine)"], common.output_width()):  # fmt: skip
        click.echo(line, err=True)
    with terminations_interrupt() as received:
        try:
            path = run_folder(folder, engine, workers, quiet)
        except KeyboardInterrupt:
            exit_interrupted(
                received, f"the batches played are kept: president atlas --resume {folder.path}"
            )
    click.echo(f"saved to {folder.path / PARQUET}; page: {path}")
