"""What each measure of the atlas should do under a known dose, and the check that it does.

The doses are measurement instruments (:mod:`simulator.runs.atlas.doses`): a dose of luck
p replaces each round's places, with chance p, by a uniformly random order; a dose of
skill q makes the top play a uniformly random legal move with chance q. ``docs/skill.md``
(«Doses: the measures proved») derives the predictions below; here each is one line of
:data:`PREDICTIONS` (a measure's name pattern, its value under p, its direction under q),
so that a new measure's prediction is one more line.

Under p every prediction is a value, computed from the measure's undosed value (and, for
N95, the spread of its pair's ordinary matches): a round's expected place becomes
(1 − p)·E + p·(n + 1)/2, so every gap of mean places and every Δ scales by (1 − p), the
deal's share by (1 − p)², and RS, a ratio of two gaps, not at all. Under q only the
direction is predicted (how much a random move costs depends on the game): the top's mean
place rises, its RS falls, its edge over the heuristic shrinks and N95 rises; a measure
the top does not play in is unchanged.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase
from statistics import NormalDist

import numpy as np

from simulator.runs.atlas.ladder import TOP_RUNG
from simulator.runs.skill.measure import Measure

RISES, FALLS, UNCHANGED = 1, -1, 0  # a prediction's direction


@dataclass(frozen=True)
class Spread:
    """Place_A − place_B per round in a pair's ordinary matches, undosed: its long-run
    variance σ² (the matches' sums, as N95 reads it), its per-round variance and its
    mean. N95's prediction under p needs them (:func:`n95_under_luck`)."""

    long_run: float
    per_round: float
    mean: float


@dataclass(frozen=True)
class Undosed:
    """A measure's undosed value, with what its prediction may need: the players at the
    table and, for an N95, its pair's :class:`Spread`."""

    value: float
    players: int
    spread: Spread | None = None


LuckRule = Callable[[Undosed, float], float]  # the value under a dose of luck p


def scaled(u: Undosed, p: float) -> float:
    """A gap of expected places (a Δ, a difference of mean places): × (1 − p)."""
    return (1 - p) * u.value


def toward_middle(u: Undosed, p: float) -> float:
    """A mean place: (1 − p)·G + p·(n + 1)/2, random order's expected place."""
    return (1 - p) * u.value + p * (u.players + 1) / 2


def scaled_twice(u: Undosed, p: float) -> float:
    """The deal's share R²: its covariance × (1 − p), the places' variance fixed."""
    return (1 - p) ** 2 * u.value


def unchanged(u: Undosed, p: float) -> float:
    """A ratio of two gaps (RS): both × (1 − p), the ratio the same."""
    return u.value


def stays_under_luck(u: Undosed, p: float) -> float:
    """P(President stays) and its baseline: both rounds undosed with chance (1 − p)²,
    else the President of one of them is a random player, who is President in the other
    with chance 1/n."""
    kept = (1 - p) ** 2
    return kept * u.value + (1 - kept) / u.players


def random_order_variance(players: int) -> float:
    """The variance of place_A − place_B for two seats of a uniformly random order."""
    return players * (players + 1) / 6


def n95_under_luck(u: Undosed, p: float) -> float:
    """N95 = (1.645 σ/Δ)²: Δ × (1 − p), and σ² — the long-run variance of a pair's
    per-round difference d, a dosed round's an independent random order's r —
    becomes (1 − p)²σ² + p(1 − p)(Var d + E[d]²) + p·Var r."""
    s = u.spread
    if s is None:
        raise ValueError("N95's prediction needs its pair's spread")
    dosed = ((1 - p) ** 2 * s.long_run + p * (1 - p) * (s.per_round + s.mean**2)
             + p * random_order_variance(u.players))  # fmt: skip
    return u.value * dosed / ((1 - p) ** 2 * s.long_run)


@dataclass(frozen=True)
class Prediction:
    """What a measure does under the doses: ``luck``, its value under p (a rule), or only
    its direction (:data:`RISES`, :data:`FALLS`), or None (no prediction); ``skill``, its
    direction as q rises, or None. ``pattern`` matches measure names (``fnmatch``)."""

    pattern: str
    luck: LuckRule | int | None
    skill: int | None
    words: str  # the luck rule in words, for the dose table

    def matches(self, measure: str) -> bool:
        return fnmatchcase(measure, self.pattern)


TOP = TOP_RUNG  # the top rung, which the dose of skill weakens
# The first line whose pattern matches a measure decides: the top's own measures before
# the patterns that hold the others.
PREDICTIONS = (
    Prediction(f"mean_place_{TOP}", toward_middle, RISES, "(1−p)·G + p·(n+1)/2"),
    Prediction("mean_place_*", toward_middle, UNCHANGED, "(1−p)·G + p·(n+1)/2"),
    Prediction(f"skill_gap_{TOP}", scaled, FALLS, "(1−p)·gap"),
    Prediction("skill_gap_*_vs_base", scaled, None, "(1−p)·(gap − gap(base))"),
    Prediction("skill_gap_*", scaled, UNCHANGED, "(1−p)·gap"),
    Prediction("top_convergence_gap", scaled, FALLS, "(1−p)·(gap(top) − gap(champion))"),
    Prediction("top_convergence_rs", unchanged, FALLS, "RS(top) − RS(champion)"),
    Prediction("edge_top_vs_heuristic", scaled, RISES, "(1−p)·Δ"),
    Prediction(f"edge_{TOP}_vs_*", scaled, RISES, "(1−p)·Δ"),
    Prediction("edge_heuristic_vs_random", scaled, UNCHANGED, "(1−p)·Δ"),  # the top is away
    Prediction("edge_*", scaled, None, "(1−p)·Δ"),  # the mixed tables: the top beside them
    Prediction("n95_top_vs_heuristic", n95_under_luck, RISES, "N95·σp²/((1−p)²σ²)"),
    Prediction("n95_heuristic_vs_random", n95_under_luck, UNCHANGED, "N95·σp²/((1−p)²σ²)"),
    Prediction("n95_*", RISES, None, "rises"),  # the mixed tables': no pair's spread kept
    Prediction(f"relative_skill_{TOP}", unchanged, FALLS, "RS"),
    Prediction("relative_skill_vs_base", unchanged, None, "RS − RS(base)"),
    Prediction("relative_skill*", unchanged, UNCHANGED, "RS"),
    Prediction("skill_depth_vs_base", FALLS, None, "falls"),
    Prediction("skill_depth", FALLS, FALLS, "falls"),
    Prediction("rating_gain_top", FALLS, FALLS, "falls"),
    Prediction(f"rating_{TOP}", FALLS, FALLS, "falls"),
    Prediction("rating_random", None, None, "0"),  # the scale's zero, by definition
    Prediction("rating_*", FALLS, None, "falls"),  # fitted with the top's orders
    Prediction("deal_r2*", scaled_twice, None, "(1−p)²·R²"),
    Prediction("president_stays", stays_under_luck, None, "(1−p)²·s + (1−(1−p)²)/n"),
    Prediction("exchange_effect", FALLS, None, "falls"),  # its size: the roles' shares
)


def prediction_for(measure: str) -> Prediction | None:
    """The first prediction of :data:`PREDICTIONS` that holds ``measure``, if any."""
    return next((p for p in PREDICTIONS if p.matches(measure)), None)


def spread_of(match_diff: np.ndarray, match_rounds: np.ndarray, round_diff: np.ndarray) -> Spread:
    """A pair's :class:`Spread` from its ordinary matches: per-match sums of the
    difference and their rounds, and every round's difference."""
    s, m = np.asarray(match_diff, dtype=float), np.asarray(match_rounds, dtype=float)
    g, mean = len(s), s.sum() / m.sum()
    long_run = g / (g - 1) * float(((s - mean * m) ** 2).sum() / m.sum())
    return Spread(long_run, float(np.var(round_diff)), float(mean))


def _tolerance(rule: LuckRule, u: Undosed, undosed: Measure, dosed: Measure, p: float) -> float:
    """How far a dosed estimate may fall from its prediction: its own 95 % half-width and
    the undosed one's carried through the rule, added in quadrature (the two runs share
    their deals, so this is on the safe side)."""
    h = undosed.half_width
    if not math.isfinite(h) or not math.isfinite(dosed.half_width):
        return math.inf
    lo, hi = (rule(Undosed(u.value + d, u.players, u.spread), p) for d in (-h, h))
    return math.hypot(dosed.half_width, (hi - lo) / 2)


def widening(comparisons: int) -> float:
    """How much wider than 95 % a tolerance is when ``comparisons`` checks share a 5 %
    chance of any false miss (Bonferroni)."""
    normal = NormalDist()
    return normal.inv_cdf(1 - 0.025 / comparisons) / normal.inv_cdf(0.975)


def luck_verdict(
    prediction: Prediction, undosed: Measure, dosed: Measure, p: float, players: int,
    spread: Spread | None = None, comparisons: int = 1,
) -> tuple[float, bool]:  # fmt: skip
    """A measure under the dose of luck ``p``: its predicted value (NaN for a direction
    alone) and whether the dosed estimate holds it — within its tolerance of the value
    (at 95 %, or for one of ``comparisons`` checks whose false misses together have a
    5 % chance: :func:`widening`), or on the predicted side of the undosed estimate."""
    rule = prediction.luck
    if rule is None:
        raise ValueError(f"{prediction.pattern}: no prediction under a dose of luck")
    if not callable(rule):
        return math.nan, bool(np.sign(dosed.estimate - undosed.estimate) == rule)
    u = Undosed(undosed.estimate, players, spread)
    predicted = rule(u, p)
    tolerance = _tolerance(rule, u, undosed, dosed, p) * widening(comparisons)
    return predicted, abs(dosed.estimate - predicted) <= tolerance


def moves_as_predicted(measures: Sequence[Measure], direction: int) -> bool:
    """Whether estimates at rising doses (the first undosed) move in ``direction``: each
    above (RISES) or below (FALLS) the one before, or (UNCHANGED) each within the joint
    95 % half-width of the undosed one."""
    values = [m.estimate for m in measures]
    if direction == UNCHANGED:
        first = measures[0]
        return all(abs(m.estimate - first.estimate) <= math.hypot(m.half_width, first.half_width)
                   for m in measures[1:])  # fmt: skip
    steps = np.diff(values) * direction
    return bool((steps > 0).all())
