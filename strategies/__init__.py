"""The strategy registry: name → how to play it.

Every strategy has a name, a one-line description and a plain-Python implementation
for the reference engine; those the numba kernel knows also have a kernel id (the
kernel dispatches built-ins by integer, which keeps its compiled cache valid).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from strategies.base import Strategy
from strategies.lowest import Lowest
from strategies.random_strategy import Random


class StrategyError(ValueError):
    """An unknown or unusable strategy."""


@dataclass(frozen=True)
class StrategySpec:
    """A registered strategy."""

    name: str
    description: str
    make: Callable[[], Strategy]
    kernel_id: int


REGISTRY: dict[str, StrategySpec] = {
    "lowest": StrategySpec(
        "lowest", "Weakest legal play; leads all cards of its weakest rank.", Lowest, 0
    ),
    "random": StrategySpec(
        "random", "Uniform choice among the legal moves (pass included).", Random, 1
    ),
}


def names() -> list[str]:
    """Every registered strategy name."""
    return list(REGISTRY)


def get(name: str) -> StrategySpec:
    """The spec of a strategy, or a StrategyError listing the known names."""
    if name not in REGISTRY:
        raise StrategyError(f"unknown strategy {name!r} (allowed: {', '.join(REGISTRY)})")
    return REGISTRY[name]


def make(name: str) -> Strategy:
    """A fresh plain-Python instance of a registered strategy."""
    return get(name).make()
