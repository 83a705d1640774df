"""``president atlas``: what each house rule does to skill and luck, one rule set at a time.

For each rule set (:mod:`simulator.runs.atlas.sets`) the atlas plays deterministic
batches (:mod:`simulator.runs.atlas.play`): the test-seat duels of every test strategy
(:data:`TEST_STRATEGIES`: the ladder's rungs and ceilings,
:mod:`simulator.runs.atlas.ladder`) against the field, the two pairs at one table (the
top rung against the best heuristic, the best heuristic against ``random``) on
duplicate deals, and the same line-ups in ordinary matches. The best heuristic is the
heuristic with the lowest mean place in the test seat in batch 0 (fixed then, so that
every later batch plays the same tables whatever happened after).

**Sizes adapt, part by part.** A batch has four parts (:data:`PARTS`): the duels, which
give the mean places, the skill gaps and RS; the edges (the two pairs on duplicate
deals), which give Δ; the ordinary matches, which give N95's σ, the deal's share,
persistence and the exchange; and the tables that mix the ladder's rungs
(:mod:`simulator.runs.atlas.mix`: the rating, the skill depth, the neighbours' edges),
``mix_batches`` batches, always. The duels and the edges of a rule set each play batch
after batch until their own targets are met — RS at each search level to ±0.02, and
the top rung's RS(variant) − RS(base) and skill gap − skill gap(base) to ±0.01, for the
duels; each Δ to ±0.01 for the edges (95 % half-widths), checked from the
``min_batches``-th batch on — or until their own cap (``max_batches``,
``max_edge_batches``; the part's rows are then ``capped``). The ordinary matches have
no target: ``match_batches`` batches, always. Apart, each part stops as soon as its own
targets allow. The base is played first; when a variant
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
    rung_player,
)
from simulator.runs.atlas.rows import atlas_frame, shortfall
from simulator.runs.atlas.sets import RuleSet

# CPU seconds a batch costs per round of its tables, all its tables together (the search
# seats' dominate), for each part: the ladder's at 4 players on one thread, measured
# (benchmarks/bench_atlas.py, docs/performance.md)
CPU_SECONDS_PER_ROUND = {DUEL: 0.0018, EDGE: 0.0008, MATCH: 0.0009, MIX: 0.0039}
# the batches a targeted part of the default atlas typically needs (measured, the same
# page): the duels reach their cap of 48 on the top rung's differences, Δ about 100
TYPICAL_BATCHES = {DUEL: 48, EDGE: 100}
PART_NAMES = {DUEL: "duels, batch", EDGE: "edges, batch", MATCH: "matches, batch",
              MIX: "mixed tables, batch"}  # progress  # fmt: skip
Play = Callable[[Rules, list[Table]], list[Batch]]  # the tables' sums, in order
Progress = Callable[[int, int, str], None]  # batches done, batches expected, what is under way


def estimate_minutes(
    rule_sets: Sequence[RuleSet], settings: AtlasSettings, workers: int
) -> tuple[float, float]:
    """About how long the atlas takes on ``workers`` free cores, typically (each targeted
    part playing :data:`TYPICAL_BATCHES`, within ``min_batches`` and its cap) and at most
    (every part at its cap). The search seats' time, which dominates, grows as their
    knobs do, so both scale with ``budget_scale``. The progress line then extrapolates
    from the batches' measured times."""
    s = settings
    seconds = len(rule_sets) * s.batch_rounds * s.budget_scale / workers
    typical = {p: min(s.cap(p), max(s.min_batches, TYPICAL_BATCHES[p])) if p in TARGETED
               else s.cap(p) for p in PARTS}  # fmt: skip
    usual = seconds * sum(typical[p] * CPU_SECONDS_PER_ROUND[p] for p in PARTS)
    high = seconds * sum(s.cap(p) * CPU_SECONDS_PER_ROUND[p] for p in PARTS)
    return usual / 60, high / 60


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


def pair_lineups(rules: Rules, settings: AtlasSettings, best: str) -> dict[str, tuple[str, ...]]:
    """The two pairs' line-ups: A in slot 0, B in slot 1 (what the kernel plays for their
    rungs), the field elsewhere."""
    s = settings
    return {name: lineup(rules, s.field, rung_player(a, s, best), rung_player(b, s, best))
            for name, (a, b) in PAIRS.items()}  # fmt: skip


def duel_tables(rules: Rules, settings: AtlasSettings, batch: int) -> list[Table]:
    """The test-seat duels of a batch, every test strategy on the same deals."""
    s, groups = settings, groups_per_batch(rules, settings)
    seed = batch_seed(s.seed, DUEL, batch)
    return [Table(DUEL, lineup(rules, s.field, rung_player(x, s)),
                  seed, groups, s.max_rounds, s.doses)
            for x in TEST_STRATEGIES]  # fmt: skip


def pair_tables(
    rules: Rules, settings: AtlasSettings, batch: int, best: str, kind: str
) -> list[Table]:
    """The two pairs of a batch, on duplicate deals (``kind`` PAIR, the edges) or in
    ordinary matches (MATCH)."""
    lineups = pair_lineups(rules, settings, best).values()
    seed = batch_seed(settings.seed, kind, batch)
    count = (groups_per_batch if kind == PAIR else matches_per_batch)(rules, settings)
    return [Table(kind, lu, seed, count, settings.max_rounds, settings.doses) for lu in lineups]


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
    """The runs of an atlas: each rule set's batches, played as its precision requires.

    Progress is told per batch: the batches done against those expected, each part of
    each rule set expected to need its batches so far times (half-width / target)² (a
    half-width shrinks as 1/√batches), and a part not begun as many as the rule sets
    before it needed (:meth:`expected`)."""

    def __init__(self, rule_sets: Sequence[RuleSet], settings: AtlasSettings,
                 store: BatchStore, play: Play) -> None:  # fmt: skip
        settings.check()
        self.rule_sets = list(rule_sets)
        self.settings, self.store, self.play = settings, store, play
        self.played = {r.name: Played(r) for r in self.rule_sets}
        self.expect: dict[tuple[str, str], int] = {}  # (rule set, part): batches expected
        self.done = 0  # the rule sets' own batches so far
        self.progress: Progress | None = None

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

    def guess(self, part: str) -> int:
        """The batches a part not begun is expected to need: the mean of the rule sets
        settled before (none: ``min_batches``; the ordinary matches: all theirs)."""
        s = self.settings
        if part not in TARGETED:
            return s.cap(part)
        seen = [n for (_, p), n in self.expect.items() if p == part]
        return round(sum(seen) / len(seen)) if seen else s.min_batches

    def expected(self) -> int:
        """The batches the whole atlas is expected to play (class docstring)."""
        return sum(self.expect.get((r.name, p)) or self.guess(p)
                   for r in self.rule_sets for p in PARTS)  # fmt: skip

    def tell(self, what: str) -> None:
        if self.progress:
            self.progress(self.done, max(self.expected(), self.done), what)

    def settle(self, played: Played, part: str, head: str) -> None:
        """Play one part of a rule set until its precision (:func:`shortfall` at most 1)
        or its cap (the ordinary matches: all their batches); a variant's duels bring the
        base's along (the paired difference's batches)."""
        s, key = self.settings, (played.rule_set.name, part)
        cap = s.cap(part)
        self.expect[key] = max(self.expect.get(key) or self.guess(part), 1)
        for k in range(cap):
            self.tell(f"{head}: {PART_NAMES[part]} {k + 1}")
            self.batch(played, part, k)
            if part == DUEL and played is not self.base:
                self.batch(self.base, DUEL, k)
            self.done += 1
            short = None
            if part in TARGETED and k + 1 >= s.min_batches:
                short = shortfall(s, part, self.base, played, k + 1)
            if short is not None and short <= 1:
                break
            if short is not None:  # half-widths shrink as 1/sqrt(batches)
                need = (k + 1) * short**2 if math.isfinite(short) else cap
                self.expect[key] = min(cap, max(k + 2, math.ceil(need)))
            else:
                self.expect[key] = max(self.expect[key], k + 2)
        else:
            played.capped[part] = part in TARGETED
        self.expect[key] = k + 1
        del played.parts[part][k + 1 :]  # the base may hold more, for the others' pairs

    def run(self, progress: Progress | None = None) -> None:
        """Every rule set in order, each part until precise or capped."""
        self.progress = progress
        total = len(self.rule_sets)
        for i, rule_set in enumerate(self.rule_sets):
            played = self.played[rule_set.name]
            for part in PARTS:
                self.settle(played, part, f"{i + 1}/{total} {rule_set.name}")
            self.store.settled(rule_set.name, {p: [len(played.parts[p]), played.capped[p]]
                                               for p in PARTS})  # fmt: skip
        self.tell("done")


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
