"""95 % intervals that respect the correlation of rounds within a match.

Rounds of one match are not independent: the roles of a round decide the card exchange
of the next, so a President tends to stay President. A naive per-round binomial
interval would be far too narrow. Matches, on the other hand, are independent (each
draws from its own random streams), so the reports treat **matches** as the unit of
sampling.

Method (batch means, cluster-robust): the matches of a run are split into ``G``
consecutive batches (``reports.data.BATCHES``, about 256; with fewer matches every match
is its own batch, which is exactly the cluster-robust estimator with the match as
cluster; a batch never splits a duplicate group). Every estimate is a ratio of sums
R = Σy / Σn with the CR1 variance and Student's t on G − 1 degrees of freedom of
:mod:`simulator.stats`, the one estimator every command uses. Quantities that are not
ratios (the stationary distribution of the role chain, its second eigenvalue, the
President's tenure) get a percentile bootstrap over the same batches
(``reports.markov``), i.e. a block bootstrap by match.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from simulator.stats import ratio_from_sums

if TYPE_CHECKING:
    import pandas as pd

MAX_DIGITS = 6  # decimals shown at most, however narrow an interval
EXACT = 1e-9  # a half-width this small (relative) is floating-point noise, not uncertainty


def ratio_ci(y: pd.Series, n: pd.Series, groups: int) -> pd.DataFrame:
    """Σy/Σn per group with its batch-means 95 % interval.

    ``y`` and ``n`` share a MultiIndex whose last level is ``batch`` (one entry per batch
    in which the group occurs; absent batches count as zero). ``groups`` is the number
    of non-empty batches in the run, the G of the module docstring.
    Returns ``estimate``, ``lo``, ``hi``, ``se`` and the denominator ``n`` per group.
    """
    import pandas as pd  # here, so that format_ci loads without pandas (president simulate)

    levels = list(range(y.index.nlevels - 1))
    sums = pd.DataFrame({"y": y, "n": n, "yy": y * y, "yn": y * n, "nn": n * n})
    s = sums.groupby(level=levels).sum()
    est, lo, hi, se = ratio_from_sums(groups, s["y"], s["n"], s["yy"], s["yn"], s["nn"])
    return pd.DataFrame({"estimate": est, "lo": lo, "hi": hi, "se": se, "n": s["n"]}, index=s.index)


def cumulative_ratio_ci(y: np.ndarray, n: np.ndarray) -> pd.DataFrame:
    """The running estimate Σy/Σn and its interval after each batch, batches in order.

    Used for convergence plots: the interval after k batches is the batch-means
    interval of the first k batches (expanded sums avoid a loop over k).
    """
    import pandas as pd

    sums = (np.cumsum(n > 0), *(np.cumsum(v) for v in (y, n, y * y, y * n, n * n)))
    est, lo, hi, _ = ratio_from_sums(*sums)
    return pd.DataFrame({"n": sums[2], "estimate": est, "lo": lo, "hi": hi})


def format_ci(estimate: float, lo: float, hi: float, digits: int = 3) -> str:
    """``0.312 [0.301, 0.323]``; the interval is left out when it could not be computed,
    and when it is only rounding noise around an exact value (the pooled chain's
    stationary shares are exactly 1/n: ``0.250 (exact)``, not ``0.250000 [0.250000, …]``).

    ``digits`` is a minimum: narrow intervals get more digits, enough to show the
    half-width's first significant digit (large runs would otherwise print [0.472, 0.472]).
    """
    if math.isnan(estimate):
        return "–"
    if math.isnan(lo) or math.isnan(hi):
        return _fixed(estimate, digits)
    half = (hi - lo) / 2
    if 0 < half <= EXACT * max(1.0, abs(estimate)):
        return f"{_fixed(estimate, digits)} (exact)"
    digits = _digits_for(half, digits)
    return f"{_fixed(estimate, digits)} [{_fixed(lo, digits)}, {_fixed(hi, digits)}]"


def format_pm(estimate: float, lo: float, hi: float, digits: int = 3) -> str:
    """``1.818 ± 0.003``: :func:`format_ci` in less than two thirds of its width, for
    terminals too narrow for ``[lo, hi]``.

    ``±`` is used only when the interval is symmetric to the digits shown (its two
    half-widths differ by less than half a unit of the last digit): a t-interval always is, a score or logit interval of a rate
    near 0 or 1 need not be, and it keeps its ``[lo, hi]`` (``0.0088 [0.0086, 0.0091]``)
    rather than be shown as the symmetric interval it is not.
    """
    if math.isnan(estimate) or math.isnan(lo) or math.isnan(hi):
        return format_ci(estimate, lo, hi, digits)
    half = (hi - lo) / 2
    if 0 < half <= EXACT * max(1.0, abs(estimate)):
        return format_ci(estimate, lo, hi, digits)
    shown = _digits_for(half, digits)
    if abs((hi - estimate) - (estimate - lo)) >= 0.5 * 10.0**-shown:  # seen at these digits
        return format_ci(estimate, lo, hi, digits)
    return f"{_fixed(estimate, shown)} ± {_fixed(half, shown)}"


def _digits_for(half: float, digits: int) -> int:
    """``digits``, or more for a narrow interval: enough to show the first significant
    digit of its half-width ``half``, :data:`MAX_DIGITS` at most."""
    if half > 0:
        return min(MAX_DIGITS, max(digits, -math.floor(math.log10(half))))
    return digits


def _fixed(value: float, digits: int) -> str:
    """``value`` to ``digits`` decimals, without the sign of a value that rounds to zero:
    a difference of −0.00004 reads ``0.000``, not ``-0.000`` (which looks like a finding)."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and not text.strip("-0.") else text
