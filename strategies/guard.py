"""The one guard around a plain-Python strategy: every move and give-back is checked.

Strategies may be users' code. One that raises, answers with something that is not a
move, makes a move the rules forbid or gives back cards it does not hold stops the run
with one line naming it, the situation and the move — instead of a traceback from deep
in the engine or, for an illegal move, a round that could go on forever. Nothing is
ever substituted silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from simulator.reference.rng import Stream
from simulator.reference.round import PASS, Move, Observation
from simulator.rules.cards import card_names, format_hand
from strategies.specs import StrategyError


def situation(obs: Observation) -> str:
    """Where a strategy was asked to move, in words."""
    top = (
        "leading" if obs.top is None else f"on {' '.join(card_names(obs.top.rank, obs.top.count))}"
    )
    allowed = ", ".join(str(m) for m in obs.legal)
    return f"seat {obs.seat} {top}, holding {format_hand(obs.hand)} (allowed: {allowed})"


class Guarded:
    """A strategy whose faults stop the run as a :class:`StrategyError` naming it."""

    def __init__(self, label: str, inner: Any) -> None:
        self.label, self.inner = label, inner
        self.name = label

    def choose(self, obs: Observation, rng: Stream) -> Move:
        """The inner strategy's move, checked against the legal moves."""
        try:
            move = self.inner.choose(obs, rng)
        except Exception as exc:  # the strategy's code: report, never crash the run
            raise StrategyError(
                f"strategy {self.label!r} raised {type(exc).__name__}: {exc} ({situation(obs)})"
            ) from None
        try:
            move = Move(int(move[0]), int(move[1]))
        except (TypeError, ValueError, IndexError):
            raise StrategyError(
                f"strategy {self.label!r} returned {move!r}, not a move (rank, count) "
                f"({situation(obs)})"
            ) from None
        if move.count == 0:
            move = PASS
        if move not in obs.legal:
            raise StrategyError(
                f"strategy {self.label!r} made the illegal move {move} (rank {move.rank}, "
                f"count {move.count}), which the rules forbid ({situation(obs)})"
            )
        return move

    def give_back(self, hand: Sequence[int], k: int, rng: Stream) -> list[int]:
        """The inner strategy's ``k`` cards to give back, checked against ``hand``."""
        where = f"giving back {k} of {format_hand(hand)}"
        try:
            back = [int(r) for r in self.inner.give_back(hand, k, rng)]
        except Exception as exc:  # the strategy's code: report, never crash the run
            raise StrategyError(
                f"strategy {self.label!r} raised {type(exc).__name__}: {exc} ({where})"
            ) from None
        left = list(hand)
        for r in back:
            if not 0 <= r < len(left) or left[r] == 0:
                raise StrategyError(
                    f"strategy {self.label!r} gave back a card it does not hold: {back} ({where})"
                )
            left[r] -= 1
        if len(back) != k:
            raise StrategyError(
                f"strategy {self.label!r} gave back {len(back)} cards, not {k} ({where})"
            )
        return back
