"""The Dask engine: the parts of a run computed by the kernel on a cluster's workers.

The client (the ``president simulate`` process) keeps everything that makes a run
reproducible and resumable — which matches form part i, the manifest, the order in which
parts are listed — and workers turn a range of matches into a part: its rows, their
tally and, when the worker reaches the output folder, the part's file, staged under a
temporary name for the client to rename into place and list (:mod:`simulator.runs.folder`).
Only the tally and the file's name then travel back, so the client does almost nothing
and a local cluster keeps pace with the local engine. A worker that does not reach the
folder (another machine) sends its rows, and the client writes the part. Without an
output folder only the tally travels.

A part depends on the job and its range alone, so when a worker is lost the scheduler
runs its parts again on another worker and they come back identical: a lost worker costs
only the parts it held (a file it was writing is removed when the run ends).

Parts are submitted a few per worker thread ahead of the one being listed, so the cluster
never waits for the client, and gathered in order.
"""

from __future__ import annotations

import contextlib
import json
import logging
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from types import TracebackType

import numpy as np
from distributed import Client, Future, KilledWorker, LocalCluster, get_worker, wait

from simulator.matchloop.api import KernelJob, run_matches, set_threads
from simulator.runs.folder import OutputFolder, WorkerTarget
from simulator.runs.job import Range, SimConfig, SimulationError
from simulator.runs.parts import Part, computed_part, cut_at_rounds

AHEAD_PER_THREAD = 2  # parts in flight per worker thread
RETRIES = 2  # a task that raised is tried again this many times (lost workers: always)
WORKERS_TIMEOUT = 60  # seconds to wait for a first worker on a remote scheduler

_JOBS_LOCK = threading.Lock()
_JOBS: dict[str, KernelJob] = {}  # per process: the kernel arrays of each job
_WORKER_LOCKS: dict[str, threading.Lock] = {}  # per worker: one part at a time


def _kernel_rows(config: SimConfig, lo: int, hi: int) -> np.ndarray:
    """On a worker: the kernel rows of matches ``[lo, hi)``.

    One part at a time per worker, on as many kernel threads as the worker has threads
    (they share the same cores anyway). The workers of a local cluster are threads of
    one process, one thread each: they compute their parts side by side (the kernel
    releases the GIL), sharing the job's arrays and the loaded kernel.
    """
    worker = get_worker()
    with _JOBS_LOCK:
        key = json.dumps(config.to_json(), sort_keys=True)
        job = _JOBS.get(key)
        if job is None:
            job = _JOBS[key] = config.kernel_job()
        lock = _WORKER_LOCKS.setdefault(worker.address, threading.Lock())
    with lock:
        set_threads(worker.state.nthreads)
        return run_matches(job, lo, hi)


def part_task(
    config: SimConfig,
    index: int,
    span: Range,
    rounds: int | None,
    target: WorkerTarget | None,
    keep_rows: bool,
) -> Part:
    """On a worker: part ``index`` (cut at ``rounds`` rounds when given), tallied, and
    staged in ``target`` when the worker reaches it; its rows when the client must write
    it (``keep_rows``: the run has a folder)."""
    lo, hi = span
    rows = _kernel_rows(config, lo, hi)
    if rounds is not None:
        rows, hi = cut_at_rounds(rows, rounds, hi)
    return computed_part(config, index, (lo, hi), rows, target, keep_rows)


def warm_up(config: SimConfig) -> None:
    """On a worker: load the kernel and play match 0, as the local engine does before
    the run's clock starts."""
    _kernel_rows(config, 0, 1)


class DaskEngine:
    """A connection to a Dask cluster (a local one of ``workers`` threads without
    ``scheduler``) that computes parts; a context manager that closes what it opened."""

    def __init__(
        self,
        config: SimConfig,
        workers: int,
        scheduler: str | None,
        folder: OutputFolder | None = None,
    ) -> None:
        self.config = config
        self.cluster: LocalCluster | None = None
        self.folder = folder
        self.target: WorkerTarget | None = None
        try:
            if scheduler is None:
                # workers as threads of this process: worker processes cost 7-8 s of CPU
                # more on a 10 M-round run (each started, importing distributed, numba
                # and the kernel, loading the compiled loop); the kernel, the table's
                # pass and the parquet writer release the GIL, so threads lose nothing
                self.cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=False,
                    dashboard_address=":0",  # any free port: never clash with another cluster
                    silence_logs=logging.ERROR,
                )
                self.client = Client(self.cluster)
            else:
                # connection timeout: dask's distributed.comm.timeouts.connect (30 s)
                self.client = Client(scheduler)
                self.client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        except (OSError, ValueError, TypeError) as exc:  # TimeoutError is an OSError
            self.close()
            where = scheduler or "a local cluster"
            raise SimulationError(f"cannot use the Dask scheduler at {where}: {exc}") from None
        if folder is not None:
            self.target = folder.open_to_workers()
        warm = [
            self.client.submit(warm_up, config, workers=[w], pure=False)
            for w in self.client.scheduler_info()["workers"]
        ]
        wait(warm)

    def parts(self, ranges: Iterable[Range], first: int, rounds: int | None) -> Iterator[Part]:
        """The parts of ``ranges`` in order (up to the one reaching ``rounds`` rounds),
        keeping a window of ranges on the cluster."""
        ahead = max(2, AHEAD_PER_THREAD * sum(self.client.nthreads().values()))
        todo = enumerate(ranges, first)
        running: deque[tuple[int, Range, Future]] = deque()
        done = 0
        try:
            for index, span in todo:
                running.append((index, span, self._submit(index, span, None)))
                if len(running) >= ahead:
                    break
            while running:
                index, span, future = running.popleft()
                following = next(todo, None)
                if following is not None:
                    running.append((*following, self._submit(*following, None)))
                part = self._gather(span, future)
                if rounds is not None and done + part.rounds >= rounds:
                    # the last part: computed again, cut after the match that reaches them
                    self._discard(part)
                    yield self._gather(span, self._submit(index, span, rounds - done))
                    return
                done += part.rounds
                yield part
        finally:
            for _, _, future in running:
                future.cancel()

    def _submit(self, index: int, span: Range, rounds: int | None) -> Future:
        return self.client.submit(
            part_task,
            self.config,
            index,
            span,
            rounds,
            self.target,
            self.folder is not None,
            pure=False,
            retries=RETRIES,
        )

    @staticmethod
    def _gather(span: Range, future: Future) -> Part:
        try:
            return future.result()
        except KilledWorker as exc:
            raise SimulationError(
                f"matches {span[0]}..{span[1] - 1} killed every worker that ran them "
                f"({exc}); the finished parts are kept, see --resume"
            ) from None

    @staticmethod
    def _discard(part: Part) -> None:
        if part.staged is not None:
            with contextlib.suppress(FileNotFoundError):
                part.staged.path.unlink()

    def close(self) -> None:
        """Remove the folder's mark (and the parts no one listed), disconnect, and shut
        the local cluster down if this engine started it."""
        if self.folder is not None and self.target is not None:
            self.folder.close_to_workers(self.target)
            self.target = None
        client = getattr(self, "client", None)
        if client is not None:
            client.close()
        if self.cluster is not None:
            self.cluster.close()

    def __enter__(self) -> DaskEngine:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
