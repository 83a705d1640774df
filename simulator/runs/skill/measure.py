"""The estimate-with-interval the skill measures return, and the ratio of cluster sums
most of them are (the estimator itself is :mod:`simulator.stats`'s)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulator.stats import Interval, ratio_from_sums, two_sided_p


@dataclass(frozen=True)
class Measure:
    """An estimate with its 95 % interval; ``low``/``high`` may be ∓inf (open-ended) and
    are NaN where there is no interval (fewer than two clusters). ``p_value`` is the
    two-sided p of "the true value is 0" where that question means something, else NaN."""

    estimate: float
    low: float
    high: float
    p_value: float = float("nan")

    @classmethod
    def of(cls, interval: Interval, clusters: int | None = None) -> Measure:
        """The measure of a scalar :data:`~simulator.stats.Interval`; with ``clusters``,
        its p-value too (Student's t with ``clusters`` − 1 degrees of freedom)."""
        est, low, high, se = (float(v) for v in interval)
        p = float(two_sided_p(est, se, clusters)) if clusters is not None else float("nan")
        return cls(est, low, high, p)

    @property
    def half_width(self) -> float:
        """Half the interval's width, the precision the atlas's sizes aim at: inf where
        there is no interval yet (too few clusters) or it is open-ended."""
        half = (self.high - self.low) / 2
        return half if np.isfinite(half) else math.inf


def cluster_ratio(y: np.ndarray, m: np.ndarray) -> Interval:
    """Σy/Σm over the last axis (the clusters) of ``[..., C]`` sums, every cluster counted:
    a denominator that is a difference may be 0 or negative in one cluster, which
    :func:`simulator.stats.ratio_interval` (made for rounds) would drop."""
    y, m = np.asarray(y, dtype=float), np.asarray(m, dtype=float)
    sums = (y.shape[-1], y.sum(-1), m.sum(-1), (y * y).sum(-1), (y * m).sum(-1), (m * m).sum(-1))
    return ratio_from_sums(*sums)
