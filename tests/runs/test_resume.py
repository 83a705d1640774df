"""Resumable runs: a run stopped at any moment keeps only complete parts, and
``president simulate --resume DIR`` finishes it into the very files of an uninterrupted run.

Runs are killed for real (SIGKILL, SIGTERM, SIGINT on a ``president simulate`` process
with small parts), and stopped in-process at a chosen part; damaged folders (leftover
temporary files, unlisted parts, a truncated part) are repaired, foreign ones refused.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import simulator.runs.job as job
import simulator.runs.simulate as simulate
from simulator.rules.presets import preset
from simulator.runs.job import default_strategies
from tests.cli.test_bad_input import assert_refused
from tests.conftest import run_cli

SMALL_PARTS = 40  # rounds per part in these tests: many parts from a small job
JOB = ["--rules", "french", "--players", "4", "--matches", "300", "--rounds-per-match", "2"]
JOB += ["--seed", "7", "--quiet"]
TARGET_STRATEGIES = ["random", "lowest", "random", "random"]
SLOW = ["--engine", "python", "--out"]  # the reference engine: slow enough to kill mid-run
# the killed job: ten times JOB's matches, so that the child is still running when the
# signal lands (it is killed after 3 of its 150 parts either way)
KILLED_MATCHES = 3000
KILLED_JOB = [str(KILLED_MATCHES) if a == "300" else a for a in JOB]


@pytest.fixture(autouse=True)
def small_parts(monkeypatch):
    monkeypatch.setattr(job, "PART_ROUNDS", SMALL_PARTS)


def folder_bytes(path: Path) -> dict[str, bytes]:
    """Every file of a run folder (report files aside), by relative path."""
    return {
        str(p.relative_to(path)): p.read_bytes()
        for p in sorted(path.rglob("*"))
        if p.is_file() and p.name != "report.html"
    }


def uninterrupted(tmp_path: Path, *job: str) -> tuple[dict[str, bytes], str]:
    out = tmp_path / "whole"
    result = run_cli("simulate", *job, "--out", str(out))
    assert result.exit_code == 0, result.stderr
    return folder_bytes(out), table_of(result.stdout)


def table_of(stdout: str) -> str:
    """The printed table: the lines before the closing one (``N rounds in M matches…``)."""
    lines = stdout.splitlines()
    return "\n".join(lines[: next(i for i, line in enumerate(lines) if " rounds in " in line)])


def listed_parts(out: Path) -> int:
    try:
        return len(json.loads((out / "manifest.json").read_text())["parts"])
    except (FileNotFoundError, json.JSONDecodeError):
        return 0


# ---------------------------------------------------------------- real kills

# The child takes Ctrl-C as a terminal's foreground job would: a test suite started in the
# background of a shell (a CI script's `&`) has SIGINT ignored, which its children inherit.
CHILD = (
    "import signal, sys, simulator.runs.job as j; j.PART_ROUNDS = {parts}; "
    "signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from simulator.cli import main; main(sys.argv[1:])"
)


@pytest.mark.parametrize(
    ("sig", "code"),
    [(signal.SIGKILL, -signal.SIGKILL), (signal.SIGTERM, 143), (signal.SIGINT, 130)],
    ids=["SIGKILL", "SIGTERM", "SIGINT"],
)
def test_killed_run_resumes_to_the_uninterrupted_files(tmp_path, sig, code):
    """The reference engine (slow: the kill lands mid-run) is killed after a few parts; the
    kernel finishes the run; every file equals an uninterrupted run's."""
    out = tmp_path / "killed"
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD.format(parts=SMALL_PARTS),
            "simulate",
            *KILLED_JOB,
            *SLOW,
            str(out),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while listed_parts(out) < 3 and child.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        child.send_signal(sig)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == code, stderr
    if sig != signal.SIGKILL:
        assert f"interrupted by {sig.name}" in stderr
        assert f"--resume {out}" in stderr
        assert len(stderr.splitlines()) == 1, stderr
        assert not list(out.rglob("*.tmp")), "an orderly stop leaves no temporary file"
    manifest = json.loads((out / "manifest.json").read_text())
    assert not manifest["complete"]
    total_parts = -(-KILLED_MATCHES // (SMALL_PARTS // 2))
    assert 3 <= len(manifest["parts"]) < total_parts, "the kill must land mid-run"
    assert not (out / "summary.json").exists()

    resumed = run_cli("simulate", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    whole, table = uninterrupted(tmp_path, *KILLED_JOB)
    assert folder_bytes(out) == whole
    assert table_of(resumed.stdout) == table


# ---------------------------------------------------------------- stopped in-process


def stop_after(parts: int, out: Path, *, rounds: int | None = None) -> job.SimConfig:
    """Run a job into ``out`` and stop it (as Ctrl-C would) once ``parts`` parts are done."""
    if rounds is None:
        config = job.make_config(
            preset("french"), default_strategies(4), 7, matches=300, rounds_per_match=2
        )
    else:
        config = job.make_config(preset("spade"), TARGET_STRATEGIES, 3, rounds=rounds)

    calls = []

    def progress(done: int, expected: int | None, seconds: float) -> None:
        calls.append(done)  # one call per part, once the part is handed to the writer
        if len(calls) == parts:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        simulate.run(config, out, progress=progress)
    assert listed_parts(out) == parts  # the part being written when stopped is finished
    return config


def test_resume_after_a_stop_under_a_target_counts_rounds_exactly(tmp_path):
    """Under a target the run is cut at a round count inside its last part."""
    out = tmp_path / "stopped"
    stop_after(3, out, rounds=500)
    resumed = run_cli("simulate", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    job = ["--rules", "spade", "--strategies", ",".join(TARGET_STRATEGIES), "--seed", "3"]
    job += ["--rounds", "500"]
    whole, table = uninterrupted(tmp_path, *job, "--quiet")
    assert folder_bytes(out) == whole
    assert table_of(resumed.stdout) == table
    summary = json.loads((out / "summary.json").read_text())
    assert summary["rounds_played"] >= 500


def test_leftovers_of_an_interrupted_write_are_removed(tmp_path):
    """A temporary part and a part renamed but not yet listed (a kill between the two)."""
    out = tmp_path / "stopped"
    stop_after(4, out)
    parts = out / "rounds.parquet"
    (parts / ".part-00004.parquet.tmp").write_bytes(b"PAR1 half a part")
    (parts / "part-00005.parquet").write_bytes((parts / "part-00000.parquet").read_bytes())
    (out / ".manifest.json.tmp").write_text("{")
    resumed = run_cli("simulate", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert resumed.stderr == ""
    whole, _ = uninterrupted(tmp_path, *JOB)
    assert folder_bytes(out) == whole


def test_a_damaged_part_is_computed_again(tmp_path):
    out = tmp_path / "stopped"
    stop_after(5, out)
    damaged = out / "rounds.parquet" / "part-00002.parquet"
    damaged.write_bytes(damaged.read_bytes()[:-100])
    resumed = run_cli("simulate", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert "part-00002.parquet has" in resumed.stderr
    assert "computed again" in resumed.stderr
    whole, _ = uninterrupted(tmp_path, *JOB)
    assert folder_bytes(out) == whole


def test_resuming_a_finished_run_changes_nothing(tmp_path, monkeypatch):
    """It says so, prints the table, and no speed (nothing was computed: no "0.0 s (…
    rounds/s)")."""
    monkeypatch.setenv("COLUMNS", "400")  # the temporary path unwrapped: the line reads whole
    whole, table = uninterrupted(tmp_path, *JOB)
    out = tmp_path / "whole"
    resumed = run_cli("simulate", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert folder_bytes(out) == whole
    assert table_of(resumed.stdout) == table
    closing = resumed.stdout.splitlines()[len(table.splitlines())]
    assert closing == (
        f"600 rounds in 300 matches: the run in {out} was already complete: nothing left to compute"
    )
    assert "rounds/s" not in resumed.stdout


def test_resuming_a_partly_done_run_is_not_called_complete(tmp_path):
    out = tmp_path / "stopped"
    stop_after(2, out)
    resumed = run_cli("simulate", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert "already complete" not in resumed.stdout
    assert "rounds/s" in resumed.stdout


# ---------------------------------------------------------------- refused


def test_resume_of_a_folder_without_a_run_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    assert_refused(run_cli("simulate", "--resume", str(tmp_path)), "no manifest.json")
    assert_refused(run_cli("simulate", "--resume", str(tmp_path / "absent")), "no such folder")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", ["manifest.json", "corrupt"]),
        ('{"format": "other-tool/2"}', ["not a president-sim run", "other-tool/2"]),
        ("[1, 2]", ["not a president-sim run"]),
    ],
    ids=["invalid-json", "foreign-format", "not-an-object"],
)
def test_corrupt_or_foreign_manifest_is_refused(tmp_path, text, words):
    (tmp_path / "manifest.json").write_text(text)
    assert_refused(run_cli("simulate", "--resume", str(tmp_path)), *words)


def test_a_manifest_whose_job_was_edited_is_refused(tmp_path):
    out = tmp_path / "stopped"
    stop_after(2, out)
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["config"]["rules"]["players"] = 11
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert_refused(run_cli("simulate", "--resume", str(out)), "manifest.json", "players")
    manifest["config"]["seed"] = "seven"
    manifest["config"]["rules"]["players"] = 4
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert_refused(run_cli("simulate", "--resume", str(out)), "manifest.json", "seed")


def test_a_foreign_file_among_the_parts_is_refused(tmp_path):
    out = tmp_path / "stopped"
    stop_after(2, out)
    (out / "rounds.parquet" / "mine.csv").write_text("a,b\n")
    assert_refused(run_cli("simulate", "--resume", str(out)), "mine.csv", "not part of this run")
    assert (out / "rounds.parquet" / "mine.csv").exists(), "a foreign file is never deleted"


def test_resume_refuses_options_that_would_change_the_job(tmp_path):
    out = tmp_path / "stopped"
    stop_after(2, out)
    assert_refused(
        run_cli("simulate", "--resume", str(out), "--matches", "10", "--seed", "1"),
        "--matches",
        "--seed",
        "manifest.json",
    )


def test_a_new_run_into_an_interrupted_one_points_to_resume(tmp_path):
    out = tmp_path / "stopped"
    stop_after(2, out)
    assert_refused(run_cli("simulate", *JOB, "--out", str(out)), "already holds a run", "--resume")
    assert sorted(os.listdir(out / "rounds.parquet")) == [
        "part-00000.parquet",
        "part-00001.parquet",
    ]
