"""The round loop of a table of ``lowest`` and ``random`` players under rules that read suits.

Why a loop of its own. :func:`simulator.matchloop.round.play_suited_round` serves every
strategy: before each decision it stores the round state into ``S`` and writes what the
suits of the player to move allow, the strategy reads them back, and the move goes
through the compiled-apart :func:`~simulator.kernel.step.step_trick_rules` (fifteen
state values, and each array passed as seven words). ``lowest`` and ``random`` need
none of it: here, as in the plain loop (:mod:`simulator.matchloop.plain`), the state
lives in registers (the top's suits and the lock too), the plays legal on a top come
from the plain loop's table and the suits filter them with a few bit operations
(:func:`~simulator.kernel.suits.suits_allow`), and the trick is the set of players
still to answer it (docs/performance.md has the figures).

It plays the rules of ``play_suited_round`` under the trick rules of
:data:`FAST_TRICK_RULES` (every rule that reads suits, 8s that end the trick, going out
that ends it, jack-back) and any of the first catalogue's: the same moves, draws,
cards, counters, places and trace. A ``lowest``/``random`` job under such rules gets a
loop holding only this round loop (``SUITED_ROUNDS``, :mod:`simulator.matchloop.specialise`);
any other job, or other trick rules (a run of one rank that burns, 5s, 7s and 10s that
hand cards over, the President's fall, the last player in leading), plays
``play_suited_round``. It does not count the cards ``played`` by rank, nor record who a
skip skipped: neither strategy reads them. Every lowest/random table of the
move-for-move tests under those rules (``tests/kernel/test_kernel_catalogue2.py``, the
fuzz's) plays through it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import COL, U0, U1, draw32, nth_bit, popc, remove_cards, scaled
from simulator.kernel.config import INLINE
from simulator.kernel.knowledge import CARDS
from simulator.kernel.layout import (
    EIGHTS,
    JACKS,
    OUT_ENDS,
    OUT_OF_TRICK,
    PLAIN_EIGHTS,
    QUAD,
    R_RUN_TURNS,
    REVERSES,
    RUNS,
    S_TRACE,
    SKIP,
    SPADE3,
    SUITED,
    TRANSPARENT,
    TWO_ENDS,
)
from simulator.kernel.legal import ALL_PLAYS, play_count, play_rank
from simulator.kernel.runs import (
    JOKERS,
    RUN_TRACE,
    RUNS_AT,
    is_run,
    run_cards,
    run_length,
    run_suit,
    run_suits,
    runs_scan,
    weakest_run,
)
from simulator.kernel.step import goes_out, rule_flags, trick_rule_flags
from simulator.kernel.suits import after_play, play_cards, spade_return, suits_allow
from simulator.kernel.trick import ends_trick_at_once, play_effect, trick_leader
from simulator.matchloop.plain import (
    PASS,
    RARE,
    TRICK,
    next_waiting,
    store_round,
)
from simulator.matchloop.streams import release_stream, use_stream
from simulator.rules.cards import EIGHT, JACK, JOKER, THREE, TWO
from strategies.kernels import lowest_of
from strategies.specs import LOWEST

# The trick rules this loop plays (with any of the first catalogue's); a round under any
# other (a run of one rank that burns, skips by 5s, gifts, the President's fall, the last
# player in leading) is play_suited_round's.
FAST_TRICK_RULES = SUITED | EIGHTS | PLAIN_EIGHTS | OUT_ENDS | JACKS
SUIT_SHIFT = 20  # a traced play's suits sit this far up (as play_suited_round's)


@njit(**INLINE)
def suited_fast(trick_rules):
    """Whether this loop plays the rounds under the trick rules ``trick_rules``."""
    return trick_rules & ~FAST_TRICK_RULES == 0


@njit(**INLINE)
def rare_plays(legal_tab, trick_rules):
    """The plays (hand-layout bits) whose effect a rule changes: the plain loop's
    (``legal_tab[RARE]``), and 8s that end the trick, jacks that reverse the order, the
    lone 3 that may be the 3 of spades on a joker. The others only take the top."""
    rare = legal_tab[RARE]
    if trick_rules & EIGHTS != 0:
        rare |= COL << np.uint64(EIGHT)
    if trick_rules & JACKS != 0:
        rare |= COL << np.uint64(JACK)
    if trick_rules & SPADE3 != 0:
        rare |= U1 << np.uint64(THREE)
    return rare


@njit(**INLINE)
def without_run(h, cards, low, c):
    """Hand ``h`` without the cards of the sequence ``(low, c)`` laid from card mask
    ``cards``: its cards of the suit, and its jokers."""
    suit = run_suit(c)
    for r in range(low, low + run_length(c)):
        if (cards >> np.uint64(4 * r + suit)) & np.uint64(1) != U0:
            h = remove_cards(h, r, 1)
    jokers = popc(cards & JOKERS)
    if jokers > 0:
        h = remove_cards(h, JOKER, jokers)
    return h


@njit(**INLINE)
def play_suited_plain_round(S, H, R, places, sid_pos, rs, seat_streams, srow, trace, legal_tab,
                            leader):  # fmt: skip
    """Play the round led by position ``leader`` to its end (arguments as
    :func:`simulator.matchloop.plain.play_plain_round`), leaving in ``S`` the counters
    the match loop reads, as ``play_suited_round`` would; ``places`` is written for every
    player.

    ``waiting`` holds the players still to answer the top; ``top_suits`` and ``lock``
    the top's suits and the suits the trick is locked to, ``jack`` whether a jack-back
    is in force (undone when the trick ends).
    """
    n, rules = rule_flags(R)
    trick_rules = trick_rule_flags(R)
    tracing = trace.size > 0
    pos = leader
    active = 0
    for p in range(n):
        active |= np.int64(H[np.uint64(p)] != U0) << p
    rare = rare_plays(legal_tab, trick_rules)
    t, tc, owner, rev, oot, waiting, legal = -1, 0, -1, 0, 0, 0, ALL_PLAYS
    top_suits, lock, jack = 0, 0, 0
    best_free, worst_free = 1, n
    counts, skips = TRICK, 0  # tricks, passes and plays in one word (plain.COUNT_BITS each)
    cur = -1
    s, buf, have = rs[0], rs[1], rs[2]  # the shared stream, in registers (as play_round)
    while True:
        at = np.uint64(pos)  # an unsigned index: numba adds no code for a negative one
        h = H[at]
        k = H[CARDS + at]
        on_run = is_run(tc)
        m = U0  # the plays of sets: none on a sequence
        if not on_run:
            m = h & legal
            if tc != 0:  # what his suits allow (nothing restricts a lead)
                ok, add = suits_allow(k, t, tc, lock, trick_rules)
                m = (m | np.uint64(add)) & np.uint64(ok)
        r, c = 0, 0
        if sid_pos[at] == LOWEST:
            if on_run:
                r, c = weakest_run(k, t, tc, rev, lock, trick_rules)
            elif m != U0:
                r, c = lowest_of(h, m, tc, rev)
        else:
            nruns = 0
            if trick_rules & RUNS != 0 and (tc == 0 or on_run):
                nruns = runs_scan(k, t, tc, rev, lock, trick_rules, -1)[0]
            if m != U0 or nruns > 0:  # else the only move is a pass (no draw)
                row = srow[at]
                if row >= 0 and row != cur:  # a seat's own stream (duplicate deals)
                    rs[0], rs[1], rs[2] = s, buf, have
                    cur = use_stream(rs, seat_streams, cur, row)
                    s, buf, have = rs[0], rs[1], rs[2]
                nplays = popc(m)
                nopt = nplays + nruns + (0 if tc == 0 else 1)
                j = 0
                if nopt > 1:
                    x, s, buf, have = draw32(s, buf, have)
                    j = scaled(x, nopt)
                if j < nplays:
                    b = nth_bit(m, j)
                    r, c = play_rank(b), play_count(b)
                elif j < nplays + nruns:
                    _, r, c = runs_scan(k, t, tc, rev, lock, trick_rules, j - nplays)
        if c == 0:  # a pass: one answer fewer to wait for
            if tracing and S[S_TRACE] < trace.size:
                trace[S[S_TRACE]] = pos << 8
                S[S_TRACE] += 1
            counts += PASS
            waiting &= ~(1 << pos)
            if rules & OUT_OF_TRICK:
                oot |= 1 << pos
            if waiting != 0:
                pos = next_waiting(waiting, pos, n)
                continue
        else:
            ends, is_equal = False, False
            if is_run(c):  # a sequence: it tops the trick, it may turn the order
                length = run_length(c)
                cards = run_cards(k, r, c)
                top_suits, lock = run_suits(top_suits, lock, c, trick_rules)
                if tracing and S[S_TRACE] < trace.size:
                    suits = np.int64(1) << run_suit(c)
                    trace[S[S_TRACE]] = ((suits << SUIT_SHIFT) | RUN_TRACE | (pos << 8)
                                         | (length << 4) | r)  # fmt: skip
                    S[S_TRACE] += 1
                h = without_run(h, cards, r, c)
                on = TWO if r + length - 1 == TWO or cards & JOKERS != U0 else r
                if R[R_RUN_TURNS] != 0 and length >= R[R_RUN_TURNS]:
                    rev ^= 1  # in force from the next play on
                eights = trick_rules & EIGHTS != 0 and trick_rules & PLAIN_EIGHTS == 0
                ends = eights and r <= EIGHT < r + length
                t, tc = r, RUNS_AT + 4 * length
            else:
                cards = play_cards(k, r, c, t, tc, lock, trick_rules)
                top_suits, lock = after_play(top_suits, lock, cards, r, trick_rules)
                if tracing and S[S_TRACE] < trace.size:
                    suits = np.int64(cards >> np.uint64(4 * r)) if r < JOKER else 0
                    trace[S[S_TRACE]] = (suits << SUIT_SHIFT) | (pos << 8) | (c << 4) | r
                    S[S_TRACE] += 1
                taken = r
                special = (rare >> np.uint64(16 * (c - 1) + r)) & U1 != U0
                if special or rules & SKIP != 0:
                    taken, is_equal = play_effect(r, c, tc, t, rules & SKIP != 0,
                                                  rules & TRANSPARENT != 0)  # fmt: skip
                if special:
                    ends = (r == EIGHT and trick_rules & EIGHTS != 0) or spade_return(
                        r, c, t, tc, trick_rules
                    )
                    ends = ends or ends_trick_at_once(r, c, rules & TWO_ENDS != 0,
                                                      rules & QUAD != 0)  # fmt: skip
                    if r == JACK and trick_rules & JACKS != 0:
                        rev ^= 1  # until the trick ends
                        jack ^= 1
                    if c == 4 and rules & REVERSES != 0:
                        rev ^= 1  # in force from the next play on
                h = remove_cards(h, r, c)
                on = r
                t, tc = taken, c
            H[CARDS + at] = k & ~cards
            H[at] = h
            owner = pos
            counts += 1
            if h == U0:
                active, best_free, worst_free, last_one = goes_out(
                    pos, on, rules, active, best_free, worst_free, places
                )
                if last_one:
                    break
                ends = ends or trick_rules & OUT_ENDS != 0
            waiting = active & ~oot & ~(1 << pos)
            last = pos
            if ends:
                waiting = 0
            elif is_equal and waiting != 0:  # the next one is skipped
                last = next_waiting(waiting, pos, n)
                waiting &= ~(1 << last)
                skips += 1
            if waiting != 0:
                if not is_run(c):
                    legal = legal_tab[np.uint64((rev * 4 + tc - 1) * 16 + t)]
                pos = next_waiting(waiting, last, n)
                continue
        # the trick is over: its owner leads the next, or the next player holding cards
        pos = trick_leader(n, owner, active)
        t, tc, owner, oot, legal = -1, 0, -1, 0, ALL_PLAYS
        top_suits, lock = 0, 0
        rev ^= jack
        jack = 0
        counts += TRICK
    rs[0], rs[1], rs[2] = s, buf, have
    release_stream(rs, seat_streams, cur)
    store_round(S, (pos, t, tc, owner, rev, oot, waiting, legal, active, best_free, worst_free,
                    counts, skips), n, leader)  # fmt: skip
