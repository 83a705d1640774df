"""The Dask engine: the parts of a run computed by the kernel on a cluster's workers.

The client (the ``president simulate`` process) keeps everything that makes a run
reproducible and resumable — which matches form part i, the writer, the manifest — and
workers only turn a range of matches into kernel rows. A part's rows depend on the job
and its range alone, so when a worker is lost the scheduler runs its parts again on
another worker and they come back identical: a lost worker costs only the parts it held.

Parts are submitted a few per worker thread ahead of the one being written, so the
cluster never waits for the client, and gathered in order.
"""

from __future__ import annotations

import json
import logging
import threading
from collections import deque
from collections.abc import Iterable, Iterator
from types import TracebackType

import numpy as np
from distributed import Client, Future, KilledWorker, LocalCluster, get_worker

from simulator.matchloop.api import KernelJob, run_matches, set_threads
from simulator.runs.job import Range, SimConfig, SimulationError

AHEAD_PER_THREAD = 2  # parts in flight per worker thread
RETRIES = 2  # a task that raised is tried again this many times (lost workers: always)
WORKERS_TIMEOUT = 60  # seconds to wait for a first worker on a remote scheduler

_KERNEL_LOCK = threading.Lock()
_JOBS: dict[str, KernelJob] = {}  # per worker process: the kernel arrays of each job


def part_rows(config: SimConfig, lo: int, hi: int) -> np.ndarray:
    """On a worker: the kernel rows of matches ``[lo, hi)``.

    One part at a time per worker process, on as many numba threads as the worker has
    threads: numba's threading layers must not launch parallel loops from two threads at
    once, and the worker's threads share the same cores anyway.
    """
    threads = get_worker().state.nthreads
    with _KERNEL_LOCK:
        key = json.dumps(config.to_json(), sort_keys=True)
        job = _JOBS.get(key)
        if job is None:
            job = _JOBS[key] = config.kernel_job()
        set_threads(threads)
        return run_matches(job, lo, hi)


class DaskEngine:
    """A connection to a Dask cluster (a local one of ``workers`` processes without
    ``scheduler``) that computes parts; a context manager that closes what it opened."""

    def __init__(self, config: SimConfig, workers: int, scheduler: str | None) -> None:
        self.config = config
        self.cluster: LocalCluster | None = None
        try:
            if scheduler is None:
                self.cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
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

    def parts(self, ranges: Iterable[Range]) -> Iterator[tuple[Range, np.ndarray]]:
        """Each range with its rows, in order, keeping a window of ranges on the cluster."""
        ahead = max(2, AHEAD_PER_THREAD * sum(self.client.nthreads().values()))
        todo = iter(ranges)
        running: deque[tuple[Range, Future]] = deque()
        try:
            for lo, hi in todo:
                running.append(((lo, hi), self._submit(lo, hi)))
                if len(running) >= ahead:
                    break
            while running:
                span, future = running.popleft()
                following = next(todo, None)
                if following is not None:
                    running.append((following, self._submit(*following)))
                try:
                    rows = future.result()
                except KilledWorker as exc:
                    raise SimulationError(
                        f"matches {span[0]}..{span[1] - 1} killed every worker that ran them "
                        f"({exc}); the finished parts are kept, see --resume"
                    ) from None
                yield span, rows
        finally:
            for _, future in running:
                future.cancel()

    def _submit(self, lo: int, hi: int) -> Future:
        return self.client.submit(part_rows, self.config, lo, hi, pure=False, retries=RETRIES)

    def close(self) -> None:
        """Disconnect; shut the local cluster down if this engine started it."""
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
