"""``president simulate``: many matches on the kernel, a table per strategy, parquet output."""

from __future__ import annotations

import contextlib
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import NoReturn

import click

from reports.run_text import format_table
from reports.text import wrap_lines
from simulator.cli.common import (
    UserError,
    complete_folders,
    engine_option,
    max_rounds_option,
    players_option,
    quiet_option,
    refuse_job_options,
    rounds_per_match_option,
    rules_option,
    seed_option,
    strategies_option,
    workers_option,
)
from simulator.cli.hints import next_steps
from simulator.runs.arguments import simulation_job
from simulator.runs.jitstart import compile_seconds
from simulator.runs.progress import ProgressBar, on_terminal, output_width, step_line
from simulator.runs.simulate import resume, run
from simulator.runs.summary import RunResult
from strategies import registry

# parameters that define the job: --resume reads them from the run's manifest instead
JOB_PARAMS = (
    "rules_spec",
    "players",
    "strategy_list",
    "matches",
    "rounds_per_match",
    "rounds",
    "max_rounds",
    "seed",
    "out_dir",
    "duplicate",
)


@contextlib.contextmanager
def terminations_interrupt() -> Iterator[list[int]]:
    """Turn SIGTERM into KeyboardInterrupt, like SIGINT, so that a terminated run stops
    the same orderly way (the part being written is finished, clusters are closed).

    Yields a list that receives the number of the signal that arrived.
    """
    received: list[int] = []
    if threading.current_thread() is not threading.main_thread():
        yield received
        return

    def interrupt(signum: int, _frame: object) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield received
    finally:
        signal.signal(signal.SIGTERM, previous)


def exit_interrupted(received: list[int], resume: str | None) -> NoReturn:
    """Stop in one line after Ctrl-C or SIGTERM (``received`` from
    :func:`terminations_interrupt`), naming the command that finishes the work (``resume``:
    what is kept and that command, or None when nothing was kept); exit 128 + the signal."""
    signum = received[0] if received else signal.SIGINT
    kept = f"; {resume}" if resume else ""
    click.echo(f"interrupted by {signal.Signals(signum).name}{kept}", err=True)
    sys.exit(128 + signum)


@click.command("simulate")
@rules_option
@players_option
@strategies_option
@click.option("--matches", type=int, default=None, help="Number of matches.")
@rounds_per_match_option
@click.option(
    "--rounds",
    type=int,
    default=None,
    help="Total rounds instead of --matches (default: 1,000,000).",
)
@max_rounds_option
@seed_option
@workers_option
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=True, path_type=Path),
    default=None,
    shell_complete=complete_folders,
    help="Folder for rounds.parquet and summary.json.",
)
@click.option(
    "--duplicate",
    is_flag=True,
    help="Duplicate deals: groups of n matches share their deals while the "
    "strategies turn one seat per match.",
)
@engine_option
@click.option(
    "--scheduler",
    default=None,
    metavar="tcp://HOST:PORT",
    help="With --engine dask: the scheduler of the cluster to run on.",
)
@click.option(
    "--resume",
    "resume_dir",
    type=click.Path(path_type=Path),
    default=None,
    shell_complete=complete_folders,
    help="Finish the interrupted run in this folder (its job comes from its manifest).",
)
@quiet_option
@click.option(
    "--report",
    "with_report",
    is_flag=True,
    help="After the run, write DIR/report.html as `president report DIR` does (needs --out).",
)
def simulate_command(
    rules_spec: str,
    players: int | None,
    strategy_list: str | None,
    matches: int | None,
    rounds_per_match: int | None,
    rounds: int | None,
    max_rounds: int,
    seed: int,
    workers: int,
    out_dir: Path | None,
    duplicate: bool,
    engine: str,
    quiet: bool,
    with_report: bool,
    scheduler: str | None,
    resume_dir: Path | None,
) -> None:
    """Play many matches between strategies on the numba kernel.

    Prints, per strategy: seat-rounds, the share of each place, the mean place, the
    luck-adjusted mean place and the President rate, with 95% intervals clustered by
    match (by duplicate group with --duplicate). With --out, writes
    DIR/rounds.parquet (parts) and DIR/summary.json. The same seed and arguments give
    the same data whatever the number of workers and the engine. A run stopped by
    Ctrl-C, SIGTERM or a crash keeps its finished parts; --resume DIR finishes it.
    """
    if resume_dir is not None:
        refuse_job_options(
            "simulate",
            resume_dir,
            JOB_PARAMS,
            "--workers, --engine, --scheduler, --quiet, --report",
        )
        out_dir = resume_dir
    if with_report and out_dir is None:
        raise UserError(
            "--report needs --out DIR (the report is written to DIR/report.html): e.g. "
            "president simulate --out runs/mine --report"
        )
    if resume_dir is None:  # a mistake in the job is refused before anything is played
        config = simulation_job(rules_spec, players, strategy_list, matches, rounds,
                                rounds_per_match, max_rounds, seed, duplicate)  # fmt: skip
    bar = ProgressBar(enabled=not quiet and on_terminal())
    started = time.perf_counter()
    compiled_before = compile_seconds()
    was_complete = False
    with terminations_interrupt() as received:
        try:
            if resume_dir is not None:
                folder, result = resume(resume_dir, workers, bar, engine, scheduler)
                config, was_complete = folder.config, folder.was_complete
                for note in folder.dropped:
                    click.echo(f"note: {note} are computed again", err=True)
            else:
                result = run(config, out_dir, workers, bar, engine, scheduler)
        except registry.StrategyError as exc:  # a user strategy's fault: its parts are kept
            kept = f"; the finished parts are kept: president simulate --resume {out_dir}"
            raise UserError(f"{exc}{kept if out_dir else ''}") from None
        except KeyboardInterrupt:
            bar.close()
            kept = f"the finished parts are kept: president simulate --resume {out_dir}"
            exit_interrupted(received, kept if out_dir else None)
        finally:
            bar.close()
    width = output_width()
    click.echo(format_table(result, config.rules.players, config.duplicate, width))
    elapsed = time.perf_counter() - started
    if was_complete:
        done = (
            f"{result.rounds:,} rounds in {result.matches:,} matches: the run in {out_dir} was "
            "already complete: nothing left to compute"
        )
    else:
        resumed = result.rounds - result.computed_rounds
        speed = speed_text(result, compile_seconds() - compiled_before)
        done = (
            f"{result.rounds:,} rounds in {result.matches:,} matches, {elapsed:.1f} s ({speed}"
            + (f"; {resumed:,} rounds were resumed from disk" if resumed else "")
            + ")"
            + (f"; data in {out_dir}" if out_dir else "")
        )
    report = None
    if with_report and out_dir:
        from reports.run_report import write_run_report  # matplotlib: only for --report

        with step_line(not quiet) as status:
            report = write_run_report(out_dir, status)
    closing = [
        done,
        *([f"report: {report}"] if report else []),
        *next_steps(click.get_current_context(), out_dir, report),
    ]
    for line in wrap_lines(closing, width):
        click.echo(line)


def speed_text(result: RunResult, compiled: float) -> str:
    """The closing line's parenthesis: the speed of the computation, and on a first run
    how much of the time the kernel's compile took (seconds the speed does not count)."""
    if not result.computed_rounds or result.seconds <= 0:
        return "nothing left to compute"
    speed = f"{result.computed_rounds / result.seconds:,.0f} rounds/s"
    if compiled <= 0:
        return f"{speed} computed"
    return f"{compiled:.1f} s compiling the kernel, once; {result.seconds:.1f} s playing: {speed}"
