"""The PettingZoo environment: PettingZoo's own checks, and the simulator's game exactly.

Built-in strategies driving the environment (told what the engine would tell them,
drawing from the match's play stream) must play the kernel's match for the same
(seed, match): the same moves and the same output rows.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from simulator.env import env, raw_env
from simulator.env.encoding import (
    ACTIONS,
    BASE,
    INF,
    LAYOUT,
    N_ACTIONS,
    OBS_SIZE,
    OFFSETS,
    PASS_ACTION,
    RULES_LABELS,
    SUITS_BASE,
    rules_vector,
)
from simulator.matchloop.api import KernelJob
from simulator.reference.exchange import GiveBack
from simulator.rules.options import Rules, RulesError
from simulator.rules.presets import preset
from tests.conftest import ROOT
from tests.env.drive import kernel_matches_replayed, play

FIELDS = [(f.name, f) for f in LAYOUT]
SUIT_BLOCKS = ("cards", "top_suits", "lock")
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


@pytest.mark.parametrize(
    ("rules", "names"),
    [
        (preset("french"), ["lowest", "random", "lowest", "random"]),
        (MANY_RULES.with_options(players=4), ["random", "planner", "lowest", "random"]),
        (preset("uecda"), ["lowest", "random", "random", "lowest", "random"]),
    ],
    ids=["french-lowest-random", "many-rules-planner", "uecda-lowest-random"],
)
def test_strategies_in_the_env_play_the_kernels_match(rules, names) -> None:
    seed, rounds = 7, 4
    job = KernelJob.build(rules, names, seed, None if rules.target else rounds, 40)
    e = env(rules=rules, rounds=rounds, max_rounds=40)
    runs = kernel_matches_replayed(e, job, names, seed, 3, rules.players)
    assert runs > 0 or not rules.sequenced  # sequences were laid, through their actions


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


def test_docs_tables_are_the_declared_layout_and_actions() -> None:
    """docs/env.md's tables of the observation and the actions are ``LAYOUT`` and
    ``ACTIONS`` row for row, meanings included (on failure, paste the expected rows)."""
    text = (ROOT / "docs" / "env.md").read_text()

    def values(f):
        return "any" if f.high == INF else f"{f.low:g} to {f.high:g}"

    blocks = [
        f"| `{f.name}` | {OFFSETS[f.name]} | {f.size} | {values(f)} | {f.meaning} |" for f in LAYOUT
    ]
    families = [
        f"| `{f.name}` | {BASE[f.name]} to {BASE[f.name] + f.size - 1} | {f.meaning} |"
        for f in ACTIONS
    ]
    assert re.findall(r"^\| `\w+` \| \d+ \| \d+ \|.*$", text, re.M) == blocks, "\n".join(blocks)
    assert re.findall(r"^\| `\w+` \| \d+ to \d+ \|.*$", text, re.M) == families, "\n".join(families)
    assert f"vector of {OBS_SIZE} numbers" in text and f"Discrete({N_ACTIONS})" in text
    assert len(RULES_LABELS) == len(rules_vector(MANY_RULES)) == LAYOUT[-1].size


def test_observation_reads_the_table_from_the_players_seat() -> None:
    e = raw_env(rules=MANY_RULES, players=5)
    e.reset(seed=3)
    rnd, seat = e.decision.round, e.decision.round.turn
    vec = e.observe(e.agent_selection)["observation"]
    at = OFFSETS["cards_left"]
    assert list(vec[at : at + 5]) == [rnd.cards_left[(seat + i) % 5] for i in range(5)]
    assert list(vec[at + 5 : at + 8]) == [0, 0, 0]  # past the table
    assert list(vec[OFFSETS["hand"] : OFFSETS["hand"] + 14]) == rnd.hands[seat]
    assert vec[OFFSETS["rules"] + RULES_LABELS.index("equal_rank=skip")] == 1


def test_the_observation_shows_the_suits_under_the_rules_that_read_them() -> None:
    """Under suit_lock the agent is told its cards, the top's suits and the lock, as the
    engine holds them; under other rules those blocks stay 0."""

    def blocks(vec):
        return [vec[OFFSETS[n] : OFFSETS[n] + f.size] for n, f in FIELDS if n in SUIT_BLOCKS]

    suited = preset("french").with_options(jokers=1, suit_lock="suits")
    locks = 0
    for rules in (suited, preset("french")):
        e = raw_env(rules=rules, rounds=2)
        e.reset(seed=9)
        for _agent in e.agent_iter():
            observation, *_, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            ask = e.decision
            cards, top, lock = blocks(observation["observation"])
            if isinstance(ask, GiveBack) or not rules.suited:
                assert not cards.any() and not top.any() and not lock.any()
            else:
                held = ask.round.suits.cards[ask.round.turn]
                assert sorted(np.flatnonzero(cards)) == sorted(held)  # the jokers at 52, 53
                assert [int(b) for b in top] == [ask.round.suits.top >> s & 1 for s in range(4)]
                assert [int(b) for b in lock] == [ask.round.suits.lock >> s & 1 for s in range(4)]
                locks += bool(lock.any())
            legal = np.flatnonzero(observation["action_mask"])  # the weakest play by suits
            e.step(int(min(legal, key=lambda a: (a == PASS_ACTION, a < SUITS_BASE, a))))
    assert locks > 0  # the lock was seen set


def test_the_name_is_the_last_version_of_the_docs() -> None:
    text = (ROOT / "docs" / "env.md").read_text()
    versions = re.findall(
        r"^\| `(president_v\d+)` \| (\d+) numbers \| `Discrete\((\d+)\)`", text, re.M
    )
    assert versions[-1] == (raw_env.metadata["name"], str(OBS_SIZE), str(N_ACTIONS))
    assert len({name for name, _, _ in versions}) == len(versions)


def test_an_illegal_action_is_refused_before_the_engine() -> None:
    e = raw_env(rules="french")
    e.reset(seed=4)
    legal = np.flatnonzero(e.observe(e.agent_selection)["action_mask"])
    illegal = next(a for a in range(N_ACTIONS) if a not in legal)
    with pytest.raises(ValueError, match="is illegal"):
        e.step(illegal)
    e.step(int(legal[0]))  # the match goes on
    assert e.decision.round.plays == 1
