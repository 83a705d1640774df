"""``president simulate``: many matches on the kernel, written to parquet in parts.

A run is cut into parts of whole matches whose boundaries depend only on the job (never
on the number of workers), so the same seed and arguments give the same files. Each part
is computed by an engine (:mod:`simulator.runs.engines`), tallied, turned into the output
table (:mod:`simulator.runs.schema`) and written to ``DIR/rounds.parquet/part-NNNNN.parquet``
(:mod:`simulator.runs.folder`) while the next part is computed — by the run's writer
thread, or on the Dask worker that computed it (:mod:`simulator.runs.parts`);
``summary.json`` is written last.

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

from simulator.runs.engines import open_engine
from simulator.runs.folder import OutputFolder
from simulator.runs.job import SimConfig
from simulator.runs.parts import settle
from simulator.runs.summary import RunResult, summary_of
from simulator.runs.tally import Tally

Progress = Callable[[int, int | None, float], None]
"""``progress(rounds_done, rounds_expected, seconds)``, called after each part; one whose
``within_parts`` attribute is true (the command line's bar) is also called as the engines
of one machine compute within a part, so that it moves while a long part is computed."""


def run(
    config: SimConfig,
    out: Path | None,
    workers: int = 1,
    progress: Progress | None = None,
    engine: str = "numba",
    scheduler: str | None = None,
) -> RunResult:
    """Play the job; write ``out`` (when given) part by part; return the summary table.

    ``progress`` (see :data:`Progress`) is called after each part;
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
    """Compute the parts not yet in ``folder`` (all without one), writing each as it comes.

    The engine computes part i + 1 while the writer thread tallies part i, writes it and
    lists it: the kernel never waits for the output, which waits for the kernel at most
    one part (that bounds the memory too).
    """
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
    rounds_left = None if config.matches is not None else config.rounds - done_rounds
    left = m_lo < config.matches if config.matches is not None else done_rounds < config.rounds
    resumed_rounds = done_rounds
    started = time.perf_counter()
    in_part = 0  # rows computed so far in the part under way
    told = -1  # the rounds last told to ``progress``

    def tell(rounds: int) -> None:
        nonlocal told
        if progress and rounds != told:
            progress(rounds, expected, time.perf_counter() - started)
        told = rounds

    def on_rows(rows: int) -> None:  # the bar moves within a part (a part may take minutes)
        nonlocal in_part
        in_part += rows
        tell(done_rounds + in_part)

    live = on_rows if getattr(progress, "within_parts", False) else None
    if left:
        ranges = _ranges(config, m_lo, part_matches)
        with (
            open_engine(engine, config, workers, scheduler, folder, live) as parts_of,
            ThreadPoolExecutor(max_workers=1) as writer,  # exits first: its last part is listed
            contextlib.closing(parts_of(ranges, len(done_parts), rounds_left)) as parts,
        ):
            started = time.perf_counter()  # the engine is ready: its compile is not timed
            pending: Future[Tally] | None = None
            for part in parts:
                in_part = 0
                done_rounds += part.rounds
                m_lo = part.span[1]
                if pending:
                    tally.merge(pending.result())
                pending = writer.submit(settle, config, part, folder)
                tell(done_rounds)
            if pending:
                tally.merge(pending.result())
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
