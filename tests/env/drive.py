"""Built-in strategies driving the environment, as the simulator would ask them: each is
told what the engine tells a strategy and draws from the match's play stream, so that
its match in the environment is the simulator's match for the same (seed, match)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simulator.env.encoding import GIVE_BASE, OBS_SIZE, action_of
from simulator.matchloop.api import KernelJob, record_trace, rows_of_record, trace_match
from simulator.reference.exchange import GiveBack, give_back_of
from simulator.reference.match import MatchRecord
from simulator.reference.moves import Run
from simulator.reference.rng import PLAY_STREAM, Stream
from strategies import registry


def play(
    e: Any, names: list[str], seed: int, match: int, views: dict[str, list] | None = None
) -> MatchRecord:
    """Drive the environment ``e`` through match ``match`` of ``seed`` with the built-ins
    ``names`` (one a seat); the rewards each agent was told are left in
    ``e.unwrapped.earned``, and the observations of each agent's decisions in
    ``views[agent]`` for the agents it names. Every action taken must be one the mask
    allows."""
    e.reset(seed=seed, options={"match": match})
    raw = e.unwrapped
    players = [registry.make(name) for name in names]
    rng = Stream.of(seed, match, PLAY_STREAM)
    queued: list[int] = []
    raw.earned = dict.fromkeys(raw.possible_agents, 0.0)
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        raw.earned[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        ask, who = raw.decision, raw.possible_agents.index(agent)
        if isinstance(ask, GiveBack):
            if not queued:
                queued = give_back_of(players[who], ask.hand, ask.k, rng, ask.opens, ask)
            action = GIVE_BASE + queued.pop(0)
        else:
            action = action_of(players[who].choose(ask.obs, rng), ask.obs)
        assert observation["action_mask"][action] == 1  # the mask allows what the engine does
        if views is not None and agent in views:
            views[agent].append(observation)
        assert observation["observation"].shape == (OBS_SIZE,)
        e.step(action)
    return raw.record


def kernel_matches_replayed(e: Any, job: KernelJob, names: list[str], seed: int,
                            matches: int, players: int) -> int:  # fmt: skip
    """Drive ``e`` through the first ``matches`` matches of ``seed`` with ``names`` and
    check each against the kernel's ``job`` (moves and rows); the sequences laid."""
    runs = 0
    for match in range(matches):
        record = play(e, names, seed, match)
        rows, trace = trace_match(job, match)
        assert record_trace(record) == trace.tolist()
        assert np.array_equal(rows_of_record(match, record, players), rows)
        runs += sum(isinstance(m, Run) for rr in record.rounds for _, m in rr.moves)
    return runs
