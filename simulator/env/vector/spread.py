"""Ranges of tables spread over threads, the calling thread working too.

A step's tables are cut into chunks that the calling thread and helper threads take in
turn from one counter, each chunk one call of a compiled function that releases the
GIL. On a machine shared with other work a helper may not be scheduled for a while;
the calling thread then takes its chunks itself and waits only for the chunk a helper
has begun. numba's ``prange`` was measured against it on the project's 2-core machine,
busy with other work: a parallel region waited each time for its second thread to be
scheduled, and two threads stepped fewer tables a second than one (docs/performance.md).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from itertools import count
from queue import SimpleQueue

CHUNKS_PER_THREAD = 8  # chunks a thread takes on average per call: load balance
Work = Callable[[int, int], None]


class Spread:
    """Run ``work(lo, hi)`` over ``[0, size)`` in chunks, on ``threads`` threads (the
    caller's and ``threads - 1`` helpers, started once and kept until :meth:`close` or
    until the object is collected: the helpers hold no reference to it)."""

    def __init__(self, size: int, threads: int) -> None:
        self.size, self.threads = size, threads
        chunks = threads * CHUNKS_PER_THREAD if threads > 1 else 1
        self.step = max(1, -(-size // chunks))
        self._orders: list[SimpleQueue] = []
        for _ in range(threads - 1):
            orders: SimpleQueue = SimpleQueue()
            threading.Thread(target=_help, args=(orders,), daemon=True).start()
            self._orders.append(orders)
        self._stop = weakref.finalize(self, _stop, self._orders)

    def run(self, work: Work) -> None:
        """Call ``work`` on every chunk once; return when all are done (re-raising the
        first error of any thread)."""
        chunks = count()
        done: SimpleQueue = SimpleQueue()
        order = (work, chunks, self.step, self.size, done)
        for orders in self._orders:
            orders.put(order)
        error = _take(work, chunks, self.step, self.size)
        for _ in self._orders:
            error = error or done.get()
        if error is not None:
            raise error

    def close(self) -> None:
        """Stop the helper threads (later calls run on the caller's thread alone)."""
        self._stop()


def _take(work: Work, chunks: count, step: int, size: int) -> BaseException | None:
    """Take chunks of ``step`` tables until none is left; the error that stopped it."""
    try:
        for c in chunks:  # next() of a count is atomic under the GIL
            if c * step >= size:
                return None
            work(c * step, min(size, (c + 1) * step))
    except BaseException as error:  # handed to the caller, which raises it
        return error
    return None


def _help(orders: SimpleQueue) -> None:
    """A helper thread: take the chunks of each order until told to stop (None)."""
    while (order := orders.get()) is not None:
        work, chunks, step, size, done = order
        done.put(_take(work, chunks, step, size))


def _stop(queues: list[SimpleQueue]) -> None:
    """Tell every helper to stop, and forget them."""
    for orders in queues:
        orders.put(None)
    queues.clear()
