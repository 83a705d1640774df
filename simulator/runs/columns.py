"""The columns of the rounds table from kernel rows, in one compiled pass.

Turning a part's rows (one per round, ``int32[rounds, out_cols(n)]``) into the table's
columns (one value per player per round) took about forty numpy passes over a part of
a million seat-rows, each reading one column out of the wide rows: 41 ms a part, a
third of the writer thread's time, on a machine whose two cores the kernel's two
threads already fill. :func:`fill_columns` writes every column in one pass over the
rows (about 5 ms). :func:`simulator.runs.schema.table_from_rows` allocates the columns
with the dtypes of the row spec (:mod:`simulator.matchloop.rowspec`), in its order,
and wraps them in Arrow.

The rows' layout comes in as an argument (:func:`row_layout`, from the row spec), never
as a global: numba freezes a global's value into the cached code and would not notice a
change of the kernel's ``OUT_*`` and ``SEAT_*`` slots.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.config import JIT
from simulator.matchloop.matches import seat_col
from simulator.matchloop.rowspec import OUT, SEAT


def row_layout(n: int) -> np.ndarray:
    """The kernel rows' column of each slot of the row spec at ``n`` players: the round's
    slots (``OUT``), then each per-player quantity's first column (``SEAT``), in the
    order :func:`fill_columns` unpacks them."""
    firsts = list(OUT.values()) + [seat_col(quantity, n) for quantity in SEAT.values()]
    return np.array(firsts, dtype=np.int64)


@njit(**JIT)
def fill_columns(
    rows, codes, layout, roles, prev_roles,
    match, round, seat, strategy, place, role, prev_role, points, total, position,
    dealt, led, tricks, plays, passes, skips, won_match, hand_strength,
):  # fmt: skip
    """Fill the columns (one entry per player per round, rounds in row order) from
    ``rows`` of whole matches in match order; ``codes[row, seat]`` is the seat's strategy,
    ``roles[place]`` and ``prev_roles[place]`` the role indices of a place (place 0 under
    ``prev_roles``: no previous round). Values are cast to each column's dtype.

    The columns come in the row spec's order and bear its names
    (:data:`simulator.matchloop.rowspec.COLUMNS`: ``tests/kernel/test_rows.py`` checks
    it), the slots in :func:`row_layout`'s."""
    (c_match, c_round, c_dealer, c_leader, c_tricks, c_plays, c_passes, c_skips, c_winner,
     c_place, c_points, c_total, c_pos, c_strength) = layout  # fmt: skip
    n = codes.shape[1]
    k = 0
    for i in range(rows.shape[0]):
        m = rows[i, c_match]
        same_match = i > 0 and rows[i - 1, c_match] == m
        for p in range(n):
            match[k] = m
            round[k] = rows[i, c_round]
            seat[k] = p
            strategy[k] = codes[i, p]
            pl = rows[i, c_place + p]
            place[k] = pl
            role[k] = roles[pl]
            prev_role[k] = prev_roles[rows[i - 1, c_place + p] if same_match else 0]
            points[k] = rows[i, c_points + p]
            total[k] = rows[i, c_total + p]
            position[k] = rows[i, c_pos + p]
            dealt[k] = rows[i, c_dealer] == p
            led[k] = rows[i, c_leader] == p
            tricks[k] = rows[i, c_tricks]
            plays[k] = rows[i, c_plays]
            passes[k] = rows[i, c_passes]
            skips[k] = rows[i, c_skips]
            won_match[k] = rows[i, c_winner] == p
            hand_strength[k] = rows[i, c_strength + p]
            k += 1
