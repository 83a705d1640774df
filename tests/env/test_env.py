"""The PettingZoo environment: PettingZoo's own checks, and the simulator's game exactly.

Built-in strategies driving the environment (told what the engine would tell them,
drawing from the match's play stream) must play the kernel's match for the same
(seed, match): the same moves and the same output rows.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from simulator.env import env, raw_env
from simulator.env.encoding import GIVE_BASE, N_ACTIONS, OBS_SIZE, action_of
from simulator.matchloop.api import KernelJob, record_trace, rows_of_record, trace_match
from simulator.reference.match import GiveBack, give_back_of
from simulator.reference.rng import PLAY_STREAM, Stream
from simulator.rules.options import Rules, RulesError
from simulator.rules.presets import preset
from strategies import registry

MANY_RULES = Rules().with_options(
    players=5, jokers=2, equal_rank="skip", revolution=True, jack_back=True, reseat=True,
    exchange=(2, 1), clubs_three_opens="every_round", points={"top": [2, 1]}, target=6,
)  # fmt: skip


@pytest.mark.parametrize(
    "kwargs",
    [{"rules": "french", "rounds": 3}, {"rules": MANY_RULES, "reward": "points"}],
    ids=["french", "many-rules"],
)
def test_pettingzoo_api_and_seed_tests_pass(kwargs) -> None:
    api_test(env(**kwargs), num_cycles=300)
    seed_test(lambda: env(**kwargs), num_cycles=300)


def play(e, names: list[str], seed: int, match: int):
    """Drive the environment with built-in strategies on the match's shared play stream."""
    e.reset(seed=seed, options={"match": match})
    raw = e.unwrapped
    players = [registry.make(name) for name in names]
    rng = Stream.of(seed, match, PLAY_STREAM)
    queued: list[int] = []
    raw.earned = dict.fromkeys(raw.possible_agents, 0.0)  # the rewards each agent was told
    for agent in e.agent_iter():
        observation, reward, terminated, truncated, _ = e.last()
        raw.earned[agent] += reward
        if terminated or truncated:
            e.step(None)
            continue
        ask, who = raw.decision, raw.possible_agents.index(agent)
        if isinstance(ask, GiveBack):
            if not queued:
                queued = give_back_of(players[who], ask.hand, ask.k, rng, ask.opens)
            action = GIVE_BASE + queued.pop(0)
        else:
            action = action_of(players[who].choose(ask.obs, rng))
        assert observation["action_mask"][action] == 1  # the mask allows what the engine does
        assert observation["observation"].shape == (OBS_SIZE,)
        e.step(action)
    return raw.record


@pytest.mark.parametrize(
    ("rules", "names"),
    [
        (preset("french"), ["lowest", "random", "lowest", "random"]),
        (MANY_RULES.with_options(players=4), ["random", "planner", "lowest", "random"]),
    ],
    ids=["french-lowest-random", "many-rules-planner"],
)
def test_strategies_in_the_env_play_the_kernels_match(rules, names) -> None:
    seed, rounds = 7, 4
    job = KernelJob.build(rules, names, seed, None if rules.target else rounds, 40)
    e = env(rules=rules, rounds=rounds, max_rounds=40)
    for match in range(3):
        record = play(e, names, seed, match)
        rows, trace = trace_match(job, match)
        assert record_trace(record) == trace.tolist()
        assert np.array_equal(rows_of_record(match, record, rules.players), rows)


def test_rewards_are_places_by_default_and_points_by_option() -> None:
    for reward in ("places", "points"):
        e = env(rules=preset("french").with_options(points={"top": [3], "bottom": [-2]}),
                rounds=2, reward=reward)  # fmt: skip
        record = play(e, ["lowest"] * 4, 5, 0)
        got = e.unwrapped.earned
        totals = [0.0] * 4
        for rr in record.rounds:
            for p in range(4):
                totals[p] += rr.points[p] if reward == "points" else (5 - 2 * rr.places[p]) / 3
        assert [got[a] for a in e.possible_agents] == pytest.approx(totals)


def test_one_round_episodes_and_bad_options() -> None:
    e = env(rules="scum", players=6, episode="round")
    record = play(e, ["lowest"] * 6, 3, 2)
    assert len(record.rounds) == 1 and e.unwrapped.action_space("player_0").n == N_ACTIONS
    with pytest.raises(RulesError, match="episode"):
        raw_env(episode="season")
    with pytest.raises(RulesError, match="players"):
        raw_env(players=9)
