"""``president tune STRATEGY``: a strategy's numeric parameters, tuned by CMA-ES for a rule set."""

from __future__ import annotations

from pathlib import Path

import click

from simulator.cli import common
from simulator.cli.simulate import exit_interrupted, terminations_interrupt
from simulator.runs.arguments import TUNE_SIZES, tune_job
from simulator.runs.engines import KERNEL_ENGINES
from simulator.runs.progress import step_line
from simulator.runs.tune.folder import TuneFolder
from simulator.runs.tune.play import MEAN
from simulator.runs.tune.run import finish_tune, search_generations

# parameters that define the tune: --resume reads them from DIR/manifest.json instead
JOB_PARAMS = ("strategy", "rules_spec", "players", "field", "generations", "population",
              "rounds_per_candidate", "held_out_rounds", "rounds_per_match", "max_rounds",
              "seed", "out_dir")  # fmt: skip


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
    from reports.tune.page import write_tune_page  # matplotlib: once the tune is set

    with terminations_interrupt() as received:
        try:
            with step_line(not quiet) as status:
                state = search_generations(folder, engine, workers, status)
            finish_tune(folder, state, write_tune_page, common.say)
        except KeyboardInterrupt:
            exit_interrupted(
                received, f"the generations played are kept: president tune --resume {folder.path}"
            )
