"""Engines: what computes the parts of a run, handed over in order as :class:`Part`\\ s.

Every engine computes the same rows for the same job, so the rest of a run — tables,
parquet parts, reports — never depends on which engine played:

* ``numba`` — the kernel, in threads (the default, fast; :mod:`simulator.runs.local`);
* ``python`` — the reference engine, match by match (slow; for plain-Python strategies
  and for checking the kernel end to end; :mod:`simulator.runs.local`);
* ``dask`` — the kernel on the workers of a Dask cluster (:mod:`simulator.runs.dask`,
  optional: ``pip install -e ".[dask]"``), several parts in flight at once, each worker
  tallying its parts and writing them when it reaches the output folder.

A run asks :func:`open_engine` for the parts of successive match ranges: the engines of
one machine compute a range when it is asked for (the run's writer thread tallies and
writes the previous one meanwhile), the Dask engine keeps a window of ranges running on
the cluster. A run sized in rounds stops at the part that reaches them, cut after the
match that does (:func:`simulator.runs.parts.cut_at_rounds`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, TypeVar

from simulator.matchloop.api import set_threads
from simulator.runs.folder import OutputFolder
from simulator.runs.job import Range, SimConfig, SimulationError
from simulator.runs.local import RowsDone, RowsFn, RowsPool, numba_engine, python_engine
from simulator.runs.parts import Part, cut_at_rounds

# parts(ranges, index of the first, rounds wanted or None): the parts, in order
PartsFn = Callable[[Iterable[Range], int, int | None], Iterator[Part]]
DASK = "dask"
KERNEL_ENGINES = ("numba", DASK)  # the engines of the jobs that play in the kernel only
Play = TypeVar("Play")
LOCAL: dict[str, Callable[[SimConfig, int, RowsDone | None, RowsPool | None], RowsFn]] = {
    "numba": numba_engine,
    "python": python_engine,
}


def engine_names() -> list[str]:
    """Every engine ``--engine`` accepts."""
    return sorted({*LOCAL, DASK})


def machine_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else all).

    The default of ``--workers`` and of the Python API's ``workers``: the kernel's threads
    scale with the cores (1.9x on 2), so a default of 1 left most of a machine idle.
    """
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


@contextmanager
def engine_context(
    engine: str, workers: int, local: Play, on_dask: Callable[[int], AbstractContextManager[Any]]
) -> Iterator[Play]:
    """Where a job of :data:`KERNEL_ENGINES` plays (a tune's candidates, an atlas's
    tables): ``local`` in ``workers`` threads (engine ``numba``), or what
    ``on_dask(workers)`` (a context manager around a local cluster) yields, the kernel then
    on one thread per worker. Without the dask extra: one line saying how to install it."""
    if engine == "numba":
        set_threads(workers)
        yield local
        return
    try:
        context = on_dask(workers)
        play = context.__enter__()
    except ImportError as exc:
        raise SimulationError(
            f'--engine dask needs the dask extra, pip install -e ".[dask]" ({exc})'
        ) from None
    set_threads(1)
    try:
        yield play
    finally:
        context.__exit__(None, None, None)


@contextmanager
def open_engine(
    name: str,
    config: SimConfig,
    workers: int,
    scheduler: str | None = None,
    folder: OutputFolder | None = None,
    on_rows: RowsDone | None = None,
) -> Iterator[PartsFn]:
    """``parts(ranges, first, rounds)``: the parts of ``ranges`` (the first numbered
    ``first``) in order; with ``rounds``, up to the one that reaches that many rounds.

    ``scheduler`` (``tcp://HOST:PORT``) is the Dask cluster to use; the Dask engine without
    one starts a local cluster of ``workers`` single-threaded workers (threads of this
    process), and its workers write their parts into ``folder`` when they reach it. Clusters are closed on exit. The engines of one
    machine tell ``on_rows`` of the rows they compute within a range, as they go (the
    Dask engine's parts come whole).
    """
    if name == DASK:
        try:
            from simulator.runs.dask import DaskEngine
        except ImportError as exc:
            raise SimulationError(
                f'--engine dask needs the dask extra, pip install -e ".[dask]" ({exc})'
            ) from None
        with DaskEngine(config, workers, scheduler, folder) as engine:
            yield engine.parts
        return
    if scheduler is not None:
        raise SimulationError(f"--scheduler needs --engine dask, not --engine {name}")
    if name not in LOCAL:
        raise SimulationError(f"unknown engine {name!r} (allowed: {', '.join(engine_names())})")
    pool = RowsPool()
    rows_of = LOCAL[name](config, workers, on_rows, pool)

    def parts(ranges: Iterable[Range], first: int, rounds: int | None) -> Iterator[Part]:
        done = 0
        for index, (lo, hi) in enumerate(ranges, first):
            rows = rows_of(lo, hi)
            if rounds is not None:
                rows, hi = cut_at_rounds(rows, rounds - done, hi)
            done += len(rows)
            yield Part(index, (lo, hi), len(rows), rows=rows, release=pool.give_back)
            if rounds is not None and done >= rounds:
                return

    yield parts
