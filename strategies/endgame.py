"""Exact play of endgames, for the search players of :mod:`strategies.champion`.

Two solvers, both exact where they answer:

* :func:`out_in_two`: a move that takes its player out within two plays whatever the
  others hold: the last group, or a group nobody can answer (checked against every card
  still out there pooled, so it holds for any split of them) followed by the last one.
  The search plays it without searching, and its rollouts play it for everybody, so a
  guess in which an opponent can go out sees him do it.
* :func:`solve`: the last two players' race, searched to its end with both hands known
  (given, or guessed): whether a player takes the better of the two places left. A
  boolean game tree with cut-offs (the first winning move ends a node), under a budget
  of positions; over budget it says so and the caller plays the round out instead.

Both play by the kernel's own rules (:func:`simulator.kernel.step.step`,
:func:`simulator.kernel.legal.plays_of`), so every table rule is honoured.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, clz, count_of, ctz, popc, remove_cards
from simulator.kernel.config import HOT, INLINE, JIT
from simulator.kernel.knowledge import CARDS
from simulator.kernel.layout import (
    DECK,
    R_JOKERS,
    R_NOFIN2,
    S_IN_PLACE,
    S_REV,
    S_SIZE,
    S_TOP_COUNT,
    S_TOP_RANK,
    SEVENS,
    SPADE3,
    TENS,
    TRANSPARENT,
)
from simulator.kernel.legal import legal_flags, legal_plays, play_count, play_rank, plays_of
from simulator.kernel.step import (
    ST_ACTIVE,
    ST_OVER,
    ST_REV,
    ST_TOP_COUNT,
    ST_TOP_RANK,
    ST_TURN,
    hand_over,
    rule_flags,
    step,
    step_trick_rules,
    trick_rule_flags,
)
from simulator.kernel.trick import assumed_gift, order_after, play_effect
from simulator.rules.cards import JOKER, NUM_RANKS, THREE, TWO
from strategies.hand import groups, outside, whole
from strategies.linear_terms import ends_trick_now

UNKNOWN = -1  # the solver ran out of positions


@njit(**INLINE)
def answerless(r, c, S, R, out):
    """Whether no combination of the cards ``out`` (:func:`~strategies.hand.outside`,
    a hand layout) may be laid on ``c`` cards of ``r`` played now, under the order in
    force after them: nobody can answer the play, whoever holds those cards. By ranks,
    which a suit lock only makes truer; but under ``spade_three_return`` a lone joker is
    answered by the 3 of spades, which may be any 3 out there (the cards played are
    counted by rank)."""
    rules, trick_rules = rule_flags(R)[1], trick_rule_flags(R)
    if trick_rules & SPADE3 and r == JOKER and c == 1 and count_of(out, THREE) > 0:
        return False  # a 3 out there may be the 3 of spades, which beats a lone joker
    rev = order_after(S[S_REV], r, c, rules, trick_rules)
    taken, _ = play_effect(r, c, S[S_TOP_COUNT], S[S_TOP_RANK], False, rules & TRANSPARENT != 0)
    return plays_of(out, taken, c, rev, legal_flags(R)) == U0


@njit(**INLINE)
def good_out(r, R):
    """Whether going out on rank ``r`` takes the best place left (not under
    no_finish_on_two on 2s or jokers)."""
    return not (R[R_NOFIN2] != 0 and r >= TWO)


@njit(**INLINE)
def out_in_two(pos, S, H, R, played):
    """A move taking ``pos`` out within two plays whatever the others do, as
    ``(rank, count)``, or ``(-1, 0)``: a play of its last cards, else a play nobody can
    answer (or that ends the trick by a table rule) leaving one group to lead."""
    h = H[pos]
    if groups(h) > 2:
        return -1, 0
    m = whole(h, h) if S[S_TOP_COUNT] == 0 else legal_plays(h, S, R)
    out = outside(h, played, R[R_JOKERS])
    second_r, second_c = -1, 0
    while m != U0:
        b = ctz(m)
        m &= m - U1
        r, c = play_rank(b), play_count(b)
        after = remove_cards(h, r, c)
        if after == U0:
            if good_out(r, R):
                return r, c
        elif (
            groups(after) == 1
            and good_out(ctz(after & RANKS), R)
            and (ends_trick_now(r, c, S, R) or answerless(r, c, S, R, out))
        ):
            second_r, second_c = r, c
    return second_r, second_c


@njit(**INLINE)
def advance(st, fl, trick_rules, p, r, c, H, played, places, S):
    """:func:`~simulator.kernel.step.step`, inlined with the table rules the constant 0
    when they are all off (as the match loop does)."""
    if trick_rules == 0:
        return step(st, fl, 0, p, r, c, H, played, places, S)
    if trick_rules & (SEVENS | TENS) != 0:  # the cards the play hands over, as assumed
        gift = assumed_gift(H[p], r, c, trick_rules)
        if gift != U0:
            hand_over(gift, p, r, fl[0], st[ST_ACTIVE], H, played)
    return step_trick_rules(st, fl, trick_rules, p, r, c, H, played, places, S)


# The solver's memory of a position, one row per depth: the slots step writes in place,
# both hands (and their card masks, with suits) and the cards played by rank, which a
# try may change (a gift of 7s changes the receiver's hand; a discard of 10s, ``played``).
# A round of two hands of at most DECK cards ends within two moves a card.
IN_PLACE = S_SIZE - S_IN_PLACE
HANDS_AT = IN_PLACE
PLAYED_AT = IN_PLACE + 4
KEPT = PLAYED_AT + NUM_RANKS
MAX_DEPTH = 2 * DECK + 2


@njit(**JIT)
def solver_memory():
    """The scratch the solvers keep a position in, one row per depth (:func:`keep_position`)."""
    return np.zeros((MAX_DEPTH, KEPT), np.int64)


@njit(**INLINE)
def keep_position(keep, depth, me, other, H, played, S, cards, every_rank):
    """Write what a try may change into row ``depth`` of ``keep``: the in-place slots of
    ``S``, both hands, their card masks when ``cards``, the cards played of every rank
    when ``every_rank`` (see :func:`restore_position`)."""
    for j in range(IN_PLACE):
        keep[depth, j] = S[S_IN_PLACE + j]
    keep[depth, HANDS_AT] = np.int64(H[me])
    keep[depth, HANDS_AT + 1] = np.int64(H[other])
    if cards:
        keep[depth, HANDS_AT + 2] = np.int64(H[CARDS + me])
        keep[depth, HANDS_AT + 3] = np.int64(H[CARDS + other])
    if every_rank:
        for r in range(NUM_RANKS):
            keep[depth, PLAYED_AT + r] = played[r]


@njit(**INLINE)
def restore_position(keep, depth, me, other, H, played, places, S, cards, every_rank, r, before):
    """Undo a try of rank ``r`` (:func:`keep_position`); neither player has a place. The
    cards played are restored from ``keep`` when ``every_rank`` (a sequence, a gift of 7s,
    a discard of 10s may change several ranks), else rank ``r``'s is ``before``."""
    for j in range(IN_PLACE):
        S[S_IN_PLACE + j] = keep[depth, j]
    H[me] = np.uint64(keep[depth, HANDS_AT])
    H[other] = np.uint64(keep[depth, HANDS_AT + 1])
    if cards:
        H[CARDS + me] = np.uint64(keep[depth, HANDS_AT + 2])
        H[CARDS + other] = np.uint64(keep[depth, HANDS_AT + 3])
    if every_rank:
        for q in range(NUM_RANKS):
            played[q] = keep[depth, PLAYED_AT + q]
    else:
        played[r] = before
    places[me] = 0
    places[other] = 0


@njit(**HOT)
def solve(me, other, st, H, R, played, places, S, count, keep):
    """Whether ``me`` takes the better place than ``other``, the last two players, from
    the State tuple ``st`` with every hand in ``H`` known: 1 yes, 0 no, or
    :data:`UNKNOWN` once ``count[0]`` positions exceed ``count[1]`` (or the rows of
    ``keep``, which :data:`MAX_DEPTH` makes enough); ``count[2]`` is the depth, 0 at the
    first call. The depth travels in ``count``, not as an argument: a recursion whose
    first call passes a literal and the next a variable is typed two ways, and numba's
    cache then loses the recursive symbol (a second process crashed loading it:
    numba/numba#6061).

    Every legal play and the pass are tried, the plays of most cards and strongest rank
    first (they shed fastest); both hands, ``played``, ``places`` and every slot of ``S``
    that :func:`~simulator.kernel.step.step` writes in place (kept in row ``count[2]`` of
    ``keep``, :func:`solver_memory`) are restored after each try.
    """
    count[0] += 1
    depth = count[2]
    if count[0] > count[1] or depth >= keep.shape[0]:
        return UNKNOWN
    fl = rule_flags(R)
    trick_rules = trick_rule_flags(R)
    p = st[ST_TURN]
    h = H[p]
    tc = st[ST_TOP_COUNT]
    m = plays_of(h, st[ST_TOP_RANK], tc, st[ST_REV], legal_flags(R))
    want = 1 if p == me else 0
    unknown = False
    gifts = trick_rules & (SEVENS | TENS) != 0
    keep_position(keep, depth, me, other, H, played, S, False, gifts)
    for _ in range(popc(m) + (1 if tc != 0 else 0)):
        r, c = 0, 0  # the pass comes last
        if m != U0:
            b = 63 - clz(m)
            m &= ~(U1 << np.uint64(b))
            r, c = play_rank(b), play_count(b)
        before = played[r]
        st2 = advance(st, fl, trick_rules, p, r, c, H, played, places, S)
        if st2[ST_OVER]:
            v = 1 if places[me] < places[other] else 0
        else:
            count[2] = depth + 1
            v = solve(me, other, st2, H, R, played, places, S, count, keep)
            count[2] = depth
        restore_position(keep, depth, me, other, H, played, places, S, False, gifts, r, before)
        if v == want:
            return want
        unknown |= v == UNKNOWN
    return UNKNOWN if unknown else 1 - want


@njit(**INLINE)
def last_two(st, me):
    """The other player still holding cards when ``me`` and one more are left, or -1."""
    active = np.uint64(st[ST_ACTIVE])
    if popc(active) != 2 or not (active >> np.uint64(me)) & U1:
        return -1
    return ctz(active & ~(U1 << np.uint64(me)))
