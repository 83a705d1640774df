"""Terminal play: a person at one seat of a match against registry bots.

The person is just another strategy of :func:`simulator.reference.match.play_match`:
his :meth:`Human.choose` draws the screen (:mod:`simulator.apps.play.screen`) and reads
a line (:mod:`simulator.apps.play.input`), so the match runs on the reference engine
with exactly the rules, deal streams and scoring of the simulator.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from simulator.apps.play.hint import Hinter, is_hint
from simulator.apps.play.input import (
    PROMPT,
    SUITED_PROMPT,
    Console,
    MoveError,
    QuitGame,
    give_back_help,
    is_help,
    is_quit,
    legal_lines,
    parse_give_back,
    parse_move,
    why_refused,
)
from simulator.apps.play.screen import PlayResult, Table, final_lines
from simulator.apps.play.standing import leader, rounds_text
from simulator.reference.exchange import GiveBack
from simulator.reference.match import play_match
from simulator.reference.moves import Named
from simulator.reference.rng import Stream
from simulator.reference.round import Move, Observation
from simulator.reference.suits import SUIT_WORDS
from simulator.rules.cards import format_hand
from simulator.rules.options import Rules
from simulator.rules.roles import ROLE_TITLES, role_of

if TYPE_CHECKING:
    from strategies.base import Strategy

SUITS_HELP = (  # under the rules that read suits, two lines of 80 columns at most
    "  name the suits of your cards to choose the ones you lay (7H 7S); without",
    "  suits the lowest the rules allow are laid (clubs, diamonds, hearts, spades)",
)
MATCH = 0  # an interactive match is match 0 of its seed, like the first match of a run


@dataclass
class Human:
    """The person as a strategy: each decision is a screen and a typed line."""

    table: Table
    hinter: Hinter | None = None  # h: what champion would play, which tip applies
    name: str = "human"
    reads_club_three = True  # told when the hand he gives back from holds the opening 3 of clubs

    def choose(self, obs: Observation, rng: Stream) -> Move | Named:
        """Draw the screen, then ask until the typed move is legal (``?`` lists them);
        under the rules that read suits, cards typed with their suits are the ones laid."""
        console = self.table.console
        console.say()
        for line in self.table.screen(obs):
            console.say(line)
        while True:
            text = console.ask(SUITED_PROMPT if obs.rules.suited else PROMPT)
            if is_quit(text):
                raise QuitGame("quit")
            if is_help(text):
                for line in legal_lines(obs.legal, obs.cards):
                    console.say(line)
                console.say("  (type one as shown; p = pass, h = hint, q = quit, a queen is Q)")
                for line in SUITS_HELP if obs.rules.suited else ():
                    console.say(line)
                continue
            if is_hint(text) and self.hinter is not None:
                for line in self.hinter.lines(obs):
                    console.say(line)
                continue
            try:
                move = parse_move(text, obs.rules.suited)
            except MoveError as exc:
                console.error(str(exc))
                continue
            reason = why_refused(move, obs, self.table.rnd)
            if reason is None:
                return move
            console.error(f"{reason} (type ? for the legal moves)")

    def give_back(self, hand: Sequence[int], k: int, rng: Stream, opens: bool = False) -> list[int]:
        """Ask for the ``k`` cards to give back to the partner of the exchange (``opens``:
        the hand holds the 3 that opens, of clubs or of ``opening_three``, and leads this
        round)."""
        table, console = self.table, self.table.console
        n = table.rules.players
        place = table.prev_places[table.human]
        partner = table.prev_places.index(n + 1 - place)
        role = ROLE_TITLES[role_of(place, n)]
        plural = "s" if k > 1 else ""
        console.say()
        console.say(console.palette.paint("=== Exchange ===", "bold"))
        received = format_hand(table.received(partner, k))
        console.say(f"You are {role}: {table.label(partner)} gave you their best card{plural}.")
        console.say(f"You received: {console.palette.paint(received, 'green')}")
        console.say(f"Your hand: {console.palette.paint(format_hand(hand), 'green')}")
        if opens:
            three = f"the 3 of {SUIT_WORDS[table.rules.opening_card]}"
            console.say(f"You hold {three}: you lead this round unless you give back your last 3.")
        while True:
            text = console.ask(f'Give back {k} card{plural} ("3 4", ?, q):')
            if is_quit(text):
                raise QuitGame("quit")
            if is_help(text):
                for line in give_back_help(hand, k, table.label(partner)):
                    console.say(line)
                continue
            try:
                table.given_back = parse_give_back(text, hand, k)
            except MoveError as exc:
                console.error(str(exc))
                continue
            return list(table.given_back)

    def hand_over(self, hand: Sequence[int], k: int, rng: Stream, ask: GiveBack) -> list[int]:
        """Ask for the ``k`` cards to hand over after the person's 7s (to the next player)
        or 10s (discarded face up): ``ask`` says which."""
        table, console = self.table, self.table.console
        plural = "s" if k > 1 else ""
        if ask.hands_over == "give":
            verb, whom = "Give", f" to {table.label(ask.to)}"
            console.say(f"Your 7s: give {k} card{plural} of your choice{whom}.")
        else:
            verb, whom = "Discard", ""
            console.say(f"Your 10s: discard {k} card{plural} of your choice, face up.")
        console.say(f"Your hand: {console.palette.paint(format_hand(hand), 'green')}")
        while True:
            text = console.ask(f'{verb} {k} card{plural} ("3 4", ?, q):')
            if is_quit(text):
                raise QuitGame("quit")
            if is_help(text):
                for line in give_back_help(hand, k, whom.strip() or "the discard"):
                    console.say(line)
                continue
            try:
                return parse_give_back(text, hand, k, verb.lower())
            except MoveError as exc:
                console.error(str(exc))


def play_session(
    rules: Rules,
    bots: Sequence[Strategy],
    human_seat: int,
    seed: int,
    rounds: int,
    console: Console,
    reveal: bool = False,
    hinter: Hinter | None = None,
) -> PlayResult:
    """Play one match with the person at ``human_seat`` and ``bots`` (strategies) elsewhere.

    ``bots`` holds one strategy per other seat, in seat order. ``rounds`` is the match
    length when the rules have no target; under a target the target rule ends it. The
    match is match 0 of ``seed``, so a bot-only run with the same seed deals the same
    first round. Quitting (``q``, end of input or Ctrl-C) ends it with the standing so far.
    """
    n = rules.players
    if len(bots) != n - 1:
        raise ValueError(f"{len(bots)} bots for {n - 1} seats")
    others = iter(bots)
    names = ["you" if p == human_seat else next(others).name for p in range(n)]
    table = Table(rules, names, human_seat, console, reveal)
    others = iter(bots)
    players = [Human(table, hinter) if p == human_seat else next(others) for p in range(n)]
    console.say(
        f"President: you are P{human_seat} of {n} players; "
        + (f"first to {rules.target} points." if rules.target else f"{rounds_text(rounds)}.")
    )
    quit_ = False
    try:
        record = play_match(rules, players, seed, MATCH, rounds=rounds, observer=table.observe)
        winner = record.winner if rules.target else leader(rules, table.places, table.totals)
    except (QuitGame, KeyboardInterrupt) as stop:
        if isinstance(stop, KeyboardInterrupt):
            console.say()  # the terminal echoed ^C after the prompt
        quit_ = True
        winner = leader(rules, table.places, table.totals)
    result = PlayResult(table.rounds_done, list(table.totals), winner, quit_, table.places)
    for line in final_lines(table, result):
        console.say(line)
    return result
