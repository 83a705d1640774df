"""numba's first load in a process, without the optional libraries the kernels never use.

The first time a process compiles or loads a jitted function, numba imports its
implementations of everything it supports, and with them two optional libraries:
``scipy.linalg``, only to learn whether BLAS is there for its float inner products, and
``cffi``, to type cffi functions. ``scipy.linalg`` comes through scipy's array-API layer,
which imports ``numpy.f2py``, ``numpy.testing`` and more: 0.15–0.2 s, a fifth of a short
``president simulate``; ``cffi`` brings ``pycparser`` (0.03 s). The kernels use
neither, so that first load runs with both imports refused: numba records them as
absent, which changes nothing for code that does not call them (``np.dot`` still
imports scipy when a function using it is compiled, after this load).

The first call of a job's match loop compiles it, unless numba's cache on disk holds it:
:func:`first_call` makes that call and keeps the seconds of a compile, so that a first
run can say how much of its time was the compile (:func:`compile_seconds`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

UNUSED = ("scipy.linalg", "cffi")  # optional libraries numba probes and the kernels never call
_COMPILES: list[float] = []  # seconds of each match-loop compile in this process


def load_numba() -> None:
    """Load numba's implementations now, with :data:`UNUSED` refused if not yet imported.

    Safe to call at any time: numba loads its implementations once per process, and once
    they are loaded this does nothing (the imports are refused only during that load).
    """
    if "numba.np.arraymath" in sys.modules:  # loaded already, by this or a jitted call
        return
    from numba.core.registry import cpu_target

    refused = [name for name in UNUSED if name not in sys.modules]
    for name in refused:
        sys.modules[name] = None  # type: ignore[assignment]  # import raises ImportError
    try:
        cpu_target.target_context.refresh()  # what numba's first compile or cache load does
    finally:
        for name in refused:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]


def first_call(loop: Any, call: Callable[[], object]) -> None:
    """``call()``, the first call of ``loop``; the seconds it took are kept as a compile's
    when :func:`simulator.kernel.config.compiles` said it would compile (the one match it
    plays is noise). Imported here: this module is loaded by commands that never import
    numba."""
    from simulator.kernel.config import compiles

    compiling = compiles(loop)
    started = time.perf_counter()
    call()
    if compiling:
        _COMPILES.append(time.perf_counter() - started)


def compile_seconds() -> float:
    """The seconds this process spent compiling match loops so far (0.0 when every
    loop came from the cache)."""
    return sum(_COMPILES)
