"""The engines of one machine: the numba kernel in threads, and the reference engine.

Both return the same ``int32[rounds, out_cols(n)]`` rows (see
:mod:`simulator.matchloop.matches`) for the same job, so the rest of a run never depends
on which engine played.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import numpy as np

from simulator.matchloop.api import rows_of_record, rows_room, run_matches, set_threads
from simulator.matchloop.matches import out_cols
from simulator.runs.jitstart import first_call
from simulator.runs.job import SimConfig

RowsFn = Callable[[int, int], np.ndarray]
RowsDone = Callable[[int], None]  # told of the rows computed so far, bit by bit, within a part


class RowsPool:
    """The arrays the kernel writes parts' rows into, each used again once its part has
    been written (:meth:`give_back`, on the run's writer thread).

    Why: fresh memory costs the system the zeroing of every page it faults in, for
    every part (4 % of a run of 4 x ``lowest`` in a profile). A run has two parts
    alive at a time, the one computed and the one written, so the pool holds two arrays.
    """

    def __init__(self) -> None:
        self._free: list[np.ndarray] = []
        self._used: list[np.ndarray] = []
        self._lock = threading.Lock()

    def take(self, rows: int, cols: int) -> np.ndarray:
        """A free array of at least ``rows`` rows of ``cols`` int32, else a new one."""
        with self._lock:
            for i, array in enumerate(self._free):
                if len(array) >= rows and array.shape[1] == cols:
                    self._used.append(self._free.pop(i))
                    return self._used[-1]
            self._used.append(np.empty((rows, cols), np.int32))
            return self._used[-1]

    def give_back(self, rows: np.ndarray) -> None:
        """The array that ``rows`` (a part's rows) lie in is free again; rows that lie in
        none of them (a copy) free nothing."""
        with self._lock:
            for i, array in enumerate(self._used):
                if np.may_share_memory(array, rows):
                    self._free.append(self._used.pop(i))
                    return


def numba_engine(
    config: SimConfig, workers: int, on_rows: RowsDone | None = None, pool: RowsPool | None = None
) -> RowsFn:
    """Rows of matches ``[lo, hi)`` from the numba kernel on ``workers`` threads;
    ``on_rows`` hears of every task of blocks as it finishes (a few thousand rounds).
    With a ``pool``, the rows are written into its arrays, which the caller gives back.

    Match 0 is played once here and thrown away, so that the kernel's compile (or cache
    load) is done before the run's clock starts; a compile's seconds are kept
    (:func:`simulator.runs.jitstart.compile_seconds`).
    """
    set_threads(workers)
    job = config.kernel_job()
    first_call(job.runner, lambda: run_matches(job, 0, 1))

    def rows(lo: int, hi: int) -> np.ndarray:
        if pool is None:
            return run_matches(job, lo, hi, on_rows=on_rows)
        into = pool.take(rows_room(job, hi - lo), out_cols(job.players))
        found = run_matches(job, lo, hi, on_rows=on_rows, into=into)
        if not np.may_share_memory(found, into):  # gathered from the blocks: a copy
            pool.give_back(into)
        return found

    return rows


def python_engine(
    config: SimConfig, workers: int, on_rows: RowsDone | None = None, pool: RowsPool | None = None
) -> RowsFn:
    """Rows of matches ``[lo, hi)`` from the reference engine (plain Python), every
    strategy behind the one guard; ``on_rows`` hears of each match. Its rows are
    gathered match by match, never into the ``pool``'s arrays."""
    from simulator.matchloop.replay import replay_match  # the numba engine's runs need none

    n = config.rules.players

    def rows(lo: int, hi: int) -> np.ndarray:
        parts = []
        for m in range(lo, hi):
            record = replay_match(config.rules, config.strategies, config.seed, m,
                                  config.rounds_per_match, config.max_rounds, config.duplicate)  # fmt: skip
            parts.append(rows_of_record(m, record, n))
            if on_rows:
                on_rows(len(record.rounds))
        return np.concatenate(parts) if parts else np.zeros((0, out_cols(n)), np.int32)

    return rows
