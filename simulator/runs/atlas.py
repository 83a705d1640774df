"""``president atlas``: what each house rule does to skill and luck, one rule set at a time.

For each rule set (:mod:`simulator.runs.atlas_sets`) the atlas plays deterministic
batches (:mod:`simulator.runs.atlas_play`): the test-seat duels of every test strategy
(:data:`TEST_STRATEGIES`) against the field, the two pairs at one table (``champion``
against the best heuristic, the best heuristic against ``random``) on duplicate deals,
and the same line-ups in ordinary matches. The best heuristic is the heuristic with the
lowest mean place in the test seat in batch 0 (fixed then, so that every later batch
plays the same tables whatever happened after).

**Sizes adapt.** After each batch (from the ``min_batches``-th on) the atlas computes the
precision the issue asks for — RS to ±0.02, RS(variant) − RS(base) to ±0.01, each Δ to
±0.01 (95 % half-widths) — and stops the rule set when it is reached, or at
``max_batches`` (the rule set is then ``capped``). The base is played first; when a
variant needs more batches than the base has for its paired difference, the base's
next batches are played (the same deterministic batches), so the pairs share every
deal. Every decision depends only on the batches' numbers, so a resumed or a Dask run
makes the same decisions and ends with the same data.

:func:`skill_rows` returns the atlas's table (one row per rule set and measure, the
columns of ``DIR/atlas.parquet``, ``docs/formats.md``); ``compare --skill`` calls it too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from simulator.rules.options import Rules
from simulator.runs.atlas_play import (
    DUEL,
    MATCH,
    PAIR,
    PAIRS,
    TEST_STRATEGIES,
    AtlasSettings,
    Batch,
    Played,
    Table,
    batch_seed,
    rounds_per_match,
)
from simulator.runs.atlas_rows import atlas_frame, precise
from simulator.runs.atlas_sets import RuleSet
from simulator.runs.job import HEURISTICS

# measured (1 December 2026): CPU seconds a batch costs per round of its tables, all its
# tables together (the search seats' dominate): 5.5-7.5 ms on one thread
# (benchmarks/bench_atlas.py), 7.6 ms in the default atlas on two threads of a busy machine
CPU_SECONDS_PER_ROUND = 0.0075
Play = Callable[[Rules, list[Table]], list[Batch]]  # the tables' sums, in order
Progress = Callable[[int, int, str], None]  # rule sets done, rule sets, what is under way


def estimate_minutes(
    rule_sets: Sequence[RuleSet], settings: AtlasSettings, workers: int
) -> tuple[float, float]:
    """About how long the atlas takes on ``workers`` free cores, at least and at most
    (every rule set stopping at ``min_batches``, or at the cap)."""
    seconds = len(rule_sets) * settings.batch_rounds * CPU_SECONDS_PER_ROUND / workers
    return seconds * settings.min_batches / 60, seconds * settings.max_batches / 60


def groups_per_batch(rules: Rules, settings: AtlasSettings) -> int:
    """Deal groups of a duplicate table per batch: about ``batch_rounds`` rounds (a group
    is one match per seat rotation), at least two."""
    return max(2, math.ceil(settings.batch_rounds / (rounds_per_match(rules) * rules.players)))


def matches_per_batch(rules: Rules, settings: AtlasSettings) -> int:
    """Ordinary matches per batch: about ``batch_rounds`` rounds, at least two."""
    return max(2, math.ceil(settings.batch_rounds / rounds_per_match(rules)))


def lineup(rules: Rules, field: str, *front: str) -> tuple[str, ...]:
    """``front`` in slots 0 (and 1), the field on the other seats."""
    return (*front, *[field] * (rules.players - len(front)))


def pair_lineups(rules: Rules, field: str, best: str) -> dict[str, tuple[str, ...]]:
    """The two pairs' line-ups: A in slot 0, B in slot 1, the field elsewhere."""
    return {name: lineup(rules, field, a or best, b or best) for name, (a, b) in PAIRS.items()}


def duel_tables(rules: Rules, settings: AtlasSettings, batch: int) -> list[Table]:
    """The test-seat duels of a batch, every test strategy on the same deals."""
    seed, groups = batch_seed(settings.seed, DUEL, batch), groups_per_batch(rules, settings)
    return [Table(DUEL, lineup(rules, settings.field, x), seed, groups, settings.max_rounds)
            for x in TEST_STRATEGIES]  # fmt: skip


def pair_tables(rules: Rules, settings: AtlasSettings, batch: int, best: str) -> list[Table]:
    """The two pairs of a batch: on duplicate deals, then in ordinary matches."""
    lineups = pair_lineups(rules, settings.field, best).values()
    pair_seed, match_seed = (batch_seed(settings.seed, k, batch) for k in (PAIR, MATCH))
    groups, matches = groups_per_batch(rules, settings), matches_per_batch(rules, settings)
    return [Table(PAIR, lu, pair_seed, groups, settings.max_rounds) for lu in lineups] + [
        Table(MATCH, lu, match_seed, matches, settings.max_rounds) for lu in lineups
    ]


def best_heuristic(duels: dict[str, Batch]) -> str:
    """The heuristic with the lowest mean place in the test seat (ties: the first in
    :data:`HEURISTICS`)."""
    means = [duels[h]["places"].sum() / duels[h]["rounds"].sum() for h in HEURISTICS]
    return HEURISTICS[int(np.argmin(means))]


def play_batch(rule_set: RuleSet, settings: AtlasSettings, batch: int, best: str | None,
               play: Play) -> Batch:  # fmt: skip
    """One batch of a rule set, flattened to named arrays (:data:`Batch`); in batch 0
    (``best`` None) the duels first, then the pairs with the best heuristic they found."""
    rules = rule_set.rules
    out: Batch = {}
    duels = dict(zip(TEST_STRATEGIES, play(rules, duel_tables(rules, settings, batch)),
                     strict=True))  # fmt: skip
    for name, sums in duels.items():
        out |= {f"{DUEL}:{name}:{key}": value for key, value in sums.items()}
    best = best or best_heuristic(duels)
    out["best_heuristic"] = np.array(best)
    tables = pair_tables(rules, settings, batch, best)
    kinds = [(kind, pair) for kind in (PAIR, MATCH) for pair in PAIRS]  # pair_tables' order
    for (kind, pair), sums in zip(kinds, play(rules, tables), strict=True):
        out |= {f"{kind}:{pair}:{key}": value for key, value in sums.items()}
    return out


def play_locally(rules: Rules, tables: list[Table]) -> list[Batch]:
    """Each table in turn on this machine's kernel threads."""
    from simulator.runs.atlas_play import play_table

    return [play_table(rules, table) for table in tables]


class BatchStore:
    """Where an atlas keeps its batches (in memory here; :class:`AtlasFolder` on disk, so
    that a resumed atlas never plays a batch again)."""

    def __init__(self) -> None:
        self.batches: dict[tuple[str, int], Batch] = {}

    def get(self, name: str, batch: int) -> Batch | None:
        return self.batches.get((name, batch))

    def put(self, name: str, batch: int, data: Batch) -> None:
        self.batches[(name, batch)] = data

    def settled(self, name: str, batches: int, capped: bool) -> None:
        """The rule set is done with ``batches`` batches (a folder records it)."""


class Atlas:
    """The runs of an atlas: each rule set's batches, played as its precision requires."""

    def __init__(self, rule_sets: Sequence[RuleSet], settings: AtlasSettings,
                 store: BatchStore, play: Play) -> None:  # fmt: skip
        settings.check()
        self.rule_sets = list(rule_sets)
        self.settings, self.store, self.play = settings, store, play
        self.played = {r.name: Played(r, []) for r in self.rule_sets}

    @property
    def base(self) -> Played:
        return self.played[self.rule_sets[0].name]

    def batch(self, played: Played, index: int) -> Batch:
        """Batch ``index`` of a rule set: from the store, or played and stored."""
        while len(played.batches) <= index:
            k = len(played.batches)
            name = played.rule_set.name
            data = self.store.get(name, k)
            if data is None:
                best = str(played.batches[0]["best_heuristic"]) if played.batches else None
                data = play_batch(played.rule_set, self.settings, k, best, self.play)
                self.store.put(name, k, data)
            played.batches.append(data)
        return played.batches[index]

    def run(self, progress: Progress | None = None) -> None:
        """Every rule set in order, each until precise or capped."""
        s = self.settings
        for i, rule_set in enumerate(self.rule_sets):
            played = self.played[rule_set.name]
            for k in range(s.max_batches):
                if progress:
                    progress(i, len(self.rule_sets), f"{rule_set.name}: batch {k + 1}")
                self.batch(played, k)
                if played is not self.base:
                    self.batch(self.base, k)  # the paired difference's batches
                if k + 1 >= s.min_batches and precise(s, self.base, played, k + 1):
                    break
            else:
                played.capped = True
            del played.batches[k + 1 :]  # the base may hold more, for the others' pairs
            self.store.settled(rule_set.name, k + 1, played.capped)
        if progress:
            progress(len(self.rule_sets), len(self.rule_sets), "done")


def skill_rows(
    rule_sets: Sequence[RuleSet],
    settings: AtlasSettings,
    progress: Progress | None = None,
    store: BatchStore | None = None,
    play: Play | None = None,
) -> pd.DataFrame:
    """The atlas's table for ``rule_sets`` (the first is the base every other is paired
    with): one row per rule set and measure, the columns of :data:`~simulator.runs.atlas_play.COLUMNS`."""
    atlas = Atlas(rule_sets, settings, store or BatchStore(), play or play_locally)
    atlas.run(progress)
    return atlas_frame(list(atlas.played.values()), atlas.base, settings)
