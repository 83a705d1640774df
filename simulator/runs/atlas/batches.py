"""``president atlas``: what each house rule does to skill and luck, one rule set at a time.

For each rule set (:mod:`simulator.runs.atlas.sets`) the atlas plays deterministic
batches (:mod:`simulator.runs.atlas.play`): the test-seat duels of every test strategy
(:data:`TEST_STRATEGIES`) against the field, the two pairs at one table (``champion``
against the best heuristic, the best heuristic against ``random``) on duplicate deals,
and the same line-ups in ordinary matches. The best heuristic is the heuristic with the
lowest mean place in the test seat in batch 0 (fixed then, so that every later batch
plays the same tables whatever happened after).

**Sizes adapt, part by part.** A batch has four parts (:data:`PARTS`): the duels, which
give RS; the edges (the two pairs on duplicate deals), which give Δ; the ordinary
matches, which give N95's σ, the deal's share, persistence and the exchange; and the
tables that mix the ladder's rungs (:mod:`simulator.runs.atlas.mix`: the rating and the
skill depth), ``mix_batches`` batches, always. The duels
and the edges of a rule set each play batch after batch until their own targets are
met — RS to ±0.02 and RS(variant) − RS(base) to ±0.01 for the duels, each Δ to ±0.01 for
the edges (95 % half-widths), checked from the ``min_batches``-th batch on — or until
their own cap (``max_batches``, ``max_edge_batches``; the part's rows are then
``capped``). The ordinary matches have no target: ``match_batches`` batches, always.
Apart, the cheap-to-settle RS stops early while Δ, which needs far more rounds, uses the
rest of the time. The base is played first; when a variant
needs more duels than the base has for its paired difference, the base's next duels are
played (the same deterministic batches), so the pairs share every deal. Every decision
depends only on the batches' numbers, so a resumed or a Dask run makes the same
decisions and ends with the same data.

:func:`skill_rows` returns the atlas's table (one row per rule set and measure, the
columns of ``DIR/atlas.parquet``, ``docs/formats.md``); ``compare --skill`` calls it too.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from simulator.rules.options import Rules
from simulator.runs.atlas.mix import play_mix
from simulator.runs.atlas.play import (
    DUEL,
    EDGE,
    MATCH,
    MIX,
    PAIR,
    PAIRS,
    PARTS,
    TABLE_KIND,
    TARGETED,
    TEST_STRATEGIES,
    AtlasSettings,
    Batch,
    Played,
    Table,
    batch_seed,
    best_heuristic,
    rounds_per_match,
)
from simulator.runs.atlas.rows import atlas_frame, precise
from simulator.runs.atlas.sets import RuleSet

# CPU seconds a batch costs per round of its tables, all its tables together (the search
# seats' dominate), for each part: the default atlas's, measured (docs/performance.md)
CPU_SECONDS_PER_ROUND = {DUEL: 0.00035, EDGE: 0.00025, MATCH: 0.00025, MIX: 0.0039}
PART_NAMES = {DUEL: "duels, batch", EDGE: "edges, batch", MATCH: "matches, batch",
              MIX: "mixed tables, batch"}  # progress  # fmt: skip
Play = Callable[[Rules, list[Table]], list[Batch]]  # the tables' sums, in order
Progress = Callable[[int, int, str], None]  # rule sets done, rule sets, what is under way


def estimate_minutes(
    rule_sets: Sequence[RuleSet], settings: AtlasSettings, workers: int
) -> tuple[float, float]:
    """About how long the atlas takes on ``workers`` free cores, at least and at most
    (every part of every rule set stopping at ``min_batches``, or at its cap)."""
    seconds = len(rule_sets) * settings.batch_rounds / workers
    least = {p: settings.cap(p) if p not in TARGETED else settings.min_batches for p in PARTS}
    low = seconds * sum(least[p] * CPU_SECONDS_PER_ROUND[p] for p in PARTS)
    high = seconds * sum(settings.cap(p) * CPU_SECONDS_PER_ROUND[p] for p in PARTS)
    return low / 60, high / 60


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


def pair_tables(
    rules: Rules, settings: AtlasSettings, batch: int, best: str, kind: str
) -> list[Table]:
    """The two pairs of a batch, on duplicate deals (``kind`` PAIR, the edges) or in
    ordinary matches (MATCH)."""
    lineups = pair_lineups(rules, settings.field, best).values()
    seed = batch_seed(settings.seed, kind, batch)
    count = (groups_per_batch if kind == PAIR else matches_per_batch)(rules, settings)
    return [Table(kind, lu, seed, count, settings.max_rounds) for lu in lineups]


def flattened(names: Sequence[str], sums: Sequence[dict[str, np.ndarray]]) -> Batch:
    """The tables' sums as one :data:`Batch`: ``NAME:KEY`` for each table's name and key."""
    return {f"{name}:{key}": value for name, table in zip(names, sums, strict=True)
            for key, value in table.items()}  # fmt: skip


def play_duels(rules: Rules, settings: AtlasSettings, batch: int, play: Play) -> Batch:
    """The duels of a batch: every test strategy in the test seat, on the same deals."""
    names = [f"{DUEL}:{x}" for x in TEST_STRATEGIES]
    return flattened(names, play(rules, duel_tables(rules, settings, batch)))


def play_pairs(
    rules: Rules, settings: AtlasSettings, batch: int, best: str, kind: str, play: Play
) -> Batch:
    """The two pairs of a batch, on duplicate deals or in ordinary matches (:func:`pair_tables`;
    ``best``: the best heuristic of the rule set's first duels)."""
    names = [f"{kind}:{pair}" for pair in PAIRS]  # pair_tables' order
    return flattened(names, play(rules, pair_tables(rules, settings, batch, best, kind)))


def play_locally(rules: Rules, tables: list[Table]) -> list[Batch]:
    """Each table in turn on this machine's kernel threads."""
    from simulator.runs.atlas.play import play_table

    return [play_table(rules, table) for table in tables]


class BatchStore:
    """Where an atlas keeps its batches, part by part (in memory here; :class:`AtlasFolder`
    on disk, so that a resumed atlas never plays a batch again)."""

    def __init__(self) -> None:
        self.batches: dict[tuple[str, str, int], Batch] = {}

    def get(self, name: str, part: str, batch: int) -> Batch | None:
        return self.batches.get((name, part, batch))

    def put(self, name: str, part: str, batch: int, data: Batch) -> None:
        self.batches[(name, part, batch)] = data

    def settled(self, name: str, parts: dict[str, list[Any]]) -> None:
        """The rule set is done: ``[batches, capped]`` of each part (a folder records it)."""


class Atlas:
    """The runs of an atlas: each rule set's batches, played as its precision requires."""

    def __init__(self, rule_sets: Sequence[RuleSet], settings: AtlasSettings,
                 store: BatchStore, play: Play) -> None:  # fmt: skip
        settings.check()
        self.rule_sets = list(rule_sets)
        self.settings, self.store, self.play = settings, store, play
        self.played = {r.name: Played(r) for r in self.rule_sets}

    @property
    def base(self) -> Played:
        return self.played[self.rule_sets[0].name]

    def batch(self, played: Played, part: str, index: int) -> Batch:
        """Part ``part`` of batch ``index`` of a rule set: from the store, or played and
        stored."""
        batches = played.parts[part]
        while len(batches) <= index:
            k, name, rules = len(batches), played.rule_set.name, played.rule_set.rules
            data = self.store.get(name, part, k)
            if data is None:
                if part == DUEL:
                    data = play_duels(rules, self.settings, k, self.play)
                elif part == MIX:
                    size = (
                        groups_per_batch(rules, self.settings),
                        matches_per_batch(rules, self.settings),
                    )
                    data = play_mix(
                        rules, self.settings, k, self.batch(played, DUEL, 0), size, self.play
                    )
                else:
                    best = best_heuristic(self.batch(played, DUEL, 0))
                    data = play_pairs(rules, self.settings, k, best, TABLE_KIND[part], self.play)
                self.store.put(name, part, k, data)
            batches.append(data)
        return batches[index]

    def settle(self, played: Played, part: str, say: Callable[[str], None]) -> None:
        """Play one part of a rule set until its precision (:func:`precise`) or its cap (the
        ordinary matches: all their batches); a variant's duels bring the base's along (the
        paired difference's batches)."""
        s = self.settings
        for k in range(s.cap(part)):
            say(f"{PART_NAMES[part]} {k + 1}")
            self.batch(played, part, k)
            if part == DUEL and played is not self.base:
                self.batch(self.base, DUEL, k)
            if (part in TARGETED and k + 1 >= s.min_batches
                    and precise(s, part, self.base, played, k + 1)):  # fmt: skip
                break
        else:
            played.capped[part] = part in TARGETED
        del played.parts[part][k + 1 :]  # the base may hold more, for the others' pairs

    def run(self, progress: Progress | None = None) -> None:
        """Every rule set in order, each part until precise or capped."""
        total = len(self.rule_sets)
        for i, rule_set in enumerate(self.rule_sets):
            played = self.played[rule_set.name]

            def say(what: str, i: int = i, name: str = rule_set.name) -> None:
                if progress:
                    progress(i, total, f"{name}: {what}")

            for part in PARTS:
                self.settle(played, part, say)
            self.store.settled(rule_set.name, {p: [len(played.parts[p]), played.capped[p]]
                                               for p in PARTS})  # fmt: skip
        if progress:
            progress(total, total, "done")


def skill_rows(
    rule_sets: Sequence[RuleSet],
    settings: AtlasSettings,
    progress: Progress | None = None,
    store: BatchStore | None = None,
    play: Play | None = None,
) -> pd.DataFrame:
    """The atlas's table for ``rule_sets`` (the first is the base every other is paired
    with): one row per rule set and measure, the columns of :data:`~simulator.runs.atlas.play.COLUMNS`."""
    atlas = Atlas(rule_sets, settings, store or BatchStore(), play or play_locally)
    atlas.run(progress)
    return atlas_frame(list(atlas.played.values()), atlas.base, settings)
