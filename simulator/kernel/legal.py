"""Which plays are legal: the beating rules (docs/rules.md) as bitmask functions.

The rules are stated once, in :func:`beating_ranks`; :func:`legal_layout` gathers them
into the plays legal on a top for every hand at once. :func:`plays_of` applies them to
one hand, taking the position as scalars and the rules as
:func:`legal_flags`, read once per round (the round loop keeps them in registers);
:func:`legal_mask` and :func:`legal_plays` read them from the round state ``S`` and the
rules ``R`` (see :mod:`simulator.kernel.layout`), for strategies.
The reference engine's ``Round.play_effect`` is the readable twin of these.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import JOKER_BIT, PLAIN, RANKS, U0, U1, clz, ctz
from simulator.kernel.config import INLINE
from simulator.kernel.layout import (
    EQUAL_OFF,
    LARGER_ANY,
    LARGER_HIGHER,
    LARGER_OFF,
    R_EQUAL,
    R_LARGER,
    R_QUAD,
    R_TRANSP,
    R_TRICK_FLAGS,
    S_REV,
    S_TOP_COUNT,
    S_TOP_RANK,
    SUITED,
)
from simulator.kernel.runs import is_run
from simulator.kernel.suits import suit_filter
from simulator.rules.cards import JOKER, TWO


@njit(**INLINE)
def stronger_than(t, rev):
    """Ranks strictly stronger than rank ``t`` under the order in force.

    Normal order: the ranks above ``t``. Reversed: the 3…2 order is reversed (ranks
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
def legal_flags(R):
    """The beating rules as scalars, read once per round: ``(equal, transparent, quad,
    larger)`` (``equal``: equal plays are legal, under ``skip`` and ``allow`` alike)."""
    return R[R_EQUAL] != EQUAL_OFF, R[R_TRANSP] != 0, R[R_QUAD] != 0, R[R_LARGER]


ALL_PLAYS = np.uint64(0xFFFFFFFFFFFFFFFF)  # a lead: every combination of the hand


@njit(**INLINE)
def beating_ranks(c, t, tc, rev, lf):
    """Ranks of which ``c`` cards may be laid on a top of ``tc`` cards of rank ``t``
    (``tc == 0``: a lead) under the order ``rev``, whatever the hand; ``lf`` is
    :func:`legal_flags`. The one statement of the beating rules: the functions below
    apply it to hands."""
    if tc == 0:
        return RANKS  # a leader plays any combination
    equal, transparent, quad, larger = lf
    if c == tc:
        m = stronger_than(t, rev)
        if equal:
            m |= U1 << np.uint64(t)
        if transparent:
            m |= U1  # threes cover any top of as many cards
        return m
    if c < tc:
        return U0
    if c == 4 and quad:
        return RANKS  # a four burns any smaller top
    if larger == LARGER_ANY:
        return RANKS
    if larger == LARGER_HIGHER:
        return stronger_than(t, rev)
    return U0


@njit(**INLINE)
def legal_layout(t, tc, rev, lf):
    """The plays legal on the top for any hand (arguments as :func:`beating_ranks`): a
    hand-layout mask whose bit ``16*(c-1) + r`` says that ``c`` cards of ``r`` may be laid.

    A hand holds ``c`` cards of ``r`` exactly when its own bit ``16*(c-1) + r`` is set,
    so its legal plays are ``h & L`` (:func:`plays_of`). The plain round loop
    (:mod:`simulator.matchloop.plain`) keeps ``L`` for a whole trick, and each answer to
    a play is then one AND. More cards than the top are only tried when a rule allows
    them (larger sets, or a four that burns): the common case stays one test.
    """
    if tc == 0:
        return ALL_PLAYS
    layout = beating_ranks(tc, t, tc, rev, lf) << np.uint64(16 * (tc - 1))
    if lf[3] != LARGER_OFF:
        for c in range(tc + 1, 5):
            layout |= beating_ranks(c, t, tc, rev, lf) << np.uint64(16 * (c - 1))
    elif lf[2] and tc < 4:
        layout |= beating_ranks(4, t, tc, rev, lf) << np.uint64(48)
    return layout


@njit(**INLINE)
def plays_of(h, t, tc, rev, lf):
    """Every legal play of hand ``h`` as a hand-layout mask: bit ``16*(c-1) + r`` for ``c``
    cards of ``r`` (arguments as :func:`beating_ranks`).

    Set bits in increasing order are the engines' canonical option order (count
    ascending, then rank ascending).
    """
    return h & legal_layout(t, tc, rev, lf)


@njit(**INLINE)
def play_rank(b):
    """The rank of the play at bit ``b`` of a plays mask (:func:`plays_of`)."""
    return b & 15


@njit(**INLINE)
def play_count(b):
    """The number of cards of the play at bit ``b`` of a plays mask (:func:`plays_of`)."""
    return (b >> 4) + 1


@njit(**INLINE)
def legal_mask(h, c, S, R):
    """Ranks of which playing ``c`` cards is legal now (the player to move holds ``h``)."""
    return (legal_plays(h, S, R) >> np.uint64(16 * (c - 1))) & RANKS


@njit(**INLINE)
def legal_plays(h, S, R):
    """Every legal play (:func:`plays_of`) in the position of the state array ``S``: under
    rules that read suits, those the suits of the player to move allow too
    (:func:`simulator.kernel.suits.suit_filter`), and none on a sequence
    (:mod:`simulator.kernel.runs`; its sequences are the only answers)."""
    if R[R_TRICK_FLAGS] & SUITED != 0:
        if is_run(S[S_TOP_COUNT]):
            return U0
        return suit_filter(plays_of(h, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_REV], legal_flags(R)), S)
    return plays_of(h, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_REV], legal_flags(R))


@njit(**INLINE)
def weakest_rank(m, rev):
    """The weakest rank of a non-empty rank mask under the order in force."""
    plain = m & PLAIN
    if plain == U0:
        return JOKER
    if rev:
        return 63 - clz(plain)
    return ctz(plain)
