"""The one interval estimator: ratios of sums over independent clusters, with Student's t.

Rounds of a match are not independent (the roles of a round decide the next round's
exchange), and under duplicate deals neither are the matches that share their deals. So
every interval the project prints treats a *cluster* — the unit that is really
independent: a match, a batch of consecutive matches, or a duplicate group — as one
observation. An estimate is a ratio of sums R = Σy / Σm over the clusters (a rate:
y = the rounds where the event happens, m = the rounds; a mean: y = the summed value),
and its variance is the linearised (delta-method) between-cluster variance, the CR1
sandwich estimator:

    Var(R) = G / (G − 1) · Σ_g (y_g − R·m_g)² / (Σ_g m_g)²

with G clusters. The interval is R ± t(1 − α/2, G − 1) · √Var(R); with fewer than two
clusters there is none (NaN). A mean of one value per cluster (a paired difference) is
the case m_g = 1, where this is the familiar s / √G.

Everything here works from the six moment sums (G, Σy, Σm, Σy², Σym, Σm²), so that
running tallies, pandas groupings and cumulative sums all share this one formula.
"""

from __future__ import annotations

import numpy as np

LEVEL = 0.95  # every interval printed is a 95 % interval


def t_quantile(df: float | np.ndarray, level: float = LEVEL) -> np.ndarray:
    """Student's t quantile for a two-sided ``level`` interval (NaN for ``df < 1``)."""
    from scipy.special import stdtrit  # loaded on first use: it costs a tenth of a second

    df = np.asarray(df, dtype=float)
    with np.errstate(invalid="ignore"):
        return np.where(df >= 1, stdtrit(np.maximum(df, 1), 0.5 + level / 2), np.nan)


def ratio_from_sums(
    g: np.ndarray | float,
    sy: np.ndarray | float,
    sm: np.ndarray | float,
    syy: np.ndarray | float,
    sym: np.ndarray | float,
    smm: np.ndarray | float,
    level: float = LEVEL,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(estimate, low, high, standard error)`` of Σy/Σm from the clusters' moment sums.

    Arrays broadcast, so one call serves many estimates at once.
    """
    g, sy, sm, syy, sym, smm = (np.asarray(x, dtype=float) for x in (g, sy, sm, syy, sym, smm))
    with np.errstate(divide="ignore", invalid="ignore"):
        est = sy / sm
        ss = np.maximum(syy - 2 * est * sym + est * est * smm, 0.0)
        se = np.where(g > 1, np.sqrt(g / np.maximum(g - 1, 1) * ss) / sm, np.nan)
        half = t_quantile(g - 1, level) * se
    return est, est - half, est + half, se


def ratio_interval(
    y: np.ndarray, m: np.ndarray, level: float = LEVEL
) -> tuple[float, float, float, float]:
    """``(estimate, low, high, se)`` of Σy/Σm with one entry of ``y`` and ``m`` per cluster.

    Clusters with ``m = 0`` (where the quantity was not observed) do not count.
    """
    y = np.asarray(y, dtype=float)
    m = np.asarray(m, dtype=float)
    keep = m > 0
    y, m = y[keep], m[keep]
    sums = (len(m), y.sum(), m.sum(), (y * y).sum(), (y * m).sum(), (m * m).sum())
    return tuple(float(v) for v in ratio_from_sums(*sums, level=level))  # type: ignore[return-value]


def mean_interval(d: np.ndarray, level: float = LEVEL) -> tuple[float, float, float, float]:
    """``(mean, low, high, se)`` of one value per cluster (e.g. a paired difference)."""
    d = np.asarray(d, dtype=float)
    return ratio_interval(d, np.ones_like(d), level)


def two_sided_p(estimate: float, se: float, clusters: int) -> float:
    """The two-sided p-value of ``estimate = 0`` against Student's t with G − 1 df."""
    from scipy.special import stdtr

    if clusters < 2 or not se > 0:
        return float("nan")
    return float(2 * stdtr(clusters - 1, -abs(estimate) / se))
