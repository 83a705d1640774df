"""The engines of one machine: the numba kernel in threads, and the reference engine.

Both return the same ``int32[rounds, out_cols(n)]`` rows (see
:mod:`simulator.matchloop.matches`) for the same job, so the rest of a run never depends
on which engine played.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from simulator.matchloop.api import rows_of_record, run_matches, set_threads
from simulator.matchloop.matches import out_cols
from simulator.matchloop.seating import lineup_slot, reference_options
from simulator.reference.match import play_match
from simulator.runs.job import SimConfig, SimulationError
from strategies.guard import Guarded
from strategies.registry import make
from strategies.specs import StrategyError

RowsFn = Callable[[int, int], np.ndarray]
RowsDone = Callable[[int], None]  # told of the rows computed so far, bit by bit, within a part


def numba_engine(config: SimConfig, workers: int, on_rows: RowsDone | None = None) -> RowsFn:
    """Rows of matches ``[lo, hi)`` from the numba kernel on ``workers`` threads;
    ``on_rows`` hears of every task of blocks as it finishes (a few thousand rounds).

    Match 0 is played once here and thrown away, so that the kernel's compile (or cache
    load) is done before the run's clock starts.
    """
    set_threads(workers)
    job = config.kernel_job()
    run_matches(job, 0, 1)
    return lambda lo, hi: run_matches(job, lo, hi, on_rows=on_rows)


def python_engine(config: SimConfig, workers: int, on_rows: RowsDone | None = None) -> RowsFn:
    """Rows of matches ``[lo, hi)`` from the reference engine (plain Python), every
    strategy behind the one guard; ``on_rows`` hears of each match."""
    n = config.rules.players

    def rows(lo: int, hi: int) -> np.ndarray:
        parts = []
        for m in range(lo, hi):
            names = [config.strategies[lineup_slot(p, m, n, config.group)] for p in range(n)]
            try:
                record = play_match(
                    config.rules,
                    [Guarded(s, make(s)) for s in names],
                    config.seed,
                    m,
                    rounds=config.rounds_per_match,
                    max_rounds=config.max_rounds,
                    **reference_options(m, config.group, n, config.duplicate),
                )
            except StrategyError as exc:
                raise SimulationError(f"match {m}: {exc}") from None
            parts.append(rows_of_record(m, record, n))
            if on_rows:
                on_rows(len(record.rounds))
        return np.concatenate(parts) if parts else np.zeros((0, out_cols(n)), np.int32)

    return rows
