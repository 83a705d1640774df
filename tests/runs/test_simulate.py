"""``president simulate``: the output of docs/formats.md §3, reproducibility, bad arguments."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simulator.runs.job as job
from reports.numbers import format_column
from simulator.rules.presets import preset
from simulator.rules.roles import role_of
from simulator.runs.job import HEURISTICS, default_strategies
from simulator.runs.local import RowsPool
from tests.conftest import run_cli
from tests.reports.test_reports import satterthwaite_df, score_interval

REQUIRED = ["match", "round", "seat", "strategy", "place", "role", "prev_role", "points"]


def simulate(out: Path, *args: str) -> tuple[pd.DataFrame, dict]:
    result = run_cli("simulate", "--quiet", "--out", str(out), *args)
    assert result.exit_code == 0, result.stderr
    return pd.read_parquet(out / "rounds.parquet"), json.loads((out / "summary.json").read_text())


def part_bytes(out: Path) -> list[bytes]:
    return [p.read_bytes() for p in sorted((out / "rounds.parquet").glob("*.parquet"))]


def test_output_columns_and_meaning(tmp_path):
    df, summary = simulate(
        tmp_path / "run",
        "--rules",
        "scum",
        "--players",
        "5",
        "--matches",
        "30",
        "--rounds-per-match",
        "4",
        "--strategies",
        "lowest,random,random,lowest,random",
        "--seed",
        "7",
    )
    assert list(df.columns[: len(REQUIRED)]) == REQUIRED
    assert len(df) == 30 * 4 * 5
    assert df.groupby(["match", "round"]).size().eq(5).all()
    # places are a permutation of 1..5 in every round; roles follow places
    assert (
        df.groupby(["match", "round"])["place"].apply(sorted).map(tuple) == (1, 2, 3, 4, 5)
    ).all()
    assert (df["role"].astype(str) == df["place"].map(lambda p: role_of(p, 5))).all()
    # prev_role is the role of the previous round of the same match, empty in round 0
    ordered = df.sort_values(["match", "seat", "round"])
    shifted = ordered.groupby(["match", "seat"])["role"].shift(1).astype(object).fillna("")
    assert (ordered["prev_role"].astype(str).to_numpy() == shifted.astype(str).to_numpy()).all()
    # scum points: +2 +1 0 -1 -2, and totals accumulate within the match
    points = {1: 2, 2: 1, 3: 0, 4: -1, 5: -2}
    assert (df["points"] == df["place"].map(points)).all()
    totals = ordered.groupby(["match", "seat"])["points"].cumsum()
    assert (ordered["total"].to_numpy() == totals.to_numpy()).all()
    assert df.loc[df["seat"] == 0, "strategy"].eq("lowest").all()
    assert df.loc[df["seat"] == 2, "strategy"].eq("random").all()
    assert summary["rules"] == preset("scum").with_options(players=5).to_dict()
    assert summary["strategies"] == ["lowest", "random", "random", "lowest", "random"]
    assert (summary["seed"], summary["matches"], summary["rounds_per_match"]) == (7, 30, 4)
    assert summary["rounds_played"] == 120
    assert summary["version"]


def test_table_matches_the_data(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")  # wide: the whole table on one line per strategy
    result = run_cli(
        "simulate",
        "--quiet",
        "--out",
        str(tmp_path / "r"),
        "--rules",
        "french",
        "--matches",
        "50",
        "--rounds-per-match",
        "3",
        "--seed",
        "1",
    )
    assert result.exit_code == 0, result.stderr
    df = pd.read_parquet(tmp_path / "r" / "rounds.parquet")
    table = {
        row["strategy"]: row
        for row in json.loads((tmp_path / "r" / "summary.json").read_text())["table"]
    }
    assert "seat-rounds" in result.stdout.splitlines()[0]
    columns = {  # each column to one decimal count: the widest need of its intervals
        key: dict(zip(table, format_column(*([r[k] for r in table.values()]
                                             for k in (key, f"{key}_low", f"{key}_high"))),
                      strict=True))
        for key in ("mean_place", "adjusted_mean_place", "president")
    }  # fmt: skip
    for name in ("lowest", "random"):
        mine = df[df["strategy"] == name]
        row = table[name]
        assert row["rounds"] == len(mine)
        assert row["president"] == pytest.approx((mine["place"] == 1).mean())
        assert row["mean_place"] == pytest.approx(mine["place"].mean())
        line = next(line for line in result.stdout.splitlines() if line.startswith(name))
        assert f"{len(mine):,}" in line
        for key in ("mean_place", "adjusted_mean_place", "president"):
            assert columns[key][name] in line


@pytest.mark.parametrize(("columns", "players"), [(80, 4), (80, 8), (120, 4), (200, 4)])
def test_the_table_fits_the_terminal(tmp_path, monkeypatch, columns, players):
    """On 80 columns the full table broke every row in two: ± cells, in blocks that fit;
    the full table (``[low, high]``, one row a strategy) where the terminal is wide."""
    monkeypatch.setenv("COLUMNS", str(columns))
    monkeypatch.chdir(tmp_path)  # a short --out: the hint's command stays one line
    sizes = ["--matches", "40", "--rounds-per-match", "3", "--players", str(players)]
    result = run_cli("simulate", "--quiet", *sizes, "--out", "r")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= columns, result.stdout
    assert f"P{players}" in result.stdout
    wide = "[low, high]: 95 % intervals" in result.stdout
    if columns in (80, 200):  # the full table of 4 players is 100-130 columns wide
        assert wide == (columns == 200)
    table = json.loads((tmp_path / "r" / "summary.json").read_text())["table"]
    cells = {  # as printed: each column to its shared decimals (reports.numbers)
        key: format_column(
            *([r[k] for r in table] for k in (key, f"{key}_low", f"{key}_high")),
            style="brackets" if wide else "plus_minus",
        )
        for key in ("mean_place", "adjusted_mean_place", "president")
    }
    for i, row in enumerate(table):
        rows = [line for line in lines if line.startswith(row["strategy"] + " ")]
        assert len(rows) == (1 if wide else 2)  # narrow: shares, then estimates
        for column in cells.values():
            assert column[i] in rows[-1]


@pytest.mark.parametrize("rules", ["french", "spade"])
def test_same_seed_same_bytes_for_any_workers_and_engine(tmp_path, rules):
    args = (
        [
            "--rules",
            rules,
            "--players",
            "4",
            "--matches",
            "60",
            "--rounds-per-match",
            "3",
            "--seed",
            "5",
        ]
        if rules == "french"
        else ["--rules", rules, "--matches", "30", "--seed", "5"]
    )
    simulate(tmp_path / "w1", *args, "--workers", "1")
    simulate(tmp_path / "w2", *args, "--workers", "2")
    simulate(tmp_path / "py", *args, "--engine", "python")
    assert part_bytes(tmp_path / "w1") == part_bytes(tmp_path / "w2") == part_bytes(tmp_path / "py")
    summaries = [
        json.loads((tmp_path / d / "summary.json").read_text()) for d in ("w1", "w2", "py")
    ]
    assert summaries[0] == summaries[1] == summaries[2]


def test_parts_are_whole_matches_and_equal_one_big_part(tmp_path, monkeypatch):
    """... though each part's rows are computed into the memory of a part written before
    (the engine's pool): every part is written before its memory is used again."""
    simulate(tmp_path / "one", "--matches", "40", "--rounds-per-match", "5", "--seed", "2")
    monkeypatch.setattr(job, "PART_ROUNDS", 30)  # 6 matches per part
    arrays = []
    take = RowsPool.take
    monkeypatch.setattr(
        RowsPool, "take", lambda pool, *a: arrays.append(take(pool, *a)) or arrays[-1]
    )
    simulate(tmp_path / "many", "--matches", "40", "--rounds-per-match", "5", "--seed", "2")
    assert len(arrays) == 7 and len({id(a) for a in arrays}) <= 2
    parts = sorted((tmp_path / "many" / "rounds.parquet").glob("*.parquet"))
    assert len(parts) == 7
    frames = [pd.read_parquet(p) for p in parts]
    assert all(f["match"].nunique() * 5 * 4 == len(f) for f in frames)
    pd.testing.assert_frame_equal(
        pd.concat(frames, ignore_index=True), pd.read_parquet(tmp_path / "one" / "rounds.parquet")
    )


def test_target_matches_end_by_the_target_rule(tmp_path):
    df, summary = simulate(
        tmp_path / "t",
        "--rules",
        "spade",
        "--matches",
        "40",
        "--seed",
        "3",
        "--strategies",
        "lowest,random,lowest,random",
    )
    last = df.groupby("match")["round"].transform("max") == df["round"]
    finals = df[last]
    # the winner leads alone, at or above 11 (or reached it earlier and now leads alone)
    winners = finals[finals["won_match"]]
    assert winners["match"].nunique() == 40
    for _, group in finals.groupby("match"):
        best = group["total"].max()
        assert (group["total"] == best).sum() == 1
        assert group.loc[group["won_match"], "total"].item() == best
    assert df.groupby("match")["total"].max().ge(11).all()
    assert summary["rounds_per_match"] is None


def test_total_rounds_under_a_target_stop_at_whole_matches(tmp_path):
    df, summary = simulate(tmp_path / "t", "--rules", "spade", "--rounds", "300", "--seed", "4")
    rounds = df.groupby("match")["round"].max() + 1
    assert rounds.sum() >= 300
    assert rounds.sum() - rounds.iloc[-1] < 300  # the last match is the one that reached 300
    assert summary["rounds_played"] == rounds.sum()


def test_duplicate_deals_turn_strategies(tmp_path):
    df, summary = simulate(
        tmp_path / "d",
        "--duplicate",
        "--matches",
        "6",
        "--rounds-per-match",
        "2",
        "--strategies",
        "lowest,random,random,lowest",
        "--seed",
        "8",
    )
    assert summary["duplicate"] is True
    assert df["match"].nunique() == 8  # rounded up to whole groups of 4
    seat0 = df[(df["seat"] == 0) & (df["round"] == 0)].set_index("match")["strategy"].astype(str)
    assert seat0.tolist() == ["lowest", "lowest", "random", "random"] * 2


def test_default_job_settings():
    assert default_strategies(4) == ["rules-aware", "planner", "lowest", "random"]
    assert default_strategies(3) == ["rules-aware", "lowest", "random"]
    assert default_strategies(8)[:6] == [*HEURISTICS, "rules-aware"]
    assert all(default_strategies(n)[-2:] == ["lowest", "random"] for n in range(3, 9))
    from simulator.runs.job import make_config

    config = make_config(preset("french"), default_strategies(4))
    assert config.matches * config.rounds_per_match == 1_000_000


def test_no_progress_bar_when_not_a_terminal(tmp_path):
    result = run_cli("simulate", "--matches", "20", "--rounds-per-match", "2")
    assert result.exit_code == 0
    assert result.stderr == ""


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--rules", "nope", "--matches", "5"], "neither a preset nor a rules file"),
        (
            ["--strategies", "lowest,bogus,lowest,lowest", "--matches", "5"],
            "unknown strategy 'bogus'",
        ),
        (["--strategies", "lowest,random", "--matches", "5"], "2 strategies for 4 players"),
        (["--players", "2", "--matches", "5"], "players = 2"),
        (["--players", "9", "--matches", "5"], "players = 9"),
        (["--rounds", "0"], "--rounds must be a positive integer"),
        (["--matches", "-3"], "--matches must be a positive integer"),
        (["--matches", "5", "--rounds-per-match", "0"], "--rounds-per-match must be a positive"),
        (["--matches", "5", "--rounds", "50"], "not both"),
        (["--rules", "spade", "--rounds-per-match", "3"], "target = 11"),
        (["--matches", "5", "--workers", "0"], "--workers must be at least 1"),
    ],
)
def test_bad_arguments_one_line_exit_2(args, needle):
    result = run_cli("simulate", "--quiet", *args)
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert needle in lines[0]


def test_out_holding_another_run_or_foreign_files_is_refused(tmp_path):
    simulate(tmp_path / "run", "--matches", "5", "--rounds-per-match", "2")
    before = part_bytes(tmp_path / "run")
    again = run_cli("simulate", "--quiet", "--out", str(tmp_path / "run"), "--matches", "5")
    assert again.exit_code == 2 and "already holds a finished run" in again.stderr
    assert part_bytes(tmp_path / "run") == before
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine")
    result = run_cli("simulate", "--quiet", "--out", str(foreign), "--matches", "5")
    assert result.exit_code == 2 and "not empty" in result.stderr
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]
    a_file = tmp_path / "file"
    a_file.write_text("x")
    result = run_cli("simulate", "--quiet", "--out", str(a_file), "--matches", "5")
    assert result.exit_code == 2 and "is a file" in result.stderr


def test_unwritable_out_is_refused(tmp_path):
    blocker = tmp_path / "a_file"
    blocker.write_text("x")  # a folder cannot be made inside a file, even by root
    result = run_cli("simulate", "--quiet", "--out", str(blocker / "run"), "--matches", "5")
    assert result.exit_code == 2
    assert "not writable" in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert blocker.read_text() == "x"


def test_president_rate_interval_covers_and_is_clustered(tmp_path):
    df, summary = simulate(
        tmp_path / "r", "--matches", "200", "--rounds-per-match", "5", "--seed", "9"
    )
    row = next(r for r in summary["table"] if r["strategy"] == "lowest")
    mine = df[df["strategy"] == "lowest"]
    per_match = mine.groupby("match").agg(
        y=("place", lambda p: (p == 1).sum()), m=("place", "size")
    )
    p = per_match["y"].sum() / per_match["m"].sum()
    big_m = len(per_match)
    var = (
        big_m
        / (big_m - 1)
        * ((per_match["y"] - p * per_match["m"]) ** 2).sum()
        / per_match["m"].sum() ** 2
    )
    assert row["president"] == pytest.approx(p)
    # matches are the clusters: the score interval on their design effect, t with the
    # variance's (Satterthwaite) degrees of freedom
    df = satterthwaite_df(per_match["y"] - p * per_match["m"])
    low, high = score_interval(p, np.sqrt(var), df, per_match["m"].sum())
    assert (row["president_low"], row["president_high"]) == pytest.approx((low, high))


def test_the_rows_pool_hands_out_an_array_again_once_given_back() -> None:
    pool = RowsPool()
    first = pool.take(100, 29)
    assert first.shape == (100, 29) and first.dtype == np.int32
    second = pool.take(50, 29)  # the first is in use
    assert not np.may_share_memory(first, second)
    pool.give_back(first[10:60])  # a part's rows: a view of the array
    assert pool.take(80, 29) is first
    pool.give_back(second[:50].copy())  # a copy frees nothing
    assert pool.take(50, 29) is not second
    pool.give_back(second)
    assert pool.take(200, 29) is not second  # too small: a new one
    assert pool.take(40, 33) is not second  # other columns: a new one
    assert pool.take(40, 29) is second
