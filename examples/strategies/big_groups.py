"""A user strategy for the numba kernel: ``--strategies examples/strategies/big_groups.py:big_groups``.

The function gets the kernel's observation (simulator/kernel/layout.py): its table
position, the round state ``S``, the hands ``H`` (read only your own, ``H[pos]``, and
the others' card counts), the rules ``R``, the cards ``played`` this round, the previous
round's ``roles``, a random stream ``rs`` and its parameter rows ``params``. It returns
``(rank, count)``: ranks 0..13 are 3 … 2 and the joker, count 0 is the pass.
"""

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, count_of, ctz, remove_cards
from simulator.kernel.layout import S_REV, S_TOP_COUNT
from simulator.kernel.legal import legal_plays, play_count, play_rank, weakest_rank


@njit(cache=True)
def big_groups(pos, S, H, R, played, roles, rs, params):
    """Leads its largest group (weakest on a tie); follows with the weakest legal play."""
    h = H[pos]
    rev = S[S_REV]
    if S[S_TOP_COUNT] == 0:
        for level in range(3, -1, -1):
            ranks = (h >> np.uint64(16 * level)) & RANKS
            if ranks != U0:
                return weakest_rank(ranks, rev), level + 1
    m = legal_plays(h, S, R)
    if m == U0:
        return 0, 0  # pass
    b = ctz(m)  # the lowest bit: fewest cards, then the weakest rank index
    return play_rank(b), play_count(b)


@njit(cache=True)
def big_groups_give_back(h, k, rs, params, out):
    """Gives back its k weakest cards that are alone of their rank, else the weakest."""
    for i in range(k):
        r = 0
        while r < 13 and count_of(h, r) != 1:
            r += 1
        if r == 13:
            r = ctz(h & RANKS)
        out[i] = r
        h = remove_cards(h, r, 1)
