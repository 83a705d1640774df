"""Kernel speed, measured in one run: ``python benchmarks/bench_kernel.py``.

Prints rounds/s of the kernel on 1 and 2 threads and of the reference engine on the same
work (whole matches of 10 rounds, 4 players: default rules with ``lowest``, ``french``
with ``random``), the ratios between them, the kernel's JIT compile time (empty cache),
the cold start of ``president simulate`` for 1,000 rounds with a warm cache, and (unless
``--quick``) ``president simulate`` end to end for 10 M rounds on 2 workers with its peak
memory. Each speed is the best of several repetitions, which is the figure least
disturbed by other work on the machine.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.matchloop.api import KernelJob, run_matches, set_threads  # noqa: E402
from simulator.reference.match import play_match  # noqa: E402
from simulator.rules.options import Rules  # noqa: E402
from simulator.rules.presets import preset  # noqa: E402
from strategies import registry  # noqa: E402

ROUNDS_PER_MATCH = 10
WORKLOADS = [
    ("default rules, 4 x lowest", Rules(), "lowest"),
    ("french, 4 x random", preset("french"), "random"),
]


def best_rate(fn, rounds: int, repeats: int) -> float:
    """Rounds per second of ``fn()``, best of ``repeats``."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return rounds / best


def kernel_rate(rules: Rules, strategy: str, threads: int, matches: int, repeats: int) -> float:
    set_threads(threads)
    job = KernelJob.build(rules, [strategy] * 4, 1, ROUNDS_PER_MATCH, 1000)
    run_matches(job, 0, 64)  # compiled (or loaded from the cache) before timing
    return best_rate(lambda: run_matches(job, 0, matches), matches * ROUNDS_PER_MATCH, repeats)


def reference_rate(rules: Rules, strategy: str, matches: int) -> float:
    players = [registry.make(strategy) for _ in range(4)]

    def work() -> None:
        for m in range(matches):
            play_match(rules, players, 1, m, rounds=ROUNDS_PER_MATCH)

    return best_rate(work, matches * ROUNDS_PER_MATCH, 2)


def timed_command(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall seconds and peak resident memory (MiB) of a child process."""
    start = time.perf_counter()
    subprocess.run(args, check=True, env=env, stdout=subprocess.DEVNULL, cwd=ROOT)
    wall = time.perf_counter() - start
    peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return wall, peak_kib / 1024


def compile_seconds() -> float:
    """First call of the kernel in a fresh process with an empty numba cache."""
    code = ("import time; t = time.perf_counter();"
            "from simulator.matchloop.api import KernelJob, run_matches;"
            "from simulator.rules.options import Rules;"
            "run_matches(KernelJob.build(Rules(), ['lowest', 'random'] * 2, 1, 2, 10), 0, 4);"
            "print(time.perf_counter() - t)")  # fmt: skip
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        out = subprocess.run([sys.executable, "-c", code], check=True, env=env, cwd=ROOT,
                             capture_output=True, text=True)  # fmt: skip
    return float(out.stdout.strip().splitlines()[-1])


def simulate(rounds: int, workers: int) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        return timed_command([sys.executable, "-m", "simulator", "simulate", "--quiet",
                              "--rounds", str(rounds), "--workers", str(workers),
                              "--out", str(Path(tmp) / "run")])  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the 10 M-round run")
    parser.add_argument("--matches", type=int, default=100_000, help="kernel matches per timing")
    args = parser.parse_args()
    print(f"{'workload':<28} {'1 thread':>12} {'2 threads':>12} {'2t/1t':>6} "
          f"{'reference':>10} {'kernel/ref':>11}")  # fmt: skip
    for label, rules, strategy in WORKLOADS:
        one = kernel_rate(rules, strategy, 1, args.matches, 5)
        two = kernel_rate(rules, strategy, 2, args.matches, 5)
        ref = reference_rate(rules, strategy, 100)
        print(f"{label:<28} {one:>12,.0f} {two:>12,.0f} {two / one:>6.2f} {ref:>10,.0f} "
              f"{one / ref:>10,.0f}x")  # fmt: skip
    print(f"JIT compile, empty cache: {compile_seconds():.1f} s")
    simulate(1_000, 1)  # warm the cache of the simulate path
    wall, _ = simulate(1_000, 1)
    print(f"president simulate, 1,000 rounds, warm cache: {wall:.2f} s")
    if not args.quick:
        wall, peak = simulate(10_000_000, 2)
        print(
            f"president simulate, 10 M rounds, 4 players, 2 workers: {wall:.1f} s, "
            f"peak memory {peak:,.0f} MiB ({10_000_000 / wall:,.0f} rounds/s end to end)"
        )


if __name__ == "__main__":
    main()
