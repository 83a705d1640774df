"""Steps per second of the PettingZoo environment: ``python benchmarks/bench_env.py``.

Random legal actions (drawn from the action mask with a seeded generator), 4 players,
``french``, whole 10-round matches through the wrapped ``env()`` as a training loop
drives it (``agent_iter``, ``last``, ``step``). Prints the best of ``--repeat`` runs
(the figure least disturbed by other work on the machine); ``--raw`` times
``raw_env`` without PettingZoo's checking wrappers; ``--profile`` prints where
the time of one run goes instead (cProfile, by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import time

import numpy as np

from simulator.env import env, raw_env


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=20_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--raw", action="store_true", help="raw_env, without the wrappers")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(run, args.steps, args.raw)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        return
    runs = [run(args.steps, args.raw) for _ in range(args.repeat)]
    best = max(steps / seconds for steps, seconds in runs)
    which = "raw_env" if args.raw else "env"
    print(f"{best:,.0f} steps/s ({which}, french, 4 players, random legal actions, "
          f"best of {args.repeat})")  # fmt: skip


if __name__ == "__main__":
    main()
