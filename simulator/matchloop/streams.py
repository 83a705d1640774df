"""The play streams of a round: the match's shared stream, or a seat's own under duplicate deals."""

from __future__ import annotations

from numba import njit

from simulator.kernel.config import INLINE


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
