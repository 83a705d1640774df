"""Strategy dispatch inside the kernel, by integer id.

Passing jitted functions as arguments would disable the on-disk cache
(PERFORMANCE.md), so built-in strategies are chosen by an integer id; the ids are the
``kernel_id`` fields of the strategy registry.
"""

from __future__ import annotations

from numba import njit

from simulator.kernel.config import HOT, INLINE
from strategies.kernels import lowest_give, lowest_move, random_give, random_move

LOWEST = 0
RANDOM = 1


@njit(**INLINE)
def decide(sid, pos, S, H, R, played, roles, rs, params):
    """The move of strategy ``sid`` for the player at ``pos``: ``(rank, count)``, count 0 = pass."""
    if sid == RANDOM:
        return random_move(pos, S, H, R, rs)
    return lowest_move(pos, S, H, R)


@njit(**HOT)
def give_back(sid, h, k, rs, params, out):
    """Strategy ``sid``'s give-back: writes k ranks into ``out``, returns the hand without them."""
    if sid == RANDOM:
        return random_give(h, k, rs, out)
    return lowest_give(h, k, out)
