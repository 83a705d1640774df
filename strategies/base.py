"""What a plain-Python strategy is: an observation goes in, a move comes out.

A strategy also makes the exchange decision: when it is the better player of an
exchange pair it gives back ``k`` cards of its choice from the hand it holds after
receiving. Randomness comes only from the stream it is handed (the match's play
stream), never from a global generator, so every game can be replayed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from simulator.reference.rng import Stream
from simulator.reference.round import Move, Observation


class Strategy(Protocol):
    """The plain-Python strategy interface of the reference engine."""

    name: str

    def choose(self, obs: Observation, rng: Stream) -> Move:
        """The move to make; it must be one of ``obs.legal``."""
        ...

    def give_back(self, hand: Sequence[int], k: int, rng: Stream) -> list[int]:
        """The ranks of the ``k`` cards to give back from ``hand`` (14 rank counts)."""
        ...
