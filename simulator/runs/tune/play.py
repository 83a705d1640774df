"""``president tune``: a strategy's numeric parameters, searched by CMA-ES for a rule set.

The search runs in a normalised space: each parameter declared with bounds
(:attr:`strategies.specs.StrategySpec.tunable`) maps its range onto [0, 1], so that one
step size suits them all; an integer parameter is rounded when a candidate is played.

**Fitness on common random numbers.** Every candidate of a generation plays the same
deals (the generation's seed), in duplicate groups (every rotation of the line-up on the
same deals, as a tournament's tables do), against the same *field*: the other seats'
strategies, by default the strongest heuristics and seats that play the generation's
CMA mean, frozen for the generation (:data:`MEAN`: the candidate never plays itself).
So two candidates differ by their play, not by their cards. The fitness is the
candidate's mean place (lower is better), under rules with points too.

**The held-out check.** The best of many noisy candidates looks better than it is (the
winner's curse), so the result is measured again on seeds never used while tuning: the
tuned parameters and the defaults, each in the field (its mean seats playing the
defaults), on the same duplicate deals; the difference of their mean places has a 95 %
interval over the deal groups (:func:`simulator.stats.ratio_difference`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from simulator.errors import PresidentError
from simulator.matchloop.matches import OUT_MATCH, SEAT_PLACE, seats
from simulator.matchloop.seating import deal_source, group_size, lineup_slot
from simulator.reference.match import MAX_ROUNDS
from simulator.rules.options import Rules
from simulator.runs.job import DEFAULT_ROUNDS_PER_MATCH, HEURISTICS
from simulator.runs.tournament.tables import TournamentConfig, table_rows
from simulator.stats import ratio_difference, ratio_interval
from strategies import registry
from strategies.specs import SEARCH_IDS, StrategySpec

MEAN = "mean"  # a field seat that plays the generation's CMA mean (the tuned strategy)
SIGMA = 0.2  # the first step size, in the normalised space (each range is [0, 1])
# the purposes of a tune's seeds (stream_seed): the generations' deals, the held-out
# check's deals, the optimiser's sampling in each generation
DEALS, HELD_OUT, SAMPLING = 0, 1, 2


class TuneError(PresidentError):
    """A tune that cannot be run as asked."""


@dataclass(frozen=True)
class TuneConfig:
    """Everything that decides a tune's result (the workers and the engine do not)."""

    strategy: str
    field: tuple[str, ...]  # the other seats: strategy names or MEAN
    generations: int = 20
    population: int = 0  # candidates per generation; 0: the CMA-ES default for the size
    rounds_per_candidate: int = 2_000
    held_out_rounds: int = 20_000
    rounds_per_match: int = DEFAULT_ROUNDS_PER_MATCH  # without a target
    max_rounds: int = MAX_ROUNDS
    seed: int = 0


def tuned_spec(name: str) -> StrategySpec:
    """The built-in strategy to tune, with numeric parameters (a TuneError otherwise)."""
    if ":" in name or name.endswith((".py", ".toml")):
        raise TuneError(f"tune takes a built-in strategy's plain name, not {name!r}")
    spec = registry.get(name)
    if not spec.tunable:
        names = [s.name for s in registry.REGISTRY.values() if s.tunable]
        raise TuneError(
            f"strategy {name!r} has no numeric parameters to tune (allowed: {', '.join(names)})"
        )
    return spec


def default_field(strategy: str, players: int) -> tuple[str, ...]:
    """The other seats by default: the strongest heuristics (not the tuned one) on half
    of them, rounded up, and the generation's CMA mean on the rest, in turn."""
    others = [h for h in HEURISTICS if h != strategy]
    seats_left = players - 1
    strong = math.ceil(seats_left / 2)
    field = [others[i % len(others)] for i in range(strong)]
    for k in range(seats_left - strong):
        field.insert(2 * k + 1, MEAN)
    return tuple(field)


def check_field(field: Sequence[str], players: int) -> tuple[str, ...]:
    """``field`` as the other seats: one name for all or exactly ``players - 1``, each a
    strategy (not a search player) or MEAN; a TuneError in one line otherwise."""
    names = tuple(name.strip() for name in field)
    for name in names:
        if name == MEAN:
            continue
        spec = registry.get(name)
        if spec.kernel_id in SEARCH_IDS:
            raise TuneError(
                f"--field: {spec.name} searches and is too slow to tune against "
                "(allowed: a heuristic, or mean)"
            )
    if len(names) == 1:
        names *= players - 1
    if len(names) != players - 1:
        raise TuneError(
            f"--field names {len(names)} strategies for the {players - 1} other seats of "
            f"{players} players (allowed: one for all, or exactly {players - 1}, "
            f"comma-separated; {MEAN}: the CMA mean)"
        )
    return names


@dataclass(frozen=True)
class Space:
    """The normalised search space of a strategy's tunable parameters."""

    spec: StrategySpec

    @property
    def dims(self) -> int:
        return len(self.spec.tunable)

    def bounds(self) -> np.ndarray:
        """The unit cube, one row [0, 1] per parameter."""
        return np.tile([0.0, 1.0], (self.dims, 1))

    def start(self) -> np.ndarray:
        """The defaults, normalised: where the search starts."""
        return np.array([_unit(p.default, p.bounds) for p in self.spec.tunable])

    def values(self, z: np.ndarray) -> tuple[float, ...]:
        """Every parameter's value (the untuned at their defaults) at the point ``z``."""
        point = iter(np.clip(z, 0.0, 1.0))
        out = []
        for p in self.spec.params:
            if p.bounds is None:
                out.append(float(p.default))
                continue
            lo, hi = p.bounds
            value = float(f"{lo + float(next(point)) * (hi - lo):.12g}")  # no 0.19999…96
            out.append(float(round(value)) if p.integer else value)
        return tuple(out)

    def name(self, values: Sequence[float]) -> str:
        """The strategy name that plays ``values``: every value written exactly."""
        pairs = ",".join(f"{p.name}={v!r}" for p, v in zip(self.spec.params, values, strict=True))
        return f"{self.spec.name}:{pairs}"


def _unit(value: float, bounds: tuple[float, float] | None) -> float:
    assert bounds is not None
    lo, hi = bounds
    return min(1.0, max(0.0, (value - lo) / (hi - lo)))


def stream_seed(seed: int, purpose: int, index: int) -> int:
    """The seed of ``purpose`` (:data:`DEALS`, :data:`HELD_OUT`, :data:`SAMPLING`) in
    generation ``index``: independent streams of one tune's seed."""
    words = np.random.SeedSequence([seed % 2**63, purpose, index]).generate_state(2)
    return int(words[0]) << 31 | int(words[1]) >> 1


def groups_for(rules: Rules, config: TuneConfig, rounds: int, per_group: float = 0.0) -> int:
    """Deal groups (a group: one match per seat rotation) in which the tuned seat plays
    about ``rounds`` rounds, at least two, so that an interval has two clusters.

    Without a target a group holds ``rounds_per_match`` rounds per seat. Under a target a
    match lasts until it is won, which no rule fixes: ``per_group`` is the rounds a group
    gave the tuned seat in the generation before (measured), and before any, the guess of
    :func:`first_guess`.
    """
    if not rules.target:
        per_group = config.rounds_per_match * rules.players
    elif per_group <= 0:
        per_group = first_guess(rules)
    return max(2, math.ceil(rounds / per_group))


def first_guess(rules: Rules) -> float:
    """The tuned seat's rounds in a group under a target, before any was measured: twice
    the rounds of the quickest win (the best place every round), a match per seat."""
    best = max(rules.points.top + rules.points.bottom)
    return 2.0 * math.ceil(rules.target / best) * rules.players


def rounds_per_group(generation: dict) -> float:
    """The rounds a deal group gave the tuned seat in a recorded generation (each
    candidate's mean: under a target, matches of better play end sooner)."""
    candidates = generation["candidates"]
    total = sum(sum(c["rounds"]) for c in candidates)
    return total / (len(candidates) * generation["groups"])


@dataclass(frozen=True)
class Sums:
    """One seat-holder's places and rounds per deal group (the cluster)."""

    places: np.ndarray
    rounds: np.ndarray

    @property
    def mean_place(self) -> float:
        return float(self.places.sum() / self.rounds.sum())


def play_sums(
    rules: Rules, config: TuneConfig, lineup: Sequence[str], seed: int, groups: int
) -> Sums:
    """The places and rounds, per deal group, of the seats holding ``lineup[0]``'s
    strategy, over ``groups`` duplicate groups on ``seed``'s deals (in the kernel)."""
    size = group_size(lineup, True)
    table = TournamentConfig(tuple(lineup), groups * size, config.rounds_per_match,
                             config.max_rounds, seed)  # fmt: skip
    rows = table_rows(rules, table, lineup)
    n = rules.players
    match = rows[:, OUT_MATCH].astype(np.int64)
    slot = lineup_slot(np.arange(n)[None, :], match[:, None], n, size)
    held = np.array([name == lineup[0] for name in lineup])[slot]
    place = seats(rows, SEAT_PLACE, n).astype(np.float64)
    group = np.broadcast_to(deal_source(match, size)[:, None], held.shape)
    places = np.bincount(group[held], place[held], minlength=groups)
    rounds = np.bincount(group[held], minlength=groups).astype(np.float64)
    return Sums(places, rounds)


def lineup_of(candidate: str, field: Sequence[str], mean: str) -> list[str]:
    """The candidate's table: it, then the field with its MEAN seats playing ``mean``."""
    return [candidate, *(mean if name == MEAN else name for name in field)]


Evaluate = Callable[[Rules, TuneConfig, list[list[str]], int, int], list[Sums]]


def evaluate_locally(
    rules: Rules, config: TuneConfig, lineups: list[list[str]], seed: int, groups: int
) -> list[Sums]:
    """Each line-up's sums, one after the other on this machine's kernel threads."""
    return [play_sums(rules, config, lineup, seed, groups) for lineup in lineups]


@dataclass(frozen=True)
class HeldOut:
    """Tuned against default on fresh seeds: mean places and their difference, 95 %."""

    tuned: tuple[float, float, float]  # estimate, low, high
    default: tuple[float, float, float]
    diff: tuple[float, float, float]  # tuned minus default: negative, tuned places better
    groups: int
    rounds: int  # the tuned strategy's seat-rounds
    seed: int


def held_out(
    rules: Rules,
    config: TuneConfig,
    space: Space,
    values: Sequence[float],
    evaluate: Evaluate,
    per_group: float = 0.0,
) -> HeldOut:
    """The tuned ``values`` and the defaults, each in the field whose MEAN seats play the
    defaults, on the same duplicate deals of a seed never used while tuning
    (``per_group``: as :func:`groups_for` takes it)."""
    default = space.name(space.spec.vector)
    lineups = [lineup_of(space.name(values), config.field, default),
               lineup_of(default, config.field, default)]  # fmt: skip
    seed = stream_seed(config.seed, HELD_OUT, 0)
    groups = groups_for(rules, config, config.held_out_rounds, per_group)
    tuned, base = evaluate(rules, config, lineups, seed, groups)
    diff = ratio_difference(tuned.places, tuned.rounds, base.places, base.rounds)
    return HeldOut(
        _three(ratio_interval(tuned.places, tuned.rounds)),
        _three(ratio_interval(base.places, base.rounds)),
        _three(diff),
        groups,
        int(tuned.rounds.sum()),
        seed,
    )


def _three(interval: tuple) -> tuple[float, float, float]:
    return float(interval[0]), float(interval[1]), float(interval[2])
