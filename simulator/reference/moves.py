"""What one round of the reference engine exchanges with the world: moves and events.

Moves are ``(rank, count)`` pairs: ranks 0..13 (3 … 2, joker), count 1..4, and the
pass ``(PASS_RANK, 0)``; events are the lines of a replay (docs/formats.md §2). Kept
apart from :mod:`simulator.reference.round` (which re-exports them, and holds the
:class:`~simulator.reference.round.Observation` whose fields name its rules) so that the
engine's file stays the rule book in code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from simulator.rules.cards import RANK_NAMES, SUITS, card_name, card_names, combo_name, run_name

PASS_RANK = -1


class Move(NamedTuple):
    """A play of ``count`` cards of ``rank``, or the pass (``count == 0``)."""

    rank: int
    count: int

    @property
    def is_pass(self) -> bool:
        return self.count == 0

    def __str__(self) -> str:
        return "pass" if self.is_pass else " ".join(card_names(self.rank, self.count))


PASS = Move(PASS_RANK, 0)


class Run(NamedTuple):
    """A sequence (under ``sequences``): ``length`` cards of consecutive ranks from ``low``
    (the lowest rank index) of one ``suit`` (0..3: clubs, diamonds, hearts, spades); its
    cards are its player's own, a joker for each he lacks (docs/rules.md, "sequences").

    ``rank`` and ``count`` are its lowest rank and its length, so a strategy that reads a
    move as a rank and a count still runs (it sees a sequence as its lowest rank)."""

    low: int
    length: int
    suit: int

    @property
    def rank(self) -> int:
        return self.low

    @property
    def count(self) -> int:
        return self.length

    @property
    def high(self) -> int:
        """Its highest rank index."""
        return self.low + self.length - 1

    @property
    def is_pass(self) -> bool:
        return False

    def __str__(self) -> str:
        return " ".join(
            f"{RANK_NAMES[r]}{SUITS[self.suit]}" for r in range(self.low, self.high + 1)
        )


class Named(NamedTuple):
    """A play that names its cards, under the rules that read suits: ``cards`` are the
    card ids of its ``move`` but the jokers (:func:`simulator.rules.cards.named_ids`).
    The person at ``president play`` answers with one to choose his suits; a plain
    :class:`Move` lays the rules' default cards."""

    move: Move | Run
    cards: tuple[int, ...]


class IllegalMove(ValueError):
    """A move the rules forbid; the message names the rule it breaks."""


@dataclass(frozen=True)
class Event:
    """One line of a replay: ``play``, ``give`` (seven_passes: ``cards`` to seat ``to``),
    ``discard`` (ten_discards), ``pass``, ``skip``, ``trick_end``, ``out``, ``falls``
    (capital_falls: the President finishes last), ``round_end``. ``cards`` are ranks, or
    card ids when ``ids`` is set (rules that read suits: a play's cards too), which a
    replay writes with their suits; a sequence's in rank order, each joker in its place."""

    kind: str
    seat: int = -1
    rank: int = -1
    count: int = 0
    place: int = 0
    next_leader: int = -1
    places: tuple[int, ...] = ()
    to: int = -1
    cards: tuple[int, ...] = ()
    rule: str = ""  # the key of the rule that made a give or a discard
    ids: bool = False
    run: bool = False  # a sequence: ``rank`` its lowest rank, ``count`` its length

    def card_names(self) -> list[str]:
        """The names of the event's cards: ranks, or with their suits (``ids``)."""
        if self.kind == "play" and not self.ids:
            return card_names(self.rank, self.count)
        return [card_name(c) if self.ids else RANK_NAMES[c] for c in self.cards]

    def to_json(self) -> dict[str, Any]:
        """The event as a replay writes it (docs/formats.md §2)."""
        if self.kind == "play":
            return {"event": "play", "seat": self.seat, "cards": self.card_names()}
        if self.kind in ("give", "discard"):
            to = {"to": self.to} if self.kind == "give" else {}
            return {"event": self.kind, "seat": self.seat, **to, "cards": self.card_names()}
        if self.kind in ("pass", "skip"):
            return {"event": self.kind, "seat": self.seat}
        if self.kind == "trick_end":
            return {"event": "trick_end", "next_leader": self.next_leader}
        if self.kind in ("out", "falls"):
            return {"event": self.kind, "seat": self.seat, "place": self.place}
        return {"event": "round_end", "places": list(self.places)}


@dataclass(frozen=True)
class Top:
    """The combination to beat: its rank (for transparent threes, the rank they took);
    a sequence (``run``): its lowest rank, and its length as the count."""

    rank: int
    count: int
    owner: int
    run: bool = False

    @property
    def name(self) -> str:
        """In words: ``pair of 7s``, ``sequence 4 5 6``."""
        return run_name(self.rank, self.count) if self.run else combo_name(self.rank, self.count)
