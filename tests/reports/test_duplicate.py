"""Duplicate deals in the report, and ``president simulate --report``."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from reports import build, data
from reports.results import analyse
from tests.conftest import run_cli
from tests.reports.page_parts import embedded_figure


@pytest.fixture(scope="module")
def duplicate_run(tmp_path_factory) -> Path:
    """200 duplicate matches of 5 rounds (ABAB: 100 groups of 2), reported by ``--report``."""
    root = tmp_path_factory.mktemp("dup") / "run"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", "400")  # the temporary path unwrapped: lines read whole
        result = run_cli(
            "simulate", "--matches", "200", "--rounds-per-match", "5", "--seed", "3",
            "--duplicate", "--quiet", "--out", str(root), "--report",
            "--strategies", "lowest,random,lowest,random",
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert f"report: {root / 'report.html'}" in result.stdout.splitlines()
    return root


def test_simulate_report_writes_the_report(duplicate_run):
    page = (duplicate_run / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="fig-rates"' in page
    assert (duplicate_run / "figures" / "rates.png").exists()


def test_simulate_report_needs_out():
    result = run_cli("simulate", "--matches", "4", "--report")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: --report needs --out DIR (the report is written to DIR/report.html): e.g. "
        "president simulate --out runs/mine --report"
    ]


def clustered_se(frame: pd.DataFrame, y: str, cluster: pd.Series) -> tuple[float, float]:
    """Σy/Σrows of one strategy's rows and its CR1 standard error, clusters given, by hand."""
    sums = frame.assign(n=1.0, cluster=cluster).groupby("cluster")[[y, "n"]].sum()
    r = sums[y].sum() / sums["n"].sum()
    g = len(sums)
    se = np.sqrt(g / (g - 1) * ((sums[y] - r * sums["n"]) ** 2).sum()) / sums["n"].sum()
    return r, se


def test_batches_never_split_a_duplicate_group(tmp_path):
    def batch_size(matches: int, lineup: list[str], duplicate: bool) -> int:
        summary = {"rules": {"players": len(lineup)}, "matches": matches,
                   "duplicate": duplicate, "strategies": lineup}  # fmt: skip
        return data.Run(tmp_path, summary, ()).batch_size

    abcd = ["lowest", "random", "rules-aware", "keep-sets"]
    assert batch_size(200, abcd, True) == 4  # 50 groups of 4: one group per batch
    assert batch_size(200, abcd, False) == 1
    assert batch_size(1030, abcd, True) == 8  # 258 groups > 256 batches: two groups per batch
    assert batch_size(1030, abcd, False) == 5
    assert batch_size(1000, ["lowest", "random"] * 2, True) == 2 * 2  # ABAB: groups of 2
    assert batch_size(1000, ["lowest", "lowest", "random"], True) == 3 * 2


def test_duplicate_gain_against_hand_computation(duplicate_run):
    """Line-up ABAB: groups of its 2 distinct rotations; the paired error clusters
    by group, the independent one by match, and the variance ratio's interval covers it."""
    frame = pd.read_parquet(duplicate_run / "rounds.parquet")
    frame["president"] = (frame["place"] == 1).astype(float)
    frame["place"] = frame["place"].astype(float)
    run = data.open_run(duplicate_run)
    assert run.group == 2
    tallies = build.collect(run)
    gain = analyse(tallies, run).duplicate
    assert len(gain) == 4
    for row in gain.itertuples():
        mine = frame[frame["strategy"] == row.strategy]
        column = "place" if row.measure == "mean place" else "president"
        r, se_groups = clustered_se(mine, column, mine["match"] // 2)
        _, se_matches = clustered_se(mine, column, mine["match"])
        assert row.estimate == pytest.approx(r, rel=1e-12)
        assert row.se_paired == pytest.approx(se_groups, rel=1e-9)
        assert row.se_independent == pytest.approx(se_matches, rel=1e-9)
        assert row.variance_ratio == pytest.approx((se_groups / se_matches) ** 2, rel=1e-9)
        assert row.variance_ratio_lo < row.variance_ratio < row.variance_ratio_hi
        assert row.half_paired == pytest.approx(sps.t.ppf(0.975, 99) * se_groups, rel=2e-3)
        assert row.half_independent == pytest.approx(sps.t.ppf(0.975, 199) * se_matches, rel=2e-3)
        assert row.equivalent_matches == pytest.approx(200 * (se_matches / se_groups) ** 2)


def test_duplicate_section_and_figure(duplicate_run):
    page = (duplicate_run / "report.html").read_text(encoding="utf-8")
    assert '<section id="duplicate">' in page and "Variance reduction per strategy" in page
    png = (duplicate_run / "figures" / "duplicate.png").read_bytes()
    embedded = embedded_figure(page, "duplicate")
    assert embedded is not None and embedded[0] == png


def test_no_duplicate_section_without_duplicate_deals(tmp_path):
    root = tmp_path / "run"
    result = run_cli(
        "simulate", "--matches", "40", "--rounds-per-match", "3", "--quiet",
        "--out", str(root), "--report",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    page = (root / "report.html").read_text(encoding="utf-8")
    assert "fig-duplicate" not in page and 'id="duplicate"' not in page
    assert not (root / "figures" / "duplicate.png").exists()
