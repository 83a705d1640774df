"""What one round of the reference engine exchanges with the world: moves, events, observations.

Moves are ``(rank, count)`` pairs: ranks 0..13 (3 … 2, joker), count 1..4, and the
pass ``(PASS_RANK, 0)``; events are the lines of a replay (docs/formats.md §2); an
:class:`Observation` is what a strategy may read when it must move. Kept apart from
:mod:`simulator.reference.round` (which re-exports them) so that the engine's file stays
the rule book in code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from simulator.rules.cards import card_names
from simulator.rules.options import Rules

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


class IllegalMove(ValueError):
    """A move the rules forbid; the message names the rule it breaks."""


@dataclass(frozen=True)
class Event:
    """One line of a replay: ``play``, ``pass``, ``skip``, ``trick_end``, ``out``, ``round_end``."""

    kind: str
    seat: int = -1
    rank: int = -1
    count: int = 0
    place: int = 0
    next_leader: int = -1
    places: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The event as a replay writes it (docs/formats.md §2)."""
        if self.kind == "play":
            return {"event": "play", "seat": self.seat, "cards": card_names(self.rank, self.count)}
        if self.kind in ("pass", "skip"):
            return {"event": self.kind, "seat": self.seat}
        if self.kind == "trick_end":
            return {"event": "trick_end", "next_leader": self.next_leader}
        if self.kind == "out":
            return {"event": "out", "seat": self.seat, "place": self.place}
        return {"event": "round_end", "places": list(self.places)}


@dataclass(frozen=True)
class Top:
    """The combination to beat: its rank (for transparent threes, the rank they took)."""

    rank: int
    count: int
    owner: int


@dataclass(frozen=True)
class Observation:
    """What a player may know when he must move: what a strategy reads.

    ``hand`` is the player's own 14 rank counts; ``top`` is ``None`` when he leads;
    ``passed[s]`` is true when seat s has passed (or been skipped) since the top was
    laid — under ``out_of_trick`` also when it passed earlier in the trick;
    ``cards_left`` and ``played`` (14 counts of every card played this round) are public;
    ``reversed`` is the order in force (revolutions, then jack-back on top of them) and
    ``jack_back`` whether a jack-back is in force in this trick; ``run`` the cards of the
    trick's latest run of one rank (accumulation_burns); ``roles`` are the previous
    round's roles by seat (empty in a match's first round).
    """

    seat: int
    hand: tuple[int, ...]
    top: Top | None
    passed: tuple[bool, ...]
    cards_left: tuple[int, ...]
    played: tuple[int, ...]
    reversed: bool
    roles: tuple[str, ...]
    legal: tuple[Move, ...]
    rules: Rules
    jack_back: bool = False
    run: int = 0
