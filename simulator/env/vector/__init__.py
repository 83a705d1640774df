"""Président as a gymnasium vector environment at the kernel's speed (docs/env.md).

``PresidentVectorEnv(num_envs, …)`` needs the ``rl`` extra (gymnasium); the kernel's
modules beside it (``state``, ``tables``, ``learner``, ``observe``, ``batch``) need numba only.
"""

from __future__ import annotations

from typing import Any

__all__ = ["PresidentVectorEnv"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from simulator.env.vector.env import PresidentVectorEnv

        return PresidentVectorEnv
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
