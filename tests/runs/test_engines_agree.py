"""``compare --engine python`` and ``tournament --engine python`` play on the reference
engine, which gives the kernel's results for the built-in strategies (simulate's own
check: tests/runs/test_simulate.py), so a plain-Python strategy can play in them."""

from __future__ import annotations

import re
from pathlib import Path

from tests.cli.test_bad_input import assert_refused
from tests.conftest import run_cli
from tests.runs.test_resume import folder_bytes


def played(*args: str) -> str:
    result = run_cli(*args, "--quiet")
    assert result.exit_code == 0, result.stderr
    return result.stdout


def test_tournament_on_the_reference_engine_equals_the_kernel(tmp_path: Path) -> None:
    args = ["tournament", "--strategies", "lowest,random,control", "--players", "3",
            "--matches", "6", "--rounds-per-match", "2", "--seed", "3"]  # fmt: skip
    kernel = played(*args, "--out", str(tmp_path / "numba"))
    python = played(*args, "--out", str(tmp_path / "python"), "--engine", "python")
    assert python == kernel.replace(str(tmp_path / "numba"), str(tmp_path / "python"))
    assert folder_bytes(tmp_path / "python") == folder_bytes(tmp_path / "numba")


def test_compare_on_the_reference_engine_equals_the_kernel(tmp_path: Path) -> None:
    args = ["compare", "--rules", "french", "--rules", "scum", "--players", "4",
            "--strategies", "lowest,random,keep-sets,lowest", "--matches", "4", "--seed", "2"]  # fmt: skip
    kernel = played(*args, "--out", str(tmp_path / "numba"))
    python = played(*args, "--out", str(tmp_path / "python"), "--engine", "python")
    timeless = re.compile(r"in \d+\.\d s")  # the closing line gives the time taken
    python = python.replace(str(tmp_path / "python"), str(tmp_path / "numba"))
    assert timeless.sub("", python) == timeless.sub("", kernel)
    for variant in ("french", "scum"):
        parts = [
            tmp_path / engine / "runs" / variant / "rounds.parquet"
            for engine in ("numba", "python")
        ]
        assert folder_bytes(parts[0]) == folder_bytes(parts[1])


def test_tournament_refuses_the_dask_engine_naming_those_it_takes() -> None:
    result = run_cli("tournament", "--strategies", "lowest,random", "--engine", "dask")
    assert_refused(result, "--engine dask", "tournament", "numba, python")
