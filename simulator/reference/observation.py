"""What a player of the reference engine may know when he must move: the
:class:`Observation` a strategy reads.

Kept apart from :mod:`simulator.reference.round` (which re-exports it) so that the
engine's file stays the rule book in code.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from simulator.reference.moves import Move, Run, Top
from simulator.reference.suits import Suits
from simulator.rules.options import Rules, order_note


@dataclass(frozen=True)
class Observation:
    """What a player may know when he must move: what a strategy reads.

    ``hand`` is the player's own 14 rank counts; ``top`` is ``None`` when he leads;
    ``passed[s]`` is true when seat s has passed (or been skipped) since the top was
    laid — under ``out_of_trick`` also when it passed earlier in the trick;
    ``cards_left`` and ``played`` (14 counts of every card played this round) are public;
    ``reversed`` is the order in force (revolutions, then jack-back on top of them) and
    ``jack_back`` whether a jack-back is in force in this trick; ``run`` the cards of the
    trick's latest run of one rank (when a run of 4 burns the pile); ``roles`` are the previous
    round's roles by seat (empty in a match's first round); ``skipped_seats`` are the seats
    the top on the table skipped, in turn (they did not pass: they were not asked), and
    ``skipped_by`` the key of the rule that made it skip. Under rules that read suits,
    ``cards`` are the player's card ids (:mod:`simulator.rules.cards`; empty otherwise),
    ``top_suits`` the suits of the top (a bit per suit, 0: none or jokers only),
    ``lock`` the suits the trick is locked to (0: none) and ``unseen`` the card ids of
    the others' hands taken together: every card that is not his and has not left the
    round, which a player who follows the cards laid knows (the search players deal
    them with their suits).
    """

    seat: int
    hand: tuple[int, ...]
    top: Top | None
    passed: tuple[bool, ...]
    cards_left: tuple[int, ...]
    played: tuple[int, ...]
    reversed: bool
    roles: tuple[str, ...]
    legal: tuple[Move | Run, ...]
    rules: Rules
    jack_back: bool = False
    run: int = 0
    skipped_seats: tuple[int, ...] = ()
    skipped_by: str = ""
    cards: tuple[int, ...] = ()
    top_suits: int = 0
    lock: int = 0
    unseen: tuple[int, ...] = ()

    @property
    def skipped(self) -> int | None:
        """The first seat the top on the table skipped (the only one but under
        ``five_skips``), ``None`` when it skipped nobody."""
        return self.skipped_seats[0] if self.skipped_seats else None

    def order_note(self) -> str:
        """The order in force in words, when it is not the plain normal order."""
        return order_note(self.reversed, self.jack_back)

    @property
    def trick_reversal(self) -> bool:
        """Whether jacks reverse the order once more until this trick ends: the state by
        its effect, as the kernel's ``S_JACK`` (the field keeps the rule's name for the
        strategies that read it)."""
        return self.jack_back


class Observed(Protocol):
    """What an observation reads of a round in progress (a
    :class:`~simulator.reference.round.Round`, which imports this module)."""

    turn: int
    hands: list[list[int]]
    top: Top | None
    answered: list[bool]
    out_of_trick: list[bool]
    cards_left: list[int]
    played: list[int]
    roles: tuple[str, ...]
    rules: Rules
    jack_back: bool
    run: int
    skipped_seats: tuple[int, ...]
    skipped_by: str
    suits: Suits | None

    @property
    def order_reversed(self) -> bool: ...

    def legal_moves(self) -> Sequence[Move | Run]: ...


def observe(rnd: Observed, seat: int) -> Observation:
    """What ``seat`` may know of round ``rnd`` now (``legal``: when it is his turn)."""
    passed = tuple(a or o for a, o in zip(rnd.answered, rnd.out_of_trick, strict=True))
    suits = rnd.suits
    return Observation(
        seat=seat,
        hand=tuple(rnd.hands[seat]),
        top=rnd.top,
        passed=passed,
        cards_left=tuple(rnd.cards_left),
        played=tuple(rnd.played),
        reversed=rnd.order_reversed,
        roles=rnd.roles,
        legal=tuple(rnd.legal_moves()) if seat == rnd.turn else (),
        rules=rnd.rules,
        jack_back=rnd.jack_back,
        run=rnd.run,
        skipped_seats=rnd.skipped_seats,
        skipped_by=rnd.skipped_by,
        cards=tuple(sorted(suits.cards[seat])) if suits else (),
        top_suits=suits.top if suits else 0,
        lock=suits.lock if suits else 0,
        unseen=tuple(sorted(set().union(*suits.cards[:seat], *suits.cards[seat + 1 :])))
        if suits
        else (),
    )
