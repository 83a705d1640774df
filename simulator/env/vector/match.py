"""A table's match from deal to deal: what the kernel's match loop does between rounds.

The steps of :func:`simulator.matchloop.matches.play_match` (the match's start, each
round's deal, the card exchange, the round's seats and roles, its end: places, points,
totals, the target) on a table's row, cut where the learner decides: the exchange stops
at his give-back and goes on from the same pair once he has given (``M_PAIR``,
``M_CLUB``). The deal, the dealer's and the opener's positions and the give-backs are
the match loop's own functions; only its sequence of them is written again here, with
the learner's pause in it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.env.vector.state import (
    C_CUT,
    C_LEARNER,
    C_POINTS,
    C_ROUNDS,
    DEAL,
    EXCHANGE,
    GIVE,
    LEARNER,
    M_CLUB,
    M_DEALER,
    M_DEALER_PLAYER,
    M_END,
    M_GIVEN,
    M_LEADER,
    M_MATCH,
    M_PAIR,
    M_PHASE,
    M_REACHED,
    M_ROUND,
    M_RUN,
    M_TO_GIVE,
    OVER,
    PLAY,
    T_BASE,
    T_BY_PLACE,
    T_DECK,
    T_DRAWS,
    T_GIVE,
    T_H,
    T_KEY,
    T_M,
    T_PARAMS_PL,
    T_PARAMS_POS,
    T_PLACES,
    T_PLAYED,
    T_POS_OF,
    T_PREV,
    T_ROLE_TAB,
    T_ROLES,
    T_RS,
    T_RS_DEAL,
    T_S,
    T_SEATING,
    T_SID_PL,
    T_SID_POS,
    T_SLOT_POS,
    T_TOTALS,
)
from simulator.kernel.bits import (
    RANKS,
    U0,
    add_card,
    below,
    count_of,
    highest,
    remove_cards,
    stream_init,
)
from simulator.kernel.config import INLINE
from simulator.kernel.hand_strength import hand_strength_k
from simulator.kernel.layout import (
    CLUBS_EVERY,
    CLUBS_OFF,
    R_CLUBS,
    R_EXCH,
    R_JOKERS,
    R_N,
    R_NEXCH,
    R_OPENING,
    R_POINTS,
    R_RESEAT,
    R_TARGET,
    R_TRICK_FLAGS,
    S_PASSES,
    S_PLAYS,
    S_SKIPS,
    S_TRICKS,
    SUITED,
)
from simulator.kernel.step import (
    president_of,
    start_round,
)
from simulator.kernel.suits import given, move_cards
from simulator.matchloop.deal import deal
from simulator.matchloop.matches import (
    OUT_DEALER,
    OUT_LEADER,
    OUT_MATCH,
    OUT_PASSES,
    OUT_PLAYS,
    OUT_ROUND,
    OUT_SKIPS,
    OUT_TRICKS,
    OUT_WINNER,
    SEAT_PLACE,
    SEAT_POINTS,
    SEAT_POS,
    SEAT_STRENGTH,
    SEAT_TOTAL,
    opener_position,
    position_after,
)
from simulator.matchloop.rowspec import OUT_SEATS
from simulator.rules.cards import THREE
from strategies.dispatch import give_back, give_back_opening


@njit(**INLINE)
def start_match(t, m, T):
    """Table ``t`` begins match ``m``: seats as dealt, no points, the play stream of ``m``."""
    M, seating, pos_of, prev, totals = T[T_M], T[T_SEATING], T[T_POS_OF], T[T_PREV], T[T_TOTALS]
    M[t, :] = 0
    M[t, M_MATCH] = m
    M[t, M_PHASE] = DEAL
    M[t, M_CLUB] = -1
    for p in range(seating.shape[1]):
        seating[t, p] = p
        pos_of[t, p] = p
        totals[t, p] = 0
        prev[t, p] = 0
    stream_init(T[T_RS][t], T[T_KEY][0], m, U0)


@njit(**INLINE)
def deal_round(t, T, R):
    """Deal round ``M_ROUND`` as the match loop does (the dealer by the rules, the deal's
    stream by the round); the first round has no exchange."""
    H, M, seating, pos_of, by_place, prev = (
        T[T_H],
        T[T_M],
        T[T_SEATING],
        T[T_POS_OF],
        T[T_BY_PLACE],
        T[T_PREV],
    )
    rs_deal, deck, slot_pos, base, draws = (
        T[T_RS_DEAL],
        T[T_DECK],
        T[T_SLOT_POS],
        T[T_BASE],
        T[T_DRAWS],
    )
    n = R[R_N]
    rd = M[t, M_ROUND]
    stream_init(rs_deal[t], T[T_KEY][0], M[t, M_MATCH], np.uint64(rd + 1))
    if rd == 0:
        dealer = below(rs_deal[t], n)
    else:
        if R[R_RESEAT]:
            for p in range(n):
                seating[t, prev[t, p] - 1] = p
            for pos in range(n):
                pos_of[t, seating[t, pos]] = pos
        dealer = position_after(R, pos_of[t], by_place[t], M[t, M_DEALER_PLAYER], n)
    M[t, M_DEALER] = dealer
    M[t, M_DEALER_PLAYER] = seating[t, dealer]
    first = dealer + 1 if dealer + 1 < n else 0
    for k in range(n):
        slot_pos[t, k] = first + k if first + k < n else first + k - n
    clubs = R[R_CLUBS]
    opening = R[R_OPENING] if clubs != CLUBS_OFF else -1
    ids = R[R_TRICK_FLAGS] & SUITED != 0
    club = deal(rs_deal[t], dealer, slot_pos[t], n, R[R_JOKERS], deck[t], H[t], base[t], opening,
                draws[t], ids)  # fmt: skip
    M[t, M_CLUB] = club
    if rd == 0:
        begin_round(t, T, R, club if clubs != CLUBS_OFF else first)
    else:
        M[t, M_PAIR] = 1
        M[t, M_PHASE] = EXCHANGE


@njit(**INLINE)
def begin_round(t, T, R, leader):
    """The round's seats, strategies and roles, then its first move (``start_round``)."""
    H, S, M, played, places, roles, seating, prev = (
        T[T_H],
        T[T_S],
        T[T_M],
        T[T_PLAYED],
        T[T_PLACES],
        T[T_ROLES],
        T[T_SEATING],
        T[T_PREV],
    )
    sid_pos, params_pos, sid_pl, params_pl, role_tab = (
        T[T_SID_POS],
        T[T_PARAMS_POS],
        T[T_SID_PL],
        T[T_PARAMS_PL],
        T[T_ROLE_TAB],
    )
    n = R[R_N]
    rd = M[t, M_ROUND]
    for pos in range(n):
        p = seating[t, pos]
        sid_pos[t, pos] = sid_pl[p]
        for j in range(params_pl.shape[1]):
            params_pos[t, pos, j] = params_pl[p, j]
        roles[t, pos] = role_tab[prev[t, p]] if rd > 0 else -1
    M[t, M_LEADER] = seating[t, leader]
    M[t, M_RUN] = 0
    start_round(S[t], H[t], n, leader, played[t], places[t], president_of(roles[t], n))
    M[t, M_PHASE] = PLAY


@njit(**INLINE)
def exchange(t, T, R):
    """The exchange from pair ``M_PAIR`` on (:func:`simulator.matchloop.matches.exchange`):
    the worse gives his best cards, the better gives back his strategy's choice. Stops at
    the learner's give-back (phase GIVE, his hand holding what he received), else leads
    the round."""
    H, M, pos_of, by_place = T[T_H], T[T_M], T[T_POS_OF], T[T_BY_PLACE]
    rs, give, sid_pl, params_pl = T[T_RS][t], T[T_GIVE][t], T[T_SID_PL], T[T_PARAMS_PL]
    n = R[R_N]
    suited = R[R_TRICK_FLAGS] & SUITED != 0
    club = M[t, M_CLUB]
    h = H[t]
    for i in range(M[t, M_PAIR], R[R_NEXCH] + 1):
        k = R[R_EXCH + i - 1]
        if k == 0:
            continue
        better, worse = by_place[t, i], by_place[t, n + 1 - i]
        bp, wp = pos_of[t, better], pos_of[t, worse]
        gave_up = U0
        hw, hb = h[wp], h[bp]
        for _ in range(k):
            weakest = highest(hw & RANKS)
            hw = remove_cards(hw, weakest, 1)
            hb = add_card(hb, weakest)
            gave_up = add_card(gave_up, weakest)
        if club == wp and count_of(hw, THREE) == 0:
            club = bp
        if suited:
            club = move_cards(h, wp, bp, gave_up, club, R[R_OPENING])
        if sid_pl[better] == LEARNER:
            h[wp], h[bp] = hw, hb
            M[t, M_CLUB], M[t, M_PAIR] = club, i
            M[t, M_TO_GIVE], M[t, M_GIVEN] = k, 0
            M[t, M_PHASE] = GIVE
            return
        if R[R_CLUBS] == CLUBS_EVERY and club == bp:
            hb = give_back_opening(sid_pl[better], hb, k, rs, params_pl, give, better)
        else:
            hb = give_back(sid_pl[better], hb, k, rs, params_pl, give)
        h[wp], h[bp] = hw, hb
        club = exchanged(h, R, wp, bp, give, k, club, suited)
    M[t, M_CLUB] = club
    lead_after_exchange(t, T, R)


@njit(**INLINE)
def exchanged(h, R, wp, bp, give, k, club, suited):
    """The cards ``give[:k]`` given back by position ``bp`` reach ``wp`` (his hand ``h[bp]``
    is without them already), the 3 that opens following them; returns where it is."""
    for j in range(k):
        h[wp] = add_card(h[wp], give[j])
    if club == bp and count_of(h[bp], THREE) == 0:
        club = wp
    if suited:
        club = move_cards(h, bp, wp, given(give, k), club, R[R_OPENING])
    return club


@njit(**INLINE)
def lead_after_exchange(t, T, R):
    """Who leads once the exchange is over: the 3 of clubs, or the rules' opener."""
    M, pos_of, by_place = T[T_M], T[T_POS_OF], T[T_BY_PLACE]
    if R[R_CLUBS] == CLUBS_EVERY:
        leader = M[t, M_CLUB]
    else:
        leader = opener_position(R, pos_of[t], by_place[t], M[t, M_DEALER], R[R_N])
    begin_round(t, T, R, leader)


@njit(**INLINE)
def end_round(t, T, R, C, rows, reward):
    """The round is over: places, points and totals as the match loop records them (the
    row in ``rows[t, round]`` when there is room), the learner's reward; the match ends
    at the rules' target or at its last round."""
    S, M, places, pos_of, by_place, prev, totals = (
        T[T_S],
        T[T_M],
        T[T_PLACES],
        T[T_POS_OF],
        T[T_BY_PLACE],
        T[T_PREV],
        T[T_TOTALS],
    )
    base = T[T_BASE]
    n = R[R_N]
    rd = M[t, M_ROUND]
    best, nbest, who = -(1 << 30), 0, -1
    keep = rd < rows.shape[1]
    for p in range(n):
        at = pos_of[t, p]
        place = places[t, at]
        prev[t, p] = place
        by_place[t, place] = p
        pts = R[R_POINTS + place]
        totals[t, p] += pts
        if p == C[C_LEARNER]:
            reward[t] += pts if C[C_POINTS] else (n + 1 - 2 * place) / (n - 1)
        if keep:
            o = rows[t, rd]
            o[OUT_SEATS + SEAT_PLACE * n + p] = place
            o[OUT_SEATS + SEAT_POINTS * n + p] = pts
            o[OUT_SEATS + SEAT_TOTAL * n + p] = totals[t, p]
            o[OUT_SEATS + SEAT_POS * n + p] = at
            o[OUT_SEATS + SEAT_STRENGTH * n + p] = hand_strength_k(base[t, at])
        if totals[t, p] > best:
            best, nbest, who = totals[t, p], 1, p
        elif totals[t, p] == best:
            nbest += 1
    won = False
    if R[R_TARGET] > 0:
        M[t, M_REACHED] = M[t, M_REACHED] or best >= R[R_TARGET]
        won = M[t, M_REACHED] != 0 and nbest == 1
    if keep:
        o = rows[t, rd]
        o[OUT_MATCH], o[OUT_ROUND] = M[t, M_MATCH], rd
        o[OUT_DEALER], o[OUT_LEADER] = M[t, M_DEALER_PLAYER], M[t, M_LEADER]
        o[OUT_TRICKS], o[OUT_PLAYS] = S[t, S_TRICKS], S[t, S_PLAYS]
        o[OUT_PASSES], o[OUT_SKIPS] = S[t, S_PASSES], S[t, S_SKIPS]
        o[OUT_WINNER] = who if won else -1
    M[t, M_ROUND] = rd + 1
    if won or rd + 1 >= C[C_ROUNDS]:
        cut = R[R_TARGET] > 0 and not won and C[C_CUT] != 0
        M[t, M_END] = 2 if cut else 1
        M[t, M_PHASE] = OVER
    else:
        M[t, M_PHASE] = DEAL
