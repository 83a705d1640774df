"""Engines: what computes the rounds of a range of matches, as kernel output rows.

Every engine returns the same rows for the same job, so the rest of a run — tables,
parquet parts, reports — never depends on which engine played:

* ``numba`` — the kernel, in threads (the default, fast; :mod:`simulator.runs.local`);
* ``python`` — the reference engine, match by match (slow; for plain-Python strategies
  and for checking the kernel end to end; :mod:`simulator.runs.local`);
* ``dask`` — the kernel on the workers of a Dask cluster (:mod:`simulator.runs.dask`,
  optional: ``pip install -e ".[dask]"``), several parts in flight at once.

A run asks :func:`open_engine` for the rows of successive match ranges, in order: the
engines of one machine compute a range when it is asked for (the run's writer thread
overlaps it), the Dask engine keeps a window of ranges running on the cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager

import numpy as np

from simulator.runs.job import Range, SimConfig, SimulationError
from simulator.runs.local import RowsFn, numba_engine, python_engine

PartsFn = Callable[[Iterable[Range]], Iterator[tuple[Range, np.ndarray]]]
DASK = "dask"
LOCAL: dict[str, Callable[[SimConfig, int], RowsFn]] = {
    "numba": numba_engine,
    "python": python_engine,
}


def engine_names() -> list[str]:
    """Every engine ``--engine`` accepts."""
    return sorted({*LOCAL, DASK})


@contextmanager
def open_engine(
    name: str, config: SimConfig, workers: int, scheduler: str | None = None
) -> Iterator[PartsFn]:
    """``parts(ranges)``: each range of matches with its rows, in the order of ``ranges``.

    ``scheduler`` (``tcp://HOST:PORT``) is the Dask cluster to use; the Dask engine without
    one starts a local cluster of ``workers`` processes. Clusters are closed on exit.
    """
    if name == DASK:
        try:
            from simulator.runs.dask import DaskEngine
        except ImportError as exc:
            raise SimulationError(
                f'--engine dask needs the dask extra, pip install -e ".[dask]" ({exc})'
            ) from None
        with DaskEngine(config, workers, scheduler) as engine:
            yield engine.parts
        return
    if scheduler is not None:
        raise SimulationError(f"--scheduler needs --engine dask, not --engine {name}")
    if name not in LOCAL:
        raise SimulationError(f"unknown engine {name!r} (allowed: {', '.join(engine_names())})")
    rows_of = LOCAL[name](config, workers)
    yield lambda ranges: (((lo, hi), rows_of(lo, hi)) for lo, hi in ranges)
