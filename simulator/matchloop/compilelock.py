"""A match loop compiled once by processes that need it at the same time.

numba compiles a function at its first call when its cache on disk holds nothing for
it, then saves what it compiled. Processes started together — a test suite's workers,
the Dask workers of one machine, two commands of a user — each compiled the same loop
in full: seconds to minutes of a core, and the memory of a compile, each (the suite's
two workers did so for an 18 s loop in one run). :func:`compile_once` compiles a loop
under a lock on its module file (:mod:`simulator.matchloop.specialise`), so whoever
comes second waits, then loads the compiled code from numba's cache: its core is free
for others meanwhile, which shortens a run only where processes outnumber cores.
Without POSIX file locks (Windows) or a lock file it can write, each process compiles,
as before.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba

from simulator.kernel.config import compiles
from simulator.matchloop.specialise import PREFIX


def compile_once(loop: Any, arguments: Callable[[], tuple[Any, ...]]) -> None:
    """Make sure the jitted ``loop`` holds code for the types of ``arguments()`` (the
    arguments of its first call, built only when needed) before it is called: compiled
    under an exclusive lock on ``<module>.lock`` beside its source, or loaded from
    numba's cache when another process compiled it meanwhile. Nothing to do when the
    loop was compiled or loaded in this process, when numba's cache holds it, or for a
    plain Python wrapper (around users' strategies). The generic loop, whose module is
    the package's own (no cache folder could be written), is compiled by its call too:
    no lock file goes into the package."""
    if not compiles(loop):
        return
    source = Path(loop.py_func.__code__.co_filename)
    if not source.name.startswith(PREFIX):
        return
    try:
        import fcntl
    except ImportError:  # no POSIX file locks: the first call compiles, as it would
        return
    path = source.with_suffix(".lock")
    try:
        handle = path.open("a")
    except OSError:  # a folder that cannot be written: the call compiles
        return
    with handle:
        # released when the file is closed; a file system without locks (some network
        # ones) refuses it: no wait, this process compiles
        with contextlib.suppress(OSError):
            fcntl.flock(handle, fcntl.LOCK_EX)
        # numba looks in its cache before it compiles: after a wait, this loads
        loop.compile(tuple(numba.typeof(a) for a in arguments()))
