"""What the CLI commands share: the command line's own user error, option decorators and completions.

Shell completion (``eval "$(_PRESIDENT_COMPLETE=bash_source president)"``, see
docs/cli.md) asks click for candidates; the options below name theirs: presets and rules
files for ``--rules``, registered strategies for ``--strategies`` and ``--bots``
(after the last comma of a list), folders for ``--out``.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import click
from click.core import ParameterSource
from click.shell_completion import CompletionItem

from reports.text import wrap_lines
from simulator.errors import PresidentError
from simulator.reference.match import MAX_ROUNDS
from simulator.rules.presets import PRESET_NAMES
from simulator.runs.job import DEFAULT_ROUNDS_PER_MATCH
from simulator.runs.progress import output_width
from strategies import registry


def say(line: str) -> None:
    """A line of a command's outcome (the :data:`~simulator.runs.progress.Say` the
    command line passes), wrapped to the terminal's width."""
    for part in wrap_lines([line], output_width()):
        click.echo(part)


class UserError(PresidentError):
    """A mistake the command line itself finds in its options (one option against
    another, a value out of range): one line, exit code 2, like every PresidentError."""


def refuse_job_options(
    command: str, resume_dir: Path, job_params: Iterable[str], allowed: str
) -> None:
    """``--resume`` takes the job from the folder's manifest, so an option that defines
    the job, typed on the command line, is refused (a default is not): the message names
    them and the command that finishes the run."""
    ctx = click.get_current_context()
    job = set(job_params)
    given = [
        param.opts[0]
        for param in ctx.command.params
        if param.name in job and ctx.get_parameter_source(param.name) is ParameterSource.COMMANDLINE
    ]
    if given:
        what = "compare" if command == "compare" else "job"
        raise UserError(
            f"--resume takes the {what} from {resume_dir}/manifest.json (allowed with it: "
            f"{allowed}; drop {', '.join(given)}): president {command} --resume {resume_dir}"
        )


def complete_rules(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Presets starting with what was typed, and files (the shell completes the path)."""
    presets = [CompletionItem(name) for name in PRESET_NAMES if name.startswith(incomplete)]
    return [CompletionItem(incomplete, type="file"), *presets]


def complete_strategies(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Registered strategy names for the item after the last comma of a list."""
    head, comma, last = incomplete.rpartition(",")
    prefix = head + comma
    return [CompletionItem(prefix + name) for name in registry.names() if name.startswith(last)]


def complete_folders(
    ctx: click.Context, param: click.Parameter, incomplete: str
) -> list[CompletionItem]:
    """Folders: the shell completes the path (a run folder need not exist yet)."""
    return [CompletionItem(incomplete, type="dir")]


def rules_option(func):  # type: ignore[no-untyped-def]
    """``--rules NAME|FILE``: a preset name or a TOML rules file (default ``french``)."""
    return click.option("--rules", "rules_spec", default="french", show_default=True,
                        metavar="NAME|FILE", shell_complete=complete_rules,
                        help="A preset name or a TOML rules file (docs/rules.md).")(func)  # fmt: skip


def _positive_workers(ctx: click.Context, param: click.Parameter, value: int) -> int:
    if value < 1:
        raise UserError(f"--workers must be at least 1, not {value}")
    return value


def workers_option(func):  # type: ignore[no-untyped-def]
    """``--workers W``: threads for the kernel, by default every core of the machine."""
    from simulator.runs.engines import machine_cores  # the kernel loads with the command only

    return click.option("--workers", type=int, default=machine_cores,
                        callback=_positive_workers,
                        show_default=f"the machine's cores, {machine_cores()}",
                        help="Threads for the kernel (simulate --engine dask: workers "
                        "of the local cluster).")(func)  # fmt: skip


def quiet_option(func):  # type: ignore[no-untyped-def]
    """``--quiet``: no progress on standard error (there is none off a terminal anyway)."""
    return click.option("--quiet", is_flag=True, help="No progress on standard error (none "
                        "is shown when it is not a terminal either).")(func)  # fmt: skip


def seed_option(func):  # type: ignore[no-untyped-def]
    """``--seed S``: the run's seed (integer)."""
    return click.option(
        "--seed", type=int, default=0, show_default=True, help="Seed of the random streams."
    )(func)


def players_option(func):  # type: ignore[no-untyped-def]
    """``--players N``: the number of players, overriding the rules'."""
    return click.option("--players", type=int, default=None,
                        help="Number of players, 3 to 8 (default: the rules').")(func)  # fmt: skip


def strategies_option(func):  # type: ignore[no-untyped-def]
    """``--strategies a,b,…``: one strategy for all seats or one per seat."""
    return click.option("--strategies", "strategy_list", default=None,
                        shell_complete=complete_strategies,
                        help="Strategies, one for all seats or one per seat, comma-separated "
                             "(default: heuristics, then lowest and random on the last two "
                             "seats).")(func)  # fmt: skip


def rounds_per_match_option(func):  # type: ignore[no-untyped-def]
    """``--rounds-per-match K``: the length of a match when the rules have no target."""
    return click.option("--rounds-per-match", type=int, default=None,
                        help=f"Rounds per match when the rules have no target (default "
                        f"{DEFAULT_ROUNDS_PER_MATCH}); under a target a match lasts until it "
                        "is won.")(func)  # fmt: skip


def max_rounds_option(func):  # type: ignore[no-untyped-def]
    """``--max-rounds N``: where a match under a points target is cut."""
    return click.option("--max-rounds", type=int, default=MAX_ROUNDS, show_default=True,
                        help="Longest match under a points target.")(func)  # fmt: skip


def engine_option(func):  # type: ignore[no-untyped-def]
    """``--engine numba|python|dask``: what plays the matches (simulate, compare, tournament)."""
    from simulator.runs.engines import engine_names  # the kernel loads with the command only

    return click.option("--engine", type=click.Choice(engine_names()), default="numba",
                        show_default=True,
                        help="numba: the kernel; python: the reference engine (slow, same "
                        "results; plays plain-Python strategies); dask: the kernel on a Dask "
                        "cluster (simulate --scheduler, or a local cluster of --workers "
                        "threads; not tournament).")(func)  # fmt: skip
