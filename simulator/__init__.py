"""president-sim: a Monte-Carlo laboratory for the card game Président.

The rules live in :mod:`simulator.rules.options`; :mod:`simulator.reference.round` is the plain-Python
reference engine that reads like the rule book, and the numba kernel is its fast twin.

``from simulator import simulate, compare, tournament, report, tune, atlas`` is the Python API
(:mod:`simulator.api`, docs/api.md). It is loaded on first use, not with the package, so
that the command line (``president --help``) starts without pandas and numba and this
bottom layer imports nothing from the top one.
"""

from __future__ import annotations

import importlib
from typing import Any

__version__ = "0.1.0"

API = (
    "simulate",
    "advise",
    "compare",
    "tournament",
    "report",
    "tune",
    "atlas",
)  # the functions of simulator.api


def __getattr__(name: str) -> Any:
    """``simulator.simulate`` and the other functions of :data:`API`, loaded on first use."""
    if name in API:
        return getattr(importlib.import_module("simulator.api"), name)
    raise AttributeError(f"module 'simulator' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *API])
