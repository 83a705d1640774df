"""What expert players count in a hand, as numba bit tricks shared by the heuristics.

Plays are kept in the hand layout of :mod:`simulator.kernel.bits`: bit ``16*(c-1) + r``
stands for ``c`` cards of rank ``r`` (the layout of ``legal_plays``). A *group* is all
the cards held of one rank; playing part of it *breaks* it. A group is *unbeatable*
when no stronger rank has as many cards left outside the hand (not played, not held):
it wins the trick by rank, which is how a player regains the lead. Only public facts
and the player's own hand are read — never another player's cards.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import COL, PLAIN, RANKS, U0, U1, U16, U32, count_of, ctz, highest, popc
from simulator.kernel.config import INLINE
from simulator.kernel.legal import strength, stronger_than
from simulator.rules.cards import JOKER, TWO

U48 = np.uint64(48)


@njit(**INLINE)
def fold(m):
    """The ranks present in a play mask, at any count (a 14-bit rank mask)."""
    return (m | (m >> U16) | (m >> U32) | (m >> U48)) & RANKS


@njit(**INLINE)
def spread(ranks):
    """A rank mask copied to the four count levels (to filter a play mask by rank)."""
    return ranks * COL


@njit(**INLINE)
def whole(m, h):
    """The plays of ``m`` that use every card held of their rank (they break no group)."""
    return m & ~(h >> U16)


@njit(**INLINE)
def fewest(m, r):
    """The smallest card count of rank ``r`` in play mask ``m`` (which holds ``r``)."""
    return 1 + ctz((m >> np.uint64(r)) & COL) // 16


@njit(**INLINE)
def most(m, r):
    """The largest card count of rank ``r`` in play mask ``m`` (which holds ``r``)."""
    return 1 + highest((m >> np.uint64(r)) & COL) // 16


@njit(**INLINE)
def weakest_of(ranks, rev):
    """The weakest rank of a non-empty rank mask under the order in force."""
    plain = ranks & PLAIN
    if plain == U0:
        return JOKER
    return highest(plain) if rev else ctz(plain)


@njit(**INLINE)
def strongest_of(ranks, rev):
    """The strongest rank of a non-empty rank mask under the order in force."""
    if (ranks >> np.uint64(JOKER)) & U1:
        return JOKER
    plain = ranks & PLAIN
    return ctz(plain) if rev else highest(plain)


@njit(**INLINE)
def at_least(threshold, rev):
    """Ranks whose strength under the order in force is at least ``threshold``."""
    m = U0
    for r in range(14):
        if strength(r, rev) >= threshold:
            m |= U1 << np.uint64(r)
    return m


@njit(**INLINE)
def outside(h, r, played, jokers):
    """Cards of rank ``r`` neither in hand ``h`` nor played yet this round."""
    total = jokers if r == JOKER else 4
    return total - count_of(h, r) - played[r]


@njit(**INLINE)
def unbeatable(h, r, c, rev, played, jokers):
    """Whether ``c`` cards of rank ``r`` can be beaten by rank by nobody (no stronger rank
    has ``c`` cards left outside the hand)."""
    s = stronger_than(r, rev)
    while s != U0:
        q = ctz(s)
        s &= s - U1
        if outside(h, q, played, jokers) >= c:
            return False
    return True


@njit(**INLINE)
def unbeatable_groups(h, rev, played, jokers):
    """How many of the hand's groups are unbeatable (the tricks it is sure to win)."""
    ranks = h & RANKS
    u = 0
    while ranks != U0:
        r = ctz(ranks)
        ranks &= ranks - U1
        if unbeatable(h, r, count_of(h, r), rev, played, jokers):
            u += 1
    return u


@njit(**INLINE)
def groups(h):
    """Distinct ranks held: the plays needed to go out if every group is played whole."""
    return popc(h & RANKS)


@njit(**INLINE)
def weakest_play(m, rev):
    """The play of ``m`` of the weakest rank, fewest cards on a tie: ``(rank, count)``."""
    r = weakest_of(fold(m), rev)
    return r, fewest(m, r)


@njit(**INLINE)
def first_unbeatable(h, m, rev, played, jokers):
    """The weakest unbeatable whole-group play of ``m`` as ``(rank, count)``; count 0: none."""
    ranks = fold(m)
    best = -1
    best_s = 99
    while ranks != U0:
        r = ctz(ranks)
        ranks &= ranks - U1
        c = most(m, r)
        if unbeatable(h, r, c, rev, played, jokers) and strength(r, rev) < best_s:
            best = r
            best_s = strength(r, rev)
    if best < 0:
        return 0, 0
    return best, most(m, best)


@njit(**INLINE)
def twos(h):
    """The 2s and jokers of a hand as a rank mask (the cards no_finish_on_two punishes)."""
    return h & (U1 << np.uint64(TWO) | U1 << np.uint64(JOKER))
