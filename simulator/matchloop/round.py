"""The round loop: each player in turn chooses a move through the strategy dispatch.

:func:`simulator.kernel.step.step` is the one implementation of a move's consequences;
this loop asks the strategy of the player to move (by kernel id, see
:mod:`strategies.dispatch`) and steps until the round is over.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.config import INLINE
from simulator.kernel.layout import S_TRACE
from simulator.kernel.legal import legal_flags
from simulator.kernel.step import (
    ST_OVER,
    ST_REV,
    ST_TOP_COUNT,
    ST_TOP_RANK,
    ST_TURN,
    load_state,
    rule_flags,
    step,
    step_table,
    store_state,
    table_flags,
)
from strategies.dispatch import decide
from strategies.kernels import lowest_choice, random_pick
from strategies.specs import LOWEST, RANDOM


@njit(**INLINE)
def use_stream(rs, seat_streams, cur, row):
    """Make ``rs`` hold stream ``row`` for the next draws; returns the row it now holds.

    Row −1 is the match's shared stream, which always lives in ``rs``; rows 0… are the
    seats' own streams under duplicate deals, kept in ``seat_streams`` and swapped in and
    out of ``rs`` (three words) so that strategies always draw from a plain 1-d stream.
    """
    if row < 0 or row == cur:
        return cur
    if cur >= 0:
        for k in range(3):
            seat_streams[cur, k] = rs[k]
    for k in range(3):
        rs[k] = seat_streams[row, k]
    return row


@njit(**INLINE)
def release_stream(rs, seat_streams, cur):
    """Put the seat stream ``rs`` holds (if any) back into ``seat_streams``."""
    if cur >= 0:
        for k in range(3):
            seat_streams[cur, k] = rs[k]


@njit(**INLINE)
def play_round(S, H, R, played, places, roles, sid_pos, params_pos, rs, seat_streams, srow, trace):
    """Play the round to its end, each position's strategy choosing its moves.

    The player at position ``pos`` draws his random numbers from stream ``srow[pos]``
    (:func:`use_stream`: −1 the shared stream ``rs``, else his seat's own under duplicate
    deals).

    The state and the rules live in locals (registers): ``lowest`` and ``random`` choose
    from them directly; any other strategy reads the state array ``S``, written just
    before it decides. When ``trace`` is not empty every move is appended to it as ``pos
    << 8 | count << 4 | rank`` (count 0: pass), for the engines' comparison tests.

    With the second catalogue's rules all off, :func:`step` is inlined with ``table`` the
    constant 0, so every test of them folds away (they cost 3 % otherwise); with any on,
    the move goes through :func:`~simulator.kernel.step.step_table`, compiled apart.
    """
    fl = rule_flags(R)
    lf = legal_flags(R)
    table = table_flags(R)
    tracing = trace.size > 0
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
        if table == 0:
            st = step(st, fl, 0, pos, r, c, H, played, places, S)
        else:
            st = step_table(st, fl, table, pos, r, c, H, played, places, S)
    rs[0], rs[1], rs[2] = s, buf, have
    release_stream(rs, seat_streams, cur)
    store_state(S, st)
