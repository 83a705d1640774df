"""The Python API (simulator/api/): the commands' numbers as DataFrames, their errors as
exceptions, and a package import that stays light."""

from __future__ import annotations

import json
import subprocess
import sys

import pandas as pd
import pytest

import simulator
from simulator.errors import PresidentError
from tests.conftest import ROOT, run_cli

LINEUP = "lowest,random,lowest,random"


@pytest.fixture(autouse=True)
def eighty_columns(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")


def test_simulate_returns_the_numbers_the_command_prints_and_writes(tmp_path):
    args = ["--players", "4", "--strategies", LINEUP, "--rounds", "3000", "--seed", "5"]
    printed = run_cli("simulate", *args, "--out", str(tmp_path / "cli"), "--workers", "1")
    assert printed.exit_code == 0
    run = simulator.simulate(players=4, strategies=LINEUP, rounds=3000, seed=5, workers=1)
    assert run.text(80) in printed.stdout
    summary = json.loads((tmp_path / "cli" / "summary.json").read_text())
    for row, (_, mine) in zip(summary["table"], run.standings.iterrows(), strict=True):
        assert (row["strategy"], row["rounds"]) == (mine["strategy"], mine["rounds"])
        assert row["mean_place"] == pytest.approx(mine["mean_place"])
        assert row["shares"] == pytest.approx([mine[f"P{i}"] for i in range(1, 5)])
    cli_rows = pd.read_parquet(tmp_path / "cli" / "rounds.parquet")
    pd.testing.assert_frame_equal(run.rounds, cli_rows)
    means = run.rounds.groupby("strategy", observed=True)["place"].mean()
    table = run.standings.set_index("strategy")["mean_place"]
    assert means.to_dict() == pytest.approx(table.to_dict())


def test_a_run_without_out_lives_as_long_as_its_result():
    run = simulator.simulate(players=4, strategies=LINEUP, rounds=1000, workers=1)
    folder = run.path
    assert (folder / "summary.json").is_file()
    transitions = run.transitions
    assert set(transitions["prev_role"]) >= {"president", "scum"}
    del run, transitions
    import gc

    gc.collect()
    assert not folder.exists()


def test_tournament_ranks_as_the_command_saves(tmp_path):
    args = ["--players", "4", "--strategies", "lowest,random", "--matches", "40"]
    assert (
        run_cli("tournament", *args, "--out", str(tmp_path / "t"), "--workers", "1").exit_code == 0
    )
    ranked = simulator.tournament(players=4, strategies=["lowest", "random"], matches=40, workers=1)
    saved = pd.read_csv(tmp_path / "t" / "ranking.csv")
    pd.testing.assert_frame_equal(ranked.ranking.reset_index(drop=True), saved, check_dtype=False)
    assert "lowest" in ranked._repr_html_()


def test_compare_prints_what_the_command_prints():
    args = ["--rules", "french", "--rules", "scum", "--players", "4", "--strategies", LINEUP]
    printed = run_cli("compare", *args, "--matches", "60", "--workers", "1", "--quiet")
    assert printed.exit_code == 0
    cmp = simulator.compare(["french", "scum"], players=4, strategies=LINEUP, matches=60,
                            workers=1)  # fmt: skip
    assert cmp.text(80) in printed.stdout
    assert set(cmp.differences["variant"]) == {"scum"}
    assert list(cmp.ranking["variant"].unique()) == ["french", "scum"]


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: simulator.simulate(rules="nope"), "neither a preset nor a rules file"),
        (lambda: simulator.simulate(strategies="nobody"), "nobody"),
        (lambda: simulator.simulate(matches=5, rounds=5), "not both"),
        (lambda: simulator.compare(["french"]), "at least two --rules"),
        (lambda: simulator.tournament(strategies="lowest"), "at least 2 different"),
        (lambda: simulator.tournament(strategies="lowest,random", engine="dask"), "dask"),
        (lambda: simulator.tournament(strategies="lowest,random", report=True), "needs out"),
        (lambda: simulator.report("/nonexistent/run"), "not a directory"),
    ],
)
def test_mistakes_raise_the_commands_errors_not_system_exit(call, message):
    with pytest.raises(PresidentError, match=message):
        call()


def test_the_package_loads_the_api_on_first_use_only():
    """``import simulator`` and the command line's import load neither the API nor pandas
    or numba: ``president --help`` stays fast."""
    code = (
        "import sys, simulator, simulator.cli; "
        "print(sorted(m for m in ('simulator.api', 'pandas', 'numba') if m in sys.modules)); "
        "simulator.simulate; print('simulator.api' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True).stdout.split("\n")  # fmt: skip
    assert out[:2] == ["[]", "True"]
    assert set(simulator.API) <= set(dir(simulator))
    assert "tune" in simulator.API
    assert "atlas" in simulator.API
    with pytest.raises(AttributeError, match="almanac"):
        simulator.almanac  # noqa: B018
