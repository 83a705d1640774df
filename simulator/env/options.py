"""What both environments share beyond the layout: their spaces, options and checks.

The PettingZoo environment (:mod:`simulator.env.president`) and the vector environment
(:mod:`simulator.env.vector`) take the same options in the same words and give the
same spaces, declared here once; the layout itself is :mod:`simulator.env.encoding`'s.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from gymnasium import spaces

from simulator.env.encoding import HIGH, LOW, N_ACTIONS
from simulator.rules.files import load_rules
from simulator.rules.options import Rules, RulesError

NAME = "president_v3"  # the spaces' version (docs/env.md, "Versions"): both environments' name
ROUNDS = 10  # a match's rounds without a target, as `president simulate`'s default
EPISODES = ("match", "round")
REWARDS = ("places", "points")


def observation_space() -> spaces.Dict:
    """One agent's observation: the vector of ``LAYOUT`` and the action mask."""
    return spaces.Dict(
        {
            "observation": spaces.Box(LOW, HIGH, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), dtype=np.int8),
        }
    )


def action_space() -> spaces.Discrete:
    """One agent's actions: ``ACTIONS``, one space for every rule set and table size."""
    return spaces.Discrete(N_ACTIONS)


def resolve_rules(rules: str | Path | Rules, players: int | None) -> Rules:
    """A ``Rules`` from a preset name, a rules file or a ``Rules``, with ``players`` set."""
    resolved = rules if isinstance(rules, Rules) else load_rules(rules)
    return resolved if players is None else resolved.with_options(players=players)


def check_choice(name: str, value: object, allowed: tuple) -> None:
    """Refuse an option's value that is not one of ``allowed``, naming them."""
    if value not in allowed:
        shown = ", ".join(str(a) for a in allowed)
        raise RulesError(f"{name}: {value!r} is not allowed (allowed: {shown})")


def check_count(name: str, value: object) -> None:
    """Refuse a count option that is not an integer ≥ 1."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise RulesError(f"{name}: {value!r} is not allowed (allowed: an integer ≥ 1)")
