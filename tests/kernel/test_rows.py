"""The kernel's rows: the seated players' columns only, every value written.

A row holds ``out_cols(n)`` columns: the round's, then ``n`` for each per-player
quantity. :func:`run_matches` allocates the rows without clearing them, so the test
first leaves memory of the same size full of garbage, which the allocator hands out
again: a column the kernel forgot would show it.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.matchloop.api import KernelJob, run_matches
from simulator.matchloop.matches import (
    OUT_SEATS,
    SEAT_PLACE,
    SEAT_QUANTITIES,
    out_cols,
    seat_col,
    seats,
)
from simulator.rules.options import Rules

GARBAGE = 0x5A5A5A5A


@pytest.mark.parametrize("players", [3, 4, 7])
def test_every_value_of_a_row_is_written(players: int) -> None:
    job = KernelJob.build(Rules(players=players), (["lowest", "random"] * 4)[:players], 5, 3, 100)
    block = 8
    for _ in range(3):
        garbage = np.full((block * job.expected_rounds, out_cols(players)), GARBAGE, np.int32)
        del garbage
        rows = run_matches(job, 0, block, block)
        assert rows.shape == (block * 3, OUT_SEATS + SEAT_QUANTITIES * players)
        assert not (rows == GARBAGE).any()
        assert sorted(seats(rows, SEAT_PLACE, players)[0]) == list(range(1, players + 1))


def test_the_quantities_follow_each_other_n_columns_apart() -> None:
    assert [seat_col(q, 5) for q in range(SEAT_QUANTITIES)] == [9, 14, 19, 24, 29]
    row = np.arange(out_cols(5))
    assert seats(row, 2, 5).tolist() == [19, 20, 21, 22, 23]
