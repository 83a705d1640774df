"""Environment agents (``act(observation, action_mask)``) as strategies of the simulator.

The adapter must ask an agent exactly what the environment asks it, so that a policy
trained in the environment plays the same game in ``tournament`` and ``compare``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import cli, main
from simulator.env import env
from simulator.reference.match import MatchRecord, play_match
from simulator.reference.moves import Run
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies.agent import AgentStrategy
from strategies.guard import Guarded
from strategies.specs import StrategyError
from strategies.user import load
from tests.conftest import ROOT

GREEDY = f"{ROOT / 'examples' / 'agents' / 'greedy_agent.py'}:Agent"
RULES = Rules().with_options(
    players=4, revolution=True, exchange=(2, 1), clubs_three_opens="every_round"
)


class Last:
    """An agent that takes its last legal action: a sequence whenever one is legal, else
    its highest play by suits (under the rules that read suits), so that the adapter's
    sequences and named plays are played."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[-1])


def env_moves(agent: object, rules: Rules, seed: int, match: int, rounds: int) -> list[tuple]:
    """The moves of a match where ``agent`` plays every seat of the environment."""
    e = env(rules=rules, rounds=rounds)
    e.reset(seed=seed, options={"match": match})
    for _ in e.agent_iter():
        observation, _, terminated, truncated, _ = e.last()
        done = terminated or truncated
        e.step(None if done else agent.act(observation["observation"], observation["action_mask"]))
    return played(e.unwrapped.record)


def played(record: MatchRecord) -> list[tuple]:
    """A match's moves and the cards each laid (under the rules that read suits)."""
    return [(p, tuple(m), tuple(laid)) for rr in record.rounds
            for (p, m), laid in zip(rr.moves, rr.laid, strict=True)]  # fmt: skip


@pytest.mark.parametrize("rules", [RULES, preset("uecda")], ids=["suitless", "uecda"])
def test_an_agent_plays_the_same_match_in_the_env_and_the_simulator(rules) -> None:
    """The same moves, and under the rules that read suits the same cards laid."""
    spec = load(GREEDY)
    players = [spec.make() for _ in range(rules.players)]
    assert all(isinstance(p, AgentStrategy) for p in players)
    for match in range(2):
        record = play_match(rules, players, 9, match, rounds=3)
        assert played(record) == env_moves(spec.make().agent, rules, 9, match, 3)


def test_an_agents_sequences_and_suits_are_played_in_the_simulator() -> None:
    rules = preset("uecda")
    players = [Guarded("last", AgentStrategy("last", Last())) for _ in range(rules.players)]
    record = play_match(rules, players, 4, 0, rounds=3)
    assert played(record) == env_moves(Last(), rules, 4, 0, 3)
    assert any(isinstance(m, Run) for rr in record.rounds for _, m in rr.moves)


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


def test_an_action_the_mask_forbids_stops_the_run_naming_the_agent() -> None:
    """A play by count under the rules that read suits names a legal move, but the
    environment refuses it: so does the adapter, as any illegal answer."""

    class ByCount:
        def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
            return 0  # one 3, by count

    rules = preset("uecda")
    players = [Guarded("by-count", AgentStrategy("by-count", ByCount()))] * rules.players
    with pytest.raises(StrategyError, match=r"by-count.*not allowed by the action mask"):
        play_match(rules, players, 4, 0, rounds=1)
