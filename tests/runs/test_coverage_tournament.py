"""Coverage of ``president tournament``'s intervals: the ranking and every pair.

Design (:mod:`tests.coverage`): 3000 tournaments of 4 strategies (lowest, random,
keep-sets, control) on 3 players (french): 4 tables, each playing 30 duplicate groups of
its 3 rotations, 2 rounds a match. Every table uses the same seed, so deal group g has
the same deals at every table and each interval has 30 clusters (the deal groups across
all tables; t with 29 degrees of freedom) — clustered by (table, group) instead, the
issue measured intervals ×1.02–1.32 too narrow. The runs are consecutive blocks of 30
deal groups of one long tournament: every group draws its own streams (deals, seats), so
the blocks are independent exactly as tournaments with different seeds would be, and
each table is played once for all runs. Each run's standings come from the library's
own :func:`ranking` and :func:`pairwise` on its clusters: mean place, luck-adjusted mean
place, President and Scum rates, match win rate per strategy; each pair's plain and
luck-adjusted difference (oriented the same way in every run). The truth is the same on
all 90,000 deal groups.

The field keeps every rate away from 0 and 1 (random's match win rate, the rarest, is
about 6 %: some 15 wins a run). Run time: 2.2 M rounds on the kernel and 3000 standings
(the estimators work on arrays: a few milliseconds a run).
"""

from __future__ import annotations

import dataclasses

import numpy as np

from simulator.matchloop.api import set_threads
from simulator.rules.presets import preset
from simulator.runs.standings import ClusterSums, pairwise, ranking
from simulator.runs.tournament.tables import TournamentConfig, cluster_sums, play_table, tables
from tests.coverage import RUNS, check, coverage

NAMES = ["lowest", "random", "keep-sets", "control"]
GROUPS = 30  # deal groups per run: the clusters
RANKED = ("mean_place", "adjusted", "president", "scum", "match_wins")
PAIRED = ("diff", "adjusted")


def run_slice(sums: ClusterSums, k: int) -> ClusterSums:
    """Run k: deal groups [k·GROUPS, (k+1)·GROUPS) of the long tournament."""
    part = slice(k * GROUPS, (k + 1) * GROUPS)
    arrays = {
        f.name: getattr(sums, f.name)[part]
        for f in dataclasses.fields(sums)
        if f.name not in ("names", "edges")
    }
    return dataclasses.replace(sums, **arrays)


def test_tournament_intervals_cover() -> None:
    set_threads(1)
    rules = preset("french").with_options(players=3)
    config = TournamentConfig(tuple(NAMES), matches=RUNS * GROUPS * 3, rounds_per_match=2)
    played = [play_table(rules, config, lineup, NAMES) for lineup in tables(NAMES, 3)]
    sums = cluster_sums(played, NAMES)
    assert sums.clusters == RUNS * GROUPS
    truth_rank = ranking(sums).set_index("strategy")
    order = list(truth_rank.index)
    truth_pairs = pairwise(sums, order)
    ranks, pairs = [], []
    for k in range(RUNS):
        part = run_slice(sums, k)
        ranks.append(ranking(part).set_index("strategy").loc[order])
        pairs.append(pairwise(part, order))
    labels, measured = [], []
    for column in RANKED:
        lo = np.array([r[f"{column}_lo"].to_numpy() for r in ranks])
        hi = np.array([r[f"{column}_hi"].to_numpy() for r in ranks])
        truth = truth_rank[column if column != "adjusted" else "mean_place"].to_numpy()
        labels += [f"ranking {column}: {name}" for name in order]
        measured.extend(coverage(lo, hi, truth))
    for column in PAIRED:
        lo = np.array([p[f"{column}_lo"].to_numpy() for p in pairs])
        hi = np.array([p[f"{column}_hi"].to_numpy() for p in pairs])
        labels += [
            f"pairwise {column}: {a} − {b}"
            for a, b in zip(truth_pairs["a"], truth_pairs["b"], strict=True)
        ]
        measured.extend(coverage(lo, hi, truth_pairs["diff"].to_numpy()))
    check(labels, np.array(measured))
