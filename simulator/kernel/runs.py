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

from simulator.kernel.bits import U0, U1, ctz, highest, nth_bit, popc, remove_cards
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.layout import EIGHTS, LOCK, PLAIN_EIGHTS, R_RUN_TURNS, RUNS, RUNS_HIGH
from simulator.kernel.suits import RANK_BITS
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


# A card mask read a window at a time: bit ``4 × low + suit`` of the masks below stands for
# the sequence of ``suit`` from rank ``low`` (of the length at hand), so that every suit and
# every lowest rank is weighed at once, and the set bits in increasing order are the
# engines' order of sequences of one length (lowest rank, then suit).
SETS = np.uint64((1 << 52) - 1)  # the cards of ranks 3 … 2 of a card mask
ALL_SUITS = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit(**INLINE)
def lows_below(n):
    """The sequences (every suit) whose lowest rank is below ``n`` (0 … 13)."""
    return (U1 << np.uint64(4 * n)) - U1


@njit(**INLINE)
def count_gaps(shorts, missing, i):
    """The windows' missing cards counted one rank further, their ``i``-th (``missing``:
    the cards a card mask lacks). ``shorts`` holds the windows lacking at least 1, 2 and
    3 cards so far, a bit ``4 × low + suit`` each: every window is counted at once."""
    short1, short2, short3 = shorts
    gap = missing >> np.uint64(4 * i)
    return short1 | gap, short2 | (short1 & gap), short3 | (short2 & gap)


@njit(**INLINE)
def fitting(shorts, jokers, length):
    """The sequences of ``length`` whose windows (counted by :func:`count_gaps` over
    ``length`` ranks) lack no more cards than the ``jokers`` can stand for (one card of
    their own at least: with at most 2 jokers and 3 cards or more, that follows)."""
    short = shorts[0] if jokers == 0 else shorts[1] if jokers == 1 else shorts[2]
    return ~short & lows_below(TWO + 2 - length)


@njit(**INLINE)
def fitting_runs(k, length):
    """The sequences of ``length`` card mask ``k`` can lay: a card of the suit at each rank,
    a joker for each it lacks."""
    missing = ~(k & SETS)  # the ranks above the 2 are missing too
    shorts = (U0, U0, U0)
    for i in range(length):
        shorts = count_gaps(shorts, missing, i)
    return fitting(shorts, popc(k & JOKERS), length)


@njit(**INLINE)
def beating_runs(length, t, tc, rev, trick_rules):
    """The sequences of ``length`` (any suit) that may be laid on the top ``(t, tc)``
    (``tc == 0``: a lead) under the order ``rev``: on a sequence as long, its weakest card
    above the top's strongest (``above_highest``) or weakest (``above_lowest``). Reversed,
    a sequence's weakest card is its highest."""
    if tc == 0:
        return ALL_SUITS
    if not is_run(tc) or run_length(tc) != length:
        return U0
    above_highest = trick_rules & RUNS_HIGH != 0
    if rev:  # TWO - (low + length - 1) above TWO - t, or above TWO - (t + length - 1)
        last = t - length if above_highest else t - 1
        return lows_below(last + 1) if last >= 0 else U0
    first = t + length if above_highest else t + 1  # low above t + length - 1, or above t
    return ~lows_below(min(first, TWO + 1))


@njit(**INLINE)
def lock_allows(lock):
    """The sequences (any rank) the trick's lock allows: all, or those of its one suit."""
    if lock == 0:
        return ALL_SUITS
    if lock & (lock - 1) != 0:
        return U0
    return RANK_BITS * np.uint64(lock)


@njit(**INLINE)
def legal_runs(k, length, t, tc, rev, lock, trick_rules):
    """The sequences of ``length`` card mask ``k`` may lay now (bit ``4 × low + suit``):
    its cards (:func:`fitting_runs`), the lock, the top (:func:`beating_runs`)."""
    return (fitting_runs(k, length) & lock_allows(lock)
            & beating_runs(length, t, tc, rev, trick_rules))  # fmt: skip


@njit(**INLINE)
def legal_run(k, low, length, suit, t, tc, rev, lock, trick_rules):
    """Whether card mask ``k`` may lay the sequence now (:func:`legal_runs`)."""
    bit = np.uint64(4 * low + suit)
    return (legal_runs(k, length, t, tc, rev, lock, trick_rules) >> bit) & U1 != U0


@njit(**HOT)
def scan_runs(k, t, tc, rev, lock, trick_rules, nth):
    """:func:`runs_scan`'s walk, compiled apart."""
    if trick_rules & RUNS == 0 or (tc != 0 and not is_run(tc)):
        return 0, 0, 0
    found = 0
    missing = ~(k & SETS)
    jokers = popc(k & JOKERS)
    shorts = count_gaps(count_gaps((U0, U0, U0), missing, 0), missing, 1)
    for length in range(MIN_RUN, TWO + 2):  # each length one rank longer than the last
        shorts = count_gaps(shorts, missing, length - 1)
        if tc != 0 and run_length(tc) != length:
            continue
        fits = fitting(shorts, jokers, length)
        legal = fits & lock_allows(lock) & beating_runs(length, t, tc, rev, trick_rules)
        count = popc(legal)
        if found <= nth < found + count:
            bit = nth_bit(legal, nth - found)
            return nth + 1, bit >> 2, run_move(length, bit & 3)
        found += count
        if fits == U0 and tc == 0:
            break
    return found, 0, 0


@njit(**HOT)
def lowest_run(k, t, tc, rev, lock, trick_rules):
    """:func:`weakest_run`'s choice, compiled apart."""
    length = run_length(tc)
    legal = legal_runs(k, length, t, tc, rev, lock, trick_rules)
    if legal == U0:
        return 0, 0
    low = highest(legal) >> 2 if rev else ctz(legal) >> 2
    suit = ctz((legal >> np.uint64(4 * low)) & np.uint64(15))
    return low, run_move(length, suit)


# The two walks over a hand's sequences are compiled apart, not inlined: a loop that
# calls them at several places holds no copy of them, so its first compile is shorter,
# and the suited loop of lowest and random was no slower for it (docs/performance.md).
# Their wrappers pass every argument as a plain integer, so that each is compiled once,
# not again for the constants a loop starts from (numba types a call with the literal -1
# or 0 first).


@njit(**INLINE)
def runs_scan(k, t, tc, rev, lock, trick_rules, nth):
    """The legal sequences of card mask ``k`` in the engines' order (length, lowest rank,
    suit): ``(how many, low, count)``, the last two of the ``nth`` (0-based; -1: only
    count them, and when ``nth`` is past the last). A length no suit can make ends the walk
    on a lead (a longer one cannot be made either)."""
    return scan_runs(np.uint64(k), np.int64(t), np.int64(tc), np.int64(rev), np.int64(lock),
                     np.int64(trick_rules), np.int64(nth))  # fmt: skip


@njit(**INLINE)
def weakest_run(k, t, tc, rev, lock, trick_rules):
    """``lowest``'s answer to the sequence on top: the legal one of the weakest weakest
    card, the lowest suit among equals, as ``(low, count)``; ``(0, 0)``: none (a pass).
    Its weakest card is its lowest rank, its highest when the order is reversed."""
    return lowest_run(np.uint64(k), np.int64(t), np.int64(tc), np.int64(rev), np.int64(lock),
                      np.int64(trick_rules))  # fmt: skip


@njit(**INLINE)
def suit_ranks(k, suit):
    """The ranks (bit ``r`` for rank ``r`` < 13) of ``suit`` in card mask ``k`` (for the
    strategies, which read a suit's ranks as a hand's)."""
    m = U0
    for r in range(TWO + 1):
        m |= ((k >> np.uint64(4 * r + suit)) & U1) << np.uint64(r)
    return m


@njit(**INLINE)
def suit_masks(k):
    """Each suit's ranks in card mask ``k`` (:func:`suit_ranks`)."""
    return suit_ranks(k, 0), suit_ranks(k, 1), suit_ranks(k, 2), suit_ranks(k, 3)


@njit(**INLINE)
def run_strengths(low, length, rev):
    """``(weakest, strongest)``: the strengths of a sequence's weakest and strongest cards
    under the order ``rev`` (reversed, its highest rank is its weakest card)."""
    high = low + length - 1
    if rev:
        return TWO - high, TWO - low
    return low, high


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
