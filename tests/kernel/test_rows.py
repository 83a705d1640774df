"""The kernel's rows leave the empty seats' columns at zero.

The loop writes only the seated players' columns; :func:`run_matches` hands it rows
filled with zeros. The test first leaves memory of the same size full of garbage, which
an allocator would hand out again to a buffer that is not cleared.
"""

from __future__ import annotations

import numpy as np

from simulator.matchloop.api import KernelJob, run_matches
from simulator.matchloop.matches import (
    OUT_COLS,
    OUT_PLACE,
    OUT_POINTS,
    OUT_POS,
    OUT_STRENGTH,
    OUT_TOTAL,
)
from simulator.rules.options import MAX_PLAYERS, Rules


def test_empty_seats_are_zero_whatever_the_memory_held() -> None:
    job = KernelJob.build(Rules(players=4), ["lowest", "random"] * 2, 5, 3, 100)
    block = 8
    for _ in range(3):
        garbage = np.full((block * job.expected_rounds, OUT_COLS), 0x5A5A5A5A, np.int32)
        del garbage
        rows = run_matches(job, 0, block, block)
        for first in (OUT_PLACE, OUT_POINTS, OUT_TOTAL, OUT_POS, OUT_STRENGTH):
            assert not rows[:, first + 4 : first + MAX_PLAYERS].any()
        assert rows[:, OUT_PLACE : OUT_PLACE + 4].min() == 1  # the seated players' are written
