"""Bad input to ``president simulate``: one ``error:`` line naming the problem, exit code 2,
and never a partial file that looks complete (no ``summary.json``, no unlisted part, no
temporary file) — also when the disk fills up or a strategy plugin misbehaves."""

from __future__ import annotations

import errno
import json
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest

import simulator.runs.job as job
from simulator.reference.round import PASS
from strategies import registry
from tests.cli.test_bad_input import BAD_RULES, assert_refused
from tests.conftest import run_cli
from tests.runs.test_resume import folder_bytes

SMALL = ["--matches", "40", "--rounds-per-match", "2", "--quiet"]


@pytest.fixture(autouse=True)
def small_parts(monkeypatch):
    monkeypatch.setattr(job, "PART_ROUNDS", 20)


def assert_no_complete_looking_output(out: Path) -> None:
    """What a failed run leaves: listed, complete parts only, and no summary."""
    assert not (out / "summary.json").exists()
    assert not list(out.rglob("*.tmp"))
    if (out / "manifest.json").exists():
        manifest = json.loads((out / "manifest.json").read_text())
        assert not manifest["complete"]
        listed = {p["file"] for p in manifest["parts"]}
        assert {p.name for p in (out / "rounds.parquet").iterdir()} == listed
        for name in listed:
            pq.read_table(out / "rounds.parquet" / name)


@pytest.mark.parametrize("name", ["unknown_key", "players_9", "invalid_toml", "target_negative"])
def test_bad_rules_file_is_refused_by_simulate(tmp_path, name):
    text, words = BAD_RULES[name]
    rules = tmp_path / "rules.toml"
    rules.write_text(text)
    out = tmp_path / "out"
    assert_refused(run_cli("simulate", "--rules", str(rules), "--out", str(out)), *words)
    assert not out.exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "9"], ["players", "3 to 8"]),
        (["--matches", "0"], ["--matches", "positive"]),
        (["--rounds", "-5"], ["--rounds", "positive"]),
        (["--matches", "5", "--rounds", "5"], ["--matches or --rounds"]),
        (["--workers", "0"], ["--workers", "at least 1"]),
        (["--engine", "gpu"], ["--engine", "numba", "python", "dask"]),
        (["--strategies", "lowest,clever,lowest,random"], ["clever", "allowed", "lowest"]),
        (["--strategies", "lowest,random"], ["2 strategies", "4 players"]),
        (["--rules", "spade", "--rounds-per-match", "3"], ["target = 11", "--max-rounds"]),
        (["--matches", "ten"], ["--matches", "ten"]),
        (["--seed", "1.5"], ["--seed"]),
        (["--scheduler", "tcp://10.0.0.1:8786"], ["--scheduler", "--engine dask"]),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) and v and v[0].startswith("--") else None,
)
def test_bad_options_are_refused(tmp_path, args, words):
    out = tmp_path / "out"
    assert_refused(run_cli("simulate", *args, "--out", str(out)), *words)
    assert not (out / "summary.json").exists()


def test_out_that_is_a_file_is_refused(tmp_path):
    target = tmp_path / "file"
    target.write_text("precious")
    assert_refused(run_cli("simulate", *SMALL, "--out", str(target)), "is a file")
    assert target.read_text() == "precious"


def test_out_with_foreign_files_is_refused_and_left_alone(tmp_path):
    (tmp_path / "thesis.tex").write_text("precious")
    before = folder_bytes(tmp_path)
    assert_refused(run_cli("simulate", *SMALL, "--out", str(tmp_path)), "not empty", "no run")
    assert folder_bytes(tmp_path) == before


def test_out_that_is_not_writable_is_refused(tmp_path, monkeypatch):
    def refuse(*args, **kwargs):
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(Path, "mkdir", refuse)
    assert_refused(
        run_cli("simulate", *SMALL, "--out", str(tmp_path / "out")), "not writable", "Permission"
    )


def test_the_dask_engine_without_dask_installed_says_how_to_install_it(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    monkeypatch.delitem(sys.modules, "simulator.runs.dask", raising=False)
    out = tmp_path / "out"
    result = run_cli("simulate", *SMALL, "--engine", "dask", "--out", str(out))
    assert_refused(result, "--engine dask", "[dask]")
    assert_no_complete_looking_output(out)


# ---------------------------------------------------------------- a full disk


class FullDisk:
    """``pyarrow.parquet.write_table`` on a disk that fills up at the ``fail_at``-th part:
    half a file is written, then ENOSPC, as a real full disk does."""

    def __init__(self, fail_at: int) -> None:
        self.fail_at = fail_at
        self.calls = 0
        self.real = pq.write_table

    def __call__(self, table, where, **kwargs) -> None:
        self.calls += 1
        if self.calls < self.fail_at:
            self.real(table, where, **kwargs)
            return
        Path(where).write_bytes(b"PAR1" + b"\0" * 1000)
        raise OSError(errno.ENOSPC, "No space left on device")


def test_a_full_disk_stops_with_one_line_and_resume_finishes(tmp_path, monkeypatch):
    out = tmp_path / "out"
    full = FullDisk(fail_at=3)
    monkeypatch.setattr(pq, "write_table", full)
    result = run_cli("simulate", *SMALL, "--seed", "4", "--out", str(out))
    assert_refused(result, "No space left on device", "part-00002.parquet", "--resume")
    assert_no_complete_looking_output(out)
    assert len(json.loads((out / "manifest.json").read_text())["parts"]) == 2

    monkeypatch.setattr(pq, "write_table", full.real)  # space freed
    assert run_cli("simulate", "--resume", str(out), "--quiet").exit_code == 0
    whole = tmp_path / "whole"
    assert run_cli("simulate", *SMALL, "--seed", "4", "--out", str(whole)).exit_code == 0
    assert folder_bytes(out) == folder_bytes(whole)


def test_a_full_disk_when_writing_the_manifest_keeps_the_folder_valid(tmp_path, monkeypatch):
    out = tmp_path / "out"
    real = Path.write_text
    writes = []

    def write_text(self, data, *args, **kwargs):
        if self.name == ".manifest.json.tmp":
            writes.append(self)
            if len(writes) == 3:  # the manifest that would list the second part
                real(self, data[: len(data) // 2], *args, **kwargs)
                raise OSError(errno.ENOSPC, "No space left on device")
        return real(self, data, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", write_text)
    result = run_cli("simulate", *SMALL, "--out", str(out))
    assert_refused(result, "No space left on device")
    assert_no_complete_looking_output(out)
    assert len(json.loads((out / "manifest.json").read_text())["parts"]) == 1


# ---------------------------------------------------------------- misbehaving strategies


class Raises:
    name = "raises"

    def choose(self, obs, rng):
        raise RuntimeError("plugin bug")

    def give_back(self, hand, k, rng):
        return []


class PassesWhenLeading:
    """Would loop forever if the engine let a leader pass: it never plays."""

    name = "never_plays"

    def choose(self, obs, rng):
        return PASS

    def give_back(self, hand, k, rng):
        return [r for r in range(14) for _ in range(hand[r])][:k]


class KeepsItsCards:
    name = "keeps_cards"

    def choose(self, obs, rng):
        return obs.legal[0]

    def give_back(self, hand, k, rng):
        return [13] * k  # jokers it does not hold


@pytest.mark.parametrize(
    ("cls", "words"),
    [
        (Raises, ["'raises'", "RuntimeError", "plugin bug", "match 0"]),
        (PassesWhenLeading, ["'never_plays'", "forbid", "allowed"]),
        (KeepsItsCards, ["gave back a card it does not hold"]),
    ],
    ids=["raises", "passes-when-leading", "bad-give-back"],
)
def test_a_misbehaving_strategy_stops_the_run_with_one_line(tmp_path, monkeypatch, cls, words):
    spec = registry.StrategySpec(cls.name, "a broken plugin", lambda spec: cls(), kernel_id=-1)
    monkeypatch.setitem(registry.REGISTRY, cls.name, spec)
    out = tmp_path / "out"
    result = run_cli(
        "simulate", *SMALL, "--engine", "python", "--strategies", f"lowest,{cls.name},lowest",
        "--players", "3", "--out", str(out),
    )  # fmt: skip
    assert_refused(result, *words)
    assert_no_complete_looking_output(out)
