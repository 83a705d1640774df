"""A policy that learns to beat ``lowest``, on the vector environment: ``python examples/learn_linear.py``.

The policy scores each legal action linearly and plays the best: a weight for the rank
and one for the count of a play (apart when leading and when following), one for the
pass, one for the rank of a card given back; 51 weights in all. CMA-ES (the ``cmaes``
package, which ``president tune`` uses too) searches them: each candidate plays the same
deals (the same seeds: common random numbers) at every table of a
:class:`~simulator.env.vector.PresidentVectorEnv`, the learner against 3 × ``lowest``
under ``french``, and its fitness is its mean reward a round (+1 President … -1 Scum).
``lowest`` against itself takes the mean place 2.5; the policy starts as ``lowest`` and
took 2.22 on held-out deals after 40 generations, a minute and a half on the busy 2-core
machine (docs/env.md). Options: ``--help``; the suite runs it at a tiny size.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from cmaes import CMA

from simulator.env.encoding import GIVE_BASE, N_PLAYS, OFFSETS, PASS_ACTION
from simulator.env.vector import PresidentVectorEnv
from simulator.rules.cards import NUM_RANKS

COUNTS = 4
PLAYERS = 4
ROUNDS = 10  # a match's rounds
# The weights, in order: rank and count when leading, rank and count when following,
# the pass, the rank of a card given back.
SIZES = (NUM_RANKS, COUNTS, NUM_RANKS, COUNTS, 1, NUM_RANKS)
WEIGHTS = sum(SIZES)


def action_scores(theta: np.ndarray) -> np.ndarray:
    """The score of every action when leading (row 0) and when following (row 1): the
    plays' rank and count weights, the pass, the give-backs (far below the legal actions'
    scores: only the mask decides which family is asked)."""
    lead_rank, lead_count, rank, count, pass_, give = np.split(theta, np.cumsum(SIZES)[:-1])
    scores = np.full((2, GIVE_BASE + NUM_RANKS), -1e6)
    plays = np.arange(N_PLAYS)
    scores[0, :N_PLAYS] = lead_rank[plays // 4] + lead_count[plays % 4]
    scores[1, :N_PLAYS] = rank[plays // 4] + count[plays % 4]
    scores[1, PASS_ACTION] = pass_[0]
    scores[:, GIVE_BASE:] = give
    return scores


def lowest_like() -> np.ndarray:
    """Weights that play as ``lowest``: the weakest rank first (leading, all its cards;
    following, the fewest cards), never a pass when a play is legal, the weakest cards
    given back."""
    ranks = -10.0 * np.arange(NUM_RANKS)
    counts = np.arange(1.0, COUNTS + 1)
    return np.concatenate([ranks, counts, ranks, -counts, [-1000.0], ranks])


def play(envs: PresidentVectorEnv, theta: np.ndarray, seed: int, steps: int) -> float:
    """The mean reward a round of the policy ``theta`` over ``steps`` steps of every table
    from ``reset(seed=seed)``."""
    scores = action_scores(theta)
    obs, _ = envs.reset(seed=seed)
    matches, rounds = envs.matches, envs.rounds
    earned = 0.0
    for _ in range(steps):
        leading = obs["observation"][:, OFFSETS["top_count"]] == 0
        mask = obs["action_mask"][:, : scores.shape[1]]
        chosen = np.where(mask == 1, scores[np.where(leading, 0, 1)], -np.inf)
        obs, reward, _, _, _ = envs.step(chosen.argmax(axis=1))
        earned += reward.sum()
    played = ((envs.matches - matches) // envs.num_envs * ROUNDS + envs.rounds - rounds).sum()
    return earned / max(played, 1)


def mean_place(reward: float) -> float:
    """The mean place of a mean reward a round (reward = (n + 1 - 2 place) / (n - 1))."""
    return (PLAYERS + 1 - reward * (PLAYERS - 1)) / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generations", type=int, default=40)
    parser.add_argument("--tables", type=int, default=512)
    parser.add_argument("--steps", type=int, default=300, help="steps of each candidate's play")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    envs = PresidentVectorEnv(args.tables, rules="french", opponents="lowest",
                              rounds=ROUNDS, threads=args.threads)  # fmt: skip
    start = time.perf_counter()
    held_out = 10_000 + args.seed  # deals no candidate was chosen on
    first = lowest_like()
    print(f"lowest's weights: mean place {mean_place(play(envs, first, held_out, args.steps)):.3f}")
    optimizer = CMA(mean=first, sigma=3.0, seed=args.seed)
    for generation in range(args.generations):
        seed = args.seed * 1_000 + generation  # every candidate of a generation: one deal set
        answers = [(x, -play(envs, x, seed, args.steps)) for x in
                   (optimizer.ask() for _ in range(optimizer.population_size))]  # fmt: skip
        optimizer.tell(answers)
        best = mean_place(-min(value for _, value in answers))
        print(f"generation {generation + 1}: best candidate's mean place {best:.3f} "
              f"({time.perf_counter() - start:.0f} s)")  # fmt: skip
    learned = mean_place(play(envs, optimizer.mean, held_out, args.steps))
    print(f"learned weights: mean place {learned:.3f} against 3 x lowest on held-out deals "
          f"(lowest itself: 2.500)")  # fmt: skip
    envs.close()


if __name__ == "__main__":
    main()
