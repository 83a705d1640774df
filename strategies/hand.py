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

from simulator.kernel.bits import (
    COL,
    JOKER_BIT,
    PLAIN,
    RANKS,
    U0,
    U1,
    U16,
    U32,
    ctz,
    highest,
    popc,
)
from simulator.kernel.config import INLINE
from simulator.rules.cards import ACE, JOKER, TWO

U48 = np.uint64(48)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
THREAT = 2  # cards at or below which a player is about to go out
FAR = 99  # the card count of nobody: no threat
STRONGEST = 12.0  # the strength of a 2 in normal order: features' strengths are scaled to it


@njit(**INLINE)
def flag(b):
    """A condition as a feature: 1.0 or 0.0 (numba has no ``float(bool)``)."""
    return 1.0 if b else 0.0


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
    """Ranks whose strength under the order in force is at least ``threshold`` (a float
    parameter: strengths are whole, so the ranks of strength ``ceil(threshold)`` or more).

    In normal order the strength of rank ``r`` is ``r``; reversed it is ``12 - r``; the
    joker is 13 in both: each case is one shift, not a loop over the ranks.
    """
    if not threshold <= JOKER:  # above every strength (or NaN, which nothing reaches)
        return U0
    k = 0 if threshold <= 0 else np.int64(np.ceil(threshold))
    if rev:
        return JOKER_BIT | ((U1 << np.uint64(TWO + 1 - min(k, TWO + 1))) - U1)
    return RANKS & (ALL << np.uint64(k))


@njit(**INLINE)
def free(h):
    """The cards of a full deck (4 of each rank) that hand ``h`` does not hold, in the
    hand layout: level ``l`` of a rank is level ``3 - l`` of the hand, inverted."""
    g = ~h
    return (((g >> U48) & RANKS) | ((g >> U16) & (RANKS << U16)) | ((g << U16) & (RANKS << U32))
            | ((g << U48) & (RANKS << U48)))  # fmt: skip


@njit(**INLINE)
def outside(h, played, jokers):
    """The cards neither in hand ``h`` nor played yet this round, in the hand layout (bit
    ``16*l + r``: at least ``l+1`` cards of rank ``r`` are out there).

    One pass over the ranks per decision; playing cards from ``h`` leaves it unchanged
    (they move from the hand to ``played``), so one mask serves every candidate play.
    Each rank's column of :func:`free` moves down by the cards played (and by the jokers
    missing from the deck): no bit count, a shift per rank, which the compiler may do
    for several ranks at once.
    """
    f = free(h)
    out = U0
    for r in range(JOKER + 1):
        gone = played[r] + (4 - jokers if r == JOKER else 0)
        half = np.uint64(8 * gone)  # a shift by 16*gone in two steps: one by 64 is undefined
        out |= ((f & (COL << np.uint64(r))) >> half) >> half
    return out


@njit(**INLINE)
def unbeatable_plays(out, rev):
    """The plays nobody can beat by rank, in the hand layout: bit ``16*(c-1) + r`` when no
    stronger rank than ``r`` has ``c`` cards in ``out`` (:func:`outside`).

    Per count ``c`` that is every rank at least as strong as the strongest rank with ``c``
    cards out there: one bit scan per level.
    """
    u = U0
    for level in range(4):
        o = (out >> np.uint64(16 * level)) & RANKS
        if not rev:
            safe = RANKS & (ALL << np.uint64(highest(o | U1)))
        elif o & JOKER_BIT:
            safe = JOKER_BIT  # jokers stay on top of the reversed order
        else:
            plain = o & PLAIN  # the ranks up to the weakest one out there
            safe = JOKER_BIT | ((plain ^ (plain - U1)) & PLAIN)
        u |= safe << np.uint64(16 * level)
    return u


@njit(**INLINE)
def unbeatable(u, r, c):
    """Whether ``c`` cards of rank ``r`` are among the unbeatable plays ``u``."""
    return (u >> np.uint64(16 * (c - 1) + r)) & U1 != U0


@njit(**INLINE)
def unbeatable_groups(h, u):
    """The hand's groups (played whole) among the unbeatable plays ``u``, in the play
    layout: the tricks it is sure to win. Its popcount is how many there are."""
    return whole(h, h) & u


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
def twos(h):
    """The 2s and jokers of a hand as a rank mask (the cards no_finish_on_two punishes)."""
    return h & (U1 << np.uint64(TWO) | U1 << np.uint64(JOKER))


@njit(**INLINE)
def singles_below_aces(h):
    """The ranks held once, below the aces (a rank mask): the cards a give-back that breaks
    no group hands over first."""
    return h & ~(h >> U16) & np.uint64((1 << ACE) - 1)
