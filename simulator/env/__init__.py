"""Président as a PettingZoo AEC environment (docs/env.md): ``from simulator.env import env``;
as a gymnasium vector environment at the kernel's speed: :mod:`simulator.env.vector`.

``env`` and ``raw_env`` need the ``rl`` extra (``pip install -e ".[rl]"``); they are
imported on first use, so that :mod:`simulator.env.encoding` (the actions and
observations as numbers, which the agents' adapter of ``tournament`` reads) needs only
numpy.
"""

from __future__ import annotations

from typing import Any

__all__ = ["env", "raw_env"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from simulator.env import president

        return getattr(president, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
