"""Where a command's kernel work runs: in threads here, or on a local Dask cluster."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from simulator.cli import common
from simulator.matchloop.api import set_threads

Play = TypeVar("Play")
KERNEL_ENGINES = ("numba", "dask")  # the engines of the commands that play in the kernel only


@contextlib.contextmanager
def engine_context(
    engine: str, workers: int, local: Play, on_dask: Callable[[int], Any]
) -> Iterator[Play]:
    """``local`` played in ``workers`` threads (engine ``numba``), or what ``on_dask(workers)``
    (a context manager around a local cluster) yields, the kernel then on one thread per
    worker. Without the dask extra: one line saying how to install it."""
    if engine == "numba":
        set_threads(workers)
        yield local
        return
    try:
        context = on_dask(workers)
        play = context.__enter__()
    except ImportError as exc:
        raise common.UserError(
            f'--engine dask needs the dask extra, pip install -e ".[dask]" ({exc})'
        ) from None
    set_threads(1)
    try:
        yield play
    finally:
        context.__exit__(None, None, None)
