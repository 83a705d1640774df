"""The learner's decisions at a table: his action applied, or a built-in's choice as an action.

An action is the PettingZoo environment's (:mod:`simulator.env.encoding`): a play by
rank and count, the pass, a card given, a play by its suits, a sequence. The learner
answers the same questions a strategy of the kernel is asked, where the kernel asks
them: a move of his turn; in the exchange, his give-back, one card a step; after his
play of 7s or 10s, the cards it hands over, one a step (the play is stepped once they
are chosen, as the kernel's ``gift_step`` does).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.env.encoding import GIVE_BASE, PASS_ACTION, RUN_BASE, SUIT_SETS, SUITS_BASE
from simulator.env.vector.match import exchanged
from simulator.env.vector.state import (
    EXCHANGE,
    GIVE,
    HAND_OVER,
    M_CLUB,
    M_GIVEN,
    M_PAIR,
    M_PHASE,
    M_PLAY_C,
    M_PLAY_R,
    M_QUEUED,
    M_TO_GIVE,
    MOVE,
    PLAY,
    SHAPE_AT,
    SHAPES,
    T_BY_PLACE,
    T_GIVE,
    T_H,
    T_M,
    T_PLAYED,
    T_POS_OF,
    T_QUEUE,
    T_ROLES,
    T_RS,
    T_S,
)
from simulator.env.vector.tables import hand_over_given, play_move
from simulator.kernel.bits import U0, popc, remove_cards
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import CARDS
from simulator.kernel.layout import (
    CLUBS_EVERY,
    R_CLUBS,
    R_N,
    R_TRICK_FLAGS,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TURN,
    SUITED,
)
from simulator.kernel.runs import RUNS_AT, is_run, run_length, run_suit
from simulator.kernel.suits import chosen_cards
from simulator.rules.cards import JOKER
from strategies.dispatch import give_back, give_back_opening
from strategies.policies import decide_basic


@njit(**INLINE)
def action_move(a):
    """The move of action ``a`` (not a give): ``(rank, count, cards)``, count 0 a pass, a
    sequence's count from ``RUNS_AT``, ``cards`` the card mask a play by suits names (0:
    the rules' default cards)."""
    if a == PASS_ACTION:
        return 0, 0, U0
    if a < PASS_ACTION:
        return a // 4, a % 4 + 1, U0
    if a >= RUN_BASE:
        shape, suit = (a - RUN_BASE) // 4, (a - RUN_BASE) % 4
        return SHAPES[shape, 1], RUNS_AT + 4 * SHAPES[shape, 0] + suit, U0
    r, suits = (a - SUITS_BASE) // SUIT_SETS, (a - SUITS_BASE) % SUIT_SETS + 1
    return r, popc(np.uint64(suits)), np.uint64(suits) << np.uint64(4 * r)


@njit(**HOT)
def learner_acts(t, T, R, a):
    """Table ``t``'s learner takes action ``a`` (legal: the mask was checked)."""
    H, M, pos_of, by_place, give = T[T_H], T[T_M], T[T_POS_OF], T[T_BY_PLACE], T[T_GIVE]
    phase = M[t, M_PHASE]
    if phase == MOVE:
        r, c, cards = action_move(a)
        M[t, M_PHASE] = PLAY
        play_move(t, T, R, T[T_S][t, S_TURN], r, c, cards, True)
        return
    g = M[t, M_GIVEN]
    give[t, g] = a - GIVE_BASE
    M[t, M_GIVEN] = g + 1
    if phase == GIVE:
        i = M[t, M_PAIR]
        bp, wp = pos_of[t, by_place[t, i]], pos_of[t, by_place[t, R[R_N] + 1 - i]]
        H[t, bp] = remove_cards(H[t, bp], a - GIVE_BASE, 1)
        if g + 1 == M[t, M_TO_GIVE]:
            suited = R[R_TRICK_FLAGS] & SUITED != 0
            M[t, M_CLUB] = exchanged(H[t], R, wp, bp, give[t], g + 1, M[t, M_CLUB], suited)
            M[t, M_PAIR], M[t, M_PHASE], M[t, M_QUEUED] = i + 1, EXCHANGE, 0
    elif g + 1 == M[t, M_TO_GIVE]:  # HAND_OVER
        M[t, M_QUEUED] = 0
        hand_over_given(t, T, R)


@njit(**HOT)
def builtin_action(t, T, R, sid, params):
    """The action built-in ``sid`` (parameters ``params``, a row per position) takes in
    table ``t``'s decision, drawing from the table's play stream as the kernel draws for
    that seat; a give-back is chosen whole at its first card and queued for the next."""
    H, S, M, queue = T[T_H], T[T_S], T[T_M], T[T_QUEUE]
    phase = M[t, M_PHASE]
    rs = T[T_RS][t]
    s = S[t]
    if phase in (GIVE, HAND_OVER):
        if M[t, M_QUEUED] == 0:
            k = M[t, M_TO_GIVE]
            if phase == GIVE:
                bp = T[T_POS_OF][t, T[T_BY_PLACE][t, M[t, M_PAIR]]]
                if R[R_CLUBS] == CLUBS_EVERY and M[t, M_CLUB] == bp:
                    give_back_opening(sid, H[t, bp], k, rs, params, queue[t], bp)
                else:
                    give_back(sid, H[t, bp], k, rs, params, queue[t])
            else:
                hand = remove_cards(H[t, s[S_TURN]], M[t, M_PLAY_R], M[t, M_PLAY_C])
                give_back(sid, hand, k, rs, params, queue[t])
            M[t, M_QUEUED] = k
        return GIVE_BASE + queue[t, M[t, M_GIVEN]]
    pos = s[S_TURN]
    r, c = decide_basic(sid, pos, s, H[t], R, T[T_PLAYED][t], T[T_ROLES][t], rs, params)
    if c == 0:
        return PASS_ACTION
    if is_run(c):
        return RUN_BASE + 4 * (SHAPE_AT[run_length(c)] + r) + run_suit(c)
    if R[R_TRICK_FLAGS] & SUITED != 0 and r != JOKER:
        trick_rules = R[R_TRICK_FLAGS]
        k = H[t, CARDS + pos]
        cards = chosen_cards(s, k, r, c, s[S_TOP_RANK], s[S_TOP_COUNT], trick_rules)
        suits = (cards >> np.uint64(4 * r)) & np.uint64(15)
        return SUITS_BASE + SUIT_SETS * r + np.int64(suits) - 1
    return 4 * r + c - 1
