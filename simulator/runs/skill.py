"""The measures of skill of ``president atlas`` (issue 25; ``docs/skill.md`` says what each
one means and does not mean), from per-cluster sums, with 95 % intervals.

Every interval comes from :mod:`simulator.stats`: a cluster is an independent unit (a
duplicate group, whose matches share their deals, or a whole ordinary match, whose rounds
share their roles), ratios of cluster sums get the delta-method (CR1) interval with
Student's t, and the functions here only say which sums go into which ratio:

* G(X), a test strategy's mean place, is Σ places / Σ rounds over the duplicate clusters;
* relative skill RS = (G(random) − G(champion)) / (G(random) − G(clairvoyant)): every test
  strategy plays the same deals, so the rounds cancel and RS is the ratio of the
  cluster-summed differences Σ(y_random − y_champion) / Σ(y_random − y_clairvoyant);
* RS(variant) − RS(base) pairs the clusters by index (the same seed deals the same cards,
  so the two ratios move together) and takes the difference of the two ratios with their
  joint per-cluster contributions (:func:`simulator.stats.ratio_difference`);
* Δ, the edge per round of A over B at one table, is Σ(place_A − place_B) / Σ rounds;
* σ, the long-run spread per round of place_A − place_B in ordinary matches, is read from
  the whole-match sums (so the carry-over of the roles between rounds is inside it), and
  N95 = (1.645 σ / Δ)² (:mod:`simulator.runs.skill_rounds`);
* the share of the deal, persistence and the exchange's effect are read from the rounds of
  ordinary matches (:mod:`simulator.runs.skill_deal`).

The leading-axis forms (``*_interval``) take ``[..., C]`` arrays and return the
:data:`simulator.stats.Interval` of every leading index at once, for the coverage tests and
for callers with many rule sets; the :class:`Measure` forms are what the atlas stores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from simulator.runs.skill_deal import deal_r2, exchange_effect, persistence
from simulator.runs.skill_measure import Measure, cluster_ratio
from simulator.runs.skill_rounds import long_run_sd, n95
from simulator.stats import Interval, ratio_difference
from simulator.stats import holm as _holm

TOP, CEILING, FLOOR = "champion", "clairvoyant", "random"  # the strategies of RS


@dataclass(frozen=True)
class DuelSums:
    """One rule set's test-seat runs: duplicate deals, one test seat, the field elsewhere,
    the same seed (so the same deals) for every test strategy.

    ``places[name][c]`` is the sum of the test seat's places over cluster c when ``name``
    sits in it; ``rounds[c]`` the rounds it played there (the same deals: the same rounds for
    every test strategy)."""

    places: Mapping[str, np.ndarray]
    rounds: np.ndarray

    def __post_init__(self) -> None:
        shapes = {np.shape(v) for v in self.places.values()} | {np.shape(self.rounds)}
        if len(shapes) != 1:
            raise ValueError(f"every per-cluster array must have one shape, got {sorted(shapes)}")

    @property
    def clusters(self) -> int:
        return int(np.shape(self.rounds)[-1])


def mean_places(d: DuelSums) -> dict[str, Measure]:
    """G(X) for every test strategy X: its mean place in the test seat (CR1 over clusters)."""
    m = np.asarray(d.rounds, dtype=float)
    return {
        name: Measure.of(cluster_ratio(np.asarray(y, dtype=float), m))
        for name, y in d.places.items()
    }


def relative_skill_interval(floor: np.ndarray, top: np.ndarray, ceiling: np.ndarray) -> Interval:
    """RS = Σ(floor − top) / Σ(floor − ceiling) from per-cluster place sums ``[..., C]`` of
    the three test strategies on the same deals (delta method over the clusters)."""
    floor, top, ceiling = (np.asarray(v, dtype=float) for v in (floor, top, ceiling))
    return cluster_ratio(floor - top, floor - ceiling)


def relative_skill(
    d: DuelSums, top: str = TOP, ceiling: str = CEILING, floor: str = FLOOR
) -> Measure:
    """Relative skill (Borm and van der Genugten): the share of what knowing every hand
    wins over random play that ``top`` wins by play alone. Near 0 the cards decide; near
    1 the play does. Its p-value is that of RS = 0 (``top`` no better than ``floor``)."""
    interval = relative_skill_interval(d.places[floor], d.places[top], d.places[ceiling])
    return Measure.of(interval, d.clusters)


def relative_skill_difference_interval(
    variant: tuple[np.ndarray, np.ndarray, np.ndarray],
    base: tuple[np.ndarray, np.ndarray, np.ndarray],
) -> Interval:
    """RS(variant) − RS(base) from the (floor, top, ceiling) place sums ``[..., C]`` of each,
    cluster c of the one paired with cluster c of the other (the same deals)."""
    (vf, vt, vc), (bf, bt, bc) = (
        [np.asarray(v, dtype=float) for v in sums] for sums in (variant, base)
    )
    return ratio_difference(vf - vt, vf - vc, bf - bt, bf - bc)


def relative_skill_difference(variant: DuelSums, base: DuelSums, top: str = TOP) -> Measure:
    """RS(variant) − RS(base), paired by cluster index: both were played with one seed, so
    cluster c holds the same deals in both, and the difference is far sharper than that of
    two independent runs. Its p-value (of "no difference") is what Holm adjusts over the
    rule sets."""
    if variant.clusters != base.clusters:
        raise ValueError(
            f"paired rule sets need the same clusters: {variant.clusters} and {base.clusters}"
        )
    sums = [(d.places[FLOOR], d.places[top], d.places[CEILING]) for d in (variant, base)]
    interval = relative_skill_difference_interval(*sums)
    return Measure.of(interval, variant.clusters)


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
    "edge",
    "exchange_effect",
    "holm",
    "long_run_sd",
    "mean_places",
    "n95",
    "persistence",
    "relative_skill",
    "relative_skill_difference",
]
