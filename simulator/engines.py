"""Engines: what computes the rounds of a range of matches, as kernel output rows.

Every engine returns the same ``int32[rounds, OUT_COLS]`` rows (see
:mod:`simulator.kernel.matches`) for the same job, so the rest of a run — tables,
parquet parts, reports — never depends on which engine played:

* ``numba`` — the kernel, in threads (the default, fast);
* ``python`` — the reference engine, match by match (slow; for plain-Python strategies
  and for checking the kernel end to end);
* ``dask`` — the kernel on the workers of a Dask cluster (:mod:`simulator.dask_engine`,
  optional: ``pip install -e ".[dask]"``), several parts in flight at once.

A run asks :func:`open_engine` for the rows of successive match ranges, in order: the
engines of one machine compute a range when it is asked for (the run's writer thread
overlaps it), the Dask engine keeps a window of ranges running on the cluster.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

import numpy as np

import strategies
from simulator.engine import Move, Observation
from simulator.kernel.api import KernelJob, run_matches, set_threads
from simulator.kernel.matches import (
    OUT_COLS,
    OUT_DEALER,
    OUT_LEADER,
    OUT_MATCH,
    OUT_PASSES,
    OUT_PLACE,
    OUT_PLAYS,
    OUT_POINTS,
    OUT_POS,
    OUT_ROUND,
    OUT_SKIPS,
    OUT_TOTAL,
    OUT_TRICKS,
    OUT_WINNER,
)
from simulator.match import ExchangeError, MatchRecord, play_match
from simulator.rng import Stream

if TYPE_CHECKING:
    from simulator.simulate import SimConfig

RowsFn = Callable[[int, int], np.ndarray]
Range = tuple[int, int]
PartsFn = Callable[[Iterable[Range]], Iterator[tuple[Range, np.ndarray]]]
DASK = "dask"


class EngineError(ValueError):
    """An engine that cannot run as asked (missing extra, unreachable scheduler…)."""


def kernel_job(config: SimConfig) -> KernelJob:
    """The kernel's arrays for a job (one place, so every engine on the kernel agrees)."""
    return KernelJob.build(
        config.rules,
        config.strategies,
        config.seed,
        config.rounds_per_match,
        config.max_rounds,
        config.duplicate,
    )


def numba_engine(config: SimConfig, workers: int) -> RowsFn:
    """Rows of matches ``[lo, hi)`` from the numba kernel on ``workers`` threads."""
    set_threads(workers)
    job = kernel_job(config)
    return lambda lo, hi: run_matches(job, lo, hi)


class GuardedStrategy:
    """A plain-Python strategy whose faults name it.

    Strategies may be plugins: one that raises, or answers with a move the rules forbid,
    stops the run with one line naming it, instead of a traceback from deep in the engine
    (or, for an illegal move, a round that could go on forever).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self.inner = strategies.make(name)

    def choose(self, obs: Observation, rng: Stream) -> Move:
        try:
            move = self.inner.choose(obs, rng)
        except strategies.StrategyError:  # a user strategy's fault, already in words
            raise
        except Exception as exc:
            raise EngineError(f"strategy {self.name!r} raised {type(exc).__name__}: {exc}") from exc
        if move not in obs.legal:
            allowed = ", ".join(str(m) for m in obs.legal)
            raise EngineError(
                f"strategy {self.name!r} chose {move!r}, which the rules forbid "
                f"(allowed: {allowed})"
            )
        return move

    def give_back(self, hand: list[int], k: int, rng: Stream) -> list[int]:
        try:
            return list(self.inner.give_back(hand, k, rng))
        except strategies.StrategyError:  # a user strategy's fault, already in words
            raise
        except Exception as exc:
            raise EngineError(
                f"strategy {self.name!r} raised {type(exc).__name__} giving back cards: {exc}"
            ) from exc


def python_engine(config: SimConfig, workers: int) -> RowsFn:
    """Rows of matches ``[lo, hi)`` from the reference engine (plain Python)."""
    n = config.rules.players

    def rows(lo: int, hi: int) -> np.ndarray:
        parts = []
        for m in range(lo, hi):
            turn = m % n if config.duplicate else 0
            names = [config.strategies[(p - turn) % n] for p in range(n)]
            try:
                record = play_match(
                    config.rules,
                    [GuardedStrategy(s) for s in names],
                    config.seed,
                    m,
                    rounds=config.rounds_per_match,
                    max_rounds=config.max_rounds,
                    deal_match=m // n if config.duplicate else None,
                )
            except (EngineError, ExchangeError) as exc:
                raise EngineError(f"match {m}: {exc}") from None
            parts.append(rows_of_record(m, record, n))
        return np.concatenate(parts) if parts else np.zeros((0, OUT_COLS), np.int32)

    return rows


def rows_of_record(match: int, record: MatchRecord, n: int) -> np.ndarray:
    """A reference-engine match as kernel output rows."""
    out = np.zeros((len(record.rounds), OUT_COLS), dtype=np.int32)
    last = len(record.rounds) - 1
    for i, rr in enumerate(record.rounds):
        row = out[i]
        row[[OUT_MATCH, OUT_ROUND, OUT_DEALER, OUT_LEADER]] = match, rr.index, rr.dealer, rr.leader
        row[[OUT_TRICKS, OUT_PLAYS, OUT_PASSES, OUT_SKIPS]] = (
            rr.tricks,
            rr.plays,
            rr.passes,
            rr.skips,
        )
        row[OUT_WINNER] = record.winner if i == last else -1
        row[OUT_PLACE : OUT_PLACE + n] = rr.places
        row[OUT_POINTS : OUT_POINTS + n] = rr.points
        row[OUT_TOTAL : OUT_TOTAL + n] = rr.totals
        row[OUT_POS : OUT_POS + n] = [rr.seating.index(p) for p in range(n)]
    return out


ENGINES: dict[str, Callable[[SimConfig, int], RowsFn]] = {
    "numba": numba_engine,
    "python": python_engine,
}


def engine_names() -> list[str]:
    """Every engine ``--engine`` accepts: the registered ones and ``dask``."""
    return sorted({*ENGINES, DASK})


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
            from simulator.dask_engine import DaskEngine
        except ImportError as exc:
            raise EngineError(
                f'--engine dask needs the dask extra, pip install -e ".[dask]" ({exc})'
            ) from None
        with DaskEngine(config, workers, scheduler) as engine:
            yield engine.parts
        return
    if scheduler is not None:
        raise EngineError(f"--scheduler needs --engine dask, not --engine {name}")
    if name not in ENGINES:
        raise EngineError(f"unknown engine {name!r} (allowed: {', '.join(engine_names())})")
    rows_of = ENGINES[name](config, workers)
    yield lambda ranges: (((lo, hi), rows_of(lo, hi)) for lo, hi in ranges)
