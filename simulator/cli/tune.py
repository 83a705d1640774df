"""``president tune STRATEGY``: a strategy's numeric parameters, tuned by CMA-ES for a rule set."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path

import click

from reports import text
from simulator import notices
from simulator.cli import common
from simulator.cli.engines import KERNEL_ENGINES, engine_context
from simulator.cli.progress import StepProgress, on_terminal
from simulator.cli.simulate import exit_interrupted, terminations_interrupt
from simulator.runs.arguments import TUNE_SIZES, tune_job
from simulator.runs.tune import (
    MEAN,
    Space,
    evaluate_locally,
    tuned_spec,
)
from simulator.runs.tune_folder import TuneFolder
from simulator.runs.tune_search import TuneState, dask_evaluator, run_tune
from strategies.tuned import tuned_text

# parameters that define the tune: --resume reads them from DIR/manifest.json instead
JOB_PARAMS = ("strategy", "rules_spec", "players", "field", "generations", "population",
              "rounds_per_candidate", "held_out_rounds", "rounds_per_match", "max_rounds",
              "seed", "out_dir")  # fmt: skip


def _evaluator(engine: str, workers: int) -> contextlib.AbstractContextManager:
    """How a generation's candidates are played: here, or on a local Dask cluster."""
    return engine_context(engine, workers, evaluate_locally, dask_evaluator)


def search_generations(folder: TuneFolder, engine: str, workers: int, quiet: bool) -> TuneState:
    """The generations not yet in ``folder``, the generation under way shown on a terminal."""
    status = StepProgress(enabled=not quiet and on_terminal())
    total = folder.config.generations
    done = len(folder.state.generations) if folder.state else 0
    status.step(done, total, f"generation {done + 1}/{total}")

    def progress(done: int, total: int, best: float, mean: float) -> None:
        what = f"generation {min(done + 1, total)}/{total}"
        status.step(done, total, what, f"best {best:.3f}  mean {mean:.3f}")

    try:
        with notices.listening(status.notice), _evaluator(engine, workers) as evaluate:
            return run_tune(folder.rules, folder.config, folder.state, folder, evaluate, progress)
    finally:
        status.close()


def _say(line: str) -> None:
    """A line of the result, wrapped to the terminal's width."""
    for part in text.wrap_lines([line], common.output_width()):
        click.echo(part)


def finish_tune(folder: TuneFolder, state: TuneState, say: Callable[[str], None] = _say) -> Path:
    """Write tuned.toml and tune.html, mark the tune complete, ``say`` what was found;
    returns the page."""
    from reports.tune_page import write_tune_page

    config, out = folder.config, folder.path
    space = Space(tuned_spec(config.strategy))
    values = state.tuned
    assert values is not None and state.held_out is not None
    tuning = {"generations": config.generations, "population": state.population,
              "rounds_per_candidate": config.rounds_per_candidate,
              "held_out_rounds": config.held_out_rounds, "seed": config.seed,
              "held_out_seed": state.held_out.seed, "field": list(config.field),
              "players": folder.rules.players}  # fmt: skip
    try:
        folder.write("tuned.toml", tuned_text(space.spec, values, folder.rules, tuning))
        page = write_tune_page(out, folder.rules, config, state)
        folder.finish()
    except OSError as exc:
        raise common.UserError(
            f"cannot write to {out}: {exc.strerror or exc} (the generations are kept: free "
            f"the problem, then president tune --resume {out})"
        ) from None
    for p, v in zip(space.spec.params, values, strict=True):
        if p.bounds is not None:
            say(f"  {p.name} = {v:.4g}  (default {p.default:g})")
    check = state.held_out
    diff, lo, hi = check.diff
    say(
        f"held-out check ({check.groups} deal groups never used while tuning): mean place "
        f"tuned {check.tuned[0]:.3f}, default {check.default[0]:.3f}; tuned − default "
        f"{diff:+.3f} [{lo:+.3f}, {hi:+.3f}] (95 %; negative: the tuned places better)"
    )
    say(f"saved to {out}/tuned.toml (use: --strategies {out}/tuned.toml); report: {page}")
    return page


@click.command("tune")
@click.argument("strategy", required=False, shell_complete=common.complete_strategies)
@common.rules_option
@common.players_option
@click.option("--field", default=None, shell_complete=common.complete_strategies,
              help=f"The other seats' strategies, one for all or one per seat, comma-"
              f"separated; {MEAN}: the tuned strategy at the generation's CMA mean (default: "
              "the strongest heuristics and mean seats in turn).")  # fmt: skip
@click.option("--generations", type=int, default=TUNE_SIZES["generations"], show_default=True,
              help="Generations of CMA-ES.")  # fmt: skip
@click.option("--population", type=int, default=TUNE_SIZES["population"],
              help="Candidates per generation (default: CMA-ES's own, 4 + 3 ln(parameters)).")  # fmt: skip
@click.option("--rounds-per-candidate", type=int, default=TUNE_SIZES["rounds_per_candidate"],
              show_default=True,
              help="Rounds each candidate plays (whole duplicate groups, the generation's "
              "deals).")  # fmt: skip
@click.option("--held-out-rounds", type=int, default=TUNE_SIZES["held_out_rounds"],
              show_default=True,
              help="Rounds of the held-out check, tuned against default on fresh seeds.")  # fmt: skip
@common.rounds_per_match_option
@common.max_rounds_option
@common.seed_option
@common.workers_option
@click.option("--engine", type=click.Choice(KERNEL_ENGINES), default="numba", show_default=True,
              help="numba: the kernel, candidates one after another; dask: the candidates "
              "side by side on a local Dask cluster of --workers (the same result).")  # fmt: skip
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              shell_complete=common.complete_folders,
              help="Folder for tuned.toml, tune.html and the state kept after each "
              "generation (absent or empty).")  # fmt: skip
@click.option("--resume", "resume_dir", type=click.Path(file_okay=False, path_type=Path),
              default=None, shell_complete=common.complete_folders,
              help="Go on with the tune in this folder from its last generation (its "
              "settings come from its manifest).")  # fmt: skip
@common.quiet_option
def tune_command(
    strategy: str | None,
    rules_spec: str,
    players: int | None,
    field: str | None,
    generations: int,
    population: int,
    rounds_per_candidate: int,
    held_out_rounds: int,
    rounds_per_match: int | None,
    max_rounds: int,
    seed: int,
    workers: int,
    engine: str,
    out_dir: Path | None,
    resume_dir: Path | None,
    quiet: bool,
) -> None:
    """Tune a strategy's numeric parameters for a rule set with CMA-ES.

    Every candidate of a generation plays the same duplicate deals against the same
    field; its fitness is its mean place. The tuned parameters (the final CMA mean) go
    to OUT/tuned.toml, usable as --strategies OUT/tuned.toml; OUT/tune.html shows the
    convergence and a held-out check against the defaults on fresh seeds. The state is
    kept after each generation: --resume OUT goes on after any stop.
    """
    if resume_dir is not None:
        common.refuse_job_options("tune", resume_dir, JOB_PARAMS,
                                  "--workers, --engine, --quiet")  # fmt: skip
        folder = TuneFolder.reopen(resume_dir)
    elif strategy is None or out_dir is None:
        raise common.UserError(
            "tune needs a STRATEGY and --out DIR (or --resume DIR), e.g. president tune "
            f"{strategy or 'planner'} --rules french --out runs/tune"
        )
    else:
        sizes = {"generations": generations, "population": population,
                 "rounds_per_candidate": rounds_per_candidate,
                 "held_out_rounds": held_out_rounds,
                 "rounds_per_match": rounds_per_match,
                 "max_rounds": max_rounds}  # fmt: skip
        rules, config = tune_job(strategy, rules_spec, players, field, sizes, seed)
        folder = TuneFolder.create(out_dir, rules, config)
    with terminations_interrupt() as received:
        try:
            state = search_generations(folder, engine, workers, quiet)
            finish_tune(folder, state)
        except KeyboardInterrupt:
            exit_interrupted(
                received, f"the generations played are kept: president tune --resume {folder.path}"
            )
