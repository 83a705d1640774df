"""Every figure of issue 12's targets, in one run: ``python benchmarks/bench_kernel.py``.

Each line is a figure, its target and PASS or MISS (``info`` when the issue sets no
target for it). In order:

* the kernel (whole 10-round matches, 4 players): default rules 4 x ``lowest`` and
  ``french`` 4 x ``random`` on 1 and 2 threads, and the bare-round speed prototype
  (a file outside the project, named by ``$PRESIDENT_PROTOTYPE`` and loaded by path:
  one round of the default rules, no options, no matches) measured in the same run,
  with the kernel's ratio to it;
* the rules that read suits (issue 40): ``uecda`` 5 x ``random`` as a share of the default
  rules' 5 x ``random``, and the same for ``lowest``, timed taking turns in the same run
  (``--compare-uecda`` times only these);
* each built-in strategy on ``french`` (4 x that strategy) per thread, the search
  players (``montecarlo``, ``champion``, ``clairvoyant``) on 2 threads, taking turns, and
  their speed shares timed in the same run (champion / montecarlo, clairvoyant / champion);
* start-up: ``president --help``, ``president simulate --rounds 1000`` with a warm cache;
* compiling: the first run of ``president simulate --rounds 100000`` on an empty cache
  (and of ``uecda``'s 5 x ``random``, issue 40), and a user strategy file's second run
  (``examples/strategies/big_groups.py``);
* output: ``president simulate`` of 10 M rounds on 2 workers with parquet (wall and peak
  memory), and the same job on a local 2-worker Dask cluster against it.

``--quick`` times shorter runs and skips the compile and output runs (minutes). Speeds
are the best of several repetitions, the figure least disturbed by other work on the
machine; the commands run as ``python -m simulator``, the ``president`` script's code
without its launcher. The kernel is driven only through its public API
(``KernelJob.build``, ``run_matches``, ``set_threads``) and the command line.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.matchloop.api import KernelJob, rows_room, run_matches, set_threads  # noqa: E402
from simulator.matchloop.matches import out_cols  # noqa: E402
from simulator.rules.options import Rules  # noqa: E402
from simulator.rules.presets import preset  # noqa: E402
from strategies import registry  # noqa: E402
from strategies.specs import SEARCH_IDS  # noqa: E402

# the bare-round speed prototype is not part of the project: its file, when given
PROTOTYPE = os.environ.get("PRESIDENT_PROTOTYPE", "")
PROTOTYPE_CODES = {"lowest": 0, "random": 1}  # the prototype's strategy argument
ROUNDS_PER_MATCH = 10
BASELINES = ("lowest", "random")  # the rule book's strategies; the others are heuristics
USER_STRATEGY = "examples/strategies/big_groups.py:big_groups"
BIG_RUN = 10_000_000
MIB = 1024 * 1024


# --- printing -------------------------------------------------------------------------------


def verdict(ok: bool | None) -> str:
    return "info" if ok is None else "PASS" if ok else "MISS"


LABEL = 47  # a figure's line fits 80 columns: label, value 12, target 13, verdict 4


def show(label: str, value: str, target: str = "", ok: bool | None = None) -> None:
    """One figure: what, how much, the target and whether it is met, on one line of 80
    columns (a longer label on a line of its own, the figure under it)."""
    if len(label) > LABEL:
        print(label, flush=True)
        label = ""
    print(f"{label:<{LABEL}} {value:>12}  {target:<13} {verdict(ok)}", flush=True)


def heading(title: str) -> None:
    print(f"\n{title}", flush=True)


def rate(value: float) -> str:
    return f"{value:,.0f}/s"


# --- timing ---------------------------------------------------------------------------------


def best_seconds(fn: Callable[[], object], repeats: int) -> float:
    """Wall seconds of ``fn()``, best of ``repeats``."""
    return best_of_each([fn], repeats)[0]


def best_of_each(fns: list[Callable[[], object]], repeats: int) -> list[float]:
    """Wall seconds of each ``fn()``, best of ``repeats``, the functions taking turns, so
    that a stretch of load from other work on the machine hits them all alike."""
    best = [float("inf")] * len(fns)
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            start = time.perf_counter()
            fn()
            best[i] = min(best[i], time.perf_counter() - start)
    return best


def kernel_run(
    rules: Rules, strategy: str, threads: int, matches: int
) -> tuple[Callable[[], object], int]:
    """A timed call of the kernel (``matches`` whole matches, ``strategy`` in every seat of
    the rules' table, on ``threads`` threads), compiled or loaded already, and the rounds
    it plays."""
    job = KernelJob.build(rules, [strategy] * rules.players, 1, ROUNDS_PER_MATCH, 1000)
    # Blocks small enough that every thread gets work: the search's 10 matches made one
    # 64-match block, which one thread played alone.
    block = min(64, max(1, matches // (4 * threads)))
    set_threads(threads)
    # The rows go where the last call's went, as the prototype's do and a run's parts do
    # (simulator/runs/local.py): fresh memory would add the system's page zeroing.
    into = np.empty((rows_room(job, matches, block), out_cols(rules.players)), np.int32)
    rounds = len(run_matches(job, 0, matches, block, into=into))

    def call() -> object:
        set_threads(threads)
        return run_matches(job, 0, matches, block, into=into)

    return call, rounds


def kernel_rate(rules: Rules, strategy: str, threads: int, matches: int, repeats: int) -> float:
    """Rounds/s of the kernel playing ``matches`` whole matches, 4 x ``strategy``."""
    call, rounds = kernel_run(rules, strategy, threads, matches)
    return rounds / best_seconds(call, repeats)


def load_prototype() -> ModuleType | None:
    """The speed prototype, loaded from its file (it is not part of the product)."""
    path = Path(PROTOTYPE)
    if not PROTOTYPE or not path.is_file():
        return None
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    sys.modules[path.stem] = module  # numba's cache finds its functions by module name
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def prototype_run(proto: ModuleType, strategy: str, rounds: int) -> Callable[[], object]:
    """A timed call of the prototype's bare rounds (one thread), compiled or loaded already."""
    order, dec = np.empty(rounds, np.int64), np.empty(rounds, np.int64)
    code = PROTOTYPE_CODES[strategy]
    proto.serial_bits(1, 1000, code, order, dec)
    return lambda: proto.serial_bits(1, rounds, code, order, dec)


@dataclass(frozen=True)
class Usage:
    """What a command cost: wall seconds, peak resident memory (MiB) and CPU seconds (its
    own and its children's: a Dask cluster's workers), the figure least changed by
    other work on the machine."""

    wall: float
    peak: float
    cpu: float


# Runs a command and prints its wall, peak memory and CPU. A child's peak memory counts
# its parent's at the fork (Linux keeps the forked copy's high-water mark through the
# exec), and this process holds a gigabyte of kernel rows by then: the command is started
# from this small launcher, whose own size is all its child inherits.
LAUNCHER = """
import os, subprocess, sys, time
start = time.perf_counter()
proc = subprocess.Popen(sys.argv[1:], stdout=subprocess.DEVNULL)
_, status, usage = os.wait4(proc.pid, 0)
wall = time.perf_counter() - start
print(os.waitstatus_to_exitcode(status), wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime)
"""


def run_command(args: list[str], env: dict[str, str] | None = None) -> Usage:
    """What ``python -m simulator ARGS`` cost (a one-line exit on failure, with its errors)."""
    with tempfile.TemporaryFile() as err:
        done = subprocess.run([sys.executable, "-c", LAUNCHER, sys.executable, "-m", "simulator",
                               *args], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=err,
                              text=True, check=True)  # fmt: skip
        code, wall, peak, cpu = done.stdout.split()
        if int(code):
            err.seek(0)
            raise SystemExit(f"president {' '.join(args)} failed:\n{err.read().decode()}")
    return Usage(float(wall), int(peak) / 1024, float(cpu))


def best_command(args: list[str], repeats: int) -> float:
    return min(run_command(args).wall for _ in range(repeats))


def empty_cache_env(folder: str) -> dict[str, str]:
    """The environment of a run whose compiled code is cached in ``folder`` alone (numba's
    cache, and any cache kept under the user's cache folder)."""
    return {**os.environ, "NUMBA_CACHE_DIR": folder, "XDG_CACHE_HOME": folder}


# --- sections -------------------------------------------------------------------------------


def kernel_section(proto: ModuleType | None, matches: int, repeats: int) -> None:
    heading("kernel: whole matches of 10 rounds, 4 players (rounds/s; 1 thread, 2 threads and")
    print("the prototype take turns)")
    workloads = [("default rules, 4 x lowest", Rules(), "lowest", 2_000_000, 0.70),
                 ("french, 4 x random", preset("french"), "random", 1_000_000, 0.75)]  # fmt: skip
    for label, rules, strategy, per_thread, least in workloads:
        (one_call, rounds), (two_call, _) = (
            kernel_run(rules, strategy, t, matches) for t in (1, 2)
        )
        calls = [one_call, two_call]
        if proto is not None:
            calls.append(prototype_run(proto, strategy, rounds))
        one, two, *bare = (rounds / seconds for seconds in best_of_each(calls, repeats))
        show(f"{label}, 1 thread", rate(one), f">= {per_thread:,}", one >= per_thread)
        show(f"{label}, 2 threads", rate(two))
        show(f"{label}, 2 threads / 1 thread", f"{two / one:.2f}x", ">= 1.90x", two / one >= 1.9)
        if not bare:
            show(f"bare-round prototype, {strategy}: skipped (set PRESIDENT_PROTOTYPE)", "-")
            continue
        show(f"bare-round prototype (default rules), {strategy}, 1 thread", rate(bare[0]))
        share = one / bare[0]
        show(f"{label} / prototype", f"{share:.2f}", f">= {least:.2f}", share >= least)


def suited_section(matches: int, repeats: int) -> None:
    """Issue 40's target for the rules that read suits: ``uecda`` (5 x ``random``) at half
    the default rules' rounds/s at least, 5 x ``random`` too, in the same run. The two take
    turns; each turn gives a ratio of two calls back to back, and the median of the turns'
    ratios is the figure (the machine's load moves between turns, less within one)."""
    heading("rules that read suits: uecda against the default rules, 5 players, 1 thread")
    print(f"(rounds/s: best of {repeats} turns; ratio: median of the turns' ratios)")
    default = Rules(players=5)
    for strategy, target in (("random", 0.5), ("lowest", None)):
        (suited, suited_rounds), (plain, plain_rounds) = (
            kernel_run(rules, strategy, 1, matches) for rules in (preset("uecda"), default)
        )
        ratios, best = [], [0.0, 0.0]
        for _ in range(repeats):
            a, b = best_of_each([suited, plain], 1)
            rates = (suited_rounds / a, plain_rounds / b)
            best = [max(x, y) for x, y in zip(best, rates, strict=True)]
            ratios.append(rates[0] / rates[1])
        show(f"uecda, 5 x {strategy}", rate(best[0]))
        show(f"default rules, 5 x {strategy}", rate(best[1]))
        ratio = float(np.median(ratios))
        show(f"uecda / default rules, 5 x {strategy}", f"{ratio:.2f}",
             f">= {target}" if target else "", None if target is None else ratio >= target)  # fmt: skip


def search_rates(rules: Rules, matches: int, repeats: int) -> dict[str, float]:
    """Rounds/s of 4 x each search player on 2 threads, best of ``repeats``, the players
    taking turns: a share of two of them is then a ratio of speeds under the same load."""
    names = [name for name in registry.names() if registry.get(name).kernel_id in SEARCH_IDS]
    runs = [kernel_run(rules, name, 2, matches) for name in names]
    seconds = best_of_each([call for call, _ in runs], repeats)
    return {name: rounds / s for name, (_, rounds), s in zip(names, runs, seconds, strict=True)}


def strategy_section(matches: int, search_matches: int, search_repeats: int) -> None:
    heading("strategies: french, 4 x the strategy (rounds/s)")
    french = preset("french")
    for name in registry.names():
        if registry.get(name).kernel_id in SEARCH_IDS:
            continue
        if name in BASELINES:
            show(f"{name}, 1 thread", rate(kernel_rate(french, name, 1, matches, 3)))
        else:
            value = kernel_rate(french, name, 1, matches, 3)
            show(f"{name}, 1 thread", rate(value), ">= 500,000", value >= 500_000)
    search = search_rates(french, search_matches, search_repeats)
    for name, value in search.items():
        show(f"{name}, 2 threads", rate(value), ">= 2,000", value >= 2000)
    # the machine's speed drifts from day to day: the shares, timed in one run, are steadier
    share = search["champion"] / search["montecarlo"]
    show("champion / montecarlo, same run", f"{share:.2f}", ">= 0.83", share >= 0.83)
    share = search["clairvoyant"] / search["champion"]
    show("clairvoyant / champion, same run", f"{share:.2f}", ">= 1", share >= 1)


def startup_section(repeats: int) -> None:
    heading("start-up (best of 5 wall)")
    wall = best_command(["--help"], repeats)
    show("president --help", f"{wall:.2f} s", "<= 0.5 s", wall <= 0.5)
    small = ["simulate", "--rounds", "1000"]
    run_command(small)  # fills the cache if this default line-up was never compiled
    wall = best_command(small, repeats)
    show("president simulate --rounds 1000, warm cache", f"{wall:.2f} s", "<= 0.8 s", wall <= 0.8)


def compile_section() -> None:
    heading("compiling (wall, empty cache in a temporary folder)")
    plain = ["simulate", "--quiet", "--rounds", "100000", "--strategies", "lowest,random,lowest,random"]  # fmt: skip
    with tempfile.TemporaryDirectory() as cache:
        wall = run_command(plain, empty_cache_env(cache)).wall
    show("simulate --rounds 100000, lowest,random x 2, first run", f"{wall:.1f} s", "<= 15 s",
         wall <= 15)  # fmt: skip
    suited = ["simulate", "--quiet", "--rules", "uecda", "--players", "5", "--rounds", "20000",
              "--strategies", "random"]  # fmt: skip
    with tempfile.TemporaryDirectory() as cache:
        wall = run_command(suited, empty_cache_env(cache)).wall
    show("simulate --rules uecda, 5 x random, first run (issue 40)", f"{wall:.1f} s", "<= 15 s",
         wall <= 15)  # fmt: skip
    user = ["simulate", "--quiet", "--rounds", "1000",
            "--strategies", f"{USER_STRATEGY},lowest,rules-aware,random"]  # fmt: skip
    with tempfile.TemporaryDirectory() as cache:
        first, second = (run_command(user, empty_cache_env(cache)).wall for _ in range(2))
    show("user strategy file (big_groups), first run", f"{first:.1f} s")
    show("user strategy file, second run (1,000 rounds: wall)", f"{second:.1f} s", "<= 3 s",
         second <= 3)  # fmt: skip


def big_run(engine: str) -> Usage:
    """The 10 M-round job on ``engine``, into a temporary folder."""
    job = ["simulate", "--quiet", "--rounds", str(BIG_RUN), "--workers", "2",
           "--strategies", "lowest,random,lowest,random", "--engine", engine]  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        return run_command([*job, "--out", str(Path(tmp) / "run")])


def output_section(repeats: int = 2) -> None:
    heading("output: 10 M rounds, french, 4 x lowest/random, 2 workers, parquet (best of 2,")
    print("the engines taking turns; peak memory: the largest)")
    engines = ["numba", "dask"] if importlib.util.find_spec("distributed") else ["numba"]
    runs: dict[str, list[Usage]] = {engine: [] for engine in engines}
    for _ in range(repeats):
        for engine, done in runs.items():
            done.append(big_run(engine))
    local = min(runs["numba"], key=lambda usage: usage.wall)
    peak = max(usage.peak for usage in runs["numba"])
    show("local engine: wall", f"{local.wall:.1f} s", "<= 12 s", local.wall <= 12)
    show("local engine: rounds/s end to end", rate(BIG_RUN / local.wall))
    show("local engine: peak memory", f"{peak:,.0f} MiB", "< 600 MiB", peak < 600)
    show("local engine: CPU time (half of it: 2 free cores' wall)", f"{local.cpu:.1f} s")
    if "dask" not in runs:
        show('Dask: skipped, not installed (pip install -e ".[dask]")', "-")
        return
    dask = min(runs["dask"], key=lambda usage: usage.wall)
    show("local 2-worker Dask cluster: wall", f"{dask.wall:.1f} s")
    show("local 2-worker Dask cluster: CPU time, workers included", f"{dask.cpu:.1f} s")
    ratio = local.wall / dask.wall
    show("Dask speed / local engine speed", f"{ratio:.2f}", ">= 0.90", ratio >= 0.9)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="shorter timings; skip the compile and output runs")  # fmt: skip
    parser.add_argument("--compare-uecda", action="store_true",
                        help="only uecda against the default rules (issue 40), 15 turns")  # fmt: skip
    args = parser.parse_args()
    quick = args.quick
    if args.compare_uecda:
        suited_section(20_000, 15)
        return
    kernel_section(load_prototype(), 50_000 if quick else 100_000, 3 if quick else 5)
    suited_section(10_000 if quick else 20_000, 5 if quick else 9)
    strategy_section(2_000 if quick else 20_000, 40 if quick else 100, 3 if quick else 7)
    startup_section(5)
    if quick:
        heading("compiling and output: skipped (--quick)")
        return
    compile_section()
    output_section()


if __name__ == "__main__":
    main()
