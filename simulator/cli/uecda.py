"""``president uecda serve|play``: the UECda protocol's server on our engine, and our
strategies as its clients (docs/uecda.md)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import click

from simulator.cli.common import complete_folders, complete_strategies, seed_option
from simulator.rules.presets import preset
from simulator.uecda import protocol as P

PRESET = "uecda"
PORTS = click.IntRange(0, 65535)
quiet_option = click.option("--quiet", is_flag=True, help="No log on standard error.")


def _log(quiet: bool):  # type: ignore[no-untyped-def]
    def log(line: str) -> None:
        if not quiet:
            click.echo(line, err=True)

    return log


@click.group("uecda")
def uecda_group() -> None:
    """Play the UECda protocol: a server on our engine, our strategies as clients."""


@uecda_group.command("serve")
@click.option("--games", type=click.IntRange(min=1), required=True, metavar="N",
              help="Games to play.")  # fmt: skip
@click.option("--port", type=PORTS, default=P.PORT, show_default=True, metavar="P",
              help="TCP port to listen on (0: any free port, told on standard error).")  # fmt: skip
@click.option("--host", default="0.0.0.0", show_default=True, metavar="ADDRESS",
              help="Address to listen on.")  # fmt: skip
@click.option("--out", "out", type=click.Path(file_okay=False), default=None, metavar="DIR",
              shell_complete=complete_folders, help="Write the run folder here.")  # fmt: skip
@seed_option
@click.option("--tries", type=click.IntRange(min=1), default=1, show_default=True, metavar="K",
              help="Tries a player has for a legal play before it is played as a pass.")  # fmt: skip
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=60.0,
              metavar="SECONDS",
              show_default=True, help="Seconds a client may stay silent.")  # fmt: skip
@quiet_option
def serve_command(
    games: int, port: int, host: str, out: str | None, seed: int, tries: int, timeout: float,
    quiet: bool,
) -> None:  # fmt: skip
    """Serve a UECda tournament of GAMES games to five clients on the uecda rules.

    The clients (ours: president uecda play; any program of the UECda protocol, version
    20070) join in any order; the run folder of --out is the one president simulate
    writes (president report DIR reads it). A client that leaves or stays silent ends
    the tournament: the finished games are kept, and the exit code is 1.
    """
    from simulator.uecda.server import ServeOptions, serve

    options = ServeOptions(preset(PRESET), games, port, host,
                           Path(out) if out else None, seed, tries, timeout)  # fmt: skip
    outcome = asyncio.run(serve(options, _log(quiet)))
    if outcome.stopped:
        click.echo(f"stopped after {outcome.games} games: {outcome.stopped}", err=True)
        sys.exit(1)


@uecda_group.command("play")
@click.option("--strategy", required=True, shell_complete=complete_strategies, metavar="NAME",
              help="The strategy to play (president strategies).")  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True, metavar="ADDRESS",
              help="The server's address.")  # fmt: skip
@click.option("--port", type=PORTS, default=P.PORT, show_default=True, metavar="P",
              help="The server's port.")  # fmt: skip
@click.option("--count", type=click.IntRange(1, 5), default=1, show_default=True, metavar="N",
              help="Clients to start, each a player.")  # fmt: skip
@click.option(
    "--name",
    default="",
    metavar="NAME",
    help="The name sent to the server (default: the strategy's).",
)
@seed_option
@quiet_option
def play_command(
    strategy: str, host: str, port: int, count: int, name: str, seed: int, quiet: bool
) -> None:
    """Play STRATEGY as a UECda client on the server at HOST:PORT until it ends the
    tournament.

    The server's rules are taken as the uecda preset. A server that goes away ends the
    clients with one line and exit code 2.
    """
    from simulator.uecda.client import ClientOptions, client_strategy, play

    rules = preset(PRESET)
    client_strategy(strategy, rules)  # one that cannot be a client: refused before connecting
    options = ClientOptions(strategy, rules, host, port, count, seed, name)
    asyncio.run(play(options, _log(quiet)))
