"""No dead ends: a refusal about a folder names a command that works, and it does work.

Each scenario makes a command refuse (a folder holding a run, a compare, an unfinished
run…), takes the ``president …`` command out of the one-line message and runs it: it
must succeed. An interrupted ``compare`` is finished by ``compare --resume OUT`` and by
the same command run again, into the numbers of an uninterrupted compare.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import simulator.runs.job as job
from simulator.runs import progress
from simulator.runs.progress import ProgressBar
from tests.cli.test_bad_input import assert_refused
from tests.conftest import run_cli
from tests.runs.test_resume import stop_after

# an option and its value (never an option: a flag is followed by the next one), or an
# absolute path (a comma inside, never at the end): a message's command ends where these do
VALUE = r"(?!--)[^\s;()]*[^\s;,()]"
COMMAND = re.compile(rf"president (\w+)((?: --[\w-]+(?: {VALUE})?| /{VALUE})*)")
SIZES = ["--matches", "40", "--rounds-per-match", "2", "--quiet"]
COMPARE = ["compare", "--rules", "french", "--rules", "scum", *SIZES]


@pytest.fixture(autouse=True)
def small_parts(monkeypatch):
    monkeypatch.setattr(job, "PART_ROUNDS", 20)  # many parts: an interruption lands mid-run


def commands_in(message: str) -> list[list[str]]:
    """Every ``president …`` command a message names, as argument lists."""
    return [[name, *rest.split()] for name, rest in COMMAND.findall(message)]


def follow(message: str, *extra: str, first: bool = False) -> None:
    """Run every command the message names, or the ``first`` only (``extra`` appended:
    sizes for a new run, whose defaults would take minutes)."""
    commands = commands_in(message)
    assert commands, f"no command in {message!r}"
    for args in commands[:1] if first else commands:
        result = run_cli(*args, *extra)
        assert result.exit_code == 0, (args, result.stderr)


def test_the_command_pattern_reads_messages():
    text = "x: president simulate --resume /a/b finishes it, then president report /a/b"
    assert commands_in(text) == [["simulate", "--resume", "/a/b"], ["report", "/a/b"]]
    assert commands_in("(e.g. president compare --rules french --rules scum --out /o)") == [
        ["compare", "--rules", "french", "--rules", "scum", "--out", "/o"]
    ]


def test_a_finished_run_points_to_its_report(tmp_path):
    out = tmp_path / "run"
    assert run_cli("simulate", *SIZES, "--out", str(out)).exit_code == 0
    line = assert_refused(run_cli("simulate", *SIZES, "--out", str(out)), "finished run")
    assert commands_in(line) == [["report", str(out)]]
    follow(line, "--quiet")
    assert f"--out {tmp_path / 'run-2'})" in line  # a free folder for a new run


def test_an_unfinished_run_points_to_resume_from_simulate_and_report(tmp_path):
    out = tmp_path / "stopped"
    stop_after(2, out)
    line = assert_refused(run_cli("simulate", *SIZES, "--out", str(out)), "already holds a run")
    assert commands_in(line) == [["simulate", "--resume", str(out)]]
    stop_after(2, tmp_path / "other")
    line = assert_refused(run_cli("report", str(tmp_path / "other")), "unfinished run")
    follow(line)  # resume, then report
    follow(assert_refused(run_cli("simulate", "--resume", str(out), "--seed", "3"), "--seed"))


def test_resume_of_a_folder_without_a_run_names_a_new_run(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    line = assert_refused(run_cli("simulate", "--resume", str(tmp_path)), "no manifest.json")
    assert commands_in(line) == [["simulate", "--out", f"{tmp_path}-2"]]  # a free folder
    follow(line, *SIZES)
    empty = tmp_path / "empty"
    empty.mkdir()
    line = assert_refused(run_cli("report", str(empty)), "no rounds.parquet")
    assert commands_in(line) == [["simulate", "--out", str(empty)]]
    follow(line, *SIZES)
    line = assert_refused(run_cli("report", str(tmp_path)), "no rounds.parquet")
    assert commands_in(line) == [["simulate", "--out", f"{tmp_path}-3"]]  # -2 holds a run now


def test_report_of_a_tournament_names_its_page_or_the_command_that_writes_it(tmp_path):
    out = tmp_path / "ranked"
    typed = ["--rules", "scum", "--players", "3", "--strategies", "lowest,random"]
    sizes = ["--matches", "6", "--rounds-per-match", "2", "--seed", "5", "--quiet"]
    assert run_cli("tournament", *typed, *sizes, "--out", str(out)).exit_code == 0
    line = assert_refused(run_cli("report", str(out)), "holds a tournament")
    assert commands_in(line) == [["tournament", "--resume", str(out), "--report"]]
    follow(line, "--quiet")
    page = out / "tournament.html"
    line = assert_refused(run_cli("report", str(out)), "holds a tournament")
    assert line.endswith(f"its page is {page}")


def test_report_of_a_tournament_without_a_manifest_names_a_command_that_writes_its_page(
    tmp_path,
):
    """A tournament folder written before tournaments kept a manifest (and so cannot be
    resumed): the same tournament again, into a free folder, with its page."""
    out = tmp_path / "ranked"
    typed = ["--rules", "scum", "--players", "3", "--strategies", "lowest,random"]
    sizes = ["--matches", "6", "--rounds-per-match", "2", "--seed", "5", "--quiet"]
    assert run_cli("tournament", *typed, *sizes, "--out", str(out)).exit_code == 0
    (out / "manifest.json").unlink()
    line = assert_refused(run_cli("report", str(out)), "holds a tournament", "ranking.csv")
    [command] = commands_in(line)
    assert command[:7] == ["tournament", *typed]
    assert command[-3:] == ["--out", str(tmp_path / "ranked-2"), "--report"]
    follow(line, "--quiet")
    page = tmp_path / "ranked-2" / "tournament.html"
    line = assert_refused(run_cli("report", str(page.parent)), "holds a tournament")
    assert line.endswith(f"its page is {page}")
    saved = json.loads((out / "tournament.json").read_text())
    assert json.loads((page.parent / "tournament.json").read_text()) == saved  # the same one


def interrupt_compare_after(monkeypatch, parts: int) -> None:
    """Make the compare's progress raise KeyboardInterrupt (as Ctrl-C) after ``parts`` parts."""
    calls = []

    class Interrupting(ProgressBar):
        within_parts = False  # called once per part, after it is handed to the writer

        def __call__(self, done: int, expected: int | None, seconds: float) -> None:
            calls.append(done)
            if len(calls) == parts:
                raise KeyboardInterrupt

    monkeypatch.setattr(progress, "ProgressBar", Interrupting)


@pytest.fixture(scope="module")
def whole_compare(tmp_path_factory) -> dict:
    out = tmp_path_factory.mktemp("whole") / "cmp"
    job.PART_ROUNDS, before = 20, job.PART_ROUNDS
    try:
        result = run_cli(*COMPARE, "--out", str(out))
    finally:
        job.PART_ROUNDS = before
    assert result.exit_code == 0, result.stderr
    return json.loads((out / "compare.json").read_text())


@pytest.mark.parametrize("how", ["resume", "again"])
def test_an_interrupted_compare_is_finished_by_resume_or_the_same_command(
    tmp_path, monkeypatch, whole_compare, how
):
    out = tmp_path / "cmp"
    interrupt_compare_after(monkeypatch, 3 + 2)  # french has 4 parts: stops inside scum
    stopped = run_cli(*COMPARE, "--out", str(out))
    assert stopped.exit_code == 130
    line = stopped.stderr.strip()
    assert (
        line
        == f"interrupted by SIGINT; the finished runs are kept: president compare --resume {out}"
    )
    assert not (out / "compare.json").exists()
    assert json.loads((out / "runs" / "french" / "manifest.json").read_text())["complete"]
    assert not json.loads((out / "runs" / "scum" / "manifest.json").read_text())["complete"]
    monkeypatch.setattr(progress, "ProgressBar", ProgressBar)
    if how == "resume":
        follow(line, "--quiet")
    else:
        again = run_cli(*COMPARE, "--out", str(out))
        assert again.exit_code == 0, again.stderr
    assert json.loads((out / "compare.json").read_text()) == whole_compare
    assert json.loads((out / "manifest.json").read_text())["complete"] is True


def test_a_variant_never_started_is_played_on_resume(tmp_path, monkeypatch, whole_compare):
    out = tmp_path / "cmp"
    interrupt_compare_after(monkeypatch, 2)  # inside french: scum has no folder yet
    assert run_cli(*COMPARE, "--out", str(out)).exit_code == 130
    assert not (out / "runs" / "scum").exists()
    monkeypatch.setattr(progress, "ProgressBar", ProgressBar)
    assert run_cli("compare", "--resume", str(out), "--quiet").exit_code == 0
    assert json.loads((out / "compare.json").read_text()) == whole_compare


def test_compare_refusals_name_commands_that_work(tmp_path):
    out = tmp_path / "cmp"
    assert run_cli(*COMPARE, "--out", str(out)).exit_code == 0
    other = ["compare", "--rules", "french", "--rules", "spade", *SIZES, "--out", str(out)]
    line = assert_refused(run_cli(*other), "holds another compare", "french, scum")
    assert commands_in(line) == [["compare", "--resume", str(out)]]
    follow(line, "--quiet")
    assert line.endswith(f"--out {tmp_path / 'cmp-2'})")
    for args in (
        ["simulate", "--resume", str(out)],
        ["compare", "--resume", str(out), "--seed", "4"],
    ):
        line = assert_refused(run_cli(*args), str(out))
        assert commands_in(line) == [["compare", "--resume", str(out)]], line
        follow(line)
    line = assert_refused(run_cli("simulate", *SIZES, "--out", str(out)), "finished compare")
    assert f"its page is {out / 'compare.html'}" in line
    assert line.endswith(f"e.g. --out {tmp_path / 'cmp-2'})")
    line = assert_refused(run_cli("report", str(out)), "holds a compare")
    assert commands_in(line) == [["report", str(out / "runs" / "french")]]
    follow(line)


def test_compare_resume_of_a_run_or_of_nothing_is_refused_with_what_works(tmp_path):
    run = tmp_path / "run"
    assert run_cli("simulate", *SIZES, "--out", str(run)).exit_code == 0
    line = assert_refused(run_cli("compare", "--resume", str(run)), "holds a run")
    assert commands_in(line)[0] == ["simulate", "--resume", str(run)]
    follow(line, first=True)
    line = assert_refused(run_cli("compare", "--resume", str(tmp_path / "none")), "no such")
    assert commands_in(line) == [
        ["compare", "--rules", "french", "--rules", "scum", "--out", str(tmp_path / "none")]
    ]
    follow(line, *SIZES)


def test_a_compare_into_a_folder_of_other_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    line = assert_refused(run_cli(*COMPARE, "--out", str(tmp_path)), "not empty")
    assert f"--out {tmp_path}-2)" in line
    assert sorted(p.name for p in Path(tmp_path).iterdir()) == ["notes.txt"]


@pytest.mark.parametrize(
    ("command", "typed", "allowed"),
    [
        ("simulate", ["--players", "5", "--seed", "3"], "--workers, --engine"),
        ("compare", ["--rules", "scum"], "--workers, --engine, --skill, --quiet"),
    ],
)
def test_resume_refuses_options_that_define_the_job(tmp_path, command, typed, allowed):
    """The job comes from the folder's manifest: options that would change it are named,
    with the options that are allowed and the command that finishes the run."""
    folder = tmp_path / "run"
    result = run_cli(command, "--resume", str(folder), *typed, "--workers", "1")
    line = assert_refused(result, allowed, f"president {command} --resume {folder}")
    dropped = line.split("drop ", 1)[1].split(")", 1)[0]
    assert dropped.split(", ") == [t for t in typed if t.startswith("--")]
