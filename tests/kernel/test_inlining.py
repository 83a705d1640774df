"""numba's untyped inliner with shared scope copies (:mod:`simulator.kernel.inlining`):
inlined code computes what it computed, and every other copy of a scope stays a copy."""

from __future__ import annotations

import copy
import subprocess
import sys

import numba
import numpy as np
from numba import njit
from numba.core import ir
from numba.core.inline_closurecall import InlineWorker

from simulator.kernel import inlining
from simulator.kernel.layout import RUNS
from simulator.kernel.runs import lowest_run, run_move, runs_scan, scan_runs, weakest_run
from simulator.rules.cards import parse_suited_cards


@njit(inline="always")
def _clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return hi
    return x


@njit(inline="always")
def _clamped_sum(a, b):
    return _clamp(a, 0, 10) + _clamp(b, 0, 10)  # nested, and two call sites of _clamp


@njit
def _uses_inlined(a, b):
    return _clamped_sum(a, b) + _clamp(a - b, -3, 3)


def test_inlined_code_computes_the_same_with_shared_scopes() -> None:
    inlining.share_inlined_scopes()
    inlining.share_inlined_scopes()  # a second call installs nothing more
    verified = ".".join(numba.__version__.split(".")[:2]) in inlining.VERIFIED
    assert getattr(InlineWorker.inline_function, "shares_scopes", False) == verified
    cases = [(-5, 20), (3, 4), (12, -1), (7, 7)]
    expected = [_uses_inlined.py_func(a, b) for a, b in cases]
    assert [_uses_inlined(a, b) for a, b in cases] == expected


def test_a_scope_copied_outside_inlining_is_an_independent_copy() -> None:
    inlining.share_inlined_scopes()
    loc = ir.Loc("here.py", 1)
    scope = ir.Scope(None, loc)
    scope.define("x", loc)
    clone = copy.deepcopy(scope)
    assert clone is not scope and clone.localvars._con.keys() == scope.localvars._con.keys()
    clone.define("y", loc)
    assert "y" not in scope.localvars._con


def test_the_first_compile_of_a_process_installs_the_patches() -> None:
    """Installed by numba's first compile after the kernel's options are imported, not
    by the import itself (a warm run loads everything and compiles nothing): the shared
    scopes, and the live maps on bit sets (:mod:`simulator.kernel.liveness`)."""
    script = """
import numba
from numba import njit
from numba.core import analysis, ir_utils
from numba.core.inline_closurecall import InlineWorker
import simulator.kernel.config
from simulator.kernel import inlining
from simulator.kernel.layout import RUNS
from simulator.kernel.runs import lowest_run, run_move, runs_scan, scan_runs, weakest_run
from simulator.rules.cards import parse_suited_cards

def installed():
    bit_sets = analysis.compute_live_map.__module__ == "simulator.kernel.liveness"
    by_name = ir_utils.compute_live_map is analysis.compute_live_map
    return getattr(InlineWorker.inline_function, "shares_scopes", False) and bit_sets and by_name

before = installed()
njit(lambda x: x + 1)(1)
verified = ".".join(numba.__version__.split(".")[:2]) in inlining.VERIFIED
print(before, installed() == verified)
"""
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "True"]


@njit
def _walks_from_constants(k, top):
    """A loop whose top starts as constants (-1, 0), as the round loops' do."""
    t, tc, rev, lock = -1, 0, 0, 0
    found = 0
    for _ in range(2):
        found += runs_scan(k, t, tc, rev, lock, RUNS, -1)[0]
        low, c = weakest_run(k, t, tc, rev, lock, RUNS)
        found += runs_scan(k, t, tc, rev, lock, RUNS, found - 1)[1] + low + c
        t, tc = top, run_move(3, 0)
    return found


def test_the_sequences_walks_compile_once_whatever_constants_a_loop_starts_from() -> None:
    """Compiled apart, each walk would otherwise be compiled again for the literal -1 and
    0 a loop's first pass types it with (``scan_runs``, ``lowest_run``)."""
    hand = ["3S", "4S", "5S", "6S", "7S", "9H", "10H", "JH", "JK"]
    k = np.uint64(sum(1 << c for c in parse_suited_cards(hand)))
    assert _walks_from_constants(k, 2) == _walks_from_constants.py_func(k, 2)
    assert len(scan_runs.signatures) == 1
    assert len(lowest_run.signatures) == 1
