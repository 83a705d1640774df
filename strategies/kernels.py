"""The built-in strategies as numba functions: the kernel's twins of the Python classes.

A kernel strategy reads the kernel's observation (hands ``H``, round state ``S``, rules
``R``, ``played``, ``roles``; see :mod:`simulator.kernel.layout`) and returns a move
``(rank, count)``, ``count == 0`` meaning pass. Its give-back function takes the hand
after receiving and writes the ``k`` ranks it gives back into ``out``, returning the
hand without them. Randomness only comes from the stream ``rs`` it is handed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import (
    COL,
    RANKS,
    U0,
    below,
    count_of,
    ctz,
    draw32,
    nth_bit,
    nth_card_rank,
    popc,
    remove_cards,
    scaled,
)
from simulator.kernel.config import INLINE
from simulator.kernel.knowledge import CARDS, holds_cards
from simulator.kernel.layout import R_TRICK_FLAGS, RUNS, S_LOCK, S_REV, S_TOP_COUNT, S_TOP_RANK
from simulator.kernel.legal import legal_plays, play_count, play_rank, plays_of, weakest_rank
from simulator.kernel.runs import is_run, runs_scan, weakest_run


@njit(**INLINE)
def lowest_choice(h, t, tc, rev, lf):
    """``lowest`` on scalars (the round loop's registers; arguments as
    :func:`simulator.kernel.legal.plays_of`): lead all cards of the weakest rank; follow
    with the weakest legal play."""
    return lowest_of(h, plays_of(h, t, tc, rev, lf), tc, rev)


@njit(**INLINE)
def lowest_of(h, m, tc, rev):
    """:func:`lowest_choice` given the legal plays ``m`` of hand ``h`` on a top of ``tc`` cards."""
    if tc == 0:
        r = weakest_rank(h, rev)
        return r, count_of(h, r)
    if m == U0:
        return 0, 0
    same = (m >> np.uint64(16 * (tc - 1))) & RANKS
    if m == same << np.uint64(16 * (tc - 1)):  # only plays of the top's size: one test
        return weakest_rank(same, rev), tc
    ranks = (m | (m >> np.uint64(16)) | (m >> np.uint64(32)) | (m >> np.uint64(48))) & RANKS
    r = weakest_rank(ranks, rev)
    return r, 1 + ctz((m >> np.uint64(r)) & COL) // 16


@njit(**INLINE)
def random_pick(h, t, tc, rev, lf, s, buf, have):
    """``random`` on scalars (as :func:`lowest_choice`), drawing from a stream held in
    registers (:func:`~simulator.kernel.bits.draw32`): uniform among the legal plays
    (canonical order) and the pass. Returns ``(rank, count, s, buf, have)``."""
    return random_of(plays_of(h, t, tc, rev, lf), tc, s, buf, have)


@njit(**INLINE)
def random_of(m, tc, s, buf, have):
    """:func:`random_pick` given the legal plays ``m`` on a top of ``tc`` cards."""
    nplays = popc(m)
    nopt = nplays + (0 if tc == 0 else 1)
    k = 0
    if nopt > 1:
        x, s, buf, have = draw32(s, buf, have)
        k = scaled(x, nopt)
    if k == nplays:
        return 0, 0, s, buf, have  # the pass, last of the options
    b = nth_bit(m, k)
    return play_rank(b), play_count(b), s, buf, have


@njit(**INLINE)
def lowest_move(pos, S, H, R):
    """``lowest`` (:func:`lowest_of`) in the position of the state array ``S``, on the
    plays :func:`~simulator.kernel.legal.legal_plays` allows (its suits too); on a
    sequence, the sequence of the weakest weakest card (:mod:`simulator.kernel.runs`)."""
    h = H[pos]
    if is_run(S[S_TOP_COUNT]):
        k = H[CARDS + np.uint64(pos)]
        return weakest_run(k, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_REV], S[S_LOCK],
                           R[R_TRICK_FLAGS])  # fmt: skip
    return lowest_of(h, legal_plays(h, S, R), S[S_TOP_COUNT], S[S_REV])


@njit(**INLINE)
def random_move(pos, S, H, R, rs):
    """``random`` (:func:`random_of`) in the position of the state array ``S``, drawing
    from the stream array ``rs``, on the plays ``legal_plays`` allows; under
    ``sequences`` its legal sequences follow the plays among its options."""
    m = legal_plays(H[pos], S, R)
    tc = S[S_TOP_COUNT]
    if R[R_TRICK_FLAGS] & RUNS == 0 or not holds_cards(H):
        r, c, rs[0], rs[1], rs[2] = random_of(m, tc, rs[0], rs[1], rs[2])
        return r, c
    k = H[CARDS + np.uint64(pos)]
    t, rev, lock, trick_rules = S[S_TOP_RANK], S[S_REV], S[S_LOCK], R[R_TRICK_FLAGS]
    runs = runs_scan(k, t, tc, rev, lock, trick_rules, -1)[0]
    nplays = popc(m)
    nopt = nplays + runs + (0 if tc == 0 else 1)
    j = 0
    if nopt > 1:
        x, rs[0], rs[1], rs[2] = draw32(rs[0], rs[1], rs[2])
        j = scaled(x, nopt)
    if j < nplays:
        b = nth_bit(m, j)
        return play_rank(b), play_count(b)
    if j < nplays + runs:
        _, low, c = runs_scan(k, t, tc, rev, lock, trick_rules, j - nplays)
        return low, c
    return 0, 0  # the pass, last of the options


@njit(**INLINE)
def lowest_give(h, k, out):
    """Give back the ``k`` weakest cards (normal order)."""
    for i in range(k):
        r = ctz(h & RANKS)
        out[i] = r
        h = remove_cards(h, r, 1)
    return h


@njit(**INLINE)
def random_give(h, k, rs, out):
    """Give back ``k`` cards drawn one by one, uniformly among the cards still held."""
    for i in range(k):
        ncards = popc(h)
        r = nth_card_rank(h, below(rs, ncards) if ncards > 1 else 0)
        out[i] = r
        h = remove_cards(h, r, 1)
    return h
