"""Steps per second of the environments: ``python benchmarks/bench_env.py``.

Two figures in one run, 4 players, ``french``, whole 10-round matches:

* the PettingZoo environment: random legal actions (drawn from the action mask with a
  seeded generator) through the wrapped ``env()`` as a training loop drives it
  (``agent_iter``, ``last``, ``step``); ``--raw`` times ``raw_env`` without PettingZoo's
  checking wrappers, ``--profile`` prints where the time of one run goes instead
  (cProfile, by cumulative time);
* the vector environment (``PresidentVectorEnv``): ``--tables`` tables on ``--threads``
  threads, the learner at seat 0 against ``--opponents`` (built-ins), its actions uniform
  among the legal ones (``builtin_actions("random")``, drawn by the kernel); learner steps
  per second of ``step()`` alone and with the learner's choice, against the kernel's
  rounds per second for the same line-up (``random`` in the learner's seat) on as many
  threads (``run_matches``), measured taking turns in the same run.

Every figure is the best of ``--repeat`` runs (the one least disturbed by other work on
the machine). ``--vector`` times only the vector environment and the kernel.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np

from simulator.env import env, raw_env
from simulator.env.vector import PresidentVectorEnv
from simulator.matchloop.api import KernelJob, run_matches, set_threads
from simulator.rules.presets import preset

ROUNDS = 10


def run(steps: int, raw: bool = False, seed: int = 0) -> tuple[int, float]:
    """Play at least ``steps`` steps; return the steps played and the seconds taken.
    ``raw``: the unwrapped ``raw_env`` (without PettingZoo's checking wrappers)."""
    e = (raw_env if raw else env)(rules="french", players=4)
    rng = np.random.default_rng(seed)
    e.reset(seed=seed)
    done = 0
    start = time.perf_counter()
    while done < steps:
        for _ in e.agent_iter():
            observation, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
            done += 1
        e.reset()
    return done, time.perf_counter() - start


def vector_rates(e: PresidentVectorEnv, seconds: float) -> tuple[float, float, float]:
    """Learner steps per second of ``e`` for about ``seconds``: of ``step()`` alone, with
    the learner's choice of his actions, and the rounds its tables played a second."""
    steps, stepping = 0, 0.0
    matches, rounds = e.matches, e.rounds
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = e.builtin_actions("random")
        begun = time.perf_counter()
        e.step(actions)
        stepping += time.perf_counter() - begun
        steps += e.num_envs
    seconds = time.perf_counter() - start
    played = ((e.matches - matches) // e.num_envs * ROUNDS + e.rounds - rounds).sum()
    return steps / stepping, steps / seconds, played / seconds


def kernel_rate(job: KernelJob, matches: int) -> float:
    """Rounds per second of the kernel's match loop playing ``matches`` matches of ``job``."""
    start = time.perf_counter()
    rounds = len(run_matches(job, 0, matches))
    return rounds / (time.perf_counter() - start)


def compare(tables: int, threads: int, opponents: str, repeat: int, seconds: float) -> None:
    """The vector environment's learner steps per second against the kernel's rounds per
    second, taking turns; prints both figures and their ratio."""
    e = PresidentVectorEnv(tables, rules="french", opponents=opponents, threads=threads)
    e.reset(seed=0)
    names = ["random", *[opponents] * 3]
    job = KernelJob.build(preset("french"), names, 0, ROUNDS, 1000)
    set_threads(threads)
    matches = 20_000
    vector_rates(e, 0.5)  # compiled, warm
    kernel_rate(job, 100)
    steps, chosen, played, rounds = [], [], [], []
    for _ in range(repeat):
        alone, with_choice, tables_rounds = vector_rates(e, seconds)
        steps.append(alone)
        chosen.append(with_choice)
        played.append(tables_rounds)
        rounds.append(kernel_rate(job, matches))
    best, kernel = max(steps), max(rounds)
    on = f"{threads} thread{'s' if threads > 1 else ''}"
    print(f"{best:,.0f} learner steps/s (vector env, {tables} tables on {on}, "
          f"french, learner random against {opponents}; {max(chosen):,.0f} with the "
          f"learner's choice; its tables played {max(played):,.0f} rounds/s)")  # fmt: skip
    print(f"{kernel:,.0f} rounds/s (the kernel, random + 3 x {opponents}, {on}): "
          f"the vector env's tables at {max(played) / kernel:.2f} of its speed, "
          f"best of {repeat}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--raw", action="store_true", help="raw_env, without the wrappers")
    parser.add_argument("--vector", action="store_true", help="the vector env and kernel only")
    parser.add_argument("--tables", type=int, default=1024)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--opponents", default="rules-aware")
    parser.add_argument("--seconds", type=float, default=2.0, help="each vector env timing")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run, args.steps, args.raw)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return
    if not args.vector:
        runs = [run(args.steps, args.raw) for _ in range(args.repeat)]
        best = max(steps / seconds for steps, seconds in runs)
        which = "raw_env" if args.raw else "env"
        print(f"{best:,.0f} steps/s ({which}, french, 4 players, random legal actions, "
              f"best of {args.repeat})")  # fmt: skip
    compare(args.tables, args.threads, args.opponents, args.repeat, args.seconds)


if __name__ == "__main__":
    main()
