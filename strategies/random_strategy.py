"""``random``: the uniform reference strategy of the rule book, for statistical tests.

Its options are the distinct legal (rank, count) plays in the canonical order of the
engines (count ascending, then rank index ascending) followed by the pass when it does
not lead; it picks one uniformly. No draw is taken when there is a single option, which
the kernel mirrors so that both engines consume the same stream.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.reference.rng import Stream
from simulator.reference.round import Move, Observation
from simulator.rules.cards import cards_from_counts


class Random:
    """A uniform choice among the legal moves; k uniform cards given back."""

    name = "random"

    def choose(self, obs: Observation, rng: Stream) -> Move:
        options = obs.legal
        return options[rng.below(len(options))] if len(options) > 1 else options[0]

    def give_back(self, hand: Sequence[int], k: int, rng: Stream) -> list[int]:
        cards = cards_from_counts(hand)
        out = []
        for _ in range(k):
            i = rng.below(len(cards)) if len(cards) > 1 else 0
            out.append(cards.pop(i))
        return out
