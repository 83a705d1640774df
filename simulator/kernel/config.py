"""Compiler options of every kernel function, in one place.

``cache=True`` keeps compiled code on disk so a warm start costs well under a second;
``error_model="numpy"`` drops the division-by-zero checks from hot loops. Set
``NUMBA_DISABLE_JIT=1`` to run the kernel as plain Python (readable tracebacks).
"""

JIT = {"cache": True, "nogil": True, "error_model": "numpy"}
