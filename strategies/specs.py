"""What a strategy is, and the kernel ids of the built-ins: the leaf of the strategies layer.

Built-in strategies are dispatched inside the kernel by an integer id (passing jitted
functions as arguments would disable numba's on-disk cache); the ids below are the one
place they are written. User strategies loaded from files get ids from
:data:`PLUGIN_BASE` on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from simulator.errors import PresidentError

if TYPE_CHECKING:
    from strategies.base import Strategy

LOWEST = 0
RANDOM = 1
KEEP_SETS = 2
CONTROL = 3
SHED_MAX = 4
PLANNER = 5
RULES_AWARE = 6
MONTECARLO = 7
PLUGIN_BASE = 100  # user functions from files: 100, 101, …
POLICY_PARAMS = 7  # montecarlo's parameter slots for its rollout policy and its prior, each
# rules-aware's ``knows``: which of the second catalogue's table rules it plays, as bits
KNOWS_EIGHTS = 1  # 8s count as controls; lead them when they leave one group
KNOWS_BURNS = 2  # complete a run of 4 to burn the pile
KNOWS_JACKS = 4  # lay jacks when the reversed order makes a weak group a winner
KNOWS_OUT_ENDS = 8  # keep a strong card a player could go out on (measured: a small loss)
KNOWS_CLUBS = 16  # keep the last 3 while holding the opening 3 of clubs (measured: a loss)
KNOWS_DEFAULT = KNOWS_EIGHTS | KNOWS_BURNS | KNOWS_JACKS  # the ones that measured no loss


class StrategyError(PresidentError):
    """An unknown or unusable strategy."""


@dataclass(frozen=True)
class Param:
    """One parameter of a strategy: its name, default value and meaning."""

    name: str
    default: float
    help: str


@dataclass(frozen=True)
class StrategySpec:
    """A registered strategy, with the parameter values it is played with."""

    name: str
    description: str
    make_python: Callable[[StrategySpec], Strategy] | None
    kernel_id: int
    params: tuple[Param, ...] = ()
    values: tuple[float, ...] = ()  # parameter values, defaults when empty
    python_note: str = ""  # why there is no plain-Python implementation, when there is none
    extend: Callable[[tuple[float, ...]], tuple[float, ...]] | None = None  # more kernel slots

    @property
    def kernel_vector(self) -> tuple[float, ...]:
        """The kernel's ``params`` row: the values, and any slots they imply."""
        return self.extend(self.vector) if self.extend else self.vector

    @property
    def vector(self) -> tuple[float, ...]:
        """The parameter values in order (the kernel's ``params`` row)."""
        return self.values or tuple(p.default for p in self.params)

    @property
    def label(self) -> str:
        """The name with every parameter that differs from its default."""
        changed = [
            f"{p.name}={v:g}"
            for p, v in zip(self.params, self.vector, strict=True)
            if v != p.default
        ]
        return f"{self.name}:{','.join(changed)}" if changed else self.name

    def make(self) -> Strategy:
        """A fresh plain-Python instance, for the reference engine."""
        if self.make_python is None:
            raise StrategyError(
                f"strategy {self.name!r} has no reference-engine version: {self.python_note}"
            )
        return self.make_python(self)

    def with_values(self, text: str) -> StrategySpec:
        """This strategy with parameters ``key=value,…`` changed."""
        values = list(self.vector)
        names = [p.name for p in self.params]
        for item in filter(None, text.split(",")):
            key, eq, raw = item.partition("=")
            key = key.strip()
            if key not in names or not eq:
                allowed = ", ".join(names) or "none"
                raise StrategyError(
                    f"strategy {self.name!r}: bad parameter {item!r} (allowed: {allowed}, as key=value)"
                )
            try:
                values[names.index(key)] = float(raw)
            except ValueError:
                raise StrategyError(
                    f"strategy {self.name!r}: parameter {key} must be a number, not {raw!r}"
                ) from None
        return replace(self, values=tuple(values))
