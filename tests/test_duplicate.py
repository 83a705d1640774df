"""Duplicate deals in the report, and ``president simulate --report``."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli


@pytest.fixture(scope="module")
def duplicate_run(tmp_path_factory) -> Path:
    """200 duplicate matches of 5 rounds (50 groups of 4), reported by ``--report``."""
    root = tmp_path_factory.mktemp("dup") / "run"
    result = run_cli(
        "simulate", "--matches", "200", "--rounds-per-match", "5", "--seed", "3",
        "--duplicate", "--quiet", "--out", str(root), "--report",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == f"report: {root / 'report.html'}"
    return root


def test_simulate_report_writes_the_report(duplicate_run):
    page = (duplicate_run / "report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="fig-rates"' in page
    assert (duplicate_run / "figures" / "rates.png").exists()


def test_simulate_report_needs_out():
    result = run_cli("simulate", "--matches", "4", "--report")
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        "error: --report needs --out DIR (the report is written to DIR/report.html)"
    ]
