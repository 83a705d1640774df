"""Which plays are legal: the beating rules (docs/rules.md) as bitmask functions.

Each function takes the round state ``S`` and the rules ``R`` (see
:mod:`simulator.kernel.layout`) and answers for one hand at once, as a mask of ranks.
The reference engine's ``Round.play_effect`` is the readable twin of these.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import JOKER_BIT, PLAIN, RANKS, U0, U1, clz, ctz, with_count
from simulator.kernel.config import INLINE
from simulator.kernel.layout import (
    LARGER_ANY,
    LARGER_HIGHER,
    R_EQUAL,
    R_LARGER,
    R_QUAD,
    R_TRANSP,
    S_REV,
    S_TOP_COUNT,
    S_TOP_RANK,
)
from simulator.rules.cards import JOKER, TWO


@njit(**INLINE)
def stronger_than(t, rev):
    """Ranks strictly stronger than rank ``t`` under the order in force.

    Normal order: the ranks above ``t``. Revolution: the 3…2 order is reversed (ranks
    below ``t`` are stronger) and jokers stay on top.
    """
    if t == JOKER:
        return U0
    if rev:
        return ((U1 << np.uint64(t)) - U1) | JOKER_BIT
    return RANKS & ~((U1 << np.uint64(t + 1)) - U1)


@njit(**INLINE)
def strength(r, rev):
    """A rank's strength under the order in force."""
    if r == JOKER:
        return JOKER
    return TWO - r if rev else r


@njit(**INLINE)
def legal_mask(h, c, S, R):
    """Ranks of which playing ``c`` cards is legal now (the player to move holds ``h``)."""
    avail = with_count(h, c)
    tc = S[S_TOP_COUNT]
    if tc == 0:
        return avail  # a leader plays any combination
    t = S[S_TOP_RANK]
    if c == tc:
        m = stronger_than(t, S[S_REV])
        if R[R_EQUAL]:
            m |= U1 << np.uint64(t)
        if R[R_TRANSP]:
            m |= U1  # threes cover any top of as many cards
        return avail & m
    if c < tc:
        return U0
    if c == 4 and R[R_QUAD]:
        return avail  # a four burns any smaller top
    larger = R[R_LARGER]
    if larger == LARGER_ANY:
        return avail
    if larger == LARGER_HIGHER:
        return avail & stronger_than(t, S[S_REV])
    return U0


@njit(**INLINE)
def legal_plays(h, S, R):
    """Every legal play as a hand-layout mask: bit ``16*(c-1) + r`` for ``c`` cards of ``r``.

    Set bits in increasing order are the engines' canonical option order (count
    ascending, then rank ascending). More cards than the top are only tried when a rule
    allows them (larger_sets, or a four under quad_burns): the common case stays one test.
    """
    tc = S[S_TOP_COUNT]
    if tc == 0:
        return h
    m = legal_mask(h, tc, S, R) << np.uint64(16 * (tc - 1))
    if R[R_LARGER] != 0:
        for c in range(tc + 1, 5):
            m |= legal_mask(h, c, S, R) << np.uint64(16 * (c - 1))
    elif R[R_QUAD] != 0 and tc < 4:
        m |= legal_mask(h, 4, S, R) << np.uint64(48)
    return m


@njit(**INLINE)
def weakest_rank(m, rev):
    """The weakest rank of a non-empty rank mask under the order in force."""
    plain = m & PLAIN
    if plain == U0:
        return JOKER
    if rev:
        return 63 - clz(plain)
    return ctz(plain)
