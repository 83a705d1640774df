"""numba's on-disk cache never serves code compiled from older sources: with
``NUMBA_CACHE_DIR`` set, an edit of a callee in another file (of the package, or a local
module a user's strategy imports) is seen by the next process, while an unchanged
function still loads from the cache. Each case runs in fresh processes on a scratch copy,
with tiny functions (a few seconds of compile)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

from simulator.kernel.freshness import local_closure
from simulator.kernel.sources import cached_folders
from tests.conftest import ROOT

# rank_counts (strategies/kit.py) is cached by numba and calls count_of (kernel/bits.py)
PACKAGE_RUN = """
import numpy as np
from pathlib import Path
from simulator.kernel.freshness import cache_folders
from strategies.kit import rank_counts
total = int(rank_counts(np.uint64(0b1111)).sum())
stats = rank_counts.stats
first = Path(stats.cache_path) == cache_folders(Path("strategies"))[0]
print(total, sum(stats.cache_hits.values()), first)
"""

HELPER = """
from numba import njit


@njit(cache=True)
def pick():
    return {rank}
"""

MINE = """
from helper import pick
from numba import njit


@njit(cache=True)
def mine(pos, S, H, R, played, roles, rs, params):
    return pick(), 1
"""

USER_RUN = """
import numpy as np
from simulator.kernel.layout import MAX_PLAYERS, R_SIZE, S_SIZE
from simulator.rules.cards import NUM_RANKS
from strategies.specs import NPARAMS
from strategies.user import load, loaded_functions, source_digest
spec = load("mine.py:mine")
func = loaded_functions()[-1][1]
args = (np.zeros(S_SIZE, np.int64), np.zeros(MAX_PLAYERS, np.uint64), np.zeros(R_SIZE, np.int64),
        np.zeros(NUM_RANKS, np.int64), np.zeros(MAX_PLAYERS, np.int64), np.zeros(3, np.uint64),
        np.zeros((MAX_PLAYERS, NPARAMS), np.float64))
rank, _ = func(0, *args)
print(rank, sum(func.stats.cache_hits.values()), source_digest(spec.kernel_id))
"""


def run(code: str, cwd: Path, path: Path) -> list[str]:
    """Run ``code`` in a fresh process, in ``cwd``, with ``path`` first on its import
    path and numba's cache under ``cwd/numba``; its printed words."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cwd / "numba"), "PRESIDENT_CACHE": str(cwd / "k")}
    env["PYTHONPATH"] = os.pathsep.join([str(path), env.get("PYTHONPATH", "")])
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.split()


def test_an_edit_of_a_package_callee_reaches_the_cached_caller(tmp_path: Path) -> None:
    ignore = shutil.ignore_patterns("__pycache__")
    for package in ("simulator", "strategies"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=ignore)
    before = run(PACKAGE_RUN, tmp_path, tmp_path)
    assert before == ["4", "0", "True"]  # compiled, in the first folder numba tries
    assert run(PACKAGE_RUN, tmp_path, tmp_path)[:2] == ["4", "1"]  # loaded from the cache
    bits = tmp_path / "simulator" / "kernel" / "bits.py"
    text = bits.read_text()
    edited = re.sub(r"(def count_of\(h, r\):\n.*\n    return popc\(.*\))", r"\1 + 1", text)
    assert edited != text
    bits.write_text(edited)  # an edit of the callee alone: kit.py, the caller's file, is as it was
    assert run(PACKAGE_RUN, tmp_path, tmp_path)[:2] == ["18", "0"]  # 4 + one per rank


def test_an_edit_of_a_module_a_user_strategy_imports_is_seen(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(textwrap.dedent(MINE))
    (tmp_path / "helper.py").write_text(textwrap.dedent(HELPER.format(rank=3)))
    rank, hits, digest = run(USER_RUN, tmp_path, ROOT)
    assert (rank, hits) == ("3", "0")
    assert run(USER_RUN, tmp_path, ROOT) == [rank, "1", digest]  # loaded from the cache
    (tmp_path / "helper.py").write_text(textwrap.dedent(HELPER.format(rank=5)))
    rank, hits, changed = run(USER_RUN, tmp_path, ROOT)
    assert (rank, hits) == ("5", "0") and changed != digest  # and so is the loop's key


def test_a_user_files_closure_is_its_local_imports_only(tmp_path: Path, monkeypatch) -> None:
    (tmp_path / "helper.py").write_text("import os\nimport numpy\nimport strategies.kit\n")
    (tmp_path / "mine.py").write_text("import json\nfrom helper import os\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "helper", raising=False)
    __import__("helper")
    found = local_closure(tmp_path / "mine.py")
    assert found == [tmp_path / "helper.py", tmp_path / "mine.py"]


def test_every_cached_function_is_checked_before_its_decorator_runs() -> None:
    """A module of the package whose functions numba caches imports the compiler options
    (which runs the check) and lives in a folder the check covers."""
    cached = re.compile(r"cache\s*=\s*True|\*\*(JIT|HOT|INLINE|USER_JIT)\b")
    folders = set(cached_folders())
    found = []
    for package in ("simulator", "strategies"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name == "config.py" or not cached.search(path.read_text("utf-8")):
                continue
            found.append(path)
            assert "from simulator.kernel.config import" in path.read_text("utf-8"), path
            assert path.parent in folders, path
    assert ROOT / "simulator" / "runs" in {p.parent for p in found}  # APART: not in SOURCES
