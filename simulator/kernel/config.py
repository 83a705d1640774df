"""Compiler options of every kernel function, in one place.

``cache=True`` keeps compiled code on disk so a warm start costs well under a second;
every module with such functions imports this one before its decorators run, so the
cache folders numba reads them from are checked first (:func:`refresh_package`: code
compiled from other sources is dropped);
``error_model="numpy"`` drops the division-by-zero checks from hot loops; from the
first compile on, numba's inliner is spared a quadratic copy
(:mod:`simulator.kernel.inlining`) and its live-variable analysis runs on bit sets
(:mod:`simulator.kernel.liveness`). The kernel does not run as plain Python
(``NUMBA_DISABLE_JIT=1``): its bit counts are numba intrinsics, which have no Python
form, and a job reads the rules through jitted functions' ``py_func``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from simulator.kernel.freshness import refresh_package
from simulator.kernel.inlining import share_on_first_compile

JIT = {"cache": True, "nogil": True, "error_model": "numpy"}

# Functions that allocate nothing run without numba's reference counting: across
# cached modules numba does not inline calls, and each call then paid atomic reference
# count updates on every array argument (measured: a 10-instruction legality check took
# 135 ns; the whole kernel ran 15x slower).
HOT = {**JIT, "_nrt": False}
# Inlined at numba's level, which works across modules: also the deal, the exchange and
# the round, called once a round from the match loop, because a call passes every array
# argument as seven words (pointers, size, shape, strides): the match loop ran 15 % faster.
INLINE = {**HOT, "inline": "always"}
# A search allocates its scratch once per decision, so it needs reference counting; said
# explicitly because a callee otherwise inherits its caller's ``_nrt=False``.
ALLOC = {**JIT, "_nrt": True}

refresh_package()
share_on_first_compile()  # each compile's inlining in half the time (inlining.py)


def cached_on_disk(dispatcher: Any) -> bool:
    """Whether numba's cache holds an index for ``dispatcher`` (a jitted function): its
    first call then loads compiled code instead of compiling, so the commands say they
    compile only when they will."""
    func = dispatcher.py_func
    stem = Path(func.__code__.co_filename).stem
    return any(Path(dispatcher.stats.cache_path).glob(f"{stem}.{func.__qualname__}-*.nbi"))


def compiles(loop: Any) -> bool:
    """Whether the first call of ``loop`` (a jitted function) compiles it: nothing
    compiled for it in this process, nothing in numba's cache on disk. A plain Python
    wrapper (around users' strategies) is not known to: False."""
    signatures = getattr(loop, "signatures", None)
    return signatures is not None and not signatures and not cached_on_disk(loop)
