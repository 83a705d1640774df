"""The kernel's rows: the seated players' columns only, every value written.

A row holds ``out_cols(n)`` columns: the round's, then ``n`` for each per-player
quantity. :func:`run_matches` allocates the rows without clearing them, so the test
first leaves memory of the same size full of garbage, which the allocator hands out
again: a column the kernel forgot would show it.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

from simulator.matchloop import matches
from simulator.matchloop.api import KernelJob, rows_room, run_matches
from simulator.matchloop.matches import (
    OUT_SEATS,
    SEAT_PLACE,
    SEAT_QUANTITIES,
    out_cols,
    seat_col,
    seats,
)
from simulator.matchloop.rowspec import COLUMNS, OUT, SEAT, SPEC
from simulator.rules.options import Rules
from simulator.runs.columns import fill_columns, row_layout

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


@pytest.mark.parametrize("names", [["lowest"] * 4, ["lowest", "random"] * 2])
@pytest.mark.parametrize("target", [0, 9])
def test_rows_written_into_a_given_array_are_the_same_rows(names: list[str], target: int) -> None:
    """``into``, used call after call, full of another job's rows: the rows equal those
    of fresh memory, on one block or several. Matches of fixed length fill their blocks,
    and their rows are a view of it; under a target they are gathered from the blocks."""
    rules = Rules().with_options(points={"top": [2, 1], "bottom": []}, target=target)
    job = KernelJob.build(rules, names, 7, None if target else 3, 100)
    other = KernelJob.build(Rules(), ["random"] * 4, 8, 3, 100)
    into = np.full((rows_room(job, 40, 8), out_cols(4)), GARBAGE, np.int32)
    for lo, hi, block in [(0, 40, 8), (5, 12, 4), (0, 40, 8)]:
        rows = run_matches(job, lo, hi, block, into=into)
        assert np.shares_memory(rows, into) == (target == 0)
        assert np.array_equal(rows, run_matches(job, lo, hi, block))
        run_matches(other, 0, 4, 4, into=into)  # the next user's rows over them


def test_an_array_without_room_for_the_rows_is_refused() -> None:
    job = KernelJob.build(Rules(), ["lowest"] * 4, 1, 10, 100)
    room = rows_room(job, 16, 8)
    assert room == 160
    with pytest.raises(ValueError, match=r"room for int32\[160, 29\]"):
        run_matches(job, 0, 16, 8, into=np.empty((room - 1, 29), np.int32))
    with pytest.raises(ValueError, match="into: int64"):
        run_matches(job, 0, 16, 8, into=np.empty((room, 29), np.int64))


def test_the_kernel_slots_are_those_the_row_spec_numbers() -> None:
    """Every slot a column reads is a round's (``OUT_``) or a player's (``SEAT_``) and
    has the kernel constant of its name and number."""
    for prefix, slots in (("OUT_", OUT), ("SEAT_", SEAT)):
        assert {s: getattr(matches, prefix + s) for s in slots} == slots
    assert {c.slot for c in SPEC} - {""} == {f"OUT_{s}" for s in OUT} | {f"SEAT_{s}" for s in SEAT}


def test_fill_columns_takes_the_columns_and_slots_in_the_row_specs_order() -> None:
    """The compiled fill binds its arguments by position: its column parameters bear the
    row spec's names in its order, and it unpacks the layout in :func:`row_layout`'s
    order of slots (``c_<slot>``), so a column or slot out of place fails here."""
    source = inspect.getsource(fill_columns.py_func)
    params = list(inspect.signature(fill_columns.py_func).parameters)
    assert tuple(params[5:]) == COLUMNS
    unpacked = re.search(r"\(([^)]*)\) = layout", source)
    assert unpacked is not None
    names = [name.strip() for name in unpacked.group(1).split(",")]
    assert names == [f"c_{slot.lower()}" for slot in (*OUT, *SEAT)]
    assert len(row_layout(4)) == len(names)
