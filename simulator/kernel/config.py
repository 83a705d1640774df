"""Compiler options of every kernel function, in one place.

``cache=True`` keeps compiled code on disk so a warm start costs well under a second;
``error_model="numpy"`` drops the division-by-zero checks from hot loops. Set
``NUMBA_DISABLE_JIT=1`` to run the kernel as plain Python (readable tracebacks).
"""

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
