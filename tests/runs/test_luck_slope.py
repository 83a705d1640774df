"""The luck slope of ``president simulate``: the row-level slope a reader can refit.

``luck_slope`` in ``summary.json`` is the least-squares slope (with an intercept) of
``place`` on the luck — ``hand_strength`` minus the mean ``hand_strength`` of the round —
over every row of ``rounds.parquet``; its interval is the delete-one-batch jackknife. It
was once fitted on the ≤ 256 batch totals, whose noise does not shrink as a run grows
(0.0058, 0.0064, 0.0091 at 1, 3 and 10 M rounds of one seed): the row slope is stable.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.conftest import run_cli


def simulate(out: Path, matches: int) -> tuple[pd.DataFrame, dict]:
    args = ("--rules", "french", "--matches", str(matches), "--rounds-per-match", "5")
    result = run_cli("simulate", "--quiet", "--seed", "3", "--out", str(out), *args)
    assert result.exit_code == 0, result.stderr
    return pd.read_parquet(out / "rounds.parquet"), json.loads((out / "summary.json").read_text())


def row_slope(rows: pd.DataFrame) -> float:
    """The pandas regression the documentation names: place on the round's luck."""
    luck = rows["hand_strength"] - rows.groupby(["match", "round"])["hand_strength"].transform(
        "mean"
    )
    return float(np.polyfit(luck.to_numpy(float), rows["place"].to_numpy(float), 1)[0])


def test_the_slope_is_the_row_regression_with_its_interval(tmp_path: Path) -> None:
    rows, summary = simulate(tmp_path / "r", 300)
    assert summary["luck_slope"] == pytest.approx(row_slope(rows), abs=1e-12)
    assert summary["luck_slope_low"] < summary["luck_slope"] < summary["luck_slope_high"]


def test_the_slope_is_stable_in_run_size(tmp_path: Path) -> None:
    """A 1× and a 4× run of one seed: each slope inside the other's interval, the 4×
    interval about half as wide (its rows are four times as many)."""
    _, one = simulate(tmp_path / "one", 2000)
    _, four = simulate(tmp_path / "four", 8000)
    for a, b in ((one, four), (four, one)):
        assert a["luck_slope_low"] < b["luck_slope"] < a["luck_slope_high"]
    width = {k: s["luck_slope_high"] - s["luck_slope_low"] for k, s in (("1", one), ("4", four))}
    assert 0.35 < width["4"] / width["1"] < 0.7
