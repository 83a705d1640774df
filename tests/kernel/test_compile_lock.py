"""Two processes that need the same match loop at once compile it once
(:mod:`simulator.matchloop.compilelock`): the second waits, then loads it from numba's
cache, and both play the same rows. The loop's module is written once too: a second
copy over the first changed the file's time, which keys numba's cache of it."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

from simulator.matchloop import specialise
from simulator.matchloop.compilelock import compile_once

ROOT = Path(__file__).resolve().parents[2]

# A job whose loop is the cheapest to compile (lowest alone, no table rule): numba's
# counts say whether this process compiled it (a miss of its cache) or loaded it (a hit).
SCRIPT = """
import hashlib, json
from simulator.matchloop.api import KernelJob, run_matches
from simulator.rules.options import Rules

job = KernelJob.build(Rules(), ["lowest"] * 4, 7, 3, 3)
rows = run_matches(job, 0, 16)
stats = job.runner.stats
print(json.dumps({"compiled": sum(stats.cache_misses.values()),
                  "loaded": sum(stats.cache_hits.values()),
                  "rows": hashlib.sha256(rows.tobytes()).hexdigest()}))
"""


def test_processes_started_together_compile_a_loop_once(tmp_path) -> None:
    env = {**os.environ, "PRESIDENT_CACHE": str(tmp_path / "k"),
           "NUMBA_CACHE_DIR": str(tmp_path / "n"), "PYTHONPATH": str(ROOT)}  # fmt: skip
    runs = [subprocess.Popen([sys.executable, "-c", SCRIPT], env=env, cwd=ROOT, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            for _ in range(2)]  # fmt: skip
    said = []
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err[-2000:]
        said.append(json.loads(out.splitlines()[-1]))
    assert sorted((s["compiled"], s["loaded"]) for s in said) == [(0, 1), (1, 0)]
    assert said[0]["rows"] == said[1]["rows"]


def test_a_module_written_twice_keeps_the_first_copy(tmp_path) -> None:
    path = tmp_path / f"{specialise.PREFIX}x.py"
    for i, stamp in enumerate((1_000_000_000, 2_000_000_000)):
        temporary = tmp_path / f".{specialise.PREFIX}x.{i}.tmp"
        temporary.write_text("RUNS = 1\n")
        os.utime(temporary, ns=(stamp, stamp))
        specialise._create(temporary, path)
        assert not temporary.exists()
    assert path.stat().st_mtime_ns == 1_000_000_000


def _jitted(path: Path):
    """A tiny jitted function written to ``path`` and imported, as a loop's module is."""
    path.write_text("from numba import njit\n\n@njit(cache=True)\ndef f(a):\n    return a + 1\n")
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


def test_only_a_loop_of_the_cache_folder_is_compiled_under_its_lock(tmp_path) -> None:
    loop = _jitted(tmp_path / f"{specialise.PREFIX}t.py")
    compile_once(loop, lambda: (1,))
    assert len(loop.signatures) == 1 and (tmp_path / f"{specialise.PREFIX}t.lock").is_file()
    other = _jitted(tmp_path / "elsewhere.py")  # the package's generic loop, say
    compile_once(other, lambda: (1,))
    assert other.signatures == [] and not (tmp_path / "elsewhere.lock").exists()


def test_a_file_system_without_locks_compiles_without_waiting(tmp_path, monkeypatch) -> None:
    import fcntl

    def refused(*_):
        raise OSError(37, "No locks available")

    monkeypatch.setattr(fcntl, "flock", refused)
    loop = _jitted(tmp_path / f"{specialise.PREFIX}u.py")
    compile_once(loop, lambda: (1,))
    assert len(loop.signatures) == 1
