"""The round loop: each player in turn chooses a move through the strategy dispatch.

:func:`simulator.kernel.step.step` is the one implementation of a move's consequences;
this loop asks the strategy of the player to move (by kernel id, see
:mod:`strategies.dispatch`) and steps until the round is over.
"""

from __future__ import annotations

from numba import njit

from simulator.kernel.config import HOT, INLINE
from simulator.kernel.layout import S_REV, S_TOP_COUNT, S_TOP_RANK, S_TRACE
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
from strategies.kernels import lowest_move, random_move
from strategies.specs import RANDOM


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


@njit(**HOT)
def play_round(S, H, R, played, places, roles, sid_pos, params_pos, rs, seat_streams, srow, trace):
    """Play the round to its end, each position's strategy choosing its moves.

    The player at position ``pos`` draws his random numbers from stream ``srow[pos]``
    (:func:`use_stream`: −1 the shared stream ``rs``, else his seat's own under duplicate
    deals).

    The state lives in locals; it is written to ``S`` before each decision so that the
    strategy reads the current position (for ``lowest`` and ``random``, which read only
    the top and the order in force, just those slots: a tenth of the kernel's time). When
    ``trace`` is not empty every move is appended to it as ``pos << 8 | count << 4 |
    rank`` (count 0: pass), for the engines' comparison tests.

    With the second catalogue's rules all off, :func:`step` is inlined with ``table`` the
    constant 0, so every test of them folds away (they cost 3 % otherwise); with any on,
    the move goes through :func:`~simulator.kernel.step.step_table`, compiled apart.
    """
    fl = rule_flags(R)
    table = table_flags(R)
    st = load_state(S)
    cur = -1
    while st[ST_OVER] == 0:
        pos = st[ST_TURN]
        sid = sid_pos[pos]
        if sid > RANDOM:
            store_state(S, st)
            cur = use_stream(rs, seat_streams, cur, srow[pos])
            r, c = decide(sid, pos, S, H, R, played, roles, rs, params_pos)
        else:  # the reference strategies read only the top and the order in force
            S[S_TOP_RANK] = st[ST_TOP_RANK]
            S[S_TOP_COUNT] = st[ST_TOP_COUNT]
            S[S_REV] = st[ST_REV]
            if sid == RANDOM:
                cur = use_stream(rs, seat_streams, cur, srow[pos])
                r, c = random_move(pos, S, H, R, rs)
            else:
                r, c = lowest_move(pos, S, H, R)
        if trace.size > 0 and S[S_TRACE] < trace.size:
            trace[S[S_TRACE]] = (pos << 8) | (c << 4) | r
            S[S_TRACE] += 1
        if table == 0:
            st = step(st, fl, 0, pos, r, c, H, played, places, S)
        else:
            st = step_table(st, fl, table, pos, r, c, H, played, places, S)
    release_stream(rs, seat_streams, cur)
    store_state(S, st)
