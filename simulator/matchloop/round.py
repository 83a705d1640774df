"""The round loop: each player in turn chooses a move through the strategy dispatch.

:func:`simulator.kernel.step.step` is the one implementation of a move's consequences;
this loop asks the strategy of the player to move (by kernel id, see
:mod:`strategies.dispatch`) and steps until the round is over.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import FAULT, U0, add_card, popc, remove_cards
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import CARDS, note_gift
from simulator.kernel.layout import (
    R_N,
    R_SIZE,
    S_LOCK,
    S_PRESIDENT,
    S_TOP_SUITS,
    S_TRACE,
    SEVENS,
    SUITED,
    TENS,
)
from simulator.kernel.legal import legal_flags
from simulator.kernel.runs import RUN_TRACE, is_run, run_cards, run_length, run_suit, run_suits
from simulator.kernel.step import (
    ST_ACTIVE,
    ST_OVER,
    ST_REV,
    ST_TOP_COUNT,
    ST_TOP_RANK,
    ST_TURN,
    hand_over,
    load_state,
    president_of,
    rule_flags,
    run_step,
    start_round,
    step,
    step_trick_rules,
    store_state,
    trick_rule_flags,
)
from simulator.kernel.suits import after_play, chosen_cards, given, move_cards, write_allowed
from simulator.kernel.trick import gift_receiver, owed_cards
from simulator.matchloop.linear_plain import play_linear_round
from simulator.matchloop.plain import plain_table, play_plain_round
from simulator.matchloop.streams import release_stream, use_stream
from simulator.matchloop.suited import SUIT_SHIFT, play_suited_plain_round
from simulator.rules.cards import JOKER
from strategies.dispatch import decide, give_back
from strategies.kernels import lowest_choice, lowest_move, random_move, random_pick
from strategies.specs import LOWEST, PLUGIN_BASE, RANDOM

# What a loop knows of its tables' strategies. The generic loop may meet any table and
# asks each round; a loop specialised for a job (simulator/matchloop/specialise.py) is
# written with its own values (every table of a job holds the job's strategies), and
# numba prunes the branches they rule out before compiling, which keeps first runs short.
ONLY_PLAIN = False  # every table is lowest/random only: the plain loop, or the table rules
NO_PLAIN = False  # no table is: the plain loop is never compiled
PLAIN_ROUNDS = False  # ONLY_PLAIN and no trick rule: the general loop is never compiled
SIMPLE_PLAYS = False  # PLAIN_ROUNDS, and every play only takes the top (plain.simple_plays)
ALL_LOWEST = False  # PLAIN_ROUNDS, and every player is lowest
SUITS = True  # a table may play under rules that read suits: play_suited_round is compiled in
ALL_SUITED = False  # every table plays under such rules: play_suited_round is the only loop
# ONLY_PLAIN, and every round reads suits under trick rules the suited plain loop plays
# (simulator/matchloop/suited.py): no other round loop is compiled
SUITED_ROUNDS = False
LINEAR_ROUNDS = False  # every player is linear, no trick rule, no suits: the linear plain loop


@njit(**HOT)
def gift_step(st, fl, trick_rules, sid, pos, r, c, H, R, S, played, places, rs, seat_streams, cur,
              srow, params_pos, give, trace):  # fmt: skip
    """:func:`~simulator.kernel.step.step_trick_rules` of a play under rules where 7s or 10s
    hand cards over (``seven_passes``, ``ten_discards``), the cards it obliges its player to
    hand over leaving first (:func:`~simulator.kernel.step.hand_over`): his strategy's
    give-back of the hand left, as in the exchange, drawing from his stream (``rs`` holds
    the stream in use, ``cur`` its row). The cards chosen are written to ``give`` and,
    when tracing, to ``trace``, and the knowledge of the table is told (``note_gift``).
    A user's bad give-back (flagged by :mod:`simulator.matchloop.userchain` in the hand it
    returns) raises the fault flag at once, in the slot after the rules: his hand may be
    empty after the move, and with it the mark his next move would have found. Returns
    ``(state, cur)``.

    Compiled apart and called only under those rules: the loop's other moves under the
    table rules then carry none of its code (inlined, it cost 5 % of their speed)."""
    at = np.uint64(pos)
    k = owed_cards(r, c, popc(H[at]) - c, trick_rules)
    flag = U0
    if k > 0:
        cur = use_stream(rs, seat_streams, cur, srow[pos])
        flag = give_back(sid, remove_cards(H[at], r, c), k, rs, params_pos, give) & FAULT
        gift = U0
        for j in range(k):
            gift = add_card(gift, give[j])
            if trace.size > 0 and S[S_TRACE] < trace.size:
                trace[S[S_TRACE]] = (1 << 16) | give[j]
                S[S_TRACE] += 1
        note_gift(H, pos, gift_receiver(R[R_N], pos, r, st[ST_ACTIVE]), gift, R[R_N])
        hand_over(gift, pos, r, R[R_N], st[ST_ACTIVE], H, played)
    if flag != U0:  # only a user's give-back flags: its job's R has the fault slots
        R[R_SIZE] = sid
    st = step_trick_rules(st, fl, trick_rules, pos, r, c, H, played, places, S)
    return st, cur


@njit(**HOT)
def run_move_step(st, fl, trick_rules, pos, low, c, k, H, R, S, played, places, trace):
    """:func:`~simulator.kernel.step.run_step` of the sequence ``(low, c)`` laid from card
    mask ``k`` by ``pos`` (:mod:`simulator.kernel.runs`), its cards leaving the mask and
    traced (``RUN_TRACE``, its length in the count's place, its suit ``<< 20``); the
    top's suits and the lock follow. Compiled apart: the other moves carry none of this."""
    at = np.uint64(pos)
    cards = run_cards(k, low, c)
    H[CARDS + at] = k & ~cards
    S[S_TOP_SUITS], S[S_LOCK] = run_suits(S[S_TOP_SUITS], S[S_LOCK], c, trick_rules)
    if trace.size > 0 and S[S_TRACE] < trace.size:
        suits = np.int64(1) << run_suit(c)
        trace[S[S_TRACE]] = ((suits << SUIT_SHIFT) | RUN_TRACE | (pos << 8)
                             | (run_length(c) << 4) | low)  # fmt: skip
        S[S_TRACE] += 1
    return run_step(st, fl, trick_rules, pos, low, c, cards, H, R, played, places, S)


@njit(**HOT)
def play_suited_round(S, H, R, played, places, roles, sid_pos, params_pos, rs, seat_streams, srow,
                      trace, give, leader):  # fmt: skip
    """:func:`play_round` under rules that read suits (``suit_lock``,
    ``spade_three_return``): the cards behind the ranks at every move
    (:mod:`simulator.kernel.suits`).

    Before each decision, what the suits of the player to move allow is written into
    ``S`` (``write_allowed``), so that every strategy's legal plays are his real ones
    (``legal_plays``); after it, the cards the move takes leave his card mask
    (``chosen_cards``: those the strategy chose, if they fit, else the locked suits, the 3
    of spades on a lone joker, else the lowest suits), the top's suits and the lock
    follow (``after_play``), and the move is stepped as under any table rule, its gift
    too (:func:`gift_step`; the cards given, the lowest suits of the ranks chosen,
    follow). A traced play carries its suits ``<< 20``.

    A loop of its own, compiled apart and chosen once per round, so that the rounds of
    every other rule set carry none of this work; every strategy decides from ``S``
    here (``lowest`` and ``random`` too), which costs a store of the state a move."""
    trick_rules = trick_rule_flags(R)
    n = R[R_N]
    start_round(S, H, n, leader, played, places, president_of(roles, n))
    fl = rule_flags(R)
    gifts = trick_rules & (SEVENS | TENS) != 0
    st = load_state(S)
    cur = -1
    while st[ST_OVER] == 0:
        pos = st[ST_TURN]
        at = np.uint64(pos)
        sid = sid_pos[at]
        t, tc = st[ST_TOP_RANK], st[ST_TOP_COUNT]
        k = H[CARDS + at]
        store_state(S, st)
        write_allowed(S, k, t, tc, trick_rules)
        cur = use_stream(rs, seat_streams, cur, srow[pos])
        if sid == LOWEST:
            r, c = lowest_move(pos, S, H, R)
        elif sid == RANDOM:
            r, c = random_move(pos, S, H, R, rs)
        elif is_run(tc) and sid >= PLUGIN_BASE:  # a user's moves are sets: a pass on one
            r, c = 0, 0
        else:
            r, c = decide(sid, pos, S, H, R, played, roles, rs, params_pos)
        if is_run(c):  # a sequence
            st = run_move_step(st, fl, trick_rules, pos, r, c, k, H, R, S, played, places, trace)
        else:
            cards = U0
            if c > 0:
                cards = chosen_cards(S, k, r, c, t, tc, trick_rules)
                H[CARDS + at] = k & ~cards
                S[S_TOP_SUITS], S[S_LOCK] = after_play(
                    S[S_TOP_SUITS], S[S_LOCK], cards, r, trick_rules
                )
            if trace.size > 0 and S[S_TRACE] < trace.size:
                suits = cards >> np.uint64(4 * r) if r < JOKER else U0
                trace[S[S_TRACE]] = (np.int64(suits) << SUIT_SHIFT) | (pos << 8) | (c << 4) | r
                S[S_TRACE] += 1
            owed = owed_cards(r, c, popc(H[at]) - c, trick_rules) if gifts and c > 0 else 0
            if owed > 0:
                to = gift_receiver(n, pos, r, st[ST_ACTIVE])
                st, cur = gift_step(st, fl, trick_rules, sid, pos, r, c, H, R, S, played, places, rs,
                                    seat_streams, cur, srow, params_pos, give, trace)  # fmt: skip
                move_cards(H, pos, to, given(give, owed), -1, 0)
            else:
                st = step_trick_rules(st, fl, trick_rules, pos, r, c, H, played, places, S)
        if st[ST_TOP_COUNT] == 0:  # a new trick: no top, no lock
            S[S_TOP_SUITS], S[S_LOCK] = 0, 0
        president = S[S_PRESIDENT]
        if president >= 0 and H[np.uint64(president)] == U0:  # he went out, or fell
            H[CARDS + np.uint64(president)] = U0
    release_stream(rs, seat_streams, cur)
    store_state(S, st)


@njit(**INLINE)
def play_round(
    S, H, R, played, places, roles, sid_pos, params_pos, rs, seat_streams, srow, trace, legal_tab,
    give, leader,
):  # fmt: skip
    """Play the round led by position ``leader`` to its end, each position's strategy
    choosing its moves.

    The player at position ``pos`` draws his random numbers from stream ``srow[pos]``
    (:func:`use_stream`: −1 the shared stream ``rs``, else his seat's own under duplicate
    deals).

    The state and the rules live in locals (registers): ``lowest`` and ``random`` choose
    from them directly; any other strategy reads the state array ``S``, written just
    before it decides. When ``trace`` is not empty every move is appended to it as ``pos
    << 8 | count << 4 | rank`` (count 0: pass), for the engines' comparison tests, and
    after a play of 7s or 10s that hands cards over (``seven_passes``, ``ten_discards``)
    each card as ``1 << 16 | rank``; ``give`` is scratch for the cards chosen.

    With the second catalogue's rules all off, :func:`step` is inlined with ``trick_rules`` the
    constant 0, so every test of them folds away (they cost 3 % otherwise); with any on,
    the move goes through :func:`~simulator.kernel.step.step_trick_rules`, compiled apart.
    A table of ``lowest`` and ``random`` players under those rules plays in
    :func:`~simulator.matchloop.plain.play_plain_round` instead (``legal_tab`` is its
    table of legal plays): the same moves, with far less work per answer. A loop
    specialised for such a job under rules with no trick rule has only that loop
    (``PLAIN_ROUNDS``), and knows whether its plays only take the top and whether its
    players are all ``lowest`` (``SIMPLE_PLAYS``, ``ALL_LOWEST``: see the plain loop);
    under rules that read suits, one whose trick rules
    :func:`~simulator.matchloop.suited.play_suited_plain_round` plays has only that loop
    (``SUITED_ROUNDS``), and any other loop of such a job only :func:`play_suited_round`
    (``ALL_SUITED``).
    """
    if LINEAR_ROUNDS:
        play_linear_round(S, H, R, played, places, params_pos, rs, seat_streams, srow, trace,
                          legal_tab, leader)  # fmt: skip
        return
    if PLAIN_ROUNDS:
        play_plain_round(S, H, R, places, sid_pos, rs, seat_streams, srow, trace, legal_tab, leader,
                         SIMPLE_PLAYS, ALL_LOWEST)  # fmt: skip
        return
    if SUITED_ROUNDS:
        play_suited_plain_round(S, H, R, places, sid_pos, rs, seat_streams, srow, trace,
                                legal_tab, leader)  # fmt: skip
        return
    trick_rules = trick_rule_flags(R)
    if not SUITS:  # a loop for rules without suits: no suited loop to compile
        pass
    elif ALL_SUITED or trick_rules & SUITED != 0:  # ALL_SUITED: no other loop to compile
        play_suited_round(S, H, R, played, places, roles, sid_pos, params_pos, rs, seat_streams,
                          srow, trace, give, leader)  # fmt: skip
        return
    if NO_PLAIN:
        pass
    elif trick_rules == 0 and (ONLY_PLAIN or plain_table(sid_pos, R[R_N])):
        play_plain_round(S, H, R, places, sid_pos, rs, seat_streams, srow, trace, legal_tab, leader,
                         False, False)  # fmt: skip
        return
    start_round(S, H, R[R_N], leader, played, places, president_of(roles, R[R_N]))
    fl = rule_flags(R)
    lf = legal_flags(R)
    tracing = trace.size > 0
    gifts = trick_rules & (SEVENS | TENS) != 0  # a play of 7s or 10s may hand cards over
    st = load_state(S)
    cur = -1
    s, buf, have = rs[0], rs[1], rs[2]  # the stream in rs, in registers (draw32)
    while st[ST_OVER] == 0:
        pos = st[ST_TURN]
        at = np.uint64(pos)  # an unsigned index: numba adds no code for a negative one
        sid = sid_pos[at]
        if sid == LOWEST:
            r, c = lowest_choice(H[at], st[ST_TOP_RANK], st[ST_TOP_COUNT], st[ST_REV], lf)
        elif sid == RANDOM:
            row = srow[at]
            if row >= 0 and row != cur:  # a seat's own stream (duplicate deals)
                rs[0], rs[1], rs[2] = s, buf, have
                cur = use_stream(rs, seat_streams, cur, row)
                s, buf, have = rs[0], rs[1], rs[2]
            r, c, s, buf, have = random_pick(
                H[at], st[ST_TOP_RANK], st[ST_TOP_COUNT], st[ST_REV], lf, s, buf, have
            )
        else:
            rs[0], rs[1], rs[2] = s, buf, have
            cur = use_stream(rs, seat_streams, cur, srow[pos])
            store_state(S, st)  # after the stream: the dispatch's reads of S are then the stores
            r, c = decide(sid, pos, S, H, R, played, roles, rs, params_pos)
            s, buf, have = rs[0], rs[1], rs[2]
        if tracing and S[S_TRACE] < trace.size:
            trace[S[S_TRACE]] = (pos << 8) | (c << 4) | r
            S[S_TRACE] += 1
        if ONLY_PLAIN or trick_rules != 0:  # (ONLY_PLAIN: only the trick rules come here)
            if gifts and c > 0:  # the cards a play of 7s or 10s hands over leave first
                rs[0], rs[1], rs[2] = s, buf, have
                st, cur = gift_step(st, fl, trick_rules, sid, pos, r, c, H, R, S, played, places,
                                    rs, seat_streams, cur, srow, params_pos, give, trace)  # fmt: skip
                s, buf, have = rs[0], rs[1], rs[2]
            else:
                st = step_trick_rules(st, fl, trick_rules, pos, r, c, H, played, places, S)
        else:
            st = step(st, fl, 0, pos, r, c, H, played, places, S)
    rs[0], rs[1], rs[2] = s, buf, have
    release_stream(rs, seat_streams, cur)
    store_state(S, st)
