"""95 % intervals that respect the correlation of rounds within a match.

Rounds of one match are not independent: the roles of a round decide the card exchange
of the next, so a President tends to stay President. A naive per-round binomial
interval would be far too narrow. Matches, on the other hand, are independent (each
draws from its own random streams), so the reports treat **matches** as the unit of
sampling.

Method (batch means, cluster-robust): the matches of a run are split into ``G``
consecutive batches (``summary.json``'s ``batch_matches``, sized by the simulator for
:data:`simulator.stats.BATCHES` batches, more when a target's matches end sooner than the
job expected; with fewer matches every match is its own batch, which is exactly the cluster-robust estimator with the match as cluster; a batch never
splits a duplicate group). Every estimate is a ratio of sums R = Σy / Σn with the CR1
variance and Student's t on G − 1 degrees of freedom of :mod:`simulator.stats`, the one
estimator every command uses; a rate (a share, a transition probability) gets its score
interval on the effective sample size, which stays in [0, 1] and is never zero-width at
an observed 0 or 1, with t on the variance's own (Satterthwaite) degrees of freedom, fewer
than G − 1 when a few batches hold the events. Quantities that are not ratios of sums (the role chain's stationary
shares, its second eigenvalue, the President's tenure: :mod:`reports.markov`) get the
delete-one-batch jackknife of :mod:`simulator.stats` over the same batches instead.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.stats import fourth_powers, fourth_sums, rate_from_sums, ratio_from_sums


def ratio_ci(y: pd.Series, n: pd.Series, groups: int, rate: bool = False) -> pd.DataFrame:
    """Σy/Σn per group with its batch-means 95 % interval.

    ``y`` and ``n`` share a MultiIndex whose last level is ``batch`` (one entry per batch
    in which the group occurs; absent batches count as zero). ``groups`` is the number
    of non-empty batches in the run, the G of the module docstring. ``rate``: the ratio
    is a proportion (0 ≤ y ≤ n per batch), whose interval is the score interval of
    :func:`simulator.stats.rate_from_sums`.
    Returns ``estimate``, ``lo``, ``hi``, ``se`` and the denominator ``n`` per group.
    """
    levels = list(range(y.index.nlevels - 1))
    sums = pd.DataFrame({"y": y, "n": n, "yy": y * y, "yn": y * n, "nn": n * n})
    s = sums.groupby(level=levels).sum()
    moments = (groups, s["y"], s["n"], s["yy"], s["yn"], s["nn"])
    if rate:
        powers = fourth_powers(y.to_numpy(), n.to_numpy())  # of each batch, then per group
        fourth = pd.DataFrame(powers, index=y.index).groupby(level=levels).sum()
        est, lo, hi, se = rate_from_sums(*moments, fourth=tuple(fourth.to_numpy().T))
    else:
        est, lo, hi, se = ratio_from_sums(*moments)
    return pd.DataFrame({"estimate": est, "lo": lo, "hi": hi, "se": se, "n": s["n"]}, index=s.index)


def cumulative_ratio_ci(y: np.ndarray, n: np.ndarray, rate: bool = False) -> pd.DataFrame:
    """The running estimate Σy/Σn and its interval after each batch, batches in order.

    Used for convergence plots: the interval after k batches is the batch-means
    interval of the first k batches (expanded sums avoid a loop over k); ``rate`` as in
    :func:`ratio_ci`.
    """
    sums = (np.cumsum(n > 0), *(np.cumsum(v) for v in (y, n, y * y, y * n, n * n)))
    if rate:
        est, lo, hi, _ = rate_from_sums(*sums, fourth=fourth_sums(y, n, running=True))
    else:
        est, lo, hi, _ = ratio_from_sums(*sums)
    return pd.DataFrame({"n": sums[2], "estimate": est, "lo": lo, "hi": hi})
