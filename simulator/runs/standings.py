"""Strategy standings from per-cluster sums: ranking, pairwise differences, hand deciles.

``president tournament`` and the strategy section of ``president report`` both reduce
their rows to :class:`ClusterSums` — per cluster (an independent unit: a tournament's
deal group across all its tables, or a batch of a run's matches) and strategy, the sums
the estimates need — and this module turns them into tables, every interval through
:mod:`simulator.stats`:

* **ranking**: mean place, luck-adjusted mean place, President and Scum rates and the
  match win rate, each with its 95 % interval (CR1 ratios; score intervals for the rates;
  jackknife for the adjusted);
* **pairwise**: for each pair once (the better-ranked first), the difference of mean
  places where both sat at the same table, plain and luck-adjusted, with two-sided
  p-values and Holm's adjustment over all the pairs (stars mark Holm-adjusted p);
* **deciles**: each strategy's mean place by decile of the dealt-hand strength, where a
  strategy gains over another (weak hands or strong ones).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simulator.runs.tally import r_squared
from simulator.stats import (
    LuckAdjustment,
    holm,
    luck_sums,
    rates_by_cluster,
    ratio_difference,
    ratios_by_cluster,
    two_sided_p,
)

DECILES = 10


@dataclass
class ClusterSums:
    """Per cluster ``g`` and strategy ``s`` (arrays ``[G, S]``), and per pair.

    ``*_with[g, a, b]`` are strategy a's sums over the tables where b sat too (``a == b``:
    all of a's); ``decile_*[g, s, d]`` split a's rounds and places by the decile of the
    player's dealt-hand strength (``edges``: the 9 inner cut points).
    """

    names: list[str]
    rounds: np.ndarray
    places: np.ndarray
    president: np.ndarray
    scum: np.ndarray
    wins: np.ndarray
    matches: np.ndarray
    luck: np.ndarray
    rounds_with: np.ndarray
    places_with: np.ndarray
    luck_with: np.ndarray
    decile_rounds: np.ndarray
    decile_places: np.ndarray
    edges: np.ndarray
    fit: np.ndarray  # [G, 3], over each cluster's rows: luck × centred place, luck², centred place²

    @property
    def clusters(self) -> int:
        """G: the number of independent clusters."""
        return len(self.rounds)


@dataclass(frozen=True)
class Standings:
    """The strategy tables of a tournament or a run, and what their clusters are."""

    ranking: pd.DataFrame
    pairwise: pd.DataFrame
    deciles: pd.DataFrame
    clusters: int  # G
    cluster_label: str  # what a cluster is, in words
    luck_balanced: bool  # the luck sums to zero in every cluster: the adjustment is void
    r_squared: float | None  # the share of the place variance the luck explains (rows)


def standings_of(sums: ClusterSums, cluster_label: str) -> Standings:
    """Every table of the standings from the cluster sums."""
    rank = ranking(sums)
    return Standings(
        rank,
        pairwise(sums, list(rank["strategy"])),
        deciles(sums),
        sums.clusters,
        cluster_label,
        bool(np.all(sums.luck == 0)),
        r_squared(sums.fit.sum(axis=0)),
    )


def ranking(sums: ClusterSums) -> pd.DataFrame:
    """One row per strategy, best (luck-adjusted when it differs) mean place first."""
    columns: dict[str, object] = {
        "strategy": sums.names,
        "rounds": sums.rounds.sum(0).astype(np.int64),
    }
    estimates = {
        "mean_place": ratios_by_cluster(sums.places, sums.rounds),
        "adjusted": LuckAdjustment(
            luck_sums(sums.places, sums.rounds, sums.luck), sums.fit[:, :2]
        ).means(),
        "president": rates_by_cluster(sums.president, sums.rounds),
        "scum": rates_by_cluster(sums.scum, sums.rounds),
        "match_wins": rates_by_cluster(sums.wins, sums.matches),
    }
    for label, (est, lo, hi, _) in estimates.items():
        columns |= {label: est, f"{label}_lo": lo, f"{label}_hi": hi}
    order = np.lexsort((estimates["mean_place"][0], estimates["adjusted"][0]))
    return pd.DataFrame(columns).iloc[order].reset_index(drop=True)


def pairwise(sums: ClusterSums, order: Sequence[str]) -> pd.DataFrame:
    """Each pair once, ``a`` before ``b`` in ``order``: mean place of a minus that of b
    where both sat at the same table (negative: a places better), plain and luck-adjusted,
    with p-values and their Holm adjustment over all the pairs."""
    index = {name: i for i, name in enumerate(sums.names)}
    pairs = list(itertools.combinations(order, 2))
    if not pairs:
        return pd.DataFrame()
    a = np.array([index[p[0]] for p in pairs])
    b = np.array([index[p[1]] for p in pairs])

    def with_other(values: np.ndarray, mine: np.ndarray, other: np.ndarray) -> np.ndarray:
        return values[:, mine, other].T  # [pair, G]: a's sums where b sat too

    ya, ma = with_other(sums.places_with, a, b), with_other(sums.rounds_with, a, b)
    yb, mb = with_other(sums.places_with, b, a), with_other(sums.rounds_with, b, a)
    xa, xb = with_other(sums.luck_with, a, b), with_other(sums.luck_with, b, a)
    g = ((ma > 0) & (mb > 0)).sum(axis=1)
    est, lo, hi, se = ratio_difference(ya, ma, yb, mb)
    both = luck_sums(*(np.stack(v, axis=-1) for v in ((ya, yb), (ma, mb), (xa, xb))))
    adj, adj_lo, adj_hi, adj_se = LuckAdjustment(both, sums.fit[:, :2]).difference(0, 1)
    p, adj_p = two_sided_p(est, se, g), two_sided_p(adj, adj_se, g)
    return pd.DataFrame(
        {
            "a": [p[0] for p in pairs],
            "b": [p[1] for p in pairs],
            "clusters": g,
            "diff": est,
            "diff_lo": lo,
            "diff_hi": hi,
            "p_value": p,
            "adjusted": adj,
            "adjusted_lo": adj_lo,
            "adjusted_hi": adj_hi,
            "adjusted_p": adj_p,
            "p_holm": holm(p),
            "adjusted_p_holm": holm(adj_p),
        }
    )


def deciles(sums: ClusterSums) -> pd.DataFrame:
    """Mean place by decile of dealt-hand strength, per strategy, with intervals."""
    g, s, d = sums.decile_rounds.shape
    est, lo, hi, _ = ratios_by_cluster(
        sums.decile_places.reshape(g, s * d), sums.decile_rounds.reshape(g, s * d)
    )
    bounds = np.concatenate([[-np.inf], sums.edges, [np.inf]])
    return pd.DataFrame(
        {
            "strategy": np.repeat(sums.names, d),
            "decile": np.tile(np.arange(1, d + 1), s),
            "strength_from": np.tile(bounds[:-1], s),
            "strength_to": np.tile(bounds[1:], s),
            "rounds": sums.decile_rounds.sum(0).ravel().astype(np.int64),
            "estimate": est,
            "lo": lo,
            "hi": hi,
        }
    )


def decile_edges(strength: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """The 9 inner decile cut points of dealt-hand strengths (integers; with ``counts``,
    ``strength`` lists distinct values and ``counts`` how often each occurred)."""
    values = np.asarray(strength, dtype=float)
    weights = np.ones_like(values) if counts is None else np.asarray(counts, dtype=float)
    order = np.argsort(values, kind="stable")
    cumulative = np.cumsum(weights[order]) / weights.sum()
    targets = np.arange(1, DECILES) / DECILES
    return values[order][np.minimum(np.searchsorted(cumulative, targets), len(values) - 1)]


def decile_of(strength: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """0-based decile of each strength: values up to the first cut point are decile 0."""
    return np.searchsorted(edges, strength, side="left")


def stars(p: float) -> str:
    """``**`` below 0.01, ``*`` below 0.05 (Holm-adjusted p-values)."""
    return "**" if p < 0.01 else "*" if p < 0.05 else ""
