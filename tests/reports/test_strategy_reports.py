"""The strategy report (``tournament --report``, the report's section), the report's fixed
tables, and what ``simulate`` counts in its speed."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simulator.runs.job as job
import simulator.runs.simulate as simulate
from reports import build, data
from reports.numbers import format_column
from reports.results import analyse
from reports.strategy.page import tips_section
from simulator.rules.presets import preset
from simulator.runs.advice.learn import Condition, Tip, tips_file
from simulator.runs.advice.mine import VIEW_COLUMNS
from simulator.runs.advice.words import tip_words
from simulator.runs.job import default_strategies
from tests.conftest import run_cli

FIGURES = ("strategy_ranking", "strategy_pairs", "strategy_deciles")


def test_tournament_report_is_a_self_contained_page(tmp_path):
    out = tmp_path / "t"
    result = run_cli(
        "tournament", "--strategies", "lowest,random,rules-aware,keep-sets", "--players", "3",
        "--matches", "30", "--rounds-per-match", "3", "--out", str(out), "--report",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    page = (out / "tournament.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page and "http" not in page
    for name in FIGURES:
        assert f'id="fig-{name}"' in page
        assert (out / "figures" / f"{name}.png").exists()
    assert "Holm" in page and "deal groups" in page
    rank = pd.read_csv(out / "ranking.csv")
    column = format_column(rank["mean_place"], rank["mean_place_lo"], rank["mean_place_hi"])
    assert all(cell in page for cell in column)
    # matches of fixed length on duplicate deals: the luck cancels, so no column of copies
    assert (rank["adjusted"] - rank["mean_place"]).abs().max() < 1e-12
    ranking = re.search(r"Ranking \(best first\)</h3>(.*?)</table>", page, re.S).group(1)
    pairs = re.search(r"Pairwise: mean place.*?</h3>(.*?)</table>", page, re.S).group(1)
    assert "mean place" in ranking and "luck-adjusted" not in ranking + pairs
    assert page.count("already balance the luck of the deal") == 1


def test_tournament_report_needs_out():
    result = run_cli("tournament", "--strategies", "lowest,random", "--report")
    assert result.exit_code == 2 and "--report needs --out" in result.stderr


@pytest.fixture(scope="module")
def duplicate_report(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("dup") / "run"
    result = run_cli(
        "simulate", "--matches", "120", "--rounds-per-match", "4", "--seed", "5", "--quiet",
        "--strategies", "rules-aware,lowest,random,lowest", "--duplicate", "--out", str(root),
        "--report",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return root


def test_per_seat_table_shows_each_strategy_at_each_seat(duplicate_report):
    """Under duplicate deals every strategy sits at every seat: each row is its own."""
    frame = pd.read_parquet(duplicate_report / "rounds.parquet")
    page = (duplicate_report / "report.html").read_text(encoding="utf-8")
    section = re.search(r'<section id="seats">(.*?)</section>', page, re.S).group(1)
    for (seat, strategy), rows in frame.groupby(["seat", "strategy"], observed=True):
        mean = rows["place"].mean()
        cell = re.search(
            rf'<td>{seat}</td>\s*<td class="text">{strategy}</td>\s*<td>([0-9.]+) \[', section
        ).group(1)
        shown = len(cell.partition(".")[2])  # the decimals its column's intervals need
        assert float(cell) == pytest.approx(mean, abs=0.5 * 10**-shown + 1e-9)


def test_report_strategy_section_and_baselines(duplicate_report):
    page = (duplicate_report / "report.html").read_text(encoding="utf-8")
    assert '<section id="strategies">' in page
    for name in FIGURES:
        assert f'id="fig-{name}"' in page
    assert "without memory" in page and "Σπᵢ²/Σπᵢ" in page
    run = data.open_run(duplicate_report)
    results = analyse(build.collect(run), run)
    persistence = results.persistence.set_index("strategy")
    rates = results.rates_strategy
    pi = rates[rates["measure"] == "President rate"].set_index("strategy")["estimate"]
    lineup = pi.reindex(run.lineup).to_numpy()
    assert persistence.loc["all", "baseline"] == pytest.approx((lineup**2).sum() / lineup.sum())
    assert persistence.loc["lowest", "baseline"] == pytest.approx(pi["lowest"])
    assert list(persistence.index)[-1] == "all"  # the strategies' chains first
    assert set(results.role_value["horizon"]) == {1, 3}  # 4-round matches: h ≤ 3
    gain = results.duplicate
    assert (gain["variance_ratio_lo"] < gain["variance_ratio"]).all()
    assert (gain["variance_ratio"] < gain["variance_ratio_hi"]).all()


def test_speed_counts_only_the_rounds_this_process_computed(tmp_path, monkeypatch):
    monkeypatch.setattr(job, "PART_ROUNDS", 40)
    monkeypatch.setenv("COLUMNS", "400")  # the temporary path unwrapped: lines read whole
    config = job.make_config(preset("french"), default_strategies(4), 7, 200, None, 2)
    out = tmp_path / "run"
    calls = []

    def stop(done: int, expected: int | None, seconds: float) -> None:
        calls.append(done)
        if len(calls) == 3:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate.run(config, out, progress=stop)
    before = sum(p["rounds"] for p in json.loads((out / "manifest.json").read_text())["parts"])
    _, result = simulate.resume(out)
    assert result.rounds == 400 and result.computed_rounds == 400 - before > 0
    printed = run_cli("simulate", "--resume", str(out), "--quiet")
    assert f"the run in {out} was already complete: nothing left to compute" in printed.stdout
    assert "rounds/s" not in printed.stdout
    fresh = run_cli("simulate", "--matches", "20", "--rounds-per-match", "2", "--quiet")
    last = next(line for line in fresh.stdout.splitlines() if " rounds in " in line)
    assert re.search(r"\(\d[\d,]* rounds/s computed\)", last) and "resumed" not in last
    assert np.isfinite(result.seconds)


def test_the_report_says_the_tips_a_player_follows(tmp_path):
    """A player of the line-up that follows a ``president advise`` run's tips file gets its
    tips in words, in order, in the strategy report; a line-up without one gets nothing."""
    rules = preset("french")
    cheapest = VIEW_COLUMNS.index("cheapest") + 1
    tips = [Tip(1, (Condition(cheapest, 12, 99),), 1, 1, 0, ""), Tip(6, (), 1, 1, 0, "")]
    path = tips_file(tips, rules, tmp_path / "tips.toml", {"seed": 0})
    section = tips_section((path, "rules-aware"), rules)
    assert path in section and "rules-aware</code>" not in section
    assert f"1. {tip_words(tips[0])}" in section and f"2. {tip_words(tips[1])}" in section
    assert tips_section(("rules-aware", "lowest"), rules) == ""
