"""``lowest``: the deterministic reference strategy of the rule book.

It pins the engines to exact move sequences: lead every card of the weakest rank held;
follow with the legal play of the weakest rank (fewest cards on a tie), an equal-rank
play included, or on a sequence the sequence of the weakest weakest card; pass only when
nothing is legal; give back the k weakest cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.reference.moves import Run
from simulator.reference.rng import Stream
from simulator.reference.round import PASS, Move, Observation
from simulator.rules.cards import NUM_RANKS, strength


def weakest(run: Run, reversed_order: bool) -> int:
    """The strength of a sequence's weakest card under the order in force."""
    return min(strength(r, reversed_order) for r in range(run.low, run.high + 1))


class Lowest:
    """Always the weakest legal play (docs/rules.md, "The reference strategies")."""

    name = "lowest"

    def choose(self, obs: Observation, rng: Stream) -> Move | Run:
        if obs.top is None:
            rank = min(
                (r for r in range(NUM_RANKS) if obs.hand[r]),
                key=lambda r: strength(r, obs.reversed),
            )
            return Move(rank, obs.hand[rank])
        plays = [m for m in obs.legal if not m.is_pass]
        if not plays:
            return PASS
        if obs.top.run:  # sequences only: the weakest weakest card, then the lowest suit
            runs = [m for m in plays if isinstance(m, Run)]
            return min(runs, key=lambda m: (weakest(m, obs.reversed), m.suit))
        return min(plays, key=lambda m: (strength(m.rank, obs.reversed), m.count))

    def give_back(self, hand: Sequence[int], k: int, rng: Stream) -> list[int]:
        out: list[int] = []
        for rank in range(NUM_RANKS):
            take = min(hand[rank], k - len(out))
            out += [rank] * take
        return out
