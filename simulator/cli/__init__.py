"""The ``president`` command line: thin commands over the library.

Each command parses its arguments, calls one library function and formats the result.
Every error a user can cause ends as one line on standard error and exit code 2: each
is a :class:`~simulator.errors.PresidentError`, which :func:`main` alone translates.
"""

from __future__ import annotations

import importlib
import sys

import click
from click.shell_completion import CompletionItem

from simulator import __version__
from simulator.errors import PresidentError

# name -> ("module:attribute", the command's one-line help). A command's module (and its
# heavy imports: pandas, matplotlib, scipy, the kernel) loads only when that command runs;
# ``president --help`` and the shell's completion of command names read the line here
# (tests/cli/test_cli.py checks that it is the command's own).
COMMANDS = {
    "advise": (
        "simulator.cli.advise:advise_command",
        "Tips for playing under these rules, mined from champion, each measured.",
    ),
    "atlas": (
        "simulator.cli.atlas:atlas_command",
        "Measure skill and luck under each rule set: relative skill, edges, the deal's share.",
    ),
    "compare": (
        "simulator.cli.compare:compare_command",
        "Play the same strategies under several rule sets with the same deals, and compare.",
    ),
    "play": (
        "simulator.cli.play:play_command",
        "Play a match in the terminal against the bots, on the simulator's rules and engine.",
    ),
    "replay": (
        "simulator.cli.replay:replay_command",
        "Replay one round from GAME.json and print its events as JSON Lines.",
    ),
    "report": (
        "simulator.cli.report:report_command",
        "Write DIR/report.html (self-contained) and DIR/figures/ from a simulation run.",
    ),
    "rules": ("simulator.cli.rules:rules_group", "List the presets or show resolved rules."),
    "simulate": (
        "simulator.cli.simulate:simulate_command",
        "Play many matches between strategies on the numba kernel.",
    ),
    "strategies": (
        "simulator.cli.strategies:strategies_command",
        "List every available strategy: name, what it does, its parameters.",
    ),
    "tune": (
        "simulator.cli.tune:tune_command",
        "Tune a strategy's numeric parameters for a rule set with CMA-ES.",
    ),
    "uecda": (
        "simulator.cli.uecda:uecda_group",
        "Play the UECda protocol: a server on our engine, our strategies as clients.",
    ),
    "tournament": (
        "simulator.cli.tournament:tournament_command",
        "Rank strategies fairly: seat rotation and duplicate deals, many matches.",
    ),
}


def short_help(line: str, limit: int = 45) -> str:
    """A command's one-line help cut at a word to fit ``limit`` columns, with "..."
    where it was cut (our own: click's helper for this is deprecated in click 8.5)."""
    if len(line) <= limit:
        return line
    cut = line[: max(limit - 3, 0)].rsplit(" ", 1)[0].rstrip(" ,;:")
    return cut + "..."


class LazyGroup(click.Group):
    """A click group whose commands are imported on first use; its help and the
    completion of command names list them without importing any."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name][0].split(":")
        return getattr(importlib.import_module(module), attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(map(len, COMMANDS))
        rows = [(name, short_help(COMMANDS[name][1], limit)) for name in COMMANDS]
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        names = [
            CompletionItem(name, help=short_help(line))
            for name, (_, line) in sorted(COMMANDS.items())
            if name.startswith(incomplete)
        ]
        return names + click.Command.shell_complete(self, ctx, incomplete)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="president")
def cli() -> None:
    """president-sim: a Monte-Carlo laboratory for the card game Président."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning every user error into one line and exit code 2."""
    try:
        cli.main(args=argv, prog_name="president", standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except PresidentError as exc:  # any layer's user error, UserError included: said once here
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except click.ClickException as exc:  # click's own usage errors
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(0)
