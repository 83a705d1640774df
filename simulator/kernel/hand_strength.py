"""The dealt-hand strength score on a bitmask hand: the kernel's twin of
:func:`simulator.rules.hand_strength.hand_strength` (same table, same integer)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import COL, popc
from simulator.kernel.config import INLINE
from simulator.rules.cards import NUM_RANKS
from simulator.rules.hand_strength import WEIGHTS

WEIGHT_TABLE = np.array(WEIGHTS, dtype=np.int64)  # [rank, count]


@njit(**INLINE)
def hand_strength_k(h):
    """The score of bitmask hand ``h`` (the table is compiled in as a constant)."""
    score = 0
    for r in range(NUM_RANKS):
        score += WEIGHT_TABLE[r, popc(h & (COL << np.uint64(r)))]
    return score
