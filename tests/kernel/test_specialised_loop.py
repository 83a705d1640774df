"""The match loop compiled per job (:mod:`simulator.matchloop.specialise`).

* The cache key follows the content of a user's file, not its path.
* A ``lowest``/``random`` job's module reaches neither the heuristics nor the search
  player (what numba would compile is what the module's functions read, transitively).
* A cold cache says once on standard error that it compiles; a warm one says nothing
  (a subprocess with its own cache folder, the cheapest tier).
* The specialised loops give the search tier's rows, table rules on and off.
* A cache folder that cannot be written is said in one line and another used; only the
  most recently used modules are kept.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from simulator.matchloop import specialise
from simulator.matchloop.api import KernelJob, run_matches
from simulator.matchloop.specialise import Specialisation, cache_key, specialised_loop
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies import dispatch
from strategies.dispatch import TIERS
from strategies.montecarlo import montecarlo_move
from strategies.policies import choose, decide_basic
from strategies.registry import get
from strategies.specs import LOWEST, MONTECARLO, PLANNER, RANDOM, RULES_AWARE, StrategyError
from strategies.user import source_digest
from tests.conftest import ROOT

# the search tier's loop, which the atlas's test compiles (early), is compared with at the end
pytestmark = pytest.mark.late

USER = """
from numba import njit


@njit
def passes_first(pos, S, H, R, played, roles, rs, params):
    return 0, {count}
"""


def user_digest(path: Path, count: int) -> str:
    path.write_text(textwrap.dedent(USER.format(count=count)))
    return source_digest(get(f"{path}:passes_first").kernel_id)


def test_the_key_follows_a_user_files_content_not_its_path(tmp_path: Path) -> None:
    same = [user_digest(tmp_path / f"{name}.py", 0) for name in ("one", "two")]
    changed = user_digest(tmp_path / "three.py", 1)
    keys = [cache_key(Specialisation(TIERS[0], ((100, d),))) for d in [*same, changed]]
    assert keys[0] == keys[1] != keys[2]
    assert cache_key(Specialisation(TIERS[0])) != cache_key(Specialisation(TIERS[1]))


def test_jobs_get_the_cheapest_tier_that_holds_their_strategies() -> None:
    assert Specialisation.of([LOWEST, RANDOM, LOWEST]).tier.name == "reference"
    assert Specialisation.of([LOWEST, PLANNER]).tier.name == "heuristics"
    assert Specialisation.of([MONTECARLO, RANDOM]).tier.name == "search"


def reachable(dispatcher: object) -> set[object]:
    """Every jitted function ``dispatcher`` calls, transitively (what compiling it compiles)."""
    seen: set[int] = set()
    found: set[object] = set()
    todo = [dispatcher]
    while todo:
        func = todo.pop()
        if id(func) in seen or not hasattr(func, "py_func"):
            continue
        seen.add(id(func))
        found.add(func)
        scope = func.py_func.__globals__
        todo += [scope[n] for n in specialise._globals_of(func.py_func.__code__) if n in scope]
    return found


def test_a_lowest_random_job_reaches_no_heuristic_and_no_search_player() -> None:
    loop = specialised_loop(Specialisation.of([LOWEST, RANDOM]), ["lowest", "random"])
    calls = reachable(loop)
    assert montecarlo_move not in calls and decide_basic not in calls and choose not in calls
    assert dispatch.decide_unreachable in calls  # the loop is the specialised one
    search = specialised_loop(Specialisation.of([MONTECARLO]), ["montecarlo"])
    assert montecarlo_move in reachable(search)  # the walk does see the search player


def test_one_decision_compiles_only_the_tier_of_its_strategies() -> None:
    reference, heuristics, search = (
        reachable(dispatch.decider(sids)) for sids in ([LOWEST, RANDOM], [PLANNER], [MONTECARLO])
    )
    assert decide_basic not in reference and montecarlo_move not in heuristics
    assert decide_basic in heuristics and montecarlo_move in search


def test_a_decisions_compile_is_said_once_and_only_when_not_cached(monkeypatch, capsys):
    monkeypatch.setattr(dispatch, "_CHECKED", set())
    monkeypatch.setattr(dispatch, "cached_on_disk", lambda entry: False)
    for _ in range(2):
        assert dispatch.decider([PLANNER], ["planner", "planner"]) is dispatch.decide_basic_once
    said = f"compiling planner for the kernel — once, about {TIERS[1].decide_seconds} s\n"
    assert capsys.readouterr().err == said
    monkeypatch.setattr(dispatch, "cached_on_disk", lambda entry: True)
    dispatch.decider([LOWEST], ["lowest"])
    assert capsys.readouterr().err == ""


@pytest.mark.slow  # two cold compiles in a subprocess
def test_the_compile_message_is_given_when_cold_and_not_when_warm(tmp_path: Path) -> None:
    # COLUMNS: the notice unwrapped (it names a long temporary path)
    env = {
        **os.environ,
        "PRESIDENT_CACHE": str(tmp_path),
        "PYTHONPATH": str(ROOT),
        "COLUMNS": "300",
    }
    command = [sys.executable, "-m", "simulator", "simulate", "--rounds", "20",
               "--strategies", "lowest,random,lowest,random"]  # fmt: skip
    errors = []
    for _ in range(2):
        result = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        errors.append(result.stderr)
    assert errors[0].startswith("compiling the kernel for lowest, random — once, about ")
    assert errors[0].count("\n") == 1
    assert errors[1] == ""
    (module,) = tmp_path.glob("president_loop_*.py")
    assert "montecarlo" not in module.read_text()


@pytest.mark.parametrize(
    "names",
    [
        ["lowest", "planner", "random", "rules-aware"],
        ["random", "lowest", "random"],
        ["lowest"] * 4,
    ],
)
def test_specialised_loops_give_the_search_tiers_rows(names) -> None:
    """A heuristics loop and a lowest/random one (only the plain round loop, and the
    general one for the table rules) against the search tier's, which plays every round
    by the general round loop: under the default rules (plays that only take the top,
    the plain loop's constants), french (skips, leaving the trick) and table rules.

    Not against the generic loop, which a job without any cache folder falls back on:
    it is the same source bound to the search tier's dispatch, asking each round which
    round loop to play as a lowest/random loop under table rules does, and its compile
    (every strategy) took two minutes of the suite; the search tier's is the atlas's,
    loaded from numba's cache (the file runs last: tests/conftest.py)."""
    table = replace(preset("french"), eight_ends_trick=True, jack_back=True)
    n = len(names)
    search = specialised_loop(Specialisation.of([MONTECARLO]), names)
    for rules in (Rules(players=n), preset("french").with_options(players=n),
                  table.with_options(players=n)):  # fmt: skip
        job = KernelJob.build(rules, names, 3, 5, 60)
        assert job.runner is not search
        rows = [run_matches(j, 0, 150, block=8) for j in (job, replace(job, runner=search))]
        assert np.array_equal(rows[0], rows[1])


def test_a_loop_is_written_knowing_whether_its_tables_are_plain(tmp_path: Path) -> None:
    """Every table of a job holds all of its strategies: a lowest/random job's tables are
    all plain, any other job's none (a user's function included)."""
    plain = Specialisation.of([LOWEST, RANDOM])
    assert plain.only_plain
    assert not Specialisation.of([LOWEST, PLANNER]).only_plain
    user_digest(tmp_path / "mine.py", 0)  # writes the file
    user = get(f"{tmp_path / 'mine.py'}:passes_first").kernel_id
    assert not Specialisation.of([LOWEST, user]).only_plain

    def constants(spec: Specialisation) -> str:
        """ONLY_PLAIN, NO_PLAIN, PLAIN_ROUNDS, SIMPLE_PLAYS, ALL_LOWEST as the module sets them."""
        lines = specialise.module_source(spec, "k").splitlines()
        names = ("ONLY_PLAIN", "NO_PLAIN", "PLAIN_ROUNDS", "SIMPLE_PLAYS", "ALL_LOWEST")
        set_to = dict(x.split("  #")[0].split(" = ") for x in lines if x.startswith(names))
        return ", ".join(set_to[name] for name in names)

    assert constants(plain) == "True, False, False, False, False"
    assert constants(Specialisation.of([PLANNER])) == "False, True, False, False, False"
    # without table rules a plain job's loop has only the plain round loop
    assert constants(Specialisation.of([LOWEST, RANDOM], table_rules=False)) == (
        "True, False, True, False, False"
    )
    assert not Specialisation.of([PLANNER], table_rules=False).plain_rounds
    # ... and any other job's loop is the same with table rules or without: compiled once
    assert Specialisation.of([PLANNER], table_rules=False) == Specialisation.of([PLANNER])
    assert Specialisation.of([LOWEST, user], False) == Specialisation.of([LOWEST, user])
    # a plain loop knows whether its plays only take the top and its players are all lowest
    spec = Specialisation.of([LOWEST, LOWEST], table_rules=False, simple_plays=True)
    assert constants(spec) == "True, False, True, True, True"
    assert constants(Specialisation.of([RANDOM], False, True)) == "True, False, True, True, False"
    # ... which no other loop is told, so that it is not compiled once more for them
    assert Specialisation.of([LOWEST, PLANNER], False, True) == Specialisation.of([PLANNER], False)
    assert Specialisation.of([LOWEST], True, True) == Specialisation.of([RANDOM], True)


def test_a_job_says_whether_its_rules_have_table_rules() -> None:
    """A lowest/random job without table rules gets the loop with only the plain round
    loop (and the shorter compile estimate); with one, the loop that has the general one."""
    names = ["lowest", "random", "lowest", "random"]
    plain = KernelJob.build(preset("french"), names, 1, 2, 10)
    table = KernelJob.build(replace(preset("french"), jack_back=True), names, 1, 2, 10)
    assert plain.runner is not table.runner
    assert plain.runner.py_func.__globals__["PLAIN_ROUNDS"]
    assert not table.runner.py_func.__globals__["PLAIN_ROUNDS"]
    # french skips equal plays and lets a pass leave the trick; the default rules do neither
    assert not plain.runner.py_func.__globals__["SIMPLE_PLAYS"]
    simple = KernelJob.build(Rules(), names, 1, 2, 10)
    assert simple.runner.py_func.__globals__["SIMPLE_PLAYS"]
    assert not simple.runner.py_func.__globals__["ALL_LOWEST"]
    spec = Specialisation.of([LOWEST, RANDOM], table_rules=False)
    assert spec.seconds() < Specialisation.of([LOWEST, RANDOM]).seconds()
    heuristics = [LOWEST, RANDOM, RULES_AWARE]  # the suited round loop announces its cost
    assert (
        Specialisation.of(heuristics, suits=True).seconds()
        > Specialisation.of(heuristics).seconds()
    )


def test_a_plain_job_under_suits_gets_the_suited_plain_loop() -> None:
    """A lowest/random job whose rules read suits, under trick rules the suited plain loop
    plays, gets a loop holding only that round loop; with one it does not play (7s that
    hand cards over), the loop that has the general suited one."""
    names = ["lowest", "random", "random", "lowest", "random"]
    fast = KernelJob.build(preset("uecda"), names, 1, 2, 10)
    other = KernelJob.build(preset("uecda").with_options(seven_passes=True), names, 1, 2, 10)
    assert fast.runner.py_func.__globals__["SUITED_ROUNDS"] is True
    assert not fast.runner.py_func.__globals__["PLAIN_ROUNDS"]
    assert other.runner.py_func.__globals__["SUITED_ROUNDS"] is False
    assert other.runner.py_func.__globals__["ONLY_PLAIN"]


def test_a_job_under_suits_compiles_only_the_suited_round_loops() -> None:
    """Every round of a job whose rules read suits is played by the suited round loop, so
    its loop leaves the other one out (``ALL_SUITED``); a job under rules without suits
    leaves the suited one out; the generic loop, which may meet either, keeps both."""
    names = ["rules-aware", "lowest", "random", "linear", "lowest"]
    suited = KernelJob.build(preset("uecda"), names, 1, 2, 10).runner.py_func.__globals__
    plain = KernelJob.build(preset("french"), names[:4], 1, 2, 10).runner.py_func.__globals__
    assert suited["SUITS"] is True and suited["ALL_SUITED"] is True
    assert plain["SUITS"] is False and plain["ALL_SUITED"] is False
    generic = specialise.round_loop.play_round.py_func.__globals__
    assert generic["SUITS"] is True and generic["ALL_SUITED"] is False


def test_without_the_jit_the_generic_loop_runs(monkeypatch) -> None:
    monkeypatch.setattr(specialise.numba.config, "DISABLE_JIT", True)
    assert specialised_loop(Specialisation.of([LOWEST]), ["lowest"]) is (
        specialise.matches.run_blocks
    )


def unwritable(tmp_path: Path) -> Path:
    """A folder no one can create: its parent is a file (refused to root as well)."""
    (tmp_path / "a-file").write_text("")
    return tmp_path / "a-file" / "kernels"


def test_an_unwritable_cache_folder_is_said_and_another_used(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PRESIDENT_CACHE", str(unwritable(tmp_path)))
    monkeypatch.setenv("COLUMNS", "300")  # the warning unwrapped: long temporary paths
    monkeypatch.setattr(specialise, "fallback_dir", lambda: tmp_path / "fallback")
    spec = Specialisation(TIERS[0])
    module = specialise._import_anywhere(spec, cache_key(spec))
    assert module is not None and Path(module.__file__).parent == tmp_path / "fallback"
    (warning,) = capsys.readouterr().err.splitlines()
    assert warning.startswith(f"warning: cannot write the kernel cache in {unwritable(tmp_path)}")
    assert f"using {tmp_path / 'fallback'}" in warning and "PRESIDENT_CACHE" in warning


def test_without_any_folder_the_generic_loop_runs_but_a_user_file_is_refused(
    tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("PRESIDENT_CACHE", str(unwritable(tmp_path)))
    monkeypatch.setattr(specialise, "fallback_dir", lambda: unwritable(tmp_path) / "too")
    monkeypatch.setattr(specialise, "_LOADED", {})  # as in a fresh process
    generic = specialised_loop(Specialisation(TIERS[1], ()), ["planner"])
    assert generic is specialise.matches.run_blocks
    assert "not caching" in capsys.readouterr().err
    with pytest.raises(StrategyError, match="set PRESIDENT_CACHE"):
        specialised_loop(Specialisation(TIERS[0], ((100, "digest"),)), ["mine.py:mine"])


def test_only_the_most_recently_used_modules_are_kept(tmp_path: Path) -> None:
    (tmp_path / "__pycache__").mkdir()
    for age in range(5):  # module i was last used i hours ago; module 1 was never stamped
        stem = tmp_path / f"president_loop_{age}"
        stem.with_suffix(".py").write_text("")
        (tmp_path / "__pycache__" / f"{stem.name}.run_blocks-1.py311.nbi").write_text("")
        os.utime(stem.with_suffix(".py"), (1e9 - 3600 * 9,) * 2)  # all written long ago
        stamp = stem.with_suffix(".used" if age != 1 else ".py")
        stamp.touch()
        os.utime(stamp, (1e9 - 3600 * age,) * 2)
    assert sorted(specialise.prune(tmp_path, keep=2)) == [f"president_loop_{i}" for i in (2, 3, 4)]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "__pycache__", "president_loop_0.py", "president_loop_0.used",
        "president_loop_1.py",
    ]  # fmt: skip
    assert len(list((tmp_path / "__pycache__").iterdir())) == 2


def test_the_compile_notice_names_strategies_without_their_parameters():
    from simulator.matchloop.specialise import bare

    assert bare("champion:budget=12.0,explore=0.4,dose=0.0") == "champion"
    assert bare("strategies.py:mine") == "strategies.py:mine"  # a user's file and name
    assert bare("strategies.py:mine:depth=2") == "strategies.py:mine"
    assert bare("linear") == "linear"
