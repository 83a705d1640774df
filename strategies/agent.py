"""An agent written against the environment (:mod:`simulator.env`) as a strategy.

A user file's class with ``act(observation, action_mask) -> action`` and no ``choose``
(``--strategies FILE.py:Agent``, like ``examples/agents/greedy_agent.py``) is an **agent**: it is asked exactly what the
environment asks it — the observation vector and the action mask of
:mod:`simulator.env.encoding`, built from the same :class:`Observation` — and answers
with an action of the environment's action space. So a policy trained in the
environment plays ``simulate``, ``compare`` and ``tournament`` on the reference engine
(``--engine python``), under the one guard of :mod:`strategies.guard`. A give-back of k
cards is k calls, one card each, as in the environment. An agent is given no random
stream: one that draws must seed its own generator, so that a run repeats.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from simulator.env.encoding import (
    GIVE_BASE,
    give_mask,
    give_observation,
    move_of,
    play_mask,
    play_observation,
    rules_vector,
)
from simulator.reference.moves import Move, Named, Run
from simulator.reference.rng import Stream
from simulator.reference.round import Observation
from simulator.rules.options import Rules


def is_agent(cls: type) -> bool:
    """Whether a user's class is an environment agent rather than a strategy."""
    return callable(getattr(cls, "act", None)) and not callable(getattr(cls, "choose", None))


@lru_cache(maxsize=16)
def _rules_vec(rules: Rules) -> np.ndarray:
    return rules_vector(rules)


class AgentStrategy:
    """A strategy that asks an environment agent."""

    reads_club_three = True  # the environment tells a giver whether his 3 of clubs opens

    def __init__(self, name: str, agent: Any) -> None:
        self.name, self.agent = name, agent
        self.rules: Rules | None = None  # the rules of the match in play, from its moves

    def choose(self, obs: Observation, rng: Stream) -> Move | Named | Run:
        """The move of the agent's action: a play by count, or by suits under the rules
        that read suits (a :class:`Named` play), the pass or a sequence. An action the
        mask forbids is refused here as the environment refuses it (an action of another
        family may still name a legal move, which the guard would let through)."""
        self.rules = obs.rules
        vec = play_observation(obs, _rules_vec(obs.rules))
        mask = play_mask(obs)
        action = int(self.agent.act(vec, mask))
        if not (0 <= action < len(mask) and mask[action]):
            raise ValueError(f"action {action} is not allowed by the action mask")
        return move_of(action)

    def give_back(self, hand: Sequence[int], k: int, rng: Stream, opens: bool = False) -> list[int]:
        """k actions, one card each, from the hand as it shrinks. A give-back is not told
        the rules, but whoever gives back went out in the match's previous round, so he
        has moved in this match: its rules are the last ones :meth:`choose` saw."""
        assert self.rules is not None, "a giver has moved before in the match"
        left, given = list(hand), []
        for to_give in range(k, 0, -1):
            vec = give_observation(left, to_give, opens, _rules_vec(self.rules))
            rank = int(self.agent.act(vec, give_mask(left))) - GIVE_BASE
            given.append(rank)
            if 0 <= rank < len(left) and left[rank] > 0:
                left[rank] -= 1
        return given
