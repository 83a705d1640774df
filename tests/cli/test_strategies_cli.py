"""``president strategies`` and strategy names with parameters."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from simulator.cli import cli
from strategies import registry


def test_every_strategy_is_listed_once_name_first_with_its_parameters() -> None:
    result = CliRunner().invoke(cli, ["strategies"])
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == registry.names()
    assert len(lines) >= 8
    control = next(line for line in lines if line.startswith("control "))
    assert "strength=11" in control and "spend_at=3" in control
    verbose = CliRunner().invoke(cli, ["strategies", "-v"]).output
    assert "threat_at (default 2, tuned in 0 to 8):" in verbose
    assert "knows (default 167):" in verbose  # bits: not tuned


def test_parameters_change_the_vector_and_bad_ones_are_refused() -> None:
    spec = registry.get("control:strength=12,threat_at=0")
    assert spec.vector == (12.0, 3.0, 0.0)
    assert spec.label == "control:strength=12,threat_at=0"
    assert registry.get("montecarlo").kernel_vector[:4] == (32, 0, 6, 0.1)
    with pytest.raises(registry.StrategyError, match="allowed: strength, spend_at, threat_at"):
        registry.get("control:colour=3")
    with pytest.raises(registry.StrategyError, match="must be a number"):
        registry.get("control:strength=high")
    with pytest.raises(registry.StrategyError, match="rollout must be one of"):
        registry.get("montecarlo:rollout=7")
    with pytest.raises(registry.StrategyError, match="no reference-engine version"):
        registry.make("montecarlo")


def test_a_list_of_strategies_keeps_each_ones_parameters_together() -> None:
    assert registry.split_names("linear:w_jack=0.4,w_revolt=2,planner, lowest") == [
        "linear:w_jack=0.4,w_revolt=2",
        "planner",
        "lowest",
    ]
    assert registry.split_names("control:strength=12,threat_at=0") == [
        "control:strength=12,threat_at=0"
    ]
    # an item with "=" after a bare name is not a parameter of it: the name check refuses it
    assert registry.split_names("planner,w_jack=1") == ["planner", "w_jack=1"]


def test_several_parameters_of_one_seat_on_the_command_line(tmp_path) -> None:
    result = CliRunner().invoke(
        cli,
        [
            "simulate",
            "--rounds",
            "40",
            "--quiet",
            "--strategies",
            "control:strength=12,threat_at=0,lowest,random,lowest",
            "--out",
            str(tmp_path / "run"),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = (tmp_path / "run" / "summary.json").read_text()
    assert "control:strength=12,threat_at=0" in summary
