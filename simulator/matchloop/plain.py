"""The round loop of a table of ``lowest`` and ``random`` players: legal plays built once per play.

Why a second loop. :func:`simulator.matchloop.round.play_round` serves every strategy: each
decision there rebuilds the legal plays from the top and the rules, and each move,
passes included, goes through the whole :func:`simulator.kernel.step.step` (fifteen
state values, "who is asked next" by a walk round the table). A table whose players are
all ``lowest`` and ``random`` needs neither: the plays legal on a top are one mask for
every hand (:func:`~simulator.kernel.legal.legal_layout`), built when the top changes,
so a decision is ``H[pos] & legal``; and the trick is the set of players still to
answer it, so a pass clears one bit and the next player to ask is the next member of
the set clockwise. Most decisions are passes.

It plays the rules of :func:`~simulator.kernel.step.step` with the second catalogue's
rules off (the match loop uses it only then): the same moves, draws, counters and
places, and the same round state left in ``S``. It does not count the cards ``played``
by rank: neither strategy reads them. Every lowest/random table of the move-for-move
tests against the reference engine (``tests/kernel/test_kernel_vs_reference.py``,
``test_fuzz_kernel.py``) plays through it; ``tests/kernel/test_plain_round.py`` checks
its tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import COL, RANKS, U0, U1, remove_cards
from simulator.kernel.config import INLINE
from simulator.kernel.layout import (
    OUT_OF_TRICK,
    QUAD,
    REVERSES,
    S_LEADER,
    S_N,
    S_TRACE,
    SKIP,
    TRANSPARENT,
    TWO_ENDS,
)
from simulator.kernel.legal import ALL_PLAYS, legal_flags, legal_layout
from simulator.kernel.step import goes_out, rule_flags, store_state
from simulator.kernel.trick import play_effect, trick_leader
from simulator.matchloop.streams import release_stream, use_stream
from simulator.rules.cards import NUM_RANKS, THREE, TWO
from strategies.kernels import lowest_of, random_of
from strategies.specs import LOWEST, RANDOM

# The plain loop's table: legal plays by (order in force, top's count - 1, top's rank),
# then three sets of plays as hand-layout bits: those that end the trick at once, those
# that reverse the order, and those whose effect any rule changes (the two before, and
# threes when they are transparent).
ENDS = 2 * 4 * 16
FLIPS = ENDS + 1
RARE = FLIPS + 1
LEGAL_TABLE = RARE + 1


@njit(**INLINE)
def fill_legal_table(R, legal):
    """``legal[(rev*4 + tc-1)*16 + t]`` = :func:`~simulator.kernel.legal.legal_layout` of
    every top: the plain loop looks the legal plays up when the top changes, rather
    than testing each beating rule again (filled once per call of the match loop)."""
    lf = legal_flags(R)
    for rev in range(2):
        for tc in range(1, 5):
            for t in range(NUM_RANKS):
                legal[(rev * 4 + tc - 1) * 16 + t] = legal_layout(t, tc, rev, lf)
    rules = rule_flags(R)[1]
    fours = RANKS << np.uint64(48)  # every four-of-a-kind
    twos = COL << np.uint64(TWO)  # any number of 2s
    legal[ENDS] = (fours if rules & QUAD else U0) | (twos if rules & TWO_ENDS else U0)
    legal[FLIPS] = fours if rules & REVERSES else U0
    legal[RARE] = (
        legal[ENDS] | legal[FLIPS] | (COL << np.uint64(THREE) if rules & TRANSPARENT else U0)
    )


PLAIN_SIDS = frozenset({LOWEST, RANDOM})  # the strategies this loop plays

# The loop counts a round's tricks, passes and plays in one word, COUNT_BITS bits each
# (a round has a few hundred moves at most): one register instead of three, each count
# one addition (measured 3-6 ns a round less, of 265, in a harness).
COUNT_BITS = 21
COUNT_MASK = (1 << COUNT_BITS) - 1
PASS = 1 << COUNT_BITS
TRICK_SHIFT = 2 * COUNT_BITS
TRICK = 1 << TRICK_SHIFT


@njit(**INLINE)
def plain_table(sid_pos, n):
    """Whether every player is ``lowest`` or ``random`` (the plain loop can play the round)."""
    plain = True
    for p in range(n):
        plain &= sid_pos[p] == LOWEST or sid_pos[p] == RANDOM
    return plain


@njit(**INLINE)
def store_round(S, st, n, leader):
    """Store the state of a round played out in registers (the plain loops' ``st``:
    :func:`first_state`), its tricks, passes and plays unpacked from its counts
    (``COUNT_BITS`` each)."""
    pos, t, tc, owner, rev, oot, _, _, active, best_free, worst_free, counts, skips = st
    tricks, passes, plays = (
        counts >> TRICK_SHIFT,
        (counts >> COUNT_BITS) & COUNT_MASK,
        counts & COUNT_MASK,
    )
    store_state(S, (pos, t, tc, owner, rev, 0, oot, active, best_free, worst_free, 1, tricks,
                    plays, passes, skips))  # fmt: skip
    S[S_N], S[S_LEADER] = n, leader


@njit(**INLINE)
def first_state(H, n, leader):
    """The registers of a round led by ``leader`` before its first move, as
    :func:`plain_move` reads and returns them: ``(position to move, top rank, top count,
    top owner, order reversed, who left the trick, who must still answer the top, the
    legal plays on it, who holds cards, best and worst places free, tricks, passes and
    plays in one word (COUNT_BITS each), skips)``."""
    active = 0
    for p in range(n):
        active |= np.int64(H[np.uint64(p)] != U0) << p
    return leader, -1, 0, -1, 0, 0, 0, ALL_PLAYS, active, 1, n, TRICK, 0


@njit(**INLINE)
def plain_move(st, r, c, H, places, legal_tab, rules, n, simple):
    """The registers :func:`first_state` after position ``st[0]`` plays ``c`` cards of
    ``r`` (0: a pass), and whether the round is over; ``simple``: as the plain loop's.

    ``waiting`` holds the players still to answer the top: those holding cards and still
    in the trick, but its owner, less those who passed (or were skipped) since it was
    laid. The trick is over when it is empty. ``oot`` holds who left the trick by
    passing (out_of_trick)."""
    pos, t, tc, owner, rev, oot, waiting, legal, active, best_free, worst_free, counts, skips = st
    if c == 0:  # a pass: one answer fewer to wait for
        counts += PASS
        waiting &= ~(1 << pos)
        if not simple and rules & OUT_OF_TRICK != 0:
            oot |= 1 << pos
        if waiting != 0:
            pos = next_waiting(waiting, pos, n)
            return (pos, t, tc, owner, rev, oot, waiting, legal, active, best_free, worst_free,
                    counts, skips), False  # fmt: skip
    else:
        at = np.uint64(pos)
        bit = np.uint64(16 * (c - 1) + r)  # the play's bit in the hand layout
        rare = not simple and (legal_tab[RARE] >> bit) & U1 != U0  # a rule changes its effect
        skip = not simple and rules & SKIP != 0
        taken, is_equal = r, False
        if rare or skip:
            taken, is_equal = play_effect(r, c, tc, t, skip, rules & TRANSPARENT != 0)
        h = remove_cards(H[at], r, c)
        H[at] = h
        t, tc, owner = taken, c, pos
        counts += 1
        if rare and (legal_tab[FLIPS] >> bit) & U1:
            rev ^= 1  # in force from the next play on
        if h == U0:
            active, best_free, worst_free, last_one = goes_out(
                pos, r, rules, active, best_free, worst_free, places
            )
            if last_one:
                return (pos, t, tc, owner, rev, oot, waiting, legal, active, best_free,
                        worst_free, counts, skips), True  # fmt: skip
        waiting = active & ~oot & ~(1 << pos)
        last = pos
        if rare and (legal_tab[ENDS] >> bit) & U1:
            waiting = 0
        elif is_equal and waiting != 0:  # the next player to answer is skipped
            last = next_waiting(waiting, pos, n)
            waiting &= ~(1 << last)
            skips += 1
        if waiting != 0:
            legal = legal_tab[np.uint64((rev * 4 + tc - 1) * 16 + t)]
            pos = next_waiting(waiting, last, n)
            return (pos, t, tc, owner, rev, oot, waiting, legal, active, best_free, worst_free,
                    counts, skips), False  # fmt: skip
    # the trick is over: its owner leads the next, or the next player holding cards
    pos = trick_leader(n, owner, active)
    return (pos, -1, 0, -1, rev, 0, waiting, ALL_PLAYS, active, best_free, worst_free,
            counts + TRICK, skips), False  # fmt: skip


@njit(**INLINE)
def next_waiting(waiting, after, n):
    """The first player of the non-empty set ``waiting`` clockwise after position ``after``.

    A walk round the table rather than a count of zero bits: its tests are branches the
    processor predicts, where the count would put its latency before the next load of a
    hand (measured: the count 5 % slower on a 4 x ``lowest`` round, and 4 % on french's
    4 x ``random``, where the walk steps over those who left the trick).
    """
    pos = after
    while True:
        pos += 1
        if pos == n:
            pos = 0
        if (waiting >> pos) & 1:
            return pos


# The rules under which a play may do more than take the top: skip the next player,
# leave the trick by passing, end the trick at once, reverse the order, be transparent.
PLAY_EFFECTS = SKIP | OUT_OF_TRICK | QUAD | TWO_ENDS | REVERSES | TRANSPARENT


@njit(**INLINE)
def simple_plays(R):
    """Whether every play under the rules ``R`` only takes the top (no rule of
    :data:`PLAY_EFFECTS`: the default rules)."""
    return rule_flags(R)[1] & PLAY_EFFECTS == 0


@njit(**INLINE)
def play_plain_round(
    S, H, R, places, sid_pos, rs, seat_streams, srow, trace, legal_tab, leader, simple, all_lowest
):  # fmt: skip
    """Play the round led by position ``leader`` to its end (arguments as
    :func:`simulator.matchloop.round.play_round`), leaving in ``S`` the state that
    :func:`~simulator.kernel.step.start_round` and the moves would (the trick rules'
    slots aside); ``places`` is written for every player, who all hold cards.

    ``simple`` and ``all_lowest`` are constants of the loop that calls this one: True
    when :func:`simple_plays` holds for every round it plays, and when every player is
    ``lowest``. The tests they rule out then fold away, which the rule flags, read at
    run time, do not: a 4 x ``lowest`` round of the default rules took 279 ns instead of
    328 (harness on the same deals; 289 with ``simple`` alone).

    The round's state lives in registers (:func:`first_state`), each move stepped by
    :func:`plain_move`, which the ``linear`` round loop shares
    (:mod:`simulator.matchloop.linear_plain`).
    """
    n, rules = rule_flags(R)
    tracing = trace.size > 0
    st = first_state(H, n, leader)
    cur = -1
    s, buf, have = rs[0], rs[1], rs[2]  # the shared stream, in registers (as play_round)
    while True:
        pos, tc, rev, legal = st[0], st[2], st[4], st[7]
        at = np.uint64(pos)  # an unsigned index: numba adds no code for a negative one
        h = H[at]
        m = h & legal
        r, c = 0, 0
        if m != U0:  # else the only move is a pass, whatever the strategy (no draw)
            if all_lowest or sid_pos[at] == LOWEST:
                r, c = lowest_of(h, m, tc, rev)
            else:
                row = srow[at]
                if row >= 0 and row != cur:  # a seat's own stream (duplicate deals)
                    rs[0], rs[1], rs[2] = s, buf, have
                    cur = use_stream(rs, seat_streams, cur, row)
                    s, buf, have = rs[0], rs[1], rs[2]
                r, c, s, buf, have = random_of(m, tc, s, buf, have)
        if tracing and S[S_TRACE] < trace.size:
            trace[S[S_TRACE]] = (pos << 8) | (c << 4) | r
            S[S_TRACE] += 1
        st, over = plain_move(st, r, c, H, places, legal_tab, rules, n, simple)
        if over:
            break
    rs[0], rs[1], rs[2] = s, buf, have
    release_stream(rs, seat_streams, cur)
    store_round(S, st, n, leader)
