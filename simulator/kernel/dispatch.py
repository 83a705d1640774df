"""Strategy dispatch inside the kernel, by integer id.

Passing jitted functions as arguments would disable the on-disk cache
(PERFORMANCE.md), so built-in strategies are chosen by an integer id; the ids are the
``kernel_id`` fields of the strategy registry. Every strategy but the search player is
dispatched by :func:`simulator.kernel.basic.decide_basic`, which the search player's
rollouts call in turn (numba does not type mutual recursion well).
"""

from __future__ import annotations

from numba import njit

from simulator.kernel.basic import LOWEST, MONTECARLO, RANDOM, decide_basic
from simulator.kernel.config import HOT, INLINE
from strategies.heuristics import give_singles
from strategies.kernels import lowest_give, random_give


@njit(**INLINE)
def decide(sid, pos, S, H, R, played, roles, rs, params):
    """The move of strategy ``sid`` for the player at ``pos``: ``(rank, count)``, count 0 = pass."""
    if sid == MONTECARLO:
        return search.montecarlo_move(pos, S, H, R, played, roles, rs, params)
    return decide_basic(sid, pos, S, H, R, played, roles, rs, params)


@njit(**HOT)
def give_back(sid, h, k, rs, params, out):
    """Strategy ``sid``'s give-back: writes k ranks into ``out``, returns the hand without them."""
    if sid == RANDOM:
        return random_give(h, k, rs, out)
    if sid == LOWEST:
        return lowest_give(h, k, out)
    return give_singles(h, k, out)


@njit(**HOT)
def decide_once(sid, pos, S, H, R, played, roles, rs, params):
    """``decide`` as a compiled entry point, for the reference engine's kernel adapter."""
    return decide(sid, pos, S, H, R, played, roles, rs, params)


# Last, as a module: the search player plays rounds out with simulator.kernel.round,
# which imports this module; numba looks ``search.montecarlo_move`` up when compiling.
import strategies.montecarlo as search  # noqa: E402
