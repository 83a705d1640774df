"""A first run says how much of its time was the kernel's compile.

The match loop's first call is timed as a compile only when it compiles (nothing compiled
in the process, nothing in numba's cache on disk); the closing line of ``simulate`` then
splits the run's seconds into the compile and the play.
"""

from __future__ import annotations

import re

import numba

import simulator.kernel.config as kernel_config
from simulator.runs import jitstart
from tests.conftest import run_cli

SIZES = ["--matches", "8", "--rounds-per-match", "2", "--quiet"]
SECONDS = r"(\d+\.\d) s"
COLD = re.compile(
    rf"^16 rounds in 8 matches, {SECONDS} \({SECONDS} compiling the kernel, once; "
    rf"{SECONDS} playing: \d[\d,]* rounds/s\)$"
)
WARM = re.compile(rf"^16 rounds in 8 matches, {SECONDS} \(\d[\d,]* rounds/s computed\)$")


def closing_line(stdout: str) -> str:
    return next(line for line in stdout.splitlines() if line.startswith("16 rounds in "))


def test_a_first_call_that_compiles_is_timed(monkeypatch):
    monkeypatch.setattr(kernel_config, "cached_on_disk", lambda loop: False)
    monkeypatch.setattr(jitstart, "_COMPILES", [])
    loop = numba.njit(lambda x: x + 1)  # a new function: nothing compiled for it yet
    assert kernel_config.compiles(loop)
    jitstart.first_call(loop, lambda: loop(1))
    assert len(jitstart._COMPILES) == 1 and jitstart.compile_seconds() > 0
    assert not kernel_config.compiles(loop)  # compiled now: a second first call is no compile
    jitstart.first_call(loop, lambda: loop(2))
    assert len(jitstart._COMPILES) == 1


def test_a_loop_in_the_cache_or_in_plain_python_is_no_compile(monkeypatch):
    monkeypatch.setattr(kernel_config, "cached_on_disk", lambda loop: True)
    assert not kernel_config.compiles(numba.njit(lambda x: x - 1))
    assert not kernel_config.compiles(lambda x: x)  # a Python wrapper: not known to compile


def test_the_closing_line_of_a_first_run_separates_the_compile(monkeypatch):
    """A compile forced on a loop already compiled: the line's form and its sums."""
    monkeypatch.setenv("COLUMNS", "300")  # the closing line unwrapped
    monkeypatch.setattr(kernel_config, "compiles", lambda loop: True)
    line = closing_line(run_cli("simulate", *SIZES).stdout)
    total, compiled, playing = map(float, COLD.match(line).groups())
    assert compiled + playing <= total + 0.1  # rounded to tenths


def test_the_closing_line_of_a_warm_run_gives_the_speed(monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # the closing line unwrapped
    monkeypatch.setattr(kernel_config, "compiles", lambda loop: False)
    assert WARM.match(closing_line(run_cli("simulate", *SIZES).stdout))
