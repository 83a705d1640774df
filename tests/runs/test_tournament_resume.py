"""``president tournament --out``: a folder of its own, every finished table kept, and
``--resume OUT`` finishing a stopped tournament into the very files of an uninterrupted one
without playing a finished table again; folders holding something else are refused in
one line naming a command that works.

A tournament is stopped in-process at a chosen table (as Ctrl-C would) and killed for real
(SIGKILL on a ``president tournament`` process whose tables are slowed down).
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import simulator.runs.tournament.tables as tournament
from simulator.runs.tournament.tables import tables
from tests.cli.test_bad_input import assert_refused
from tests.cli.test_dead_ends import commands_in, follow
from tests.conftest import run_cli
from tests.runs.test_resume import folder_bytes

NAMES = ["lowest", "random", "rules-aware", "control"]
LINEUPS = tables(NAMES, 3)  # 4 tables
JOB = ["--rules", "french", "--players", "3", "--strategies", ",".join(NAMES), "--matches", "6",
       "--rounds-per-match", "2", "--seed", "5", "--quiet"]  # fmt: skip


class Played:
    """The line-ups ``play_table`` plays, in order; it raises KeyboardInterrupt (as Ctrl-C
    would) instead of playing table number ``stop_at`` of this process."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.lineups: list[tuple[str, ...]] = []
        self.stop_at: int | None = None
        real = tournament.play_table

        def play(rules, config, lineup, names, engine="numba"):  # type: ignore[no-untyped-def]
            if len(self.lineups) == self.stop_at:
                raise KeyboardInterrupt
            self.lineups.append(tuple(lineup))
            return real(rules, config, lineup, names, engine)

        monkeypatch.setattr(tournament, "play_table", play)


@pytest.fixture
def played(monkeypatch) -> Played:
    return Played(monkeypatch)


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> tuple[dict[str, bytes], str]:
    """Every file of an uninterrupted tournament with its page, and what it printed."""
    out = tmp_path_factory.mktemp("whole") / "t"
    result = run_cli("tournament", *JOB, "--out", str(out), "--report")
    assert result.exit_code == 0, result.stderr
    return folder_bytes(out), tables_of(result.stdout)


def tables_of(stdout: str) -> str:
    """The printed ranking and pairs: the lines before ``saved to …``."""
    return stdout.split("\nsaved to")[0]  # wrapped: the path may go to the next line


def manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def stopped(out: Path, played: Played, tables_done: int, *extra: str) -> None:
    """A tournament into ``out`` stopped as Ctrl-C would once ``tables_done`` are played."""
    played.stop_at = tables_done
    result = run_cli("tournament", *JOB, "--out", str(out), *extra)
    assert result.exit_code == 130, result.stderr
    assert result.stderr == (
        f"interrupted by SIGINT; the finished tables are kept: president tournament --resume "
        f"{out}\n"
    )
    assert [t["table"] for t in manifest(out)["tables"]] == list(range(tables_done))
    assert not manifest(out)["complete"]
    assert not (out / "ranking.csv").exists() and not list(out.rglob("*.tmp"))
    played.stop_at, played.lineups[:] = None, []


def test_a_stopped_tournament_resumes_to_the_uninterrupted_files(tmp_path, played, whole):
    """Its page too (asked for when it was started), and only the tables not yet played;
    resumed once more, it plays nothing and changes nothing."""
    out = tmp_path / "t"
    stopped(out, played, 2, "--report")
    resumed = run_cli("tournament", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert played.lineups == LINEUPS[2:]
    assert folder_bytes(out) == whole[0]
    assert tables_of(resumed.stdout) == whole[1]
    played.lineups.clear()
    again = run_cli("tournament", "--resume", str(out), "--quiet")
    assert again.exit_code == 0, again.stderr
    assert played.lineups == []
    assert "already complete: no table was played again" in " ".join(again.stdout.split())
    assert folder_bytes(out) == whole[0]


def test_the_leftovers_of_a_kill_are_cleaned_and_a_damaged_table_played_again(
    tmp_path, played, whole
):
    """A kill can leave a half-written file, and a table renamed into place but not listed."""
    out = tmp_path / "t"
    stopped(out, played, 3, "--report")
    kept = out / "tables"
    (kept / ".table-00003.npz.tmp").write_bytes(b"PK half a table")
    (kept / "table-00003.npz").write_bytes((kept / "table-00000.npz").read_bytes())
    (out / ".ranking.csv.tmp").write_text("strategy,ro")
    (out / ".manifest.json.tmp").write_text("{")
    damaged = kept / "table-00001.npz"
    size = len(whole[0]["tables/table-00001.npz"])
    damaged.write_bytes(damaged.read_bytes()[:-40])
    resumed = run_cli("tournament", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert resumed.stderr == (
        f"note: table-00001.npz has {size - 40} bytes, not {size}: the table is played again\n"
    )
    assert played.lineups == [LINEUPS[1], LINEUPS[3]]
    assert folder_bytes(out) == whole[0]


# ---------------------------------------------------------------- a real kill

# The child's tables are slowed down, so that the kill lands between two of them.
CHILD = (
    "import sys, time, simulator.runs.tournament.tables as t; real = t.play_table\n"
    "def slow(*args):\n    time.sleep(0.3)\n    return real(*args)\n"
    "t.play_table = slow\nfrom simulator.cli import main; main(sys.argv[1:])"
)


def test_a_killed_tournament_resumes_to_the_uninterrupted_files(tmp_path, played, whole):
    out = tmp_path / "killed"
    command = [sys.executable, "-c", CHILD, "tournament", *JOB, "--out", str(out), "--report"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while child.poll() is None and time.monotonic() < deadline:
            if (out / "manifest.json").exists() and manifest(out)["tables"]:
                break
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == -signal.SIGKILL, stderr
    done = len(manifest(out)["tables"])
    assert 1 <= done < len(LINEUPS), "the kill must land mid-tournament"
    resumed = run_cli("tournament", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert played.lineups == LINEUPS[done:]
    assert folder_bytes(out) == whole[0]


# ---------------------------------------------------------------- refused


def test_a_tournament_never_writes_into_another_run(tmp_path):
    """A run's folder is left as it was (the issue: its report's figures were replaced)."""
    run = tmp_path / "run"
    sizes = ["--matches", "20", "--rounds-per-match", "2", "--quiet"]
    assert run_cli("simulate", *sizes, "--out", str(run)).exit_code == 0
    before = folder_bytes(run)
    line = assert_refused(run_cli("tournament", *JOB, "--out", str(run), "--report"), "run")
    assert commands_in(line) == [["report", str(run)]]
    assert line.endswith(f"e.g. --out {tmp_path / 'run-2'})")
    assert folder_bytes(run) == before


def test_a_finished_tournament_refuses_a_second_one_and_a_run_report(tmp_path):
    out = tmp_path / "t"
    assert run_cli("tournament", *JOB, "--out", str(out)).exit_code == 0
    before = folder_bytes(out)
    other = [a if a != "5" else "6" for a in JOB]  # another seed
    line = assert_refused(run_cli("tournament", *other, "--out", str(out)), "finished tournament")
    assert f"its ranking is {out / 'ranking.csv'}" in line
    assert line.endswith(f"e.g. --out {tmp_path / 't-2'})")
    assert folder_bytes(out) == before
    line = assert_refused(run_cli("report", str(out)), "holds a tournament, not a run")
    assert commands_in(line) == [["tournament", "--resume", str(out), "--report"]]
    follow(line)
    assert (out / "tournament.html").exists()


def test_a_new_tournament_into_a_stopped_one_points_to_resume(tmp_path, played):
    out = tmp_path / "t"
    stopped(out, played, 1)
    line = assert_refused(run_cli("tournament", *JOB, "--out", str(out)), "holds a tournament")
    assert commands_in(line)[0] == ["tournament", "--resume", str(out)]
    follow(line, first=True)
    assert manifest(out)["complete"]


def test_resume_to_the_wrong_command_names_the_right_one(tmp_path, played):
    out = tmp_path / "t"
    stopped(out, played, 1)
    line = assert_refused(run_cli("simulate", "--resume", str(out)), "holds a tournament")
    assert commands_in(line) == [["tournament", "--resume", str(out)]]
    line = assert_refused(run_cli("compare", "--resume", str(out)), "holds a tournament")
    assert commands_in(line)[0] == ["tournament", "--resume", str(out)]
    run = tmp_path / "run"
    assert run_cli("simulate", "--matches", "20", "--quiet", "--out", str(run)).exit_code == 0
    line = assert_refused(run_cli("tournament", "--resume", str(run)), "holds a run")
    assert commands_in(line) == [["simulate", "--resume", str(run)]]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (None, ["no such folder", "president tournament --strategies"]),
        ("", ["holds no tournament"]),
        ("{not json", ["unreadable or foreign"]),
        ('{"format": "other-tool/2"}', ["unreadable or foreign"]),
    ],
    ids=["absent", "no-manifest", "invalid-json", "foreign-format"],
)
def test_resume_of_a_foreign_or_corrupt_folder_is_refused(tmp_path, text, words):
    out = tmp_path / "t"
    if text is not None:
        out.mkdir()
        if text:
            (out / "manifest.json").write_text(text)
    assert_refused(run_cli("tournament", "--resume", str(out)), *words)


def test_resume_refuses_an_edited_manifest_options_and_foreign_files(tmp_path, played):
    out = tmp_path / "t"
    stopped(out, played, 1)
    found = manifest(out)
    found["config"]["seed"] = "five"
    (out / "manifest.json").write_text(json.dumps(found))
    assert_refused(run_cli("tournament", "--resume", str(out)), "manifest.json", "seed")
    found["config"]["seed"], found["config"]["strategies"] = 5, ["lowest", "nobody"]
    (out / "manifest.json").write_text(json.dumps(found))
    assert_refused(run_cli("tournament", "--resume", str(out)), "manifest.json", "nobody")
    found["config"]["strategies"] = NAMES
    (out / "manifest.json").write_text(json.dumps(found))
    line = assert_refused(run_cli("tournament", "--resume", str(out), "--seed", "1"), "--seed")
    assert commands_in(line) == [["tournament", "--resume", str(out)]]
    (out / "tables" / "mine.csv").write_text("a,b\n")
    assert_refused(run_cli("tournament", "--resume", str(out)), "mine.csv", "not part of")
    assert (out / "tables" / "mine.csv").exists(), "a foreign file is never deleted"
