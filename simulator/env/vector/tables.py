"""A table's moves, and its match played on to the learner's next decision.

:func:`simulator.matchloop.matches.play_match` plays a match straight through; here the
same match is cut at the learner's decisions (:func:`advance`), each table keeping
between calls what that loop keeps in its locals (:mod:`simulator.env.vector.state`)
beside the kernel's own arrays (hands ``H``, round state ``S``, ``played`` …), a row per
table. Every other seat moves through the kernel's own functions in the kernel's order (the deal,
:func:`~strategies.dispatch.give_back`, ``lowest_move``, ``random_move``,
:func:`~strategies.policies.decide_basic`, :func:`~simulator.kernel.step.step` and the
suited loop's card moves), drawing from the match's one play stream, so a table whose
learner answers as a built-in would plays the kernel's match for the same
``(seed, match)`` (no duplicate deals: every seat shares the match's stream).

The round state lives in ``S`` between moves (``load_state`` and ``store_state`` around
each one): a paused table has no registers to keep. ``M_RUN`` follows the cards of the
trick's latest run of one rank for the observation when no table rule is on (the kernel
keeps ``S_RUN`` only under one, and the strategies that read it must see what they see
in the kernel).
"""

from __future__ import annotations

from numba import njit

from simulator.env.vector.match import deal_round, end_round, exchange
from simulator.env.vector.state import (
    DEAL,
    EXCHANGE,
    HAND_OVER,
    LEARNER,
    M_GIVEN,
    M_PHASE,
    M_PLAY_C,
    M_PLAY_R,
    M_RUN,
    M_TO_GIVE,
    MOVE,
    PLAY,
    T_GIVE,
    T_H,
    T_M,
    T_PARAMS_POS,
    T_PLACES,
    T_PLAYED,
    T_ROLES,
    T_RS,
    T_S,
    T_SID_POS,
    T_SROW,
    T_STREAMS,
    T_TRACE,
)
from simulator.kernel.bits import U0, popc
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import CARDS, note_gift
from simulator.kernel.layout import (
    R_TRICK_FLAGS,
    S_LOCK,
    S_OVER,
    S_PRESIDENT,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    S_TURN,
    SEVENS,
    SUITED,
    TENS,
)
from simulator.kernel.runs import is_run
from simulator.kernel.step import (
    ST_ACTIVE,
    ST_TOP_COUNT,
    ST_TOP_RANK,
    hand_over,
    load_state,
    rule_flags,
    step,
    step_trick_rules,
    store_state,
    trick_rule_flags,
)
from simulator.kernel.suits import after_play, chosen_cards, given, move_cards, write_allowed
from simulator.kernel.trick import gift_receiver, owed_cards
from simulator.matchloop.round import gift_step, run_move_step
from strategies.kernels import lowest_move, random_move
from strategies.policies import decide_basic
from strategies.specs import LOWEST, RANDOM


@njit(**INLINE)
def after_move(t, T, R, st, t0, tc0, c):
    """What follows every move: the state back into ``S``; under the rules that read suits
    a new trick clears the top's suits and the lock, and a President gone out (or fallen)
    holds no cards; the trick's latest run of one rank (``M_RUN``) when no table rule
    keeps it."""
    H, S, M = T[T_H], T[T_S], T[T_M]
    store_state(S[t], st)
    if R[R_TRICK_FLAGS] & SUITED != 0:
        if st[ST_TOP_COUNT] == 0:
            S[t, S_TOP_SUITS], S[t, S_LOCK] = 0, 0
        president = S[t, S_PRESIDENT]
        if president >= 0 and H[t, president] == U0:
            H[t, CARDS + president] = U0
    if st[ST_TOP_COUNT] == 0:
        M[t, M_RUN] = 0
    elif c > 0:
        joins = tc0 != 0 and st[ST_TOP_RANK] == t0
        M[t, M_RUN] = M[t, M_RUN] + c if joins else c


@njit(**INLINE)
def play_move(t, T, R, pos, r, c, cards, learner):
    """Position ``pos`` moves ``(r, c)`` (``c`` 0: a pass; a sequence's count from
    ``RUNS_AT``), laying ``cards`` under the rules that read suits (0: the cards its
    strategy chose, else the rules' default ones), as the kernel's round loops step it. A
    play of 7s or 10s that obliges its player to hand cards over: a built-in hands them
    over at once (:func:`~simulator.matchloop.round.gift_step`); the learner's play waits
    for his choice (phase HAND_OVER, the play not stepped yet).

    Inlined into its two callers: called, with the tables' arrays passed word by word,
    it cost a third of the speed (1.07 M against 1.37–1.60 M learner steps/s, 3 ×
    ``lowest``, one thread, taking turns); inlining :func:`observe` and the learner's
    action too lost that gain again."""
    H, S, M, played, places = T[T_H], T[T_S], T[T_M], T[T_PLAYED], T[T_PLACES]
    rs, give, sid_pos, params_pos, streams, srow = (
        T[T_RS][t],
        T[T_GIVE][t],
        T[T_SID_POS],
        T[T_PARAMS_POS],
        T[T_STREAMS],
        T[T_SROW],
    )
    trick_rules = trick_rule_flags(R)
    fl = rule_flags(R)
    st = load_state(S[t])
    t0, tc0 = st[ST_TOP_RANK], st[ST_TOP_COUNT]
    h, s = H[t], S[t]
    k = h[CARDS + pos]
    suited = trick_rules & SUITED != 0
    if suited and is_run(c):
        st = run_move_step(st, fl, trick_rules, pos, r, c, k, h, R, s, played[t], places[t],
                           T[T_TRACE])  # fmt: skip
        after_move(t, T, R, st, t0, tc0, c)
        return
    if suited and c > 0:
        if cards == U0:
            cards = chosen_cards(s, k, r, c, t0, tc0, trick_rules)
        h[CARDS + pos] = k & ~cards
        s[S_TOP_SUITS], s[S_LOCK] = after_play(s[S_TOP_SUITS], s[S_LOCK], cards, r, trick_rules)
    gifts = trick_rules & (SEVENS | TENS) != 0 and c > 0
    owed = owed_cards(r, c, popc(h[pos]) - c, trick_rules) if gifts else 0
    if owed > 0 and learner:
        store_state(s, st)
        M[t, M_PLAY_R], M[t, M_PLAY_C] = r, c
        M[t, M_TO_GIVE], M[t, M_GIVEN] = owed, 0
        M[t, M_PHASE] = HAND_OVER
        return
    if owed > 0:
        to = gift_receiver(fl[0], pos, r, st[ST_ACTIVE])
        st, _ = gift_step(st, fl, trick_rules, sid_pos[t, pos], pos, r, c, h, R, s, played[t],
                          places[t], rs, streams, -1, srow, params_pos[t], give, T[T_TRACE])  # fmt: skip
        if suited:
            move_cards(h, pos, to, given(give, owed), -1, 0)
    elif trick_rules != 0:
        st = step_trick_rules(st, fl, trick_rules, pos, r, c, h, played[t], places[t], s)
    else:
        st = step(st, fl, 0, pos, r, c, h, played[t], places[t], s)
    after_move(t, T, R, st, t0, tc0, c)


@njit(**HOT)
def hand_over_given(t, T, R):
    """The learner has chosen the cards his play of 7s or 10s hands over (``give``): they
    leave, then his play is stepped, as :func:`~simulator.matchloop.round.gift_step`
    does for a built-in."""
    H, S, M, played, places = T[T_H], T[T_S], T[T_M], T[T_PLAYED], T[T_PLACES]
    give = T[T_GIVE][t]
    h, s = H[t], S[t]
    trick_rules = trick_rule_flags(R)
    fl = rule_flags(R)
    st = load_state(s)
    t0, tc0 = st[ST_TOP_RANK], st[ST_TOP_COUNT]
    pos, r, c, k = s[S_TURN], M[t, M_PLAY_R], M[t, M_PLAY_C], M[t, M_TO_GIVE]
    to = gift_receiver(fl[0], pos, r, st[ST_ACTIVE])
    gift = given(give, k)
    note_gift(h, pos, to, gift, fl[0])
    hand_over(gift, pos, r, fl[0], st[ST_ACTIVE], h, played[t])
    st = step_trick_rules(st, fl, trick_rules, pos, r, c, h, played[t], places[t], s)
    if trick_rules & SUITED != 0:
        move_cards(h, pos, to, gift, -1, 0)
    M[t, M_PHASE] = PLAY
    after_move(t, T, R, st, t0, tc0, c)


@njit(**INLINE)
def other_move(t, T, R, pos):
    """The move of the built-in at position ``pos``, as the kernel's round loops ask it
    (under the rules that read suits, told what his suits allow first)."""
    H, S, played, roles = T[T_H], T[T_S], T[T_PLAYED], T[T_ROLES]
    rs, sid_pos, params_pos = T[T_RS][t], T[T_SID_POS], T[T_PARAMS_POS]
    s = S[t]
    if R[R_TRICK_FLAGS] & SUITED != 0:
        write_allowed(s, H[t, CARDS + pos], s[S_TOP_RANK], s[S_TOP_COUNT], trick_rule_flags(R))
    sid = sid_pos[t, pos]
    if sid == LOWEST:
        return lowest_move(pos, s, H[t], R)
    if sid == RANDOM:
        return random_move(pos, s, H[t], R, rs)
    return decide_basic(sid, pos, s, H[t], R, played[t], roles[t], rs, params_pos[t])


@njit(**HOT)
def advance(t, T, R, C, rows, reward):
    """Play table ``t`` on until the learner must decide or its match is over."""
    S, M, sid_pos = T[T_S], T[T_M], T[T_SID_POS]
    while True:
        phase = M[t, M_PHASE]
        if phase == DEAL:
            deal_round(t, T, R)
        elif phase == EXCHANGE:
            exchange(t, T, R)
        elif phase == PLAY:
            if S[t, S_OVER] != 0:
                end_round(t, T, R, C, rows, reward)
                continue
            pos = S[t, S_TURN]
            if sid_pos[t, pos] == LEARNER:
                if R[R_TRICK_FLAGS] & SUITED != 0:  # his legal plays, as a strategy's
                    write_allowed(
                        S[t],
                        T[T_H][t, CARDS + pos],
                        S[t, S_TOP_RANK],
                        S[t, S_TOP_COUNT],
                        trick_rule_flags(R),
                    )
                M[t, M_PHASE] = MOVE
                return
            r, c = other_move(t, T, R, pos)
            play_move(t, T, R, pos, r, c, U0, False)
        else:
            return
