"""The ``president`` command line: thin commands over the library.

Each command parses its arguments, calls one library function and formats the result.
Every error a user can cause ends as one line on standard error and exit code 2.
"""

from __future__ import annotations

import importlib
import sys

import click

from simulator import __version__
from simulator.cli.common import UserError

# name -> "module:attribute"; a command's module (and its heavy imports: pandas,
# matplotlib, scipy, the kernel) loads only when that command runs, so that
# ``president replay`` or a small ``president simulate`` starts fast.
COMMANDS = {
    "compare": "simulator.cli.compare:compare_command",
    "play": "simulator.cli.play:play_command",
    "replay": "simulator.cli.replay:replay_command",
    "report": "simulator.cli.report:report_command",
    "rules": "simulator.cli.rules:rules_group",
    "simulate": "simulator.cli.simulate:simulate_command",
    "strategies": "simulator.cli.strategies:strategies_command",
    "tournament": "simulator.cli.tournament:tournament_command",
}


class LazyGroup(click.Group):
    """A click group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in COMMANDS:
            return None
        module, attribute = COMMANDS[cmd_name].split(":")
        return getattr(importlib.import_module(module), attribute)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="president")
def cli() -> None:
    """president-sim: a Monte-Carlo laboratory for the card game Président."""


def main(argv: list[str] | None = None) -> None:
    """Entry point: run the CLI, turning every user error into one line and exit code 2."""
    try:
        cli.main(args=argv, prog_name="president", standalone_mode=False)
    except UserError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        click.echo(f"error: {exc.format_message()}", err=True)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(0)
