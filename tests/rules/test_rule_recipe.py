"""The recipe "add a rule option (a boolean table rule)" of docs/architecture.md, followed.

A copy of the package gets a throwaway rule, ``nines_skip`` (a play of 9s skips the next
player to answer), by the recipe's own four steps, each a textual patch of the file the
recipe names at the place it names; no other file changes. Then the copy plays rounds
of it on both engines with ``linear`` and ``rules-aware`` seated (``recipe_play.py``, in
a process of its own) and they must agree move for move, skips and places included, with
skips made by the new rule and read alike by a strategy on both (the skip records that
``champion`` reads, checked directly: a search player compiled in the copy took a
minute more). So the recipe's list of files cannot drift from the code:
a step that no longer suffices, or a file it no longer names, fails here.

The copy lives in pytest's cache folder at a fixed place, its files keeping their
times, so the kernel's compiled functions stay cached between runs of the suite (the
kernel drops them itself when a source changes: :mod:`simulator.kernel`). Its first run
compiles ``linear``, ``rules-aware`` and the step a second time, in the copy: it is
marked slow.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.runs.atlas.sets import default_rule_sets

# compiles the strategies and the step again, in a patched copy
pytestmark = pytest.mark.early

ROOT = Path(__file__).resolve().parents[2]
KEY = "nines_skip"

# The recipe's steps as textual patches: (file, a text found once in it, what replaces it).
PATCHES = (
    (
        "simulator/rules/options.py",
        '        choices=("off", "first_round", "every_round"),\n    )\n',
        '        choices=("off", "first_round", "every_round"),\n    )\n'
        f'    {KEY}: bool = option(False, "A play of 9s skips the next player to answer.")\n',
    ),
    ("simulator/kernel/layout.py", "# Each flag: (its word", "NINES = 128  # 9s skip\n# Each flag: (its word"),
    (
        "simulator/kernel/layout.py",
        '    (R_TRICK_FLAGS, LAST_IN, "after_out_lead", "last_in_trick"),\n',
        '    (R_TRICK_FLAGS, LAST_IN, "after_out_lead", "last_in_trick"),\n'
        f'    (R_TRICK_FLAGS, NINES, "{KEY}", True),\n',
    ),
    ("simulator/kernel/trick.py", "    EIGHTS,\n", "    EIGHTS,\n    NINES,\n"),
    (
        "simulator/kernel/trick.py",
        "    return run, flips, ends, skips, times\n",
        "    if r == 6 and trick_rules & NINES != 0:  # rank 6: the 9s\n"
        "        skips, times = NINES, 1\n"
        "    return run, flips, ends, skips, times\n",
    ),
    (
        "simulator/reference/round.py",
        '        return ("equal_rank", 1) if is_equal else ("", 0)\n',
        '        if is_equal:\n            return "equal_rank", 1\n'
        f'        return ("{KEY}", 1) if rank == 6 and self.rules.{KEY} else ("", 0)\n',
    ),
)  # fmt: skip
FILES = list(dict.fromkeys(path for path, _, _ in PATCHES))  # in the recipe's order


def recipe_files() -> list[str]:
    """The production files the recipe's numbered steps name, in order."""
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## Recipe: add a rule option (a boolean table rule)")[1].split("\n## ")[0]
    return re.findall(r"^\d+\. `([^`]+)`", section, re.M)


def patched_copy(folder: Path) -> Path:
    """The package copied into ``folder`` (times kept) with the recipe's steps applied."""
    for package in ("simulator", "strategies"):
        target = folder / package
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(ROOT / package, target, ignore=shutil.ignore_patterns("__pycache__"))
    for path in FILES:
        file = folder / path
        text = file.read_text(encoding="utf-8")
        for where, old, new in PATCHES:
            if where == path:
                assert text.count(old) == 1, f"{path}: the recipe's place is gone: {old!r}"
                text = text.replace(old, new)
        stamp = (ROOT / path).stat()
        file.write_text(text, encoding="utf-8")
        os.utime(file, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # the same each run
    return folder


@pytest.mark.slow  # it compiles linear, rules-aware and step a second time, in the copy
def test_the_recipe_names_four_production_files_and_they_suffice(request, tmp_path) -> None:
    assert recipe_files() == FILES
    cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
    folder = patched_copy(cache.mkdir("rule-recipe") if cache is not None else tmp_path)
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(folder)
    script = Path(__file__).with_name("recipe_play.py")
    done = subprocess.run(
        [sys.executable, str(script), KEY, "6"],
        cwd=folder, env=env, capture_output=True, text=True, timeout=3600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads(done.stdout.splitlines()[-1])
    assert out["disagreement"] == ""
    assert out["moves"] > 100
    assert out["skips"] > 0  # equal_rank is off: every skip is the new rule's
    assert out["skips_seen"] > 0  # a strategy to move read the skip, on both engines
    assert out["skipped_by"] == [KEY, True]


def test_the_atlas_count_in_the_docs_follows_the_rule_spec() -> None:
    """A new option or value adds rule sets to the atlases: docs/cli.md's counts (the
    default atlas's, then ``--all``'s) are checked."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    counts = [int(c) for c in re.findall(r"\((\d+) rule sets\s+around\s+`french`\)", text)]
    assert counts == [
        len(default_rule_sets("french")),
        len(default_rule_sets("french", every=True)),
    ]
