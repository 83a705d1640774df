"""Environment agents (``act(observation, action_mask)``) as strategies of the simulator.

The adapter must ask an agent exactly what the environment asks it, so that a policy
trained in the environment plays the same game in ``tournament`` and ``compare``.
"""

from __future__ import annotations

import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import cli, main
from simulator.env import env
from simulator.reference.match import play_match
from simulator.rules.options import Rules
from strategies.agent import AgentStrategy
from strategies.user import load
from tests.conftest import ROOT

GREEDY = f"{ROOT / 'examples' / 'agents' / 'greedy_agent.py'}:Agent"
RULES = Rules().with_options(
    players=4, revolution=True, exchange=(2, 1), clubs_three_opens="every_round"
)


def env_moves(seed: int, match: int, rounds: int) -> list[tuple[int, tuple[int, int]]]:
    """The moves of a match where the greedy agent plays every seat of the environment."""
    agent = load(GREEDY).make().agent
    e = env(rules=RULES, rounds=rounds)
    e.reset(seed=seed, options={"match": match})
    for _ in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        done = terminated or truncated
        e.step(None if done else agent.act(observation["observation"], observation["action_mask"]))
    return [(p, tuple(m)) for rr in e.unwrapped.record.rounds for p, m in rr.moves]


def test_an_agent_plays_the_same_match_in_the_env_and_the_simulator() -> None:
    spec = load(GREEDY)
    players = [spec.make() for _ in range(4)]
    assert all(isinstance(p, AgentStrategy) for p in players)
    for match in range(3):
        record = play_match(RULES, players, 9, match, rounds=3)
        moves = [(p, tuple(m)) for rr in record.rounds for p, m in rr.moves]
        assert moves == env_moves(9, match, 3)


def test_an_agent_plays_a_tournament_and_a_run_against_built_ins(tmp_path) -> None:
    out = tmp_path / "t"
    result = CliRunner().invoke(
        cli,
        ["tournament", "--strategies", f"{GREEDY},lowest,random", "--players", "3",
         "--matches", "6", "--rounds-per-match", "2", "--engine", "python", "--out", str(out),
         "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    ranking = pd.read_csv(out / "ranking.csv")
    assert set(ranking["strategy"]) == {GREEDY, "lowest", "random"}
    assert ranking["rounds"].sum() == 6 * 2 * 3
    run = tmp_path / "s"  # compare plays each variant as such a run
    result = CliRunner().invoke(
        cli,
        ["simulate", "--strategies", f"{GREEDY},lowest,random", "--players", "3",
         "--rounds", "12", "--rounds-per-match", "2", "--engine", "python", "--out", str(run),
         "--quiet"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert GREEDY in result.output


def test_an_agent_is_refused_by_the_kernel_in_one_line(tmp_path, capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["simulate", "--strategies", GREEDY, "--rounds", "10", "--out", str(tmp_path)])
    assert exc.value.code == 2
    assert "an environment agent: run it with --engine python" in capsys.readouterr().err
