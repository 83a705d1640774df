"""A faulty user strategy for tests: it always plays a single 2, held or not."""

from numba import njit


@njit
def greedy(pos, S, H, R, played, roles, rs, params):
    """Always plays a single 2, held or not."""
    return 12, 1
