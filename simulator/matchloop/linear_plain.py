"""The round loop of a table of ``linear`` players: the plain loop's registers, ``linear``'s moves.

Why a loop of its own. ``linear`` plays inside the search players' playouts and is the
policy learners start from, so its speed is what a study of it waits on. In the general
round loop (:func:`simulator.matchloop.round.play_round`) each of its decisions was
reached through the strategy dispatch, with the state written to ``S`` first, the legal
plays rebuilt from the rules, the weights checked again and the cards out there counted
afresh; with the decision free (``keep-sets``' in its place) that path alone allowed
about 500,000 rounds a second. Here the round runs in the registers of the plain loop
(:func:`simulator.matchloop.plain.play_plain_round`: the legal plays looked up when the
top changes, the trick as the set of players still to answer it), and a ``linear``
decision reads them: its legal plays are ``H[pos] & legal``, a pass with none costs
nothing, whether a pass would be the last answer is whether anybody else is waiting,
and the weights are checked once a round. The best move is
:func:`~strategies.linear_rough.rough_best`'s, as in :func:`strategies.linear.linear_choice`;
on a near tie, or for a seat whose weights are not finite or whose temperature is above
0, the few slots of ``S`` the decision reads are written and
:func:`strategies.linear.linear_decision` decides, exactly as in the general loop. So the
moves are ``linear``'s, ties and draws included (``tests/kernel/test_linear_plain.py``
compares the rows with the general loop's).

It plays the rules the plain loop plays (no rule of the second catalogue, none that
reads suits) and also counts the cards ``played`` by rank, which ``linear`` reads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, U16, U32, popc
from simulator.kernel.config import INLINE
from simulator.kernel.layout import (
    R_JOKERS,
    S_ACTIVE,
    S_ANSWERED,
    S_N,
    S_OOT,
    S_OWNER,
    S_REV,
    S_RUN,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TRACE,
)
from simulator.kernel.step import rule_flags
from simulator.matchloop.plain import first_state, plain_move, store_round
from simulator.matchloop.streams import release_stream, use_stream
from simulator.rules.cards import JOKER, NUM_RANKS
from strategies.hand import FAR, U48, unbeatable_plays
from strategies.linear import linear_decision
from strategies.linear_rough import ROUGH, rough_best, weight_scale
from strategies.linear_terms import fewest_of
from strategies.specs import LINEAR_TEMPERATURE


@njit(**INLINE)
def fast_seats(params, n):
    """The positions whose moves the rough scores may decide (a bitmask: weights finite,
    temperature not above 0), and the largest of their weights' scales: a near tie is
    then judged against it, which only sends more of them to the exact scores."""
    fast, scale = 0, 0.0
    for p in range(n):
        at = np.uint64(p)
        s = weight_scale(params, at)
        if s < np.inf and not params[at, LINEAR_TEMPERATURE] > 0:
            fast |= 1 << p
            scale = max(scale, s)
    return fast, scale


@njit(**INLINE)
def gone_counts(jokers):
    """The cards of each rank that no hand holds at the start of a round, as the three
    bits of a count by rank (rank masks: ones, twos, fours): the jokers missing from the
    deck. :func:`count_gone` adds the cards played to them."""
    missing = np.uint64(4 - jokers)
    at = np.uint64(JOKER)
    return (missing & U1) << at, ((missing >> U1) & U1) << at, (missing >> np.uint64(2)) << at


@njit(**INLINE)
def count_gone(g0, g1, g2, r, c):
    """The counts of :func:`gone_counts` after ``c`` cards of rank ``r`` were played."""
    at = np.uint64(r)
    total = ((g0 >> at) & U1) + (((g1 >> at) & U1) << U1) + (((g2 >> at) & U1) << np.uint64(2))
    total += np.uint64(c)
    keep = ~(U1 << at)
    return ((g0 & keep) | ((total & U1) << at), (g1 & keep) | (((total >> U1) & U1) << at),
            (g2 & keep) | ((total >> np.uint64(2)) << at))  # fmt: skip


@njit(**INLINE)
def outside_of(h, g0, g1, g2):
    """:func:`strategies.hand.outside` of hand ``h``, the cards gone counted by
    :func:`count_gone`: by bit-sliced arithmetic on every rank at once, the cards held
    plus the cards gone ``s`` (at most 4), then the levels ``s <= 3 - l`` (2.7 ns
    against 6.7 for a pass over the ranks, on recorded decisions)."""
    l0, l1, l2, l3 = h & RANKS, (h >> U16) & RANKS, (h >> U32) & RANKS, h >> U48
    b0, b1, b2 = l0 ^ l1 ^ l2 ^ l3, l1 & ~l3, l3  # the cards held, in binary
    s0, k0 = b0 ^ g0, b0 & g0
    s1, k1 = b1 ^ g1 ^ k0, (b1 & g1) | (k0 & (b1 ^ g1))
    s2 = b2 | g2 | k1
    one = ~s2 & RANKS
    two = one & ~(s1 & s0)
    three = one & ~s1
    four = ~(s0 | s1 | s2) & RANKS
    return one | (two << U16) | (three << U32) | (four << U48)


@njit(**INLINE)
def show_state(S, t, tc, owner, rev, waiting, oot, active):
    """Write the slots of ``S`` of the moment that :func:`strategies.linear.linear_decision`
    reads: the top, its owner, the order in force, who has answered (everybody but those
    still waiting), who left the trick and who holds cards (the trick's run: no rule
    counts it here)."""
    S[S_TOP_RANK], S[S_TOP_COUNT], S[S_OWNER], S[S_REV] = t, tc, owner, rev
    S[S_ANSWERED], S[S_OOT], S[S_ACTIVE], S[S_RUN] = ~waiting, oot, active, 0


@njit(**INLINE)
def play_linear_round(
    S, H, R, played, places, params, rs, seat_streams, srow, trace, legal_tab, leader
):  # fmt: skip
    """Play the round led by position ``leader`` to its end, every player ``linear`` with
    his row of ``params`` (the other arguments as
    :func:`simulator.matchloop.round.play_round`), leaving in ``S`` the state the general
    loop would (the trick rules' slots aside) and in ``played`` the cards played."""
    n, rules = rule_flags(R)
    S[S_N] = n  # linear_decision's features read the players' count from S
    tracing = trace.size > 0
    fast, scale = fast_seats(params, n)
    bound = ROUGH * scale
    g0, g1, g2 = gone_counts(R[R_JOKERS])
    for r in range(NUM_RANKS):
        played[r] = 0
    st = first_state(H, n, leader)
    cur = -1
    while True:
        pos, t, tc, owner, rev, oot, waiting, legal, active = st[:9]
        at = np.uint64(pos)
        h = H[at]
        m = h & legal
        r, c = 0, 0
        if tc == 0 or m != U0:  # else the only move is a pass
            decided = False
            if (fast >> pos) & 1:
                out = outside_of(h, g0, g1, g2)
                u = unbeatable_plays(out, rev)
                me = 1 << pos
                fewest = fewest_of(H, active & ~me, n)
                owner_cards = popc(H[np.uint64(owner)]) if tc != 0 else FAR
                last = tc != 0 and waiting & ~me == 0
                # no trick's run, no table rule here (0, 0): their tests compile away
                r, c, margin = rough_best(h, m, out, u, t, tc, rev, 0, rules, 0, fewest,
                                          owner_cards, last, params, at)  # fmt: skip
                decided = margin > bound
            if not decided:  # a near tie, or weights the rough scores do not serve
                show_state(S, t, tc, owner, rev, waiting, oot, active)
                cur = use_stream(rs, seat_streams, cur, srow[at])
                r, c = linear_decision(pos, S, H, R, played, rs, params, m)
        if tracing and S[S_TRACE] < trace.size:
            trace[S[S_TRACE]] = (pos << 8) | (c << 4) | r
            S[S_TRACE] += 1
        if c > 0:
            played[r] += c
            g0, g1, g2 = count_gone(g0, g1, g2, r, c)
        st, over = plain_move(st, r, c, H, places, legal_tab, rules, n, False)
        if over:
            break
    release_stream(rs, seat_streams, cur)
    store_round(S, st, n, leader)
