"""The ``president`` command line: thin commands over the library.

Each command parses its arguments, calls one library function and formats the result.
Every error a user can cause ends as one line on standard error and exit code 2.
"""

from __future__ import annotations

import sys

import click

from simulator import __version__
from simulator.cli_common import UserError
from simulator.cli_compare import compare_command
from simulator.cli_play import play_command
from simulator.cli_replay import replay_command
from simulator.cli_report import report_command
from simulator.cli_rules import rules_group
from simulator.cli_simulate import simulate_command
from simulator.cli_strategies import strategies_command
from simulator.cli_tournament import tournament_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="president")
def cli() -> None:
    """president-sim: a Monte-Carlo laboratory for the card game Président."""


cli.add_command(replay_command)
cli.add_command(rules_group)
cli.add_command(report_command)
cli.add_command(play_command)
cli.add_command(simulate_command)
cli.add_command(compare_command)
cli.add_command(strategies_command)
cli.add_command(tournament_command)


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
