# examples/strategies/sets_first.py
from numba import njit

from strategies import kit


@njit(cache=True)
def sets_first(pos, S, H, R, played, roles, rs, params):
    """Leads its weakest rank with every card of it; follows with whole groups when it can."""
    h = H[pos]
    if kit.leading(S):
        rank = kit.weakest_rank(kit.ranks_with(h, 1), kit.reversed_order(S))
        return rank, kit.count_of(h, rank)
    m = kit.legal_plays(h, S, R)
    if m == kit.U0:
        return 0, 0  # nothing beats the top: pass
    weakest = kit.first_play(m)
    while m != kit.U0:  # the legal plays, fewest cards first, then weakest rank first
        b = kit.first_play(m)
        rank, count = kit.play_rank(b), kit.play_count(b)
        if count == kit.count_of(h, rank):  # a whole group: no pair is broken
            return rank, count
        m = kit.without_play(m, b)
    return kit.play_rank(weakest), kit.play_count(weakest)


@njit(cache=True)
def sets_first_give_back(h, k, rs, params, out):
    """Gives back its k weakest cards."""
    for i in range(k):
        out[i] = kit.weakest_rank(kit.ranks_with(h, 1), False)
        h = kit.remove_cards(h, out[i], 1)
