"""Faulty user strategies for tests: each fails in its own way."""

from numba import njit


@njit(cache=True)
def boom(pos, S, H, R, played, roles, rs, params):
    """Raises at its first move."""
    if pos >= 0:
        raise ValueError("no move for you")
    return 0, 0


@njit(cache=True)
def two_args(pos, S):
    """Takes two arguments, not the kernel's eight."""
    return 0, 0


@njit(cache=True)
def untyped(pos, S, H, R, played, roles, rs, params):
    """Adds a string to a number: numba cannot type it."""
    rank = "3" + pos
    return rank, 1


class Raises:
    """A plain-Python strategy that raises at its first move."""

    def choose(self, obs, rng):
        raise RuntimeError("nothing to play")

    def give_back(self, hand, k, rng):
        return [r for r in range(len(hand)) for _ in range(hand[r])][:k]
