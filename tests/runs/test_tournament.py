"""Tournaments: fair tables, cluster intervals, the command line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from simulator.cli import cli, main
from simulator.rules.presets import preset
from simulator.runs.tournament.tables import (
    TournamentConfig,
    cluster_sums,
    play_table,
    run_tournament,
    tables,
)
from simulator.stats import holm, ratio_interval


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
    standings = run_tournament(rules, config)
    rank, pairs = standings.ranking, standings.pairwise
    assert list(rank["strategy"]) == ["lowest", "random"]
    assert rank["rounds"].sum() == 30 * 4 * 3  # every seat of every round is counted once
    assert standings.clusters == 10  # (lowest, random, lowest): 3 rotations, 10 groups
    for col in ("mean_place", "adjusted", "president", "scum", "match_wins"):
        assert (rank[f"{col}_lo"] <= rank[col]).all()
        assert (rank[col] <= rank[f"{col}_hi"]).all()
    assert len(pairs) == 1  # each pair once, the better-ranked first
    pair = pairs.iloc[0]
    assert (pair["a"], pair["b"]) == ("lowest", "random")
    assert pair["diff_hi"] < 0 and pair["p_holm"] == pytest.approx(pair["p_value"])
    # two seats of lowest in (lowest, random, lowest): a match counts once for it
    assert rank.set_index("strategy").loc["lowest", "match_wins"] > 0.5


def test_tournament_clusters_are_deal_groups_across_tables() -> None:
    """Every table plays the same seed, so group g has the same deals at every table: the
    clusters are the groups, not (table, group) pairs."""
    rules = preset("french").with_options(players=3)
    names = ("lowest", "random", "rules-aware", "keep-sets")
    config = TournamentConfig(names, matches=12, rounds_per_match=2, seed=1)
    played = [play_table(rules, config, lineup, list(names)) for lineup in tables(names, 3)]
    assert len(played) == 4 and all(t.group.max() == 3 for t in played)
    first = [t.strength[t.group == 0][:2] for t in played]  # group 0's first match, 2 rounds
    assert all(np.array_equal(first[0], other) for other in first[1:])
    sums = cluster_sums(played, list(names))
    assert sums.clusters == 4
    assert sums.rounds.sum() == 4 * 12 * 2 * 3


def test_holm_adjustment() -> None:
    p = np.array([0.01, 0.04, 0.03, np.nan, 0.2])
    assert np.allclose(holm(p)[[0, 1, 2, 4]], [0.04, 0.09, 0.09, 0.2])
    assert np.isnan(holm(p)[3])


def test_tournament_command_prints_and_saves(tmp_path) -> None:
    out = tmp_path / "t"
    result = CliRunner().invoke(
        cli,
        ["tournament", "--rules", "french", "--strategies", "lowest,random,rules-aware",
         "--players", "3", "--matches", "6", "--rounds-per-match", "3", "--out", str(out)],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "mean place" in result.output and "each pair once" in result.output
    assert "Holm" in result.output and "deal groups" in result.output
    rank = pd.read_csv(out / "ranking.csv")
    assert set(rank["strategy"]) == {"lowest", "random", "rules-aware"}
    assert len(pd.read_csv(out / "pairwise.csv")) == 3  # each pair once
    assert len(pd.read_csv(out / "deciles.csv")) == 3 * 10
    assert (out / "tournament.json").exists()


def test_tournament_refuses_unknown_strategy(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "--strategies", "lowest,nobody"])
    assert exc.value.code == 2
    assert "unknown strategy 'nobody'" in capsys.readouterr().err
