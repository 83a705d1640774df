"""The dealt-hand strength score on a bitmask hand: the kernel's twin of
:func:`simulator.rules.hand_strength.hand_strength` (same table, same integer)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS
from simulator.kernel.config import INLINE
from simulator.rules.cards import MAX_COPIES, NUM_RANKS
from simulator.rules.hand_strength import WEIGHTS

LEVELS = max(MAX_COPIES)  # level bit l of a rank: at least l+1 cards of it
HALF = 7  # ranks per lookup: a level's 14 rank bits are two 7-bit halves


def _level_tables() -> np.ndarray:
    """``TABLE[2*l + half, bits]``: what the ranks of one half-level add to the score.

    Holding ``l+1`` cards of a rank adds ``WEIGHTS[r][l+1] - WEIGHTS[r][l]`` to holding
    ``l``, so the score is the sum, over the set bits of the hand, of these steps: two
    lookups per level instead of a count and a lookup per rank (the kernel scores every
    player's hand every round).
    """
    table = np.zeros((2 * LEVELS, 1 << HALF), dtype=np.int64)
    for level in range(LEVELS):
        for half in range(2):
            for bits in range(1 << HALF):
                for i in range(HALF):
                    r = half * HALF + i
                    if bits >> i & 1 and r < NUM_RANKS and level + 1 < len(WEIGHTS[r]):
                        table[2 * level + half, bits] += WEIGHTS[r][level + 1] - WEIGHTS[r][level]
    return table


LEVEL_TABLE = _level_tables()
LOW_HALF = np.uint64((1 << HALF) - 1)


@njit(**INLINE)
def hand_strength_k(h):
    """The score of bitmask hand ``h`` (the tables are compiled in as constants)."""
    score = 0
    for level in range(LEVELS):
        m = (h >> np.uint64(16 * level)) & RANKS
        score += (
            LEVEL_TABLE[2 * level, m & LOW_HALF] + LEVEL_TABLE[2 * level + 1, m >> np.uint64(HALF)]
        )
    return score
