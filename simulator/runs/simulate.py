"""``president simulate``: many matches on the kernel, written to parquet in parts.

A run is cut into parts of whole matches whose boundaries depend only on the job (never
on the number of workers), so the same seed and arguments give the same files. Each part
is computed by an engine (:mod:`simulator.runs.engines`), turned into the output table
(:mod:`simulator.runs.schema`) and written to ``DIR/rounds.parquet/part-NNNNN.parquet``
(:mod:`simulator.runs.folder`) while the next part is computed; ``summary.json`` is
written last.

A run is resumable: :func:`resume` reads the manifest (the job, the part size and each
finished part with its share of the end-of-run table), checks the parts, removes what an
interrupted write left behind and computes the missing parts only, so the finished
folder equals an uninterrupted run's byte for byte.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np

from simulator.matchloop.matches import OUT_MATCH
from simulator.runs.engines import open_engine
from simulator.runs.folder import OutputFolder
from simulator.runs.job import SimConfig
from simulator.runs.schema import frame_from_rows
from simulator.runs.summary import RunResult, summary_of
from simulator.runs.tally import Tally

Progress = Callable[[int, int | None, float], None]


def run(
    config: SimConfig,
    out: Path | None,
    workers: int = 1,
    progress: Progress | None = None,
    engine: str = "numba",
    scheduler: str | None = None,
) -> RunResult:
    """Play the job; write ``out`` (when given) part by part; return the summary table.

    ``progress(rounds_done, rounds_expected, seconds)`` is called after each part;
    ``engine`` names one of :func:`simulator.runs.engines.engine_names` (the data never depends
    on it); ``scheduler`` is a Dask scheduler's address for ``engine="dask"``.
    """
    folder = None
    if out is not None:
        folder = OutputFolder(out, config, config.part_matches)
        folder.prepare()
    return _play(config, folder, config.part_matches, workers, progress, engine, scheduler)


def resume(
    out: Path,
    workers: int = 1,
    progress: Progress | None = None,
    engine: str = "numba",
    scheduler: str | None = None,
) -> tuple[OutputFolder, RunResult]:
    """Finish the interrupted run in ``out``: the folder (its job, damaged parts dropped)
    and the result, equal to an uninterrupted run's."""
    folder = OutputFolder.reopen(out)
    result = _play(folder.config, folder, folder.part_matches, workers, progress, engine, scheduler)
    return folder, result


def _play(
    config: SimConfig,
    folder: OutputFolder | None,
    part_matches: int,
    workers: int,
    progress: Progress | None,
    engine: str,
    scheduler: str | None,
) -> RunResult:
    """Compute the parts not yet in ``folder`` (all without one), writing each as it comes."""
    tally = Tally(config.rules.players, config.names)
    done_rounds = m_lo = 0
    done_parts = folder.manifest["parts"] if folder else []
    for entry in done_parts:
        tally.merge(Tally.from_json(config.rules.players, config.names, entry["tally"]))
        done_rounds += entry["rounds"]
        m_lo = entry["end_match"]
    expected = (
        config.matches * config.rounds_per_match
        if config.matches and config.rounds_per_match
        else config.rounds
    )
    left = m_lo < config.matches if config.matches is not None else done_rounds < config.rounds
    pending: Future | None = None
    resumed_rounds = done_rounds
    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=1) as writer:
        if left:
            with (
                open_engine(engine, config, workers, scheduler) as parts_of,
                contextlib.closing(parts_of(_ranges(config, m_lo, part_matches))) as parts,
            ):
                started = time.perf_counter()  # the engine is ready: its compile is not timed
                for index, ((lo, hi), all_rows) in enumerate(parts, len(done_parts)):
                    rows = all_rows
                    if config.matches is None:
                        rows, hi = _cut_at_rounds(all_rows, config.rounds - done_rounds, hi)
                    part = Tally(config.rules.players, config.names)
                    part.add(config, rows)
                    tally.merge(part)
                    done_rounds += len(rows)
                    m_lo = hi
                    if folder:
                        if pending:
                            pending.result()
                        frame = frame_from_rows(config, rows)
                        pending = writer.submit(folder.write_part, index, frame, (lo, hi), part)
                    if progress:
                        progress(done_rounds, expected, time.perf_counter() - started)
                    if config.matches is None and done_rounds >= config.rounds:
                        break
        if pending:
            pending.result()
    result = RunResult(
        m_lo,
        done_rounds,
        time.perf_counter() - started,
        tally.table(),
        tally.estimation(),
        done_rounds - resumed_rounds,
    )
    if folder:
        folder.finish(summary_of(config, result))
    return result


def _ranges(config: SimConfig, m_lo: int, part_matches: int) -> Iterator[tuple[int, int]]:
    """The match ranges of the parts from ``m_lo`` on (endless when the run counts rounds)."""
    while config.matches is None or m_lo < config.matches:
        m_hi = m_lo + part_matches
        if config.matches is not None:
            m_hi = min(m_hi, config.matches)
        yield m_lo, m_hi
        m_lo = m_hi


def _cut_at_rounds(rows: np.ndarray, wanted: int, m_hi: int) -> tuple[np.ndarray, int]:
    """Keep whole matches up to the first one at which ``wanted`` rounds are reached."""
    if len(rows) < wanted:
        return rows, m_hi
    last_match = int(rows[wanted - 1, OUT_MATCH])
    keep = int(np.searchsorted(rows[:, OUT_MATCH], last_match, side="right"))
    return rows[:keep], last_match + 1
