"""The README's quick start shows what its command prints, and this test holds it to that.

The sample in the quick start is the standard output of the quick start's own command
(``president simulate --out runs/first``) at 80 columns, from a first run. Every number
in it but the times is the seed's: the table, the lines under it, the closing line's
counts and the next steps are checked here, line for line, against a fresh run of the
same command. The times are the machine's: the closing line is checked for its form
only (the README's a first run's, the compile given apart).

When a change moves a number (a strategy, the statistics, the wording), one command
writes the sample again, from a first run with empty compile caches as on a new
machine (a minute or two)::

    python -m tests.test_readme
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.conftest import ROOT, run_cli

README = ROOT / "README.md"
COLUMNS = "80"  # the terminal the sample shows: the output's default width off a terminal
REGENERATE = "python -m tests.test_readme"
# The closing line, whose times are the machine's: a first run gives the compile apart,
# a run that finds the kernel in the cache only its speed.
SECONDS, SPEED = r"\d+\.\d s", r"[\d,]+ rounds/s"
COUNTS = r"(?P<counts>[\d,]+ rounds in [\d,]+ matches), "
FIRST_RUN = re.compile(
    rf"{COUNTS}{SECONDS} \({SECONDS} compiling the kernel, once; {SECONDS} playing: {SPEED}\)"
    r"(?P<rest>.*)"
)
CACHED = re.compile(rf"{COUNTS}{SECONDS} \({SPEED} computed\)(?P<rest>.*)")


def quick_start(text: str) -> tuple[list[str], int, int]:
    """The arguments of the quick start's ``president simulate …`` (its first ``sh``
    block), and the first and past-the-last line numbers of its sample (the first
    ``text`` block after that one) in ``text``, the README."""
    lines = text.splitlines()
    start = lines.index("## Quick start")
    sh = lines.index("```sh", start)
    command = next(line for line in lines[sh:] if "president simulate" in line)
    args = shlex.split(command.split("president ", 1)[1].partition("&&")[0])
    first = lines.index("```text", sh) + 1
    return args, first, lines.index("```", first)


def parts(sample: list[str]) -> tuple[list[str], str, list[str]]:
    """A run's output cut in three: the lines before the closing line (the table and its
    notes), the closing line (unwrapped), and the lines after it (what to run next)."""
    start = next(i for i, line in enumerate(sample) if re.match(r"[\d,]+ rounds in ", line))
    end = sample.index("", start) if "" in sample[start:] else len(sample)
    return sample[:start], " ".join(sample[start:end]), sample[end:]


def test_the_readme_sample_is_what_its_command_prints(tmp_path, monkeypatch):
    text = README.read_text()
    args, first, end = quick_start(text)
    assert args[0] == "simulate", args
    monkeypatch.chdir(tmp_path)  # runs/first, as the sample names it
    monkeypatch.setenv("COLUMNS", COLUMNS)
    result = run_cli(*args)
    assert result.exit_code == 0, result.stderr
    shown, fresh = parts(text.splitlines()[first:end]), parts(result.stdout.splitlines())
    stale = f"the README's sample is stale: {REGENERATE} writes it again"
    assert shown[0] == fresh[0], f"{stale} (the table or its notes)"
    assert shown[2] == fresh[2], f"{stale} (what to run next)"
    readme_line = FIRST_RUN.fullmatch(shown[1])
    fresh_line = FIRST_RUN.fullmatch(fresh[1]) or CACHED.fullmatch(fresh[1])
    assert readme_line, f"the README's closing line is not a first run's: {shown[1]!r}"
    assert fresh_line, f"the closing line has another form now: {fresh[1]!r}"
    assert readme_line["counts"] == fresh_line["counts"], stale
    assert readme_line["rest"] == fresh_line["rest"], stale


def test_the_readme_names_a_later_runs_closing_line_as_printed():
    """The README's words after the sample: a later run's form, "…" for its speed."""
    form = re.search(r"`(\(… rounds/s computed\))`", README.read_text())
    assert form, "the README no longer says how a later run's closing line ends"
    assert CACHED.fullmatch("1,000 rounds in 100 matches, 0.4 s " + form[1].replace("…", "9"))


def test_the_closing_line_patterns_tell_a_first_run_from_a_cached_one():
    first = "1,000 rounds in 100 matches, 95.0 s (94.4 s compiling the kernel, once; 0.0 s "
    first += "playing: 202,062 rounds/s); data in runs/first"
    cached = "1,000,000 rounds in 100,000 matches, 4.5 s (236,783 rounds/s computed)"
    assert FIRST_RUN.fullmatch(first)["rest"] == "; data in runs/first"
    assert not CACHED.fullmatch(first) and not FIRST_RUN.fullmatch(cached)
    assert CACHED.fullmatch(cached)["counts"] == "1,000,000 rounds in 100,000 matches"


def test_parts_cut_at_the_closing_line():
    sample = ["table", "notes", "10 rounds in 2 matches, 0.1 s", "(more)", "", "Next:", "  x"]
    assert parts(sample) == (["table", "notes"], "10 rounds in 2 matches, 0.1 s (more)",
                             ["", "Next:", "  x"])  # fmt: skip


def first_run_output(args: list[str]) -> str:
    """The standard output of ``president ARGS`` as a new user's first run prints it: a
    new process in an empty folder, the compile caches empty, 80 columns."""
    with tempfile.TemporaryDirectory(prefix="president-readme-") as scratch:
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        env = {**os.environ, "COLUMNS": COLUMNS, "PYTHONPATH": path,
               "PRESIDENT_CACHE": str(Path(scratch) / "kernels"),
               "NUMBA_CACHE_DIR": str(Path(scratch) / "numba")}  # fmt: skip
        command = [sys.executable, "-m", "simulator", *args]
        done = subprocess.run(command, cwd=scratch, env=env, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{shlex.join(command)} failed:\n{done.stderr}")
    return done.stdout


def with_sample(text: str, output: str) -> str:
    """The README ``text`` with ``output`` as its quick start's sample."""
    _, first, end = quick_start(text)
    lines = text.splitlines()
    lines[first:end] = output.rstrip("\n").splitlines()
    return "\n".join(lines) + "\n"


def test_with_sample_replaces_the_sample_alone():
    text = README.read_text()
    args, first, end = quick_start(text)
    new = with_sample(text, "strategy  new\n1 rounds in 1 matches, 0.1 s\n")
    assert new.splitlines()[first : first + 2] == ["strategy  new", "1 rounds in 1 matches, 0.1 s"]
    assert new.splitlines()[:first] == text.splitlines()[:first]
    assert new.splitlines()[first + 2 :] == text.splitlines()[end:]
    assert quick_start(new)[0] == args


def regenerate() -> None:
    """Write the README's sample again from a first run of its command."""
    args = quick_start(README.read_text())[0]
    print(f"running president {shlex.join(args)} with empty caches…", file=sys.stderr)
    output = first_run_output(args)
    README.write_text(with_sample(README.read_text(), output))
    print("README.md: sample written; git diff README.md shows what moved", file=sys.stderr)


if __name__ == "__main__":
    regenerate()
