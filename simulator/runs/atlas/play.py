"""What the atlas plays for one rule set, one batch at a time, reduced to per-cluster sums.

A batch is deterministic: its seeds come from the atlas's seed and the batch's index
alone (:func:`batch_seed`), never from the rule set or the test strategy, so every test
strategy and every rule set of the same table size plays the same deals in batch b
(common random numbers: the variant − base pairs share them), and a run stopped and
resumed, or played on Dask, gives the same numbers.

Four kinds of tables (each a :class:`Table`, played by :func:`play_table`):

* **duel** — one test seat (slot 0), the field on every other seat, duplicate deals (the
  line-up's rotations share the deals): per deal group, the test seat's places and rounds;
* **pair** — A (slot 0) and B (slot 1) at one table, the field elsewhere, duplicate deals:
  per deal group, Σ(place_A − place_B) and the rounds;
* **match** — the same line-up in ordinary matches (the rule set's usual length, roles
  carried from round to round): per match, Σ(place_A − place_B) and the rounds, and each
  round's places, dealt strengths and previous places (for the deal's share, persistence
  and the exchange);
* **mix** — the ladder's rungs together, duplicate deals: each round's finishing order
  (:mod:`simulator.runs.atlas.mix`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from dataclasses import field as default

import numpy as np

from simulator.matchloop.matches import OUT_MATCH, OUT_ROUND, SEAT_PLACE, SEAT_STRENGTH, seats
from simulator.matchloop.seating import deal_source, group_size, lineup_slot
from simulator.reference.match import MAX_ROUNDS
from simulator.rules.options import Rules
from simulator.runs.atlas.doses import NO_DOSES, Doses, check_doses, dose_luck, with_skill_dose
from simulator.runs.atlas.ladder import (
    CEILING_RUNGS,
    FLOOR,
    HEURISTIC,
    LOWEST,
    ROBUST,
    SEARCH_RUNGS,
    TOP_RUNG,
    kernel_name,
)
from simulator.runs.atlas.sets import AtlasError, RuleSet
from simulator.runs.atlas.windows import is_mix_measure, mix_sums
from simulator.runs.job import DEFAULT_ROUNDS_PER_MATCH, HEURISTICS
from simulator.runs.tune.play import stream_seed
from strategies import registry
from strategies.specs import SEARCH_IDS, StrategyError

# the duels' test strategies: every rung of the ladder (each heuristic by its own name)
# and the ceilings
TEST_STRATEGIES = (FLOOR, *HEURISTICS, LOWEST, ROBUST, *SEARCH_RUNGS, *CEILING_RUNGS)
# the two pairs at one table (A, B; rung labels), "top" the top rung
PAIRS = {"top_vs_heuristic": (TOP_RUNG, HEURISTIC), "heuristic_vs_random": (HEURISTIC, FLOOR)}
FORMAT_VERSION = "3"  # of atlas.parquet (its metadata's ``atlas_format``)
COLUMNS = ("rule_set", "change", "players", "measure", "estimate", "low", "high", "p_holm",
           "rounds", "clusters", "capped", "field", "weights", "best_heuristic")  # fmt: skip

Batch = dict[str, np.ndarray]  # a batch's arrays, keyed "duel:STRATEGY:places", …
DUEL, PAIR, MATCH = "duel", "pair", "match"
PURPOSE = {DUEL: 10, PAIR: 11, MATCH: 12}  # stream_seed purposes, apart from tune's
# The three parts of a batch, each played apart: the duels (RS and the mean places) and the
# edges (the two pairs on duplicate deals: Δ), each until its own precision or its own cap,
# and the ordinary matches (σ of N95, the deal's share, persistence, the exchange), which
# have no precision target: a fixed number of batches. Δ needs five times the rounds RS
# does and the matches far fewer (docs/performance.md), so none waits for another.
EDGE = "edge"
MIX = "mix"  # the tables that mix the ladder's rungs (simulator/runs/atlas/mix.py)
PARTS = (DUEL, EDGE, MATCH, MIX)
TARGETED = (DUEL, EDGE)  # the parts that adapt to a precision target (and can be capped)
TABLE_KIND = {DUEL: DUEL, EDGE: PAIR, MATCH: MATCH, MIX: MIX}  # each part's (first) table kind
MATCH_MEASURES = ("deal_r2", "president_stays", "exchange_effect")  # prefixes
EDGE_MEASURES = ("edge_", "n95_")  # N95: its Δ's precision decides its size
# Matches a kernel block holds in a table: a batch's table (200 matches by default) then
# makes 13 blocks for the threads to share, not 4 of 64, which left one of 2 threads idle
# for a quarter of the time (18 % slower, measured). The rows do not depend on it.
TABLE_BLOCK = 16
CAP_OPTIONS = {DUEL: "--max-batches", EDGE: "--max-edge-batches", MATCH: "--match-batches",
               MIX: "--mix-batches"}  # fmt: skip


@dataclass(frozen=True)
class AtlasSettings:
    """Everything besides the rule sets that decides an atlas's numbers (workers and the
    engine do not)."""

    field: str = "linear"
    seed: int = 0
    batch_rounds: int = 2_000  # each test strategy's rounds per batch (whole deal groups)
    min_batches: int = 2
    max_batches: int = 48  # the duels' cap (RS); docs/performance.md: how the caps were chosen
    max_edge_batches: int = 200  # the edges' cap (the two pairs on duplicate deals: Δ)
    match_batches: int = 6  # the ordinary matches' batches (no target: always this many)
    mix_batches: int = 4  # the mixed tables' batches (no target; docs/performance.md)
    rs_precision: float = 0.02  # 95 % half-widths the sizes adapt to
    rs_difference_precision: float = 0.01
    edge_precision: float = 0.01
    max_rounds: int = MAX_ROUNDS
    budget_scale: float = 1.0  # every search rung's knob times this (ladder.kernel_name)
    luck_dose: float = 0.0  # measurement instruments, not rules (simulator.runs.atlas.doses)
    skill_dose: float = 0.0

    @property
    def doses(self) -> Doses:
        """The dose of luck every table of the atlas plays with (:mod:`simulator.runs.atlas.doses`;
        the dose of skill is in the top rung's name, :func:`rung_player`)."""
        return Doses(self.luck_dose, self.seed)

    def cap(self, part: str) -> int:
        """The most batches part ``part`` (:data:`PARTS`) of a rule set plays (the ordinary
        matches: always this many)."""
        return {DUEL: self.max_batches, EDGE: self.max_edge_batches, MATCH: self.match_batches,
                MIX: self.mix_batches}[part]  # fmt: skip

    def check(self) -> None:
        """An AtlasError in one line for sizes below 1 or a field that cannot fill the
        other seats of every rule set (one strategy the kernel plays fast)."""
        caps = [(CAP_OPTIONS[part], self.cap(part)) for part in PARTS]
        for label, value in (("--rounds", self.batch_rounds), *caps,
                             ("--min-batches", self.min_batches)):  # fmt: skip
            if value < 1:
                raise AtlasError(f"{label} must be a positive integer, not {value}")
        if not (math.isfinite(self.budget_scale) and self.budget_scale > 0):
            raise AtlasError(f"--budget-scale must be a number above 0, not {self.budget_scale}")
        for label, cap in ((CAP_OPTIONS[part], self.cap(part)) for part in TARGETED):
            if self.min_batches > cap:
                raise AtlasError(f"--min-batches {self.min_batches} is above {label} {cap} "
                                 "(allowed: at most the cap)")  # fmt: skip
        check_doses(self.luck_dose, self.skill_dose)
        if "," in self.field:
            raise AtlasError(
                f"--field {self.field}: the atlas seats 3 to 6 players, so the field is one "
                "strategy for every other seat (allowed: one name, e.g. linear)"
            )
        try:
            spec = registry.get(self.field)
        except StrategyError as exc:
            raise AtlasError(f"--field: {exc}") from None
        if spec.kernel_id in SEARCH_IDS:
            raise AtlasError(f"--field {self.field}: the field must be a strategy the kernel "
                             "plays fast, not a search player (allowed: a heuristic, linear, lowest or random)")  # fmt: skip


def rung_player(label: str, settings: AtlasSettings, best: str = HEURISTIC) -> str:
    """What the kernel plays for rung (or ceiling, or test strategy) ``label`` in this
    atlas: :func:`~simulator.runs.atlas.ladder.kernel_name` at the atlas's budget scale, the
    top rung with the dose of skill (none unless asked for)."""
    name = kernel_name(label, best, settings.budget_scale)
    return with_skill_dose(name, settings.skill_dose if label == TOP_RUNG else 0)


def part_of(measure: str) -> str:
    """The part of a batch a measure of ``atlas.parquet`` comes from (:data:`PARTS`)."""
    if is_mix_measure(measure):
        return MIX
    if measure.startswith(MATCH_MEASURES):
        return MATCH
    return EDGE if measure.startswith(EDGE_MEASURES) else DUEL


@dataclass
class Played:
    """A rule set's batches so far, part by part (:data:`PARTS`), and which parts hit
    their cap."""

    rule_set: RuleSet
    parts: dict[str, list[Batch]] = default(default_factory=lambda: {p: [] for p in PARTS})
    capped: dict[str, bool] = default(default_factory=lambda: dict.fromkeys(PARTS, False))


def batch_seed(seed: int, kind: str, batch: int) -> int:
    """The deals of batch ``batch`` of one kind of table: the same for every rule set
    and test strategy."""
    return stream_seed(seed, PURPOSE[kind], batch)


def rounds_per_match(rules: Rules) -> int:
    """A match's usual length, to size the batches: the default without a target, else
    twice the rounds the leader needs at the most points a round gives (at least 8)."""
    if not rules.target:
        return DEFAULT_ROUNDS_PER_MATCH
    best = max((*rules.points.top, *rules.points.bottom, 1))
    return max(8, math.ceil(2 * rules.target / best))


def best_heuristic(duels: Batch) -> str:
    """The heuristic with the lowest mean place in the test seat in a batch's duels (ties:
    the first in :data:`HEURISTICS`)."""
    means = [duels[f"{DUEL}:{h}:places"].sum() / duels[f"{DUEL}:{h}:rounds"].sum()
             for h in HEURISTICS]  # fmt: skip
    return HEURISTICS[int(np.argmin(means))]


@dataclass(frozen=True)
class Table:
    """One table of a batch: its kind, line-up (the kernel's strategy names,
    :func:`~simulator.runs.atlas.ladder.kernel_name`; slot 0 the test seat or A, slot 1
    B), seed, and size (deal groups, or matches for ``match``)."""

    kind: str
    lineup: tuple[str, ...]
    seed: int
    count: int
    max_rounds: int = MAX_ROUNDS
    doses: Doses = NO_DOSES


def play_table(rules: Rules, table: Table) -> dict[str, np.ndarray]:
    """The table's rounds in the kernel, reduced to its per-cluster sums (module docstring)."""
    from simulator.matchloop.api import KernelJob, run_matches
    from simulator.runs.jitstart import load_numba
    from strategies.dispatch import tier_of

    load_numba()
    duplicate = table.kind != MATCH
    group = group_size(table.lineup, True) if duplicate else 1
    per_match = None if rules.target else DEFAULT_ROUNDS_PER_MATCH
    # An atlas always seats the search player: the heuristics' tables share its loop,
    # one compile fewer (docs/performance.md).
    job = KernelJob.build(rules, list(table.lineup), table.seed, per_match, table.max_rounds,
                          duplicate=duplicate, shared=tier_of(SEARCH_IDS))  # fmt: skip
    rows = run_matches(job, 0, table.count * group, block=TABLE_BLOCK)
    n = rules.players
    rows = dose_luck(rows, n, table.doses, table.seed)  # before any sum
    match = rows[:, OUT_MATCH].astype(np.int64)
    place = seats(rows, SEAT_PLACE, n).astype(np.int64)
    slot = lineup_slot(np.arange(n)[None, :], match[:, None], n, group) if duplicate else None
    if table.kind == DUEL:
        return duel_sums(place, match, slot, group, table)
    if table.kind == MIX:
        return mix_sums(place, slot, match, group, table.count)
    if table.kind == PAIR:
        diff = _slot_place(place, slot, 0) - _slot_place(place, slot, 1)
        cluster = deal_source(match, group)
        return {"diff": np.bincount(cluster, diff, minlength=table.count),
                "rounds": np.bincount(cluster, minlength=table.count).astype(np.float64)}  # fmt: skip
    return match_sums(rows, place, match, n, table.count)


def duel_sums(place: np.ndarray, match: np.ndarray, slot: np.ndarray, group: int,
              table: Table) -> dict[str, np.ndarray]:  # fmt: skip
    """Per deal group: the test seat's places and rounds. When the test strategy is the
    field's (one rotation), every seat is the test seat's in turn: its mean over the
    seats, so that it plays the same deals as the others' test seats."""
    cluster = deal_source(match, group)
    if group == 1:
        n = place.shape[1]
        places = np.bincount(cluster, place.sum(axis=1) / n, minlength=table.count)
    else:
        places = np.bincount(cluster, _slot_place(place, slot, 0), minlength=table.count)
    rounds = np.bincount(cluster, minlength=table.count).astype(np.float64)
    return {"places": places, "rounds": rounds}


def _slot_place(place: np.ndarray, slot: np.ndarray, which: int) -> np.ndarray:
    """Each round's place of the player in line-up slot ``which``."""
    return place[slot == which]  # each row's slots are a permutation: one per row


def match_sums(
    rows: np.ndarray, place: np.ndarray, match: np.ndarray, n: int, matches: int
) -> dict[str, np.ndarray]:
    """Ordinary matches (A on seat 0, B on seat 1): per match Σ(place_A − place_B) and
    rounds; each round's places, strengths and previous places (0 in a match's first
    round), and its match."""
    diff = (place[:, 0] - place[:, 1]).astype(np.float64)
    first = rows[:, OUT_ROUND] == 0
    prev = np.vstack([np.zeros((1, n), np.int64), place[:-1]])
    prev[first] = 0
    return {
        "diff": np.bincount(match, diff, minlength=matches),
        "rounds": np.bincount(match, minlength=matches).astype(np.float64),
        "round_diff": diff,
        "match": match,
        "place": place.astype(np.int8),
        "prev_place": prev.astype(np.int8),
        "strength": seats(rows, SEAT_STRENGTH, n).astype(np.int16),
    }


@contextmanager
def dask_play(
    workers: int,
) -> Iterator[Callable[[Rules, list[Table]], list[dict[str, np.ndarray]]]]:
    """Play a batch's tables side by side on a local Dask cluster of ``workers``
    single-threaded workers (threads of this process): the same sums as on this machine,
    since each table depends on its rules, line-up, seed and size alone."""
    import logging

    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                           dashboard_address=":0", silence_logs=logging.ERROR)  # fmt: skip
    client = Client(cluster)

    def play(rules: Rules, tables: list[Table]) -> list[dict[str, np.ndarray]]:
        return client.gather([client.submit(play_table, rules, t, pure=False) for t in tables])

    try:
        yield play
    finally:
        client.close()
        cluster.close()
