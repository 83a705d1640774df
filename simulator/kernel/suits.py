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

A strategy may choose the cards of its play (which of its three 7s go with a pair, and
so whether it locks the trick): :func:`pick_cards` writes them into ``S_PICK``, stamped
with the position (``S_PICK_AT``), and the suited loop lays them when they fit the play
(:func:`chosen_cards`), else the rules' default cards. A user's strategy whose cards do
not fit is at fault (:func:`bad_pick`, checked by its dispatch); the reference engine's
twin is a :class:`~simulator.reference.moves.Named` play, checked by its guard.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import JOKER_BIT, RANKS, U0, U1, add_card, count_of, ctz, nth_bit, popc
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import CARDS
from simulator.kernel.layout import (
    LOCK,
    R_TRICK_FLAGS,
    S_LOCK,
    S_PASSES,
    S_PICK,
    S_PICK_AT,
    S_PLAYS,
    S_SUIT_ADD,
    S_SUIT_AT,
    S_SUIT_OK,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    SPADE3,
    SUITED,
)
from simulator.rules.cards import JOKER, SPADE_THREE, SPADES, THREE

UNRESTRICTED = np.int64((1 << 62) - 1)  # every play of a plays mask, storable in S
M4 = np.uint64(15)
STAND_INS = np.uint64(0x1F0)  # five bits above a rank's four suits (lowest_suits)
SPADE_THREE_BIT = np.uint64(1 << SPADE_THREE)  # in a card mask
RANK_BITS = np.uint64(0x1111111111111)  # bit 4r of a card mask for each rank r < 13 (3 … 2)


@njit(**INLINE)
def suits_of_rank(k, r):
    """The suits (a bit each) of the cards of rank ``r`` in card mask ``k``."""
    return (k >> np.uint64(4 * r)) & M4


@njit(**INLINE)
def lowest_suits(suits, c):
    """The ``c`` lowest suits of a suit set (all of them when it holds fewer): those below
    its ``c``-th suit counted from 0, with stand-ins above the real suits so that there is
    always one. The selection is :func:`~simulator.kernel.bits.nth_bit` (PDEP, where fast),
    not a loop taking the suits one at a time, whose end the processor mispredicted (the
    count played varies)."""
    return suits & ((U1 << np.uint64(nth_bit(suits | STAND_INS, c))) - U1)


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
def locked_ranks(k, u):
    """The ranks (bit ``r``, ``r`` < 13) of which card mask ``k`` holds every suit of ``u``,
    every rank at once: a rank lacking one has a bit of ``missing`` in its nibble, folded
    onto the nibble's lowest bit, and those bits are gathered to one bit a rank (four
    shifts, where a loop read the 13 ranks one by one)."""
    missing = (RANK_BITS * u) & ~k
    lacking = (
        missing | (missing >> np.uint64(1)) | (missing >> np.uint64(2)) | (missing >> np.uint64(3))
    )
    x = ~lacking & RANK_BITS
    x = (x | (x >> np.uint64(3))) & np.uint64(0x0303030303030303)
    x = (x | (x >> np.uint64(6))) & np.uint64(0x000F000F000F000F)
    x = (x | (x >> np.uint64(12))) & np.uint64(0x000000FF000000FF)
    return (x | (x >> np.uint64(24))) & np.uint64(0xFFFF)


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
        ranks = JOKER_BIT | locked_ranks(k, u)
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


@njit(**INLINE)
def pick_cards(S, cards):
    """Choose ``cards`` (a card mask: bit ``4 × rank + suit``) for the play the strategy
    is about to return, in this position; under rules without suits they are ignored."""
    S[S_PICK] = np.int64(cards)
    S[S_PICK_AT] = S[S_PLAYS] + S[S_PASSES]


@njit(**INLINE)
def picked(S):
    """The card mask chosen (:func:`pick_cards`) in the position of ``S``, 0: none."""
    if S[S_PICK_AT] != S[S_PLAYS] + S[S_PASSES]:
        return U0
    return np.uint64(S[S_PICK])


@njit(**INLINE)
def pick_fits(p, k, r, c, t, tc, lock, trick_rules):
    """Whether card mask ``p`` can be the cards of a play of ``c`` cards of ``r`` from card
    mask ``k`` on a top of ``tc`` cards of ``t``: held, of the rank, as many as the play;
    under a lock, the locked suits; against a lone joker, the 3 of spades (the reference
    engine's ``why_not_cards``)."""
    if p & ~k != U0 or p & ~(M4 << np.uint64(4 * r)) != U0 or popc(p) != c:
        return False
    if r != JOKER and lock != 0 and suits_of_rank(p, r) != np.uint64(lock):
        return False
    return not spade_return(r, c, t, tc, trick_rules) or p == SPADE_THREE_BIT


@njit(**INLINE)
def fitting_pick(S, k, r, c, t, tc, trick_rules):
    """The cards chosen for a play of ``c`` cards of ``r`` from card mask ``k`` when they
    fit it (the jokers, which nothing tells apart, excepted), else 0: a search player's
    move may differ from its prior's, whose cards then stay unused."""
    p = picked(S)
    if r != JOKER and p != U0 and pick_fits(p, k, r, c, t, tc, S[S_LOCK], trick_rules):
        return p
    return U0


@njit(**INLINE)
def chosen_cards(S, k, r, c, t, tc, trick_rules):
    """The cards a play of ``c`` cards of ``r`` lays from card mask ``k``: those its
    strategy chose, when they fit (:func:`fitting_pick`), else the rules'
    (:func:`play_cards`)."""
    p = fitting_pick(S, k, r, c, t, tc, trick_rules)
    if p != U0:
        return p
    return play_cards(k, r, c, t, tc, S[S_LOCK], trick_rules)


@njit(**INLINE)
def locking_cards(S, k, r, c):
    """The cards of card mask ``k`` with which a play of ``c`` cards of ``r`` locks the
    trick (the top's suits, under ``suit_lock``), 0 when it cannot: the trick is locked
    already, the top has no suits or other ones than ``k`` holds in ``r``."""
    top = np.uint64(S[S_TOP_SUITS])
    if S[S_LOCK] != 0 or top == U0 or r == JOKER or popc(top) != c:
        return U0
    if suits_of_rank(k, r) & top != top:
        return U0
    return top << np.uint64(4 * r)


@njit(**INLINE)
def bad_pick(pos, r, c, S, H, R):
    """Whether position ``pos`` chose cards that do not fit its play of ``c`` cards of
    ``r``, under rules that read suits (a user strategy's fault)."""
    p = picked(S)
    if c == 0 or p == U0 or R[R_TRICK_FLAGS] & SUITED == 0:
        return False
    k = H[CARDS + np.uint64(pos)]
    t, tc = S[S_TOP_RANK], S[S_TOP_COUNT]
    return not pick_fits(p, k, r, c, t, tc, S[S_LOCK], R[R_TRICK_FLAGS])


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


@njit(**INLINE)
def move_cards(H, giver, to, ranks, club, card):
    """The cards of ``ranks`` (a rank hand) go from position ``giver``'s card mask to
    ``to``'s (``to < 0``: out of the round), the lowest suits of each rank first. Returns
    where the 3 that opens (card id ``card``, ``opening_three``) is, followed exactly
    (``club`` -1: not followed)."""
    return cards_moved(
        H, np.int64(giver), np.int64(to), np.uint64(ranks), np.int64(club), np.int64(card)
    )


@njit(**HOT)
def cards_moved(H, giver, to, ranks, club, card):
    """:func:`move_cards`'s work, compiled apart: called a few times a round, it is not
    worth a copy at each of the exchange's calls (a first compile shorter); its wrapper
    passes plain integers, so that it is compiled once (see :mod:`simulator.kernel.runs`)."""
    kg = H[CARDS + giver]
    moved = U0
    left = ranks & RANKS  # each rank given once (its first level), weakest first
    while left != U0:
        r = ctz(left)
        left &= left - U1
        cards, kg = take_lowest(kg, r, count_of(ranks, r))
        moved |= cards
    H[CARDS + giver] = kg
    if to >= 0:
        H[CARDS + to] |= moved
    if club >= 0 and moved >> np.uint64(card) & U1 != U0:
        return to
    return club
