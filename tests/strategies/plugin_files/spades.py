"""A faulty user strategy for tests: its weakest legal play, laid (it says, with
``pick_cards``) with the spades of the rank, whether it holds them or not. Under the rules
that read suits the kernel finds the cards do not fit and the run stops in one line."""

import numpy as np
from numba import njit

from strategies.kit import U0, first_play, legal_plays, pick_cards, play_count, play_rank


@njit(cache=True)
def spades(pos, S, H, R, played, roles, rs, params):
    """The weakest play, naming the spades of its rank (a card mask, bit 4 × rank + 3)."""
    m = legal_plays(H[pos], S, R)
    if m == U0:
        return 0, 0
    b = first_play(m)
    r = play_rank(b)
    pick_cards(S, np.uint64(8) << np.uint64(4 * r))
    return r, play_count(b)
