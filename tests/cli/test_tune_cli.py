"""``president tune``: the folder it writes, byte for byte after a kill and a resume and
on the Dask engine, the tuned file used as a strategy, and bad input in one line."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulator.runs.tune.folder import kept_generations
from tests.conftest import run_cli, without_compile_notice

JOB = ["planner", "--generations", "3", "--population", "4", "--rounds-per-candidate", "48",
       "--held-out-rounds", "96", "--rounds-per-match", "3", "--seed", "5"]  # fmt: skip


def folder_bytes(path: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*")) if p.is_file()
    }


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path_factory.mktemp("tune") / "whole"
    result = run_cli("tune", *JOB, "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.stderr
    return out, folder_bytes(out)


def test_a_tune_writes_its_result_page_and_state(whole):
    files = whole[1]
    assert {"tuned.toml", "tune.html", "manifest.json", "figures/tune-convergence.png",
            "figures/tune-paths.svg"} <= set(files)  # fmt: skip
    manifest = json.loads(files["manifest.json"])
    assert manifest["complete"] is True
    assert manifest["generations"] == 3
    lines = files["generations.jsonl"].decode().splitlines()
    assert [len(json.loads(g)["candidates"]) for g in lines] == [4, 4, 4]
    page = files["tune.html"].decode()
    assert "Tuned against the defaults, on fresh seeds" in page
    assert "winner&#x27;s curse" in page or "winner's curse" in page


def test_the_tuned_file_plays_wherever_a_strategy_is_named(whole):
    tuned = str(whole[0] / "tuned.toml")
    result = run_cli("simulate", "--strategies", f"{tuned},rules-aware,control,lowest",
                     "--matches", "4", "--rounds-per-match", "3", "--quiet")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert tuned in result.stdout


def test_a_complete_tune_resumed_plays_nothing_and_writes_the_same(whole, tmp_path):
    out = tmp_path / "again"
    out.mkdir()
    for name, data in whole[1].items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    result = run_cli("tune", "--resume", str(out), "--quiet")
    assert result.exit_code == 0, result.stderr
    assert folder_bytes(out) == whole[1]


def test_the_dask_engine_tunes_to_the_same_files(whole, tmp_path):
    out = tmp_path / "dask"
    result = run_cli("tune", *JOB, "--out", str(out), "--engine", "dask", "--workers", "2",
                     "--quiet")  # fmt: skip
    assert result.exit_code == 0, result.stderr
    assert folder_bytes(out) == whole[1]


# The child's generations are slowed down, so that the kill lands between two of them.
CHILD = (
    "import sys, time, simulator.runs.tune.search as t; real = t.play_generation\n"
    "def slow(*args):\n    real(*args)\n    time.sleep(0.5)\n"
    "t.play_generation = slow\nfrom simulator.cli import main; main(sys.argv[1:])"
)


def test_a_killed_tune_resumes_to_the_uninterrupted_files(whole, tmp_path):
    out = tmp_path / "killed"
    command = [sys.executable, "-c", CHILD, "tune", *JOB, "--out", str(out), "--quiet"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while child.poll() is None and time.monotonic() < deadline:
            manifest = out / "manifest.json"
            if manifest.exists() and json.loads(manifest.read_text())["generations"]:
                break
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == -signal.SIGKILL, stderr
    kept = json.loads((out / "manifest.json").read_text())["generations"]
    assert 1 <= kept < 3, "the kill must land mid-tune"
    resumed = run_cli("tune", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert folder_bytes(out) == whole[1]


# ---------------------------------------------------------------- refused


def refused(*args: str) -> str:
    result = run_cli("tune", *args)
    lines = without_compile_notice(result.stderr)
    assert result.exit_code == 2, result.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [(["nobody"], "unknown strategy 'nobody'"),
     (["lowest"], "'lowest' has no numeric parameters to tune (allowed: keep-sets"),
     (["planner", "--field", "lowest,random"], "2 strategies for the 3 other seats"),
     (["planner", "--players", "5", "--field", "a,b"], "unknown strategy 'a'"),
     (["planner", "--generations", "0"], "--generations must be at least 1, not 0"),
     (["planner", "--rounds-per-candidate", "0"], "--rounds-per-candidate must be at least 1"),
     (["planner", "--held-out-rounds", "-3"], "--held-out-rounds must be at least 1"),
     (["planner", "--population", "1"], "--population must be at least 2, not 1")],
)  # fmt: skip
def test_bad_input_is_one_line_and_claims_no_folder(tmp_path, args, message):
    out = tmp_path / "out"
    assert message in refused(*args, "--out", str(out))
    assert not out.exists()


def test_a_tune_needs_a_folder():
    assert "tune needs a STRATEGY and --out DIR" in refused("planner")


def test_a_foreign_folder_is_refused_and_left_as_it_was(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    assert "is not empty and holds no run" in refused(*JOB, "--out", str(out))
    assert folder_bytes(out) == {"notes.txt": b"keep me"}
    assert "no manifest.json there" in refused("--resume", str(out))
    assert folder_bytes(out) == {"notes.txt": b"keep me"}


def test_a_resume_of_another_kind_names_its_command(tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    (out / "manifest.json").write_text('{"format": "president-sim/tournament/1"}')
    line = refused("--resume", str(out))
    assert f"president tournament --resume {out} finishes it" in line


@pytest.mark.parametrize(
    "damage",
    [lambda m: m.update(tuned=None, generations=-1), lambda m: m.update(tuned=None),
     lambda m: m.pop("config"), lambda m: m["config"].update(seed="5")],
)  # fmt: skip
def test_a_damaged_resume_folder_is_one_line_and_kept(whole, tmp_path, damage):
    out = tmp_path / "damaged"
    out.mkdir()
    manifest = json.loads(whole[1]["manifest.json"])
    damage(manifest)
    (out / "manifest.json").write_text(json.dumps(manifest))
    before = folder_bytes(out)
    assert "is damaged" in refused("--resume", str(out))
    assert folder_bytes(out) == before


def test_resume_refuses_options_that_define_the_tune(whole):
    line = refused("--resume", str(whole[0]), "--generations", "9")
    assert "drop --generations" in line


def test_the_progress_line_shows_each_generation_within_80_columns(monkeypatch, tmp_path):
    from simulator.runs import progress

    monkeypatch.setattr(progress, "on_terminal", lambda: True)
    monkeypatch.setenv("COLUMNS", "80")
    result = run_cli("tune", *JOB, "--out", str(tmp_path / "t"))
    assert result.exit_code == 0, result.stderr
    lines = [line.removesuffix("\x1b[K") for line in result.stderr.split("\r")]
    shown = [line for line in lines if line.startswith("generation")]
    assert shown[0].startswith("generation 1/3  [")
    assert any(line.startswith("generation 3/3  [") and " left  best " in line for line in shown)
    assert all(len(line) <= 79 for line in shown)
    assert all(" mean " in line for line in shown if not line.startswith("generation 1/"))
    quiet = run_cli("tune", *JOB, "--out", str(tmp_path / "q"), "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_a_tune_started_by_other_code_is_refused_and_kept(whole, tmp_path):
    out = tmp_path / "other-code"
    out.mkdir()
    manifest = json.loads(whole[1]["manifest.json"])
    manifest["code"] = "0" * 64  # the digest of sources that are not these
    (out / "manifest.json").write_text(json.dumps(manifest))
    before = folder_bytes(out)
    assert "was started by other code" in refused("--resume", str(out))
    assert folder_bytes(out) == before


def test_a_folder_missing_generations_it_counts_is_one_line_and_kept(whole, tmp_path):
    out = tmp_path / "short"
    out.mkdir()
    (out / "manifest.json").write_bytes(whole[1]["manifest.json"])
    lines = whole[1]["generations.jsonl"].decode().splitlines(keepends=True)
    (out / "generations.jsonl").write_text("".join(lines[:2]))  # the manifest counts 3
    before = folder_bytes(out)
    assert "holds fewer than its 3 generations" in refused("--resume", str(out))
    assert folder_bytes(out) == before


def test_lines_after_the_last_manifest_are_played_again(tmp_path):
    """A stop between a generation's line and the manifest that counts it leaves a line
    (or part of one) that the manifest does not count: it is dropped, not kept."""
    path = tmp_path / "generations.jsonl"
    path.write_text('{"generation": 0}\n{"generation": 1}\n{"generation": 2}\n{"gen')
    generations, kept = kept_generations(path, 2)
    assert generations == [{"generation": 0}, {"generation": 1}]
    assert kept == '{"generation": 0}\n{"generation": 1}\n'
    assert kept_generations(path, 3)[0][-1] == {"generation": 2}
    with pytest.raises(ValueError, match="fewer than its 4"):
        kept_generations(path, 4)
