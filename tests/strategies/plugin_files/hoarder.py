"""A faulty user strategy for tests: it plays its weakest legal play, but every card it
hands over (a give-back, or the cards after its 7s or 10s) is a joker it does not hold."""

from numba import njit

from simulator.kernel.bits import U0, ctz
from simulator.kernel.legal import legal_plays, play_count, play_rank


@njit(cache=True)
def hoarder(pos, S, H, R, played, roles, rs, params):
    """The fewest cards of the weakest rank index it may play; passes when it may not."""
    m = legal_plays(H[pos], S, R)
    if m == U0:
        return 0, 0
    b = ctz(m)
    return play_rank(b), play_count(b)


@njit(cache=True)
def hoarder_give_back(h, k, rs, params, out):
    """Hands over jokers, which it never holds (the rules have none)."""
    for i in range(k):
        out[i] = 13
