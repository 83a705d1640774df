"""The measures of skill of ``president atlas`` (issue 25; ``docs/skill.md`` says what each
one means and does not mean), from per-cluster sums, with 95 % intervals.

Every interval comes from :mod:`simulator.stats`: a cluster is an independent unit (a
duplicate group, whose matches share their deals, or a whole ordinary match, whose rounds
share their roles), ratios of cluster sums get the delta-method (CR1) interval with
Student's t, and the functions here only say which sums go into which ratio:

* G(X), a test strategy's mean place, is Σ places / Σ rounds over the duplicate clusters;
* relative skill RS = (G(random) − G(champion)) / (G(random) − G(clairvoyant)): every test
  strategy plays the same deals, so the rounds cancel and RS is the ratio of the
  cluster-summed differences Σ(y_random − y_champion) / Σ(y_random − y_clairvoyant)
  (under a target, where each test strategy's matches last as long as its play makes
  them, the same function of the three G's, each over its own rounds);
* RS(variant) − RS(base) pairs the clusters by index (the same seed deals the same cards,
  so the two ratios move together) and takes the difference of the two ratios with their
  joint per-cluster contributions (:func:`simulator.stats.influence_interval`, the
  delta method over the pairs);
* the skill gap of a rung X, 2 (G(random) − G(X)) / (n − 1), the places a round X gains
  over random in units of (n − 1)/2, the way from the middle place (n + 1)/2 to first
  (n the players; above 1 where random places below the middle against the field), and its paired difference between two rule sets, from the same
  per-cluster contributions φ of each G (the delta method);
* Δ, the edge per round of A over B at one table, is Σ(place_A − place_B) / Σ rounds;
* σ, the long-run spread per round of place_A − place_B in ordinary matches, is read from
  the whole-match sums (so the carry-over of the roles between rounds is inside it), and
  N95 = (1.645 σ / Δ)² (:mod:`simulator.runs.skill.rounds`);
* the share of the deal, persistence and the exchange's effect are read from the rounds of
  ordinary matches (:mod:`simulator.runs.skill.deal`).

The leading-axis forms (``*_interval``) take ``[..., C]`` arrays and return the
:data:`simulator.stats.Interval` of every leading index at once, for the coverage tests and
for callers with many rule sets; the :class:`Measure` forms are what the atlas stores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from simulator.runs.skill.deal import (
    deal_r2,
    deal_r2_by_exchange,
    exchange_effect,
    persistence,
    previous_places,
)
from simulator.runs.skill.measure import Measure, cluster_ratio
from simulator.runs.skill.rounds import long_run_sd, n95
from simulator.stats import Interval, influence_interval
from simulator.stats import holm as _holm

TOP, CEILING, FLOOR = "champion", "clairvoyant", "random"  # the strategies of RS


@dataclass(frozen=True)
class DuelSums:
    """One rule set's test-seat runs: duplicate deals, one test seat, the field elsewhere,
    the same seed (so the same deals) for every test strategy.

    ``places[name][c]`` is the sum of the test seat's places over cluster c when ``name``
    sits in it; ``rounds[c]`` the rounds it played there: one array when every test
    strategy plays the same rounds (the same deals, matches of fixed length), or one per
    test strategy (under a target a match lasts as long as the play makes it)."""

    places: Mapping[str, np.ndarray]
    rounds: np.ndarray | Mapping[str, np.ndarray]

    def __post_init__(self) -> None:
        rounds = self.rounds.values() if isinstance(self.rounds, Mapping) else [self.rounds]
        shapes = {np.shape(v) for v in (*self.places.values(), *rounds)}
        if len(shapes) != 1:
            raise ValueError(f"every per-cluster array must have one shape, got {sorted(shapes)}")

    @property
    def clusters(self) -> int:
        return int(np.shape(next(iter(self.places.values())))[-1])

    def rounds_of(self, name: str) -> np.ndarray:
        """The rounds test strategy ``name`` played, per cluster."""
        rounds = self.rounds[name] if isinstance(self.rounds, Mapping) else self.rounds
        return np.asarray(rounds, dtype=float)

    def sums(self, *names: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """The places and the rounds of the test strategies ``names``, per cluster."""
        places = [np.asarray(self.places[name], dtype=float) for name in names]
        return places, [self.rounds_of(name) for name in names]


def mean_places(d: DuelSums) -> dict[str, Measure]:
    """G(X) for every test strategy X: its mean place in the test seat (CR1 over clusters)."""
    return {name: Measure.of(cluster_ratio(y, d.rounds_of(name))) for name, y in d.places.items()}


Sums = Sequence[np.ndarray]  # the (floor, top, ceiling) per-cluster sums, each [..., C]


def _relative_skill_influence(places: Sums, rounds: Sums | float) -> tuple[np.ndarray, np.ndarray]:
    """RS and each cluster's first-order contribution to its error (delta method).

    With G_x = Y_x/M_x (sums over the clusters) and φ_x = (y_x − G_x m_x)/M_x each
    cluster's contribution to G_x, RS = (G_f − G_t)/(G_f − G_c) has the contribution
    ψ = ((φ_f − φ_t) − RS·(φ_f − φ_c)) / (G_f − G_c). When the three play the same rounds
    this is exactly the CR1 contribution of the ratio Σ(y_f − y_t)/Σ(y_f − y_c)."""
    y = np.stack(np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in places)))
    m = np.broadcast_to(np.asarray(rounds, dtype=float), y.shape)
    total = m.sum(-1, keepdims=True)
    g = y.sum(-1, keepdims=True) / total
    phi = (y - g * m) / total
    with np.errstate(divide="ignore", invalid="ignore"):
        rs = (g[0] - g[1]) / (g[0] - g[2])
        psi = ((phi[0] - phi[1]) - rs * (phi[0] - phi[2])) / (g[0] - g[2])
    return rs[..., 0], psi


def relative_skill_interval(places: Sums, rounds: Sums | float = 1.0) -> Interval:
    """RS from the (floor, top, ceiling) place sums ``[..., C]`` of the three test
    strategies on the same deals, and their rounds (one array for all three, or three;
    the default: the same rounds, which then cancel), with its delta-method interval."""
    return influence_interval(*_relative_skill_influence(places, rounds))


def relative_skill(
    d: DuelSums, top: str = TOP, ceiling: str = CEILING, floor: str = FLOOR
) -> Measure:
    """Relative skill (Borm and van der Genugten): the share of what knowing every hand
    wins over random play that ``top`` wins by play alone. Near 0 the cards decide; near
    1 the play does. Its p-value is that of RS = 0 (``top`` no better than ``floor``)."""
    return Measure.of(relative_skill_interval(*d.sums(floor, top, ceiling)), d.clusters)


def relative_skill_difference_interval(
    variant: Sums, base: Sums, variant_rounds: Sums | float = 1.0, base_rounds: Sums | float = 1.0
) -> Interval:
    """RS(variant) − RS(base) from the (floor, top, ceiling) place sums ``[..., C]`` of each
    (and their rounds, as in :func:`relative_skill_interval`), cluster c of the one paired
    with cluster c of the other (the same deals): the contributions of a pair are
    subtracted before they are squared, so what the two share cancels."""
    rs_v, psi_v = _relative_skill_influence(variant, variant_rounds)
    rs_b, psi_b = _relative_skill_influence(base, base_rounds)
    return influence_interval(rs_v - rs_b, psi_v - psi_b)


def relative_skill_difference(
    variant: DuelSums, base: DuelSums, top: str = TOP, ceiling: str = CEILING
) -> Measure:
    """RS(variant) − RS(base), paired by cluster index: both were played with one seed, so
    cluster c holds the same deals in both, and the difference is far sharper than that of
    two independent runs. Its p-value (of "no difference") is what Holm adjusts over the
    rule sets."""
    _same_clusters(variant, base)
    (vy, vm), (by, bm) = (d.sums(FLOOR, top, ceiling) for d in (variant, base))
    return Measure.of(relative_skill_difference_interval(vy, by, vm, bm), variant.clusters)


def relative_skill_gain(d: DuelSums, upper: tuple[str, str], lower: tuple[str, str]) -> Measure:
    """RS of the (top, ceiling) ``upper`` − RS of ``lower`` within one rule set, paired by
    cluster (the same deals): how much RS still moves from one search level to the next
    (the top's convergence)."""
    (uy, um), (ly, lm) = (d.sums(FLOOR, *pair) for pair in (upper, lower))
    return Measure.of(relative_skill_difference_interval(uy, ly, um, lm), d.clusters)


def _same_clusters(variant: DuelSums, base: DuelSums) -> None:
    if variant.clusters != base.clusters:
        raise ValueError(
            f"paired rule sets need the same clusters: {variant.clusters} and {base.clusters}"
        )


def _skill_gap_influence(
    places: Sums, rounds: Sums | float, players: int
) -> tuple[np.ndarray, np.ndarray]:
    """The skill gap 2 (G_f − G_x)/(n − 1) of the (floor, x) place sums and each cluster's
    contribution to its error, 2 (φ_f − φ_x)/(n − 1) with φ as in
    :func:`_relative_skill_influence`."""
    y = np.stack(np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in places)))
    m = np.broadcast_to(np.asarray(rounds, dtype=float), y.shape)
    total = m.sum(-1, keepdims=True)
    g = y.sum(-1, keepdims=True) / total
    phi = (y - g * m) / total
    scale = 2.0 / (players - 1)
    return scale * (g[0] - g[1])[..., 0], scale * (phi[0] - phi[1])


def skill_gap_interval(places: Sums, rounds: Sums | float, players: int) -> Interval:
    """The skill gap from the (floor, x) place sums ``[..., C]`` and their rounds (one
    array for both, or two; unlike RS's, they do not cancel), with its delta-method
    interval."""
    return influence_interval(*_skill_gap_influence(places, rounds, players))


def skill_gap(d: DuelSums, rung: str, players: int, floor: str = FLOOR) -> Measure:
    """The skill gap of ``rung`` over ``floor``: 2 (G(floor) − G(rung)) / (n − 1), the
    places a round ``rung`` gains over ``floor`` in units of (n − 1)/2, the way from the
    middle place to first (0: no better than random; above 1 where random places below
    the middle against the field). Unlike RS it shrinks with
    luck nobody can exploit: if a round's places were replaced by a random order with
    probability p, it scales by exactly (1 − p). Its p-value is that of "no gain"."""
    y, m = d.sums(floor, rung)
    return Measure.of(skill_gap_interval(y, m, players), d.clusters)


def skill_gap_difference_interval(
    variant: Sums,
    base: Sums,
    variant_rounds: Sums | float,
    base_rounds: Sums | float,
    players: tuple[int, int],
) -> Interval:
    """gap(variant) − gap(base) from the (floor, x) place sums ``[..., C]`` of each, cluster
    c with cluster c (``players``: the variant's and the base's table sizes)."""
    gv, psi_v = _skill_gap_influence(variant, variant_rounds, players[0])
    gb, psi_b = _skill_gap_influence(base, base_rounds, players[1])
    return influence_interval(gv - gb, psi_v - psi_b)


def skill_gap_difference(
    variant: DuelSums, base: DuelSums, rung: str, players: tuple[int, int]
) -> Measure:
    """skill_gap(variant) − skill_gap(base) of ``rung``, paired by cluster index as
    :func:`relative_skill_difference` is; its p-value is what Holm adjusts."""
    _same_clusters(variant, base)
    (vy, vm), (by, bm) = (d.sums(FLOOR, rung) for d in (variant, base))
    return Measure.of(skill_gap_difference_interval(vy, by, vm, bm, players), variant.clusters)


def holm(p_values: Sequence[float]) -> np.ndarray:
    """Holm-adjusted p-values in the order given (:func:`simulator.stats.holm`): compared
    with 0.05 each, the chance of any false claim over all the rule sets stays ≤ 5 %."""
    return _holm(np.asarray(p_values, dtype=float))


def edge_interval(diff: np.ndarray, rounds: np.ndarray) -> Interval:
    """Δ = Σ diff / Σ rounds over the clusters ``[..., C]``."""
    return cluster_ratio(np.asarray(diff, dtype=float), np.asarray(rounds, dtype=float))


def edge(diff: np.ndarray, rounds: np.ndarray) -> Measure:
    """Δ, the mean of place_A − place_B per round, A and B at one table with the field in
    the other seats on duplicate deals (``diff``: its per-cluster sums; negative: A places
    better). Its p-value is that of "neither is better"."""
    return Measure.of(edge_interval(diff, rounds), int(np.shape(diff)[-1]))


__all__ = [
    "DuelSums",
    "Measure",
    "deal_r2",
    "deal_r2_by_exchange",
    "edge",
    "exchange_effect",
    "holm",
    "long_run_sd",
    "mean_places",
    "n95",
    "persistence",
    "previous_places",
    "relative_skill",
    "relative_skill_difference",
    "relative_skill_gain",
    "skill_gap",
    "skill_gap_difference",
]
