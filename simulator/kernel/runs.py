"""Sequences in the kernel (``sequences``; docs/rules.md): the kernel's twin of the
reference engine's :class:`~simulator.reference.moves.Run` and its legal sequences.

A sequence is a move ``(low, c)`` whose count ``c`` is :func:`run_move` of its length and
suit, at :data:`RUNS_AT` or above, where no set's count reaches; on the table its top
count is ``RUNS_AT + 4 × length`` (suit 0), so that no set beats it: the plays a hand's
ranks allow on it are none (:func:`simulator.kernel.legal.legal_plays`). Its cards are
the player's card of its suit at each rank, a joker for each he lacks (bits 52 and 53 of
the card mask, :mod:`simulator.kernel.suits`), as the reference engine takes them.

The built-in strategies lay sequences and answer them (docs/strategies.md, "Sequences");
a user's kernel strategy, whose moves are sets, passes on one unasked, in the suited loop
as on the reference engine's adapter.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import U0, U1, popc, remove_cards
from simulator.kernel.config import INLINE
from simulator.kernel.layout import EIGHTS, LOCK, PLAIN_EIGHTS, R_RUN_TURNS, RUNS, RUNS_HIGH
from simulator.rules.cards import EIGHT, JOKER, TWO

RUNS_AT = 8  # a count from here on is a sequence's (sets hold 1 to 4 cards)
MIN_RUN = 3
RUN_TRACE = 1 << 12  # a traced play that is a sequence: its length in the count's place
JOKERS = np.uint64(3 << 52)  # the jokers' bits of a card mask


@njit(**INLINE)
def is_run(c):
    """Whether count ``c`` (a move's or the top's) is a sequence's."""
    return c >= RUNS_AT


@njit(**INLINE)
def run_move(length, suit):
    """The count of a move that lays a sequence of ``length`` cards of ``suit``."""
    return RUNS_AT + 4 * length + suit


@njit(**INLINE)
def run_length(c):
    """The length of the sequence of count ``c`` (a move's or the top's)."""
    return (c - RUNS_AT) >> 2


@njit(**INLINE)
def run_suit(c):
    """The suit of the sequence of a move's count ``c``."""
    return (c - RUNS_AT) & 3


@njit(**INLINE)
def suit_ranks(k, suit):
    """The ranks (bit ``r`` for rank ``r`` < 13) of ``suit`` in card mask ``k``."""
    m = U0
    for r in range(TWO + 1):
        m |= ((k >> np.uint64(4 * r + suit)) & U1) << np.uint64(r)
    return m


@njit(**INLINE)
def run_strengths(low, length, rev):
    """``(weakest, strongest)``: the strengths of a sequence's weakest and strongest cards
    under the order ``rev`` (reversed, its highest rank is its weakest card)."""
    high = low + length - 1
    if rev:
        return TWO - high, TWO - low
    return low, high


@njit(**INLINE)
def run_fits(ranks, jokers, low, length):
    """Whether a hand holding ``ranks`` of a suit and ``jokers`` jokers can lay the
    sequence of ``length`` from ``low`` in it: a card of it at least, a joker for each
    missing one."""
    held = popc(ranks & (((U1 << np.uint64(length)) - U1) << np.uint64(low)))
    return held > 0 and length - held <= jokers


@njit(**INLINE)
def run_beats(low, length, t, tc, rev, trick_rules):
    """Whether the sequence of ``length`` from ``low`` may be laid on the top ``(t, tc)``
    (``tc == 0``: a lead) under the order ``rev``: on a sequence as long, its weakest card
    above the top's strongest (``above_highest``) or weakest (``above_lowest``)."""
    if tc == 0:
        return True
    if not is_run(tc) or run_length(tc) != length:
        return False
    weakest = run_strengths(low, length, rev)[0]
    top_weakest, top_strongest = run_strengths(t, length, rev)
    return weakest > (top_strongest if trick_rules & RUNS_HIGH != 0 else top_weakest)


@njit(**INLINE)
def allowed_run(ranks, jokers, low, length, suit, t, tc, rev, lock, trick_rules):
    """Whether a hand holding ``ranks`` of ``suit`` and ``jokers`` jokers may lay the
    sequence now: its cards (:func:`run_fits`), the lock, the top (:func:`run_beats`)."""
    return (
        run_fits(ranks, jokers, low, length)
        and (lock == 0 or lock == 1 << suit)
        and run_beats(low, length, t, tc, rev, trick_rules)
    )


@njit(**INLINE)
def legal_run(k, low, length, suit, t, tc, rev, lock, trick_rules):
    """Whether card mask ``k`` may lay the sequence now (:func:`allowed_run`)."""
    jokers = popc(k & JOKERS)
    return allowed_run(suit_ranks(k, suit), jokers, low, length, suit, t, tc, rev, lock,
                       trick_rules)  # fmt: skip


@njit(**INLINE)
def suit_masks(k):
    """Each suit's ranks in card mask ``k`` (:func:`suit_ranks`), read once."""
    return suit_ranks(k, 0), suit_ranks(k, 1), suit_ranks(k, 2), suit_ranks(k, 3)


@njit(**INLINE)
def runs_scan(k, t, tc, rev, lock, trick_rules, nth):
    """The legal sequences of card mask ``k`` in the engines' order (length, lowest rank,
    suit): ``(how many, low, count)``, the last two of the ``nth`` (0-based; -1: only
    count them, and when ``nth`` is past the last). A length no suit can make ends the walk
    on a lead (a longer one cannot be made either)."""
    if trick_rules & RUNS == 0 or (tc != 0 and not is_run(tc)):
        return 0, 0, 0
    jokers = popc(k & JOKERS)
    suits = suit_masks(k)
    found = 0
    for length in range(MIN_RUN, TWO + 2):
        if tc != 0 and run_length(tc) != length:
            continue
        made = False
        for low in range(TWO + 2 - length):
            for suit in range(4):
                made = made or run_fits(suits[suit], jokers, low, length)
                if allowed_run(suits[suit], jokers, low, length, suit, t, tc, rev, lock,
                               trick_rules):  # fmt: skip
                    if found == nth:
                        return found + 1, low, run_move(length, suit)
                    found += 1
        if not made and tc == 0:
            break
    return found, 0, 0


@njit(**INLINE)
def weakest_run(k, t, tc, rev, lock, trick_rules):
    """``lowest``'s answer to the sequence on top: the legal one of the weakest weakest
    card, the lowest suit among equals, as ``(low, count)``; ``(0, 0)``: none (a pass)."""
    length = run_length(tc)
    jokers = popc(k & JOKERS)
    suits = suit_masks(k)
    best_low, best_count, best = 0, 0, TWO + 1
    for low in range(TWO + 2 - length):
        weakest = run_strengths(low, length, rev)[0]
        for suit in range(4):
            if weakest < best and allowed_run(suits[suit], jokers, low, length, suit, t, tc,
                                              rev, lock, trick_rules):  # fmt: skip
                best_low, best_count, best = low, run_move(length, suit), weakest
    return best_low, best_count


@njit(**INLINE)
def run_turns(length, R):
    """Whether a sequence of ``length`` turns the order (``sequence_revolution``)."""
    return R[R_RUN_TURNS] != 0 and length >= R[R_RUN_TURNS]


@njit(**INLINE)
def run_ends_trick(low, length, trick_rules):
    """Whether the sequence of ``length`` from ``low`` ends the trick: it holds an 8 (or a
    joker in the 8's place) under ``eight_ends_trick``, unless ``eights_in_sequences``
    is plain."""
    eights = trick_rules & EIGHTS != 0 and trick_rules & PLAIN_EIGHTS == 0
    return eights and low <= EIGHT < low + length


@njit(**INLINE)
def run_left(h, ranks, low, length):
    """``(hand, jokers)``: the rank hand ``h`` after the sequence of ``length`` from
    ``low`` laid from a suit holding ``ranks`` (one card of each rank held there, a joker
    for each other), and the jokers it takes."""
    jokers = 0
    for r in range(low, low + length):
        if ranks >> np.uint64(r) & U1 != U0:
            h = remove_cards(h, r, 1)
        else:
            jokers += 1
    if jokers > 0:
        h = remove_cards(h, JOKER, jokers)
    return h, jokers


@njit(**INLINE)
def run_cards(k, low, c):
    """The cards (a card mask) the sequence ``(low, c)`` takes from card mask ``k``: his
    card of its suit at each rank, else the lowest joker left."""
    suit = run_suit(c)
    cards = U0
    jokers = k & JOKERS
    for r in range(low, low + run_length(c)):
        bit = U1 << np.uint64(4 * r + suit)
        if k & bit != U0:
            cards |= bit
        else:
            joker = jokers & (~jokers + U1)
            cards |= joker
            jokers ^= joker
    return cards


@njit(**INLINE)
def run_suits(top_suits, lock, c, trick_rules):
    """``(top's suits, lock)`` after the sequence of count ``c``: its suit; laid on a
    sequence of the same suit, it locks the trick (``suit_lock``)."""
    suits = np.int64(1) << run_suit(c)
    if trick_rules & LOCK != 0 and lock == 0 and suits == top_suits:
        lock = suits
    return suits, lock
