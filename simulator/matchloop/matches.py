"""Whole matches in the kernel, and the loop over blocks of matches.

The fast twin of :func:`simulator.reference.match.play_match`: the same streams drawn in the same
order (first dealer, shuffle, give-backs, strategies' choices), so the reference engine
replays any kernel match move for move. Duplicate deals (the fixed frame of the hands,
the rotations, each seat's own stream) follow :mod:`simulator.matchloop.seating`.

Output: one row per round in an ``int32`` array ``out[row, :out_cols(n)]``: the
``OUT_*`` columns, then ``n`` columns for each per-player quantity (:func:`seats`;
players indexed by the seat they held at the start of the match), the slots the row
spec numbers (:mod:`simulator.matchloop.rowspec`). Blocks of matches are
independent, each writing only its own rows; the caller runs ranges of blocks in threads
(:func:`simulator.matchloop.api.run_matches`: the loop releases the GIL), which is as
fast as numba's ``prange``, costs 6 s less to compile, and tells the caller how far a
long call has come. A block whose rows would overflow its region stops at a match
boundary and reports how many matches it finished, so the caller can run the rest
again — results never depend on blocks or threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.hand_strength import hand_strength_k
from simulator.kernel.knowledge import H_SIZE, forget, note_exchange
from simulator.kernel.layout import (
    BY_LEFT,
    BY_PRESIDENT,
    CLUBS_EVERY,
    CLUBS_OFF,
    DECK,
    MAX_PLAYERS,
    R_CLUBS,
    R_DEALER,
    R_EXCH,
    R_JOKERS,
    R_N,
    R_NEXCH,
    R_OPENER,
    R_OPENING,
    R_POINTS,
    R_RESEAT,
    R_TARGET,
    R_TRICK_FLAGS,
    S_PASSES,
    S_PLAYS,
    S_SIZE,
    S_SKIPS,
    S_TRACE,
    S_TRICKS,
    SUITED,
)
from simulator.kernel.suits import given, move_cards
from simulator.matchloop import seating
from simulator.matchloop.deal import deal
from simulator.matchloop.plain import LEGAL_TABLE, fill_legal_table
from simulator.matchloop.round import ALL_LOWEST, ONLY_PLAIN, SUITS, play_round
from simulator.matchloop.rowspec import OUT, OUT_SEATS, SEAT, SEAT_QUANTITIES
from simulator.matchloop.streams import release_stream, use_stream
from simulator.reference.rng import SEAT_STREAMS
from simulator.rules.cards import NUM_RANKS, THREE
from strategies.dispatch import give_back, give_back_opening
from strategies.kernels import lowest_give
from strategies.specs import CHAMPION, MONTECARLO, PLUGIN_BASE

# the slots of a row, numbered by the row spec (plain ints: numba compiles them in)
OUT_MATCH = OUT["MATCH"]
OUT_ROUND = OUT["ROUND"]
OUT_DEALER = OUT["DEALER"]  # player who dealt
OUT_LEADER = OUT["LEADER"]  # player who led the first trick
OUT_TRICKS = OUT["TRICKS"]
OUT_PLAYS = OUT["PLAYS"]
OUT_PASSES = OUT["PASSES"]
OUT_SKIPS = OUT["SKIPS"]
OUT_WINNER = OUT["WINNER"]  # player who won the match (last round under a target), else -1
SEAT_PLACE = SEAT["PLACE"]  # from OUT_SEATS, n columns for each quantity, players by seat
SEAT_POINTS = SEAT["POINTS"]
SEAT_TOTAL = SEAT["TOTAL"]
SEAT_POS = SEAT["POS"]
SEAT_STRENGTH = SEAT["STRENGTH"]  # strength of the dealt base hand


def out_cols(n: int) -> int:
    """Columns of a row at ``n`` players: a row holds only the seated players' columns
    (less memory to fault in than a row with room for eight: docs/performance.md)."""
    return OUT_SEATS + SEAT_QUANTITIES * n


def seat_col(quantity: int, n: int) -> int:
    """The first column of a per-player ``quantity`` (``SEAT_*``) at ``n`` players."""
    return OUT_SEATS + quantity * n


def seats(rows: np.ndarray, quantity: int, n: int) -> np.ndarray:
    """The ``n`` columns of ``quantity`` (``SEAT_*``) of one row or of rows: a view."""
    first = seat_col(quantity, n)
    return rows[..., first : first + n]


SEAT_STREAMS_U = np.uint64(SEAT_STREAMS)

# the duplicate-deal scheme of simulator.matchloop.seating, compiled for the kernel
deal_source_k = njit(**INLINE)(seating.deal_source)
lineup_slot_k = njit(**INLINE)(seating.lineup_slot)
base_hand_player_k = njit(**INLINE)(seating.base_hand_player)
stream_of_k = njit(**INLINE)(seating.stream_of)


@njit(**INLINE)
def reads_knowledge(sids, n):
    """Whether a strategy of ``sids[:n]`` reads what the exchange told (the search players,
    or a user's function, which sees the whole ``H``): else the kernel records none."""
    reads = False
    for p in range(n):
        reads |= sids[p] == MONTECARLO or sids[p] == CHAMPION or sids[p] >= PLUGIN_BASE
    return reads


@njit(**INLINE)
def exchange(R, H, pos_of, by_place, sids, params, rs, seat_streams, srow, give, club):
    """The card exchange (docs/rules.md, ``exchange``): for each pair, the worse gives his
    k best cards, then the better gives back k cards of his strategy's choice (drawing,
    if it draws, from his stream ``srow[player]``: see :func:`use_stream`).

    ``club`` is the position holding the 3 of clubs (the 3 of ``opening_three``; -1: not
    followed); it moves with its holder's last 3, forced gift or give-back alike, or under
    rules that read suits with the card itself. Returns where it is after. A hand
    that holds it when it opens the round (every_round) gives back through
    ``give_back_opening``, so the common give-back keeps its signature and its speed.
    What each player learns is recorded (:mod:`simulator.kernel.knowledge`) only when a
    strategy of the table reads it.

    A loop compiled for ``lowest`` players only (``ALL_LOWEST``) gives back through
    ``lowest``'s give-back alone and touches no stream: in a harness the exchange took
    19 ns instead of 118; in whole matches, where the exchange costs about 20 ns a
    round, the gain is within the noise (1.013x in paired runs).
    """
    n = R[R_N]
    every_round = R[R_CLUBS] == CLUBS_EVERY
    knows = reads_knowledge(sids, n)
    suited = SUITS and R[R_TRICK_FLAGS] & SUITED != 0  # (SUITS: round.py)
    cur = -1
    for i in range(1, R[R_NEXCH] + 1):
        k = R[R_EXCH + i - 1]
        if k == 0:
            continue
        better = by_place[i]
        worse = by_place[n + 1 - i]
        bp = pos_of[better]
        wp = pos_of[worse]
        gave_up = U0
        weakest = np.int64(0)  # not the literal 0: note_exchange would compile twice
        hw, hb = H[wp], H[bp]  # the two hands in registers while they change
        for _ in range(k):
            weakest = highest(hw & RANKS)
            hw = remove_cards(hw, weakest, 1)
            hb = add_card(hb, weakest)
            gave_up = add_card(gave_up, weakest)
        if club == wp and count_of(hw, THREE) == 0:
            club = bp
        if suited:  # the cards behind the ranks, and the 3 of clubs exactly
            club = move_cards(H, wp, bp, gave_up, club, R[R_OPENING])
        if ALL_LOWEST:  # a loop for lowest players only: no stream, no other give-back
            hb = lowest_give(hb, k, give)
        else:
            cur = use_stream(rs, seat_streams, cur, srow[better])
            sid = sids[better]
            if every_round and club == bp:
                hb = give_back_opening(sid, hb, k, rs, params, give, better)
            else:
                hb = give_back(sid, hb, k, rs, params, give)
        for j in range(k):
            hw = add_card(hw, give[j])
        if club == bp and count_of(hb, THREE) == 0:
            club = wp
        H[wp], H[bp] = hw, hb
        if suited:
            club = move_cards(H, bp, wp, given(give, k), club, R[R_OPENING])
        if knows:
            note_exchange(H, bp, wp, gave_up, weakest, give, k)
    release_stream(rs, seat_streams, cur)
    return club


@njit(**HOT)
def position_after(R, pos_of, by_place, prev_dealer_player, n):
    """The dealer's position from round 2 on (``dealer`` rule)."""
    rule = R[R_DEALER]
    if rule == BY_LEFT:
        return (pos_of[prev_dealer_player] + 1) % n
    if rule == BY_PRESIDENT:
        return pos_of[by_place[1]]
    return pos_of[by_place[n]]


@njit(**HOT)
def opener_position(R, pos_of, by_place, dealer, n):
    """Who leads from round 2 on (``opener`` rule)."""
    rule = R[R_OPENER]
    if rule == BY_LEFT:
        return (dealer + 1) % n
    if rule == BY_PRESIDENT:
        return pos_of[by_place[1]]
    return pos_of[by_place[n]]


def make_workspace(nparams: int, R: np.ndarray) -> tuple[np.ndarray, ...]:
    """The scratch arrays of one call of the match loop (:func:`run_blocks`, which allocates
    nothing: it runs without numba's reference counting), and the plain round loop's table
    of legal plays for the rules ``R``. The matches of a call share them, as a block's
    did: nothing carries from one match to the next. Plain numpy: compiled, it added 2 s
    to a first run."""
    legal_tab = np.zeros(LEGAL_TABLE, np.uint64)
    fill_legal_table(R, legal_tab)
    return (
        np.zeros(H_SIZE, np.uint64),  # H: hands by position, then what each knows of them
        np.zeros(S_SIZE, np.int64),  # S: round state
        np.zeros(NUM_RANKS, np.int64),  # played: cards played this round by rank
        np.zeros(MAX_PLAYERS, np.int64),  # places by position
        np.full(MAX_PLAYERS, -1, np.int64),  # roles by position (previous round)
        np.zeros(MAX_PLAYERS, np.int64),  # seating[pos] = player
        np.zeros(MAX_PLAYERS, np.int64),  # pos_of[player] = pos
        np.zeros(MAX_PLAYERS + 1, np.int64),  # by_place[place] = player (previous round)
        np.zeros(MAX_PLAYERS, np.int64),  # prev_place by player
        np.zeros(MAX_PLAYERS, np.int64),  # totals by player
        np.zeros(MAX_PLAYERS, np.int64),  # strategy id by position
        np.zeros((MAX_PLAYERS, nparams), np.float64),  # strategy parameters by position
        np.zeros(3, np.uint64),  # play stream: the match's shared one, or the seat drawing
        np.zeros((MAX_PLAYERS, 3), np.uint64),  # each seat's own stream (duplicate deals)
        np.zeros(3, np.uint64),  # deal stream
        np.zeros(DECK, np.int64),  # deck
        np.zeros(8, np.int64),  # cards given back
        np.zeros(MAX_PLAYERS, np.int64),  # strategy id by player (rotated under duplicate)
        np.zeros((MAX_PLAYERS, nparams), np.float64),  # parameters by player
        np.zeros(MAX_PLAYERS, np.int64),  # stream row by player
        np.zeros(MAX_PLAYERS, np.int64),  # stream row by position
        np.zeros(MAX_PLAYERS, np.int64),  # position receiving each base hand
        np.zeros(MAX_PLAYERS, np.uint64),  # base hands by position
        np.zeros(DECK + 1, np.uint64),  # the deal's draws
        legal_tab,
    )


@njit(**INLINE)
def play_match(m, key, R, sids, params, dup, rounds_limit, role_tab, out, row, end, trace, ws):
    """Play match ``m``; write its rounds from ``row``. Returns the rows written, -1 on overflow.

    ``dup`` is the duplicate group size (:func:`simulator.matchloop.seating.group_size`),
    or 0 without duplicate deals: a group shares the deals of deal group ``m // dup`` in
    the fixed frame of the hands, its matches turn the line-up one seat each, and every
    seat draws from its own stream.
    """
    (H, S, played, places, roles, seating, pos_of, by_place, prev_place, totals, sid_pos,
     params_pos, rs_play, seat_streams, rs_deal, deck, give, sid_pl, params_pl, srow_pl, srow_pos,
     slot_pos, base, draws, legal_tab) = ws  # fmt: skip
    n = R[R_N]
    framed = dup > 0
    group = dup if framed else 1
    deal_match = deal_source_k(m, group)
    for p in range(MAX_PLAYERS):
        seating[p] = p
        pos_of[p] = p
        totals[p] = 0
        prev_place[p] = 0
    for p in range(n):
        seat = lineup_slot_k(p, m, n, group)
        sid_pl[p] = sids[seat]
        for j in range(0 if ONLY_PLAIN else params.shape[1]):  # lowest/random read none
            params_pl[p, j] = params[seat, j]
        srow_pl[p] = stream_of_k(p, framed)
        if framed:
            stream_init(seat_streams[p], key, deal_match, SEAT_STREAMS_U + np.uint64(p))
    if not framed:
        stream_init(rs_play, key, m, U0)  # purposes always uint64: one compiled signature
    knows = reads_knowledge(sid_pl, n)
    reached = False
    dealer_player = np.int64(0)  # typed, so that position_after compiles once
    first_dealer = 0
    start = row
    for rd in range(rounds_limit):
        if row >= end:
            return -1
        stream_init(rs_deal, key, deal_match, np.uint64(rd + 1))
        if rd == 0:
            dealer = below(rs_deal, n)
            first_dealer = dealer
        else:
            if R[R_RESEAT]:
                for p in range(n):
                    seating[prev_place[p] - 1] = p
                for pos in range(n):
                    pos_of[seating[pos]] = pos
            dealer = position_after(R, pos_of, by_place, dealer_player, n)
        dealer_player = seating[dealer]
        first = dealer + 1 if dealer + 1 < n else 0  # the rules' deal, from the dealer's left
        for k in range(n):
            if framed:
                slot_pos[k] = pos_of[base_hand_player_k(k, first_dealer, n)]
            else:
                slot_pos[k] = first + k if first + k < n else first + k - n
        clubs = R[R_CLUBS]
        opening = R[R_OPENING] if clubs != CLUBS_OFF else -1
        ids = SUITS and R[R_TRICK_FLAGS] & SUITED != 0  # the card masks too (SUITS: round.py)
        club = deal(rs_deal, dealer, slot_pos, n, R[R_JOKERS], deck, H, base, opening, draws, ids)
        if knows:
            forget(H)
        if rd == 0:
            leader = club if clubs != CLUBS_OFF else first
        else:
            club = exchange(R, H, pos_of, by_place, sid_pl, params_pl, rs_play, seat_streams,
                            srow_pl, give, club)  # fmt: skip
            if clubs == CLUBS_EVERY:
                leader = club
            else:
                leader = opener_position(R, pos_of, by_place, dealer, n)
        for pos in range(n):
            p = seating[pos]
            if rd == 0 or R[R_RESEAT]:  # the seating changes only then
                srow_pos[pos] = srow_pl[p]
                sid_pos[pos] = sid_pl[p]
                for j in range(0 if ONLY_PLAIN else params.shape[1]):
                    params_pos[pos, j] = params_pl[p, j]
            roles[pos] = role_tab[prev_place[p]] if rd > 0 else -1
        if trace.size > 0 and S[S_TRACE] < trace.size:
            trace[S[S_TRACE]] = -1 - rd  # round marker
            S[S_TRACE] += 1
        play_round(S, H, R, played, places, roles, sid_pos, params_pos, rs_play, seat_streams,
                   srow_pos, trace, legal_tab, give, leader)  # fmt: skip
        o = out[row]  # the round's row
        o[OUT_MATCH] = m
        o[OUT_ROUND] = rd
        o[OUT_DEALER] = dealer_player
        o[OUT_LEADER] = seating[leader]
        o[OUT_TRICKS] = S[S_TRICKS]
        o[OUT_PLAYS] = S[S_PLAYS]
        o[OUT_PASSES] = S[S_PASSES]
        o[OUT_SKIPS] = S[S_SKIPS]
        o[OUT_WINNER] = -1
        best = -(1 << 30)
        nbest = 0
        who = -1
        for p in range(n):
            at = np.uint64(pos_of[p])  # unsigned indices: no code for negative ones
            place = places[at]
            prev_place[p] = place
            by_place[np.uint64(place)] = p
            pts = R[np.uint64(R_POINTS + place)]
            totals[p] += pts
            col = np.uint64(OUT_SEATS + p)
            o[col + np.uint64(SEAT_PLACE * n)] = place
            o[col + np.uint64(SEAT_POINTS * n)] = pts
            o[col + np.uint64(SEAT_TOTAL * n)] = totals[p]
            o[col + np.uint64(SEAT_POS * n)] = at
            o[col + np.uint64(SEAT_STRENGTH * n)] = hand_strength_k(base[at])
            if totals[p] > best:
                best = totals[p]
                nbest = 1
                who = p
            elif totals[p] == best:
                nbest += 1
        row += 1
        if R[R_TARGET] > 0:
            reached = reached or best >= R[R_TARGET]
            if reached and nbest == 1:
                o[OUT_WINNER] = who
                break
    return row - start


@njit(**HOT)
def run_blocks(
    key, m_lo, m_hi, block, cap, R, sids, params, dup, rounds_limit, role_tab, out, done, trace, ws
):
    """Matches ``[m_lo, m_hi)`` in blocks of ``block`` matches, one after the other.

    Block b writes its rounds from row ``b * cap``; ``done[b]`` receives the number of
    matches it finished and ``done[nblocks + b]`` the rows it wrote. A trace (testing)
    is only meaningful with a single block.
    """
    nblocks = (m_hi - m_lo + block - 1) // block
    for b in range(nblocks):
        lo = m_lo + b * block
        hi = min(m_hi, lo + block)
        row = b * cap
        end = row + cap
        finished = 0
        for m in range(lo, hi):
            written = play_match(
                m, key, R, sids, params, dup, rounds_limit, role_tab, out, row, end, trace, ws
            )
            if written < 0:
                break
            row += written
            finished += 1
        done[b] = finished
        done[nblocks + b] = row - b * cap
