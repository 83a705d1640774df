"""A plain-Python user strategy for the reference engine (quick prototyping):
``--strategies examples/strategies/cautious.py:Cautious --engine python``.

A class with ``choose(obs, rng)`` returning one of ``obs.legal`` and ``give_back(hand,
k, rng)`` returning k ranks; see simulator/reference/round.py (``Observation``) and
strategies/lowest.py. Randomness only from ``rng``.
"""

from simulator.reference.round import PASS, Move


class Cautious:
    """Follows only with cards below an ace unless it holds few cards; leads its weakest group."""

    name = "cautious"

    def choose(self, obs, rng):
        order = (lambda r: 12 - r if r < 13 else 13) if obs.reversed else (lambda r: r)
        plays = [m for m in obs.legal if not m.is_pass]
        if obs.top is None:
            rank = min((r for r, c in enumerate(obs.hand) if c), key=order)
            return Move(rank, obs.hand[rank])
        cheap = [m for m in plays if order(m.rank) < 11 or sum(obs.hand) <= 4]
        return min(cheap, key=lambda m: (order(m.rank), m.count)) if cheap else PASS

    def give_back(self, hand, k, rng):
        return [r for r, c in enumerate(hand) for _ in range(c)][:k]
