"""A cold compile in half the time: numba's inliner without its quadratic copy.

The match loop inlines its round, moves and strategies at numba's level (``inline="always"``,
:mod:`simulator.kernel.config`). For each call it inlines, numba's untyped inliner
(``InlineWorker.inline_function``) builds the callee's IR afresh, then copies it twice
block by block (``InlineWorker.inline_ir``); each block's copy deep-copies the callee's
whole variable scope again, every variable of the function, so inlining a callee of b
blocks and v variables costs b × v copies, and the loop's callees, themselves full of
inlined code, have hundreds of each. Profiled on a cold compile of the
``lowest``/``random`` loop: 12 s of 26 in the inlining pass, half the CPU time of the
compile in ``copy.deepcopy``.

:func:`share_inlined_scopes` lets those copies share the scope they would each have
copied. That is safe because the IR being copied was built for this one call and is
thrown away after it, and the inliner moves every inlined block into the caller's
scope anyway. The compiled code is the same, LLVM IR identical byte for byte (checked
on the ``lowest``/``random`` loop); only the compile is faster (CPU 19.6 s → 11.3 s).
Every other copy of a scope (numba's typed inlining, which reuses a callee's IR from
one call to the next) keeps numba's own deep copy.

The functions compiled apart gain as much (``linear_move`` 67 → 27 s, ``champion_move``
143 → 55 s cold), so the patch is installed by the first compile of the process
(:func:`share_on_first_compile`, run on the import of :mod:`simulator.kernel.config`),
whatever compiles: a loop, a strategy compiled apart for ``replay``, a user's function.
Installing it on import would import numba's inliner (22 ms) into warm runs that load
everything from the cache and compile nothing.
"""

from __future__ import annotations

import copy
import functools
import threading
from typing import Any

from numba.core.event import Listener, register

_sharing = threading.local()  # true while an untyped inlining copies the callee's blocks


# numba versions whose inliner this was read and checked against: ``InlineWorker`` and
# ``ir.Scope`` are the same text from 0.59 to 0.68, and the LLVM IR of ``linear_move``
# compiled with and without the patch is the same on 0.59 and 0.68 (but for the order of
# a few lines and addresses, which differ as much between two compiles without it).
VERIFIED = tuple(f"0.{minor}" for minor in range(59, 69))


def verified_numba() -> bool:
    """Whether the numba installed is one of :data:`VERIFIED` (the patches lean on its
    internals: another version compiles at numba's own pace, never differently)."""
    import numba

    return ".".join(numba.__version__.split(".")[:2]) in VERIFIED


@functools.cache  # once a process
def share_inlined_scopes() -> None:
    """Install the shared scope copy (see the module docstring); once per process.

    Only on the numba versions of :data:`VERIFIED`, and left alone when numba defines
    its own copy of scopes (a numba that fixed this).
    """
    if not verified_numba():
        return
    from numba.core import ir
    from numba.core.inline_closurecall import InlineWorker

    if getattr(InlineWorker.inline_function, "shares_scopes", False):
        return
    if "__deepcopy__" in vars(ir.Scope):
        return
    original = InlineWorker.inline_function

    def inline_function(self: Any, *args: Any, **kwargs: Any) -> Any:
        outer = getattr(_sharing, "on", False)  # inlining nests: restore, not clear
        _sharing.on = True
        try:
            return original(self, *args, **kwargs)
        finally:
            _sharing.on = outer

    inline_function.shares_scopes = True  # type: ignore[attr-defined]
    ir.Scope.__deepcopy__ = _copy_scope
    InlineWorker.inline_function = inline_function


@functools.cache  # once a process: each compile's listener calls it
def patch_numba() -> None:
    """Install the shared scope copy and, on the numba versions of :data:`VERIFIED`, the
    live-variable analysis on bit sets (:mod:`simulator.kernel.liveness`)."""
    from simulator.kernel.liveness import live_maps_on_bit_sets

    share_inlined_scopes()
    if verified_numba():
        live_maps_on_bit_sets()


class _FirstCompile(Listener):
    """Installs numba's patches (:func:`patch_numba`) when numba starts compiling anything."""

    def on_start(self, event: Any) -> None:
        patch_numba()

    def on_end(self, event: Any) -> None:
        pass


@functools.cache  # one listener a process
def share_on_first_compile() -> None:
    """Have numba's first compile of the process install :func:`patch_numba` (numba's
    event API: a listener of ``numba:compile``, called before each compile)."""
    register("numba:compile", _FirstCompile())


def _copy_scope(scope: Any, memo: dict[int, Any]) -> Any:
    """The scope itself while an untyped inlining copies blocks; else numba's deep copy
    (a copy of the scope's attributes, as ``copy.deepcopy`` makes of any object)."""
    if getattr(_sharing, "on", False):
        return scope
    clone = copy.copy(scope)
    memo[id(scope)] = clone
    clone.__dict__.update(copy.deepcopy(scope.__dict__, memo))
    return clone
