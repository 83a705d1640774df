"""95 % intervals that respect the correlation of rounds within a match.

Rounds of one match are not independent: the roles of a round decide the card exchange
of the next, so a President tends to stay President. A naive per-round binomial
interval would be far too narrow. Matches, on the other hand, are independent (each
draws from its own random streams), so the reports treat **matches** as the unit of
sampling.

Method (batch means, cluster-robust): the matches of a run are split into ``G``
consecutive batches (``reports.data.BATCHES``, about 256; with fewer matches every match
is its own batch, which is exactly the cluster-robust estimator with the match as
cluster). Every estimate is a ratio of sums R = Σy / Σn (a rate: y = 1 when the event
happens, n = 1 per row; a mean: y = the value), and its variance is the linearised
(delta-method) between-batch variance

    Var(R) = G / (G − 1) · Σ_b (y_b − R·n_b)² / (Σ_b n_b)²,

the CR1 sandwich estimator with batches as clusters. The interval is R ± t(0.975, G − 1)
· √Var(R). Quantities that are not ratios (the stationary distribution of the role
chain, its second eigenvalue, the President's tenure) get a percentile bootstrap over
the same batches (``reports.markov``), i.e. a block bootstrap by match.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

Z975 = 1.959963984540054  # the standard normal 97.5 % quantile
MAX_DIGITS = 6  # decimals shown at most, however narrow an interval


def t975(df: int | np.ndarray) -> np.ndarray:
    """Student's t 97.5 % quantile with ``df`` degrees of freedom (NaN below 3).

    Cornish–Fisher expansion (Abramowitz & Stegun 26.7.5): within 0.2 % of the exact
    value from 3 degrees of freedom on, which keeps scipy out of the runtime
    dependencies. With fewer than 4 batches no interval is given.
    """
    v = np.asarray(df, dtype=float)
    z = Z975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    with np.errstate(divide="ignore", invalid="ignore"):
        t = z + g1 / v + g2 / v**2 + g3 / v**3 + g4 / v**4
    return np.where(v >= 3, t, np.nan)


def ratio_ci(y: pd.Series, n: pd.Series, groups: int) -> pd.DataFrame:
    """Σy/Σn per group with its batch-means 95 % interval.

    ``y`` and ``n`` share a MultiIndex whose last level is ``batch`` (one entry per batch
    in which the group occurs; absent batches count as zero). ``groups`` is the number
    of non-empty batches in the run, the G of the module docstring.
    Returns ``estimate``, ``lo``, ``hi``, ``se`` and the denominator ``n`` per group.
    """
    levels = list(range(y.index.nlevels - 1))
    num = y.groupby(level=levels).sum()
    den = n.groupby(level=levels).sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        est = num / den
        resid = y - n * est.reindex(y.index.droplevel(-1)).to_numpy()
        ss = (resid**2).groupby(level=levels).sum()
        se = np.sqrt(groups / max(groups - 1, 1) * ss) / den
    half = se * t975(groups - 1)
    return pd.DataFrame({"estimate": est, "lo": est - half, "hi": est + half, "se": se, "n": den})


def cumulative_ratio_ci(y: np.ndarray, n: np.ndarray) -> pd.DataFrame:
    """The running estimate Σy/Σn and its interval after each batch, batches in order.

    Used for convergence plots: the interval after k batches is the batch-means
    interval of the first k batches (expanded sums avoid a loop over k).
    """
    cy, cn = np.cumsum(y), np.cumsum(n)
    cyy, cyn, cnn = np.cumsum(y * y), np.cumsum(y * n), np.cumsum(n * n)
    g = np.cumsum(n > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        est = cy / cn
        ss = np.maximum(cyy - 2 * est * cyn + est**2 * cnn, 0.0)
        se = np.sqrt(g / np.maximum(g - 1, 1) * ss) / cn
    half = se * t975(g - 1)
    return pd.DataFrame({"n": cn, "estimate": est, "lo": est - half, "hi": est + half})


def format_ci(estimate: float, lo: float, hi: float, digits: int = 3) -> str:
    """``0.312 [0.301, 0.323]``; the interval is left out when it could not be computed.

    ``digits`` is a minimum: narrow intervals get more digits, enough to show the
    half-width's first significant digit (large runs would otherwise print [0.472, 0.472]).
    """
    if math.isnan(estimate):
        return "–"
    if math.isnan(lo) or math.isnan(hi):
        return f"{estimate:.{digits}f}"
    half = (hi - lo) / 2
    if half > 0:
        digits = min(MAX_DIGITS, max(digits, -math.floor(math.log10(half))))
    return f"{estimate:.{digits}f} [{lo:.{digits}f}, {hi:.{digits}f}]"
