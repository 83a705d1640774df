"""Tournaments: fair tables, cluster intervals, the command line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import cli, main
from simulator.rules.presets import preset
from simulator.runs.tournament import TournamentConfig, run_tournament, tables
from simulator.stats import ratio_interval


def test_tables_cover_every_combination_or_repeat_the_list() -> None:
    assert tables(["a", "b", "c", "d", "e"], 4) == [
        ("a", "b", "c", "d"),
        ("a", "b", "c", "e"),
        ("a", "b", "d", "e"),
        ("a", "c", "d", "e"),
        ("b", "c", "d", "e"),
    ]
    assert tables(["a", "b"], 5) == [("a", "b", "a", "b", "a")]


def test_ratio_interval_is_the_cluster_robust_one() -> None:
    y = np.array([3.0, 5.0, 4.0, 8.0])
    m = np.array([2.0, 2.0, 2.0, 4.0])
    p, lo, hi, _ = ratio_interval(y, m)
    assert p == 2.0
    resid = y - p * m  # -1, 1, 0, 0
    se = np.sqrt(4 / 3 * (resid**2).sum()) / m.sum()
    assert np.isclose(hi - p, 3.182446305284263 * se)  # t(0.975, 3)
    assert np.isclose(p - lo, hi - p)


def test_tournament_ranks_lowest_above_random_with_consistent_tables() -> None:
    rules = preset("scum").with_options(players=3, points={})
    config = TournamentConfig(("random", "lowest"), matches=30, rounds_per_match=4, seed=3)
    rank, pairs = run_tournament(rules, config)
    assert list(rank["strategy"]) == ["lowest", "random"]
    assert rank["rounds"].sum() == 30 * 4 * 3  # every seat of every round is counted once
    for col in ("mean_place", "president", "scum", "match_wins"):
        assert (rank[f"{col}_lo"] <= rank[col]).all()
        assert (rank[col] <= rank[f"{col}_hi"]).all()
    ab = pairs.set_index(["a", "b"])
    assert np.isclose(ab.loc[("lowest", "random"), "diff"], -ab.loc[("random", "lowest"), "diff"])
    assert ab.loc[("lowest", "random"), "diff_hi"] < 0


def test_tournament_command_prints_and_saves(tmp_path) -> None:
    out = tmp_path / "t"
    result = CliRunner().invoke(
        cli,
        ["tournament", "--rules", "french", "--strategies", "lowest,random,rules-aware",
         "--players", "3", "--matches", "6", "--rounds-per-match", "3", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "mean place" in result.output and "row minus column" in result.output
    rank = pd.read_csv(out / "ranking.csv")
    assert set(rank["strategy"]) == {"lowest", "random", "rules-aware"}
    assert (out / "pairwise.csv").exists() and (out / "tournament.json").exists()


def test_tournament_refuses_unknown_strategy(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--strategies", "lowest,nobody"])
    assert exc.value.code == 2
    assert "unknown strategy 'nobody'" in capsys.readouterr().err
