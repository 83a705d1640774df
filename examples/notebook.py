"""A notebook's work as a script: a run, a compare and a tournament through the Python API
(docs/api.md), and a figure of the result.

    python examples/notebook.py [--rounds N] [--out FOLDER]

writes FOLDER/mean_place.png (default: the current folder); the test suite runs it small.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # a file, no window
import matplotlib.pyplot as plt

from simulator import compare, simulate, tournament

LINEUP = "rules-aware,planner,lowest,random"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=100_000, help="rounds of the run")
    parser.add_argument("--out", type=Path, default=Path("."), help="folder for the figure")
    args = parser.parse_args()

    run = simulate(players=4, strategies=LINEUP, rounds=args.rounds, seed=1)
    print(run.text())
    by_round = run.rounds.groupby(["strategy", "round"])["place"].mean().unstack("strategy")

    matches = max(20, args.rounds // 10 // 4)
    cmp = compare(["french", "scum"], players=4, strategies=LINEUP, matches=matches)
    print(cmp.ranking)
    ranked = tournament(players=4, strategies=["rules-aware", "planner", "lowest"],
                        matches=matches)  # fmt: skip
    print(ranked.text())

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    by_round.plot(ax=left, marker="o")
    left.set(title="mean place by round of the match", xlabel="round", ylabel="mean place")
    table = ranked.ranking
    errors = [table.mean_place - table.mean_place_lo, table.mean_place_hi - table.mean_place]
    right.errorbar(table.strategy, table.mean_place, yerr=errors, fmt="o", capsize=4)
    right.set(title="tournament: mean place, 95 % intervals", ylabel="mean place")
    args.out.mkdir(parents=True, exist_ok=True)
    figure = args.out / "mean_place.png"
    fig.savefig(figure, dpi=80, bbox_inches="tight")
    print(f"figure: {figure}")


if __name__ == "__main__":
    main()
