"""``president play``: a whole match in the terminal, the person against registry bots."""

from __future__ import annotations

import os
import sys

import click

from simulator.apps.play.hint import Hinter
from simulator.apps.play.input import Console, Palette, use_color
from simulator.apps.play.session import play_session
from simulator.cli.common import (
    UserError,
    complete_strategies,
    rules_option,
    seed_option,
)
from simulator.rules.files import load_rules
from simulator.rules.options import MAX_PLAYERS, MIN_PLAYERS, Rules
from strategies import registry
from strategies.base import Strategy
from strategies.guard import Guarded

DEFAULT_ROUNDS = 5


def table_rules(spec: str, players: int | None) -> Rules:
    """``--rules`` with ``--players`` applied, or a UserError naming the allowed range."""
    rules = load_rules(spec)
    if players is None:
        return rules
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise UserError(
            f"--players {players} is not allowed (allowed: {MIN_PLAYERS} to {MAX_PLAYERS})"
        )
    return rules.with_options(players=players)


def make_bots(spec: str, count: int, rules: Rules) -> list[Strategy]:
    """``--bots``: one registry name for every bot, or exactly one name per bot, each
    behind the one guard (a user's strategy that fails stops the match in one line),
    playing under ``rules``."""
    try:
        return [
            Guarded(name, registry.make(name, rules))
            for name in registry.per_seat(registry.split_names(spec), count, "names", "bots")
        ]
    except registry.StrategyError as exc:
        raise UserError(f"--bots: {exc}") from None


def make_hinter(rules: Rules, tips: str | None) -> Hinter:
    """The hints: champion, and the tips of ``--tips`` (a tips file of president advise;
    another strategy's file is refused in one line)."""
    if tips is not None:
        try:
            spec = registry.get(tips, rules)
        except registry.StrategyError as exc:
            raise UserError(f"--tips: {exc}") from None
        if spec.name != "advised":
            raise UserError(f"--tips: {tips} holds {spec.name}, not the tips of president advise")
    return Hinter(rules, tips)


def terminal_console() -> Console:
    """Standard input and output as a :class:`Console`.

    When standard input is not a terminal (a script, a pipe) the line read is echoed
    after its prompt, so that the output reads like the session it was.
    """
    stdin, stdout = sys.stdin, sys.stdout  # looked up now: click's test runner swaps them
    echo = not (hasattr(stdin, "isatty") and stdin.isatty())

    def read() -> str | None:
        line = stdin.readline()
        if not line:
            return None
        if echo:
            stdout.write(line if line.endswith("\n") else line + "\n")
        return line

    def write(text: str) -> None:
        stdout.write(text)
        stdout.flush()

    return Console(read, write, Palette(use_color(stdout, os.environ)))


@click.command("play")
@rules_option
@click.option(
    "--players", type=int, default=None, help="Players at the table, 3 to 8 [default: the rules']."
)
@click.option(
    "--bots",
    default="lowest",
    show_default=True,
    shell_complete=complete_strategies,
    help="Bot strategies: one registry name for all, or one per bot, comma-separated.",
)
@click.option("--seat", type=int, default=0, show_default=True, help="Your seat, 0 to players - 1.")
@click.option(
    "--rounds",
    type=int,
    default=DEFAULT_ROUNDS,
    show_default=True,
    help="Rounds in the match when the rules have no target (target = 0).",
)
@click.option("--reveal", is_flag=True, help="Show the bots' hands after each round.")
@click.option("--tips", default=None, metavar="OUT/tips.toml",
              help="A president advise run's tips: h (a hint) also says which one applies.")  # fmt: skip
@seed_option
def play_command(
    rules_spec: str,
    players: int | None,
    bots: str,
    seat: int,
    rounds: int,
    reveal: bool,
    tips: str | None,
    seed: int,
) -> None:
    """Play a match in the terminal against the bots, on the simulator's rules and engine.

    Type moves as card ranks ("7 7", "10", "JK"), p to pass, ? for the legal moves, h
    for a hint (what champion would play; with --tips, which tip applies) and q to quit
    with the score so far (end of input quits too). Colour is used on a
    terminal unless NO_COLOR is set.
    """
    rules = table_rules(rules_spec, players)
    n = rules.players
    if not 0 <= seat < n:
        raise UserError(f"--seat {seat} is out of range (allowed: 0 to {n - 1})")
    if rounds < 1:
        raise UserError(f"--rounds {rounds} is not allowed (allowed: 1 or more)")
    players = make_bots(bots, n - 1, rules)
    hinter = make_hinter(rules, tips)
    try:
        play_session(rules, players, seat, seed, rounds, terminal_console(), reveal=reveal,
                     hinter=hinter)  # fmt: skip
    except registry.StrategyError as exc:
        raise UserError(f"--bots: {exc}") from None
