"""Cards with suits in the kernel: the card masks, the cards a move takes, the suit lock.

Under rules that read suits (:data:`~simulator.kernel.layout.SUITED`) each hand is also a
card mask, ``H[CARDS + pos]`` (:mod:`simulator.kernel.knowledge`): bit ``4 × rank +
suit`` for each card it holds (suits ``C D H S`` = 0..3, :mod:`simulator.rules.cards`),
the two jokers at bits 52 and 53 (the "suits" 0 and 1 of rank 13). The rank hand
``H[pos]`` stays what every strategy reads; these masks say which cards stand behind it.
Every card that leaves a hand is the one a rule imposes (the locked suits, the 3 of
spades against a lone joker), else the lowest suits of its rank first, as the reference
engine's :mod:`simulator.reference.suits` takes them: the two engines hold the same
cards at every move.

What the suits of the player to move allow is written into the round state before he
decides (``S_SUIT_OK``, ``S_SUIT_ADD``, stamped with the position's move count
``S_SUIT_AT``), and :func:`suit_filter` applies it to the plays his ranks allow: the
strategies' legal plays (:func:`simulator.kernel.legal.legal_plays`) are then his real
ones. A search player's rollout, which plays on from a copy of the state, moves past the
stamp and plays by ranks alone there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import JOKER_BIT, U0, U1, add_card, count_of, popc
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import CARDS
from simulator.kernel.layout import (
    LOCK,
    S_LOCK,
    S_PASSES,
    S_PLAYS,
    S_SUIT_ADD,
    S_SUIT_AT,
    S_SUIT_OK,
    SPADE3,
)
from simulator.rules.cards import CLUBS_THREE, JOKER, NUM_RANKS, SPADE_THREE, SPADES, THREE

UNRESTRICTED = np.int64((1 << 62) - 1)  # every play of a plays mask, storable in S
M4 = np.uint64(15)
SPADE_THREE_BIT = np.uint64(1 << SPADE_THREE)  # in a card mask
CLUBS_THREE_BIT = np.uint64(1 << CLUBS_THREE)


@njit(**INLINE)
def suits_of_rank(k, r):
    """The suits (a bit each) of the cards of rank ``r`` in card mask ``k``."""
    return (k >> np.uint64(4 * r)) & M4


@njit(**INLINE)
def lowest_suits(suits, c):
    """The ``c`` lowest suits of a suit set (all of them when it holds fewer)."""
    chosen = U0
    for _ in range(c):
        low = suits & (~suits + U1)
        chosen |= low
        suits ^= low
    return chosen


@njit(**INLINE)
def spade_return(r, c, t, tc, trick_rules):
    """Whether ``c`` cards of ``r`` on a top of ``tc`` cards of ``t`` are the 3 of spades
    against a lone joker (:data:`~simulator.kernel.layout.SPADE3`)."""
    return trick_rules & SPADE3 != 0 and r == THREE and c == 1 and t == JOKER and tc == 1


@njit(**INLINE)
def play_cards(k, r, c, t, tc, lock, trick_rules):
    """The cards (a card mask) a play of ``c`` cards of ``r`` takes from card mask ``k``:
    the locked suits, the 3 of spades against a lone joker, else the lowest suits."""
    if r == JOKER:
        suits = lowest_suits(suits_of_rank(k, r), c)
    elif lock != 0:
        suits = suits_of_rank(k, r) & np.uint64(lock)
    elif spade_return(r, c, t, tc, trick_rules):
        return SPADE_THREE_BIT
    else:
        suits = lowest_suits(suits_of_rank(k, r), c)
    return suits << np.uint64(4 * r)


@njit(**INLINE)
def suits_allow(k, t, tc, lock, trick_rules):
    """What card mask ``k`` allows on a top of ``tc`` cards of ``t`` (0: a lead), the
    trick locked to ``lock``: ``(ok, add)``, the plays masks that
    :func:`suit_filter` applies. Under a lock, only the plays of the locked suits (ranks
    holding all of them) and as many jokers; on a lone joker, when the rule is on, the 3
    of spades alone of the 3s, and only if the lock, if any, is to spades (``add``: it
    beats the joker)."""
    ok, add = UNRESTRICTED, np.int64(0)
    if tc == 0:
        return ok, add
    if lock != 0:
        u = np.uint64(lock)
        ranks = JOKER_BIT
        for r in range(JOKER):
            if suits_of_rank(k, r) & u == u:
                ranks |= U1 << np.uint64(r)
        ok = np.int64(ranks << np.uint64(16 * (popc(u) - 1)))
    if trick_rules & SPADE3 != 0 and t == JOKER and tc == 1:  # of the 3s, the spade alone
        if k & SPADE_THREE_BIT != U0 and (lock == 0 or lock == SPADES):
            add = np.int64(1)
        ok = (ok & ~np.int64(1)) | add
    return ok, add


@njit(**INLINE)
def suit_filter(m, S):
    """The plays ``m`` (by ranks) of the player to move that his suits allow, when the
    suits' masks in ``S`` were written for this position; else ``m`` as it is."""
    if S[S_SUIT_AT] != S[S_PLAYS] + S[S_PASSES]:
        return m
    return (m | np.uint64(S[S_SUIT_ADD])) & np.uint64(S[S_SUIT_OK])


@njit(**INLINE)
def after_play(top_suits, lock, cards, r, trick_rules):
    """``(top's suits, lock)`` after a play of ``cards`` of rank ``r``: a play of the
    top's suits locks the trick (:data:`~simulator.kernel.layout.LOCK`); jokers alone
    follow the lock, or carry no suits."""
    suits = np.int64(0) if r == JOKER else np.int64(suits_of_rank(cards, r))
    if suits == 0:
        suits = lock
    if trick_rules & LOCK != 0 and lock == 0 and suits != 0 and suits == top_suits:
        lock = suits
    return suits, lock


@njit(**HOT)
def write_allowed(S, k, t, tc, trick_rules):
    """Write what card mask ``k`` (the player to move's) allows into ``S``, stamped with
    this position (:func:`suit_filter` reads them)."""
    ok, add = suits_allow(k, t, tc, S[S_LOCK], trick_rules)
    S[S_SUIT_OK] = ok
    S[S_SUIT_ADD] = add
    S[S_SUIT_AT] = S[S_PLAYS] + S[S_PASSES]


@njit(**INLINE)
def take_lowest(k, r, c):
    """``(cards, k without them)``: the ``c`` lowest-suit cards of rank ``r``."""
    cards = lowest_suits(suits_of_rank(k, r), c) << np.uint64(4 * r)
    return cards, k & ~cards


@njit(**INLINE)
def given(give, k):
    """The ranks ``give[:k]`` (a give-back, a gift) as a rank hand."""
    ranks = U0
    for j in range(k):
        ranks = add_card(ranks, give[j])
    return ranks


@njit(**HOT)
def move_cards(H, giver, to, ranks, club):
    """The cards of ``ranks`` (a rank hand) go from position ``giver``'s card mask to
    ``to``'s (``to < 0``: out of the round), the lowest suits of each rank first. Returns
    where the 3 of clubs is, followed exactly (``club`` -1: not followed)."""
    kg = H[CARDS + giver]
    moved = U0
    for r in range(NUM_RANKS):
        c = count_of(ranks, r)
        if c > 0:
            cards, kg = take_lowest(kg, r, c)
            moved |= cards
    H[CARDS + giver] = kg
    if to >= 0:
        H[CARDS + to] |= moved
    if club >= 0 and moved & CLUBS_THREE_BIT != U0:
        return to
    return club
