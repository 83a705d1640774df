"""The capital falls on the reference engine (``capital_falls``, docs/rules.md): what
happens to the President when another player takes first place. Kept apart from
:mod:`simulator.reference.round`, whose going out calls it; the kernel's twin is
``president_falls`` in :mod:`simulator.kernel.step`.
"""

from __future__ import annotations

from typing import Any

from simulator.reference.moves import Event
from simulator.rules.cards import NUM_RANKS
from simulator.rules.roles import president_seat

Round = Any  # a simulator.reference.round.Round (which imports this module: no cycle)


def president_falls(rnd: Round, first: int, events: list[Event]) -> None:
    """Seat ``first`` took the first place: a President who still holds cards takes the
    worst free place at once, and his cards leave the round (counted as played)."""
    president = president_seat(rnd.roles)
    holders = sum(1 for left in rnd.cards_left if left)
    if president in (-1, first) or not rnd.cards_left[president] or holders < 2:
        return  # (alone with cards, he takes the place left as the round ends)
    for rank, count in enumerate(rnd.hands[president]):
        rnd.played[rank] += count
    rnd.hands[president] = [0] * NUM_RANKS
    if rnd.suits:
        rnd.suits.fall(president)
    rnd.cards_left[president] = 0
    rnd.places[president] = rnd.worst_free
    events.append(Event("falls", seat=president, place=rnd.worst_free))
    rnd.worst_free -= 1
