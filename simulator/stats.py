"""The one interval estimator: estimates over independent clusters, with Student's t.

Rounds of a match are not independent (the roles of a round decide the next round's
exchange), and under duplicate deals neither are the matches that share their deals. So
every interval the project prints treats a *cluster* — the unit that is really
independent: a match, a duplicate group, a tournament's deal group across its tables,
or a batch of consecutive whole units — as one observation. With G clusters:

* **Ratios of sums** R = Σy / Σm (a rate: y = the rounds where the event happens, m =
  the rounds; a mean: y = the summed value) have the linearised (delta-method)
  between-cluster variance, the CR1 sandwich estimator

      Var(R) = G / (G − 1) · Σ_g (y_g − R·m_g)² / (Σ_g m_g)²,

  computed from the six moment sums (G, Σy, Σm, Σy², Σym, Σm²), so that running
  tallies, pandas groupings and cumulative sums all share this one formula. A mean of
  one value per cluster is the case m_g = 1, the familiar s / √G.
* **Other smooth functions of cluster sums** (differences of ratios) use the same CR1
  variance of their per-cluster linearised contributions (:func:`influence_interval`).
* **Estimates with a fitted part** — the luck-adjusted means, whose regression slope is
  estimated on the same data (:class:`LuckAdjustment`), that slope itself, and the
  measures of ``president compare`` — use the delete-one-cluster jackknife,
  Var = (G − 1)/G · Σ_g (θ₍g₎ − θ̄)², which carries the uncertainty of the fitted part;
  for a ratio it equals the CR1 variance to first order.
* **Rates** (a proportion: y_g events among m_g trials) use the Wilson score interval
  with the effective sample size n_eff = R(1 − R)/Var(R) — the rounds Σm divided by the
  design effect of the clusters, Var(R) the CR1 variance above — and t(1 − α/2, ν) in
  place of z, ν below (:func:`rate_from_sums`). Away from 0 and 1 it is the CR1 interval to first
  order; near them it stays inside [0, 1] and is skewed the way a rare rate's error is.
  At an observed 0 (or 1) the design effect cannot be estimated (no event varies), so
  n_eff = Σm and the interval is [0, t²/(Σm + t²)] (the rule-of-three kind of bound,
  ≈ 3.8/Σm): honest when the trials are independent, as matches are.
  **Degrees of freedom of a rate:** a rare event that repeats within a match (a President
  tends to stay President) sits in a few clusters, so the CR1 variance — and the design
  effect — rests on those few, not on G: t(G − 1) then took a design effect estimated
  from a handful of spells at face value, and the interval fell below the truth when the
  run happened to see short ones (a 1 % rate repeating with probability 0.8, 100 clusters of 20 rounds:
  88 % coverage). So a rate's t has Satterthwaite's degrees of freedom of the variance,
  ν = 2·(Σe²)² / V̂ar(Σe²), V̂ar(Σe²) = G/(G − 1)·(Σe⁴ − (Σe²)²/G), e_g = y_g − R·m_g,
  rounded down and kept within [1, G − 1] (:func:`variance_df`): ν ≈ G − 1 when every
  cluster contributes alike (a common rate: the interval is unchanged), ν ≈ twice the
  number of clusters holding the events when they are rare (95.8–96.2 % coverage at
  0.5–2 % repeating with probability 0.8, tests/test_coverage_rates.py; the derivation
  and figures in docs/reports.md). It needs the fourth-order sums
  (:func:`fourth_sums`); a caller without them keeps G − 1 (the skill measures' shares:
  one trial per cluster, where no event can repeat, or a common rate).

Every other interval is θ ± t(1 − α/2, G − 1) · √Var(θ); with fewer than two clusters there
is none (NaN). Tests of several differences at once are Holm-adjusted (:func:`holm`).
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np

LEVEL = 0.95  # every interval printed is a 95 % interval
BATCHES = 256  # clusters a job's batches are sized for: larger runs group whole units

Interval = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # estimate, low, high, se
Sums = tuple[np.ndarray, ...]  # per-cluster power sums, one array per sum


def t_quantile(df: float | np.ndarray, level: float = LEVEL) -> np.ndarray:
    """Student's t quantile for a two-sided ``level`` interval (NaN for ``df < 1``).

    Computed here rather than with scipy, whose import (0.15 s) was a sixth of a short
    ``president simulate``: whole ``df`` below ``SERIES_DF`` solve the exact finite
    series of the t distribution, larger ones use Fisher's expansion in 1/df (both
    within 1e-12 of scipy, relative); only fractional small ``df``, which no caller has,
    go to scipy."""
    df = np.asarray(df, dtype=float)
    out = np.full(df.shape, np.nan)
    for value in np.unique(df[df >= 1]):
        out[df == value] = _t_quantile(float(value), level)
    return out


SERIES_DF = 1000  # Fisher's expansion to 1/df^4 is exact to rounding from here up (95 %)


# a run's running intervals (each strategy, each measure) ask for every df up to G − 1
@lru_cache(maxsize=8192)
def _t_quantile(df: float, level: float) -> float:
    if df >= SERIES_DF:
        return _fisher_expansion(df, level)
    if df != int(df):
        from scipy.special import stdtrit

        return float(stdtrit(df, 0.5 + level / 2))
    t = _fisher_expansion(df, level)
    for _ in range(100):  # Newton on the coverage, safeguarded to stay positive
        step = (_t_coverage(t, int(df)) - level) / _t_coverage_slope(t, df)
        t = t - step if step < t else t / 2
        if abs(step) <= 1e-15 * t:
            break
    return t


def _fisher_expansion(df: float, level: float) -> float:
    """The t quantile as the normal one plus its expansion in 1/df (Abramowitz &
    Stegun 26.7.5): within 1e-15 for df ≥ ``SERIES_DF``, a start for Newton below."""
    z = NormalDist().inv_cdf(0.5 + level / 2)
    z2 = z * z
    g1 = (z2 + 1) * z / 4
    g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
    g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
    g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
    return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df


def _t_coverage(t: float, df: int) -> float:
    """P(|T| ≤ t) for whole ``df``: the finite series of Abramowitz & Stegun 26.7.3–4
    in θ = atan(t / √df), a sum of positive terms (no cancellation)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    odd = df % 2
    term, total = (math.cos(theta), math.cos(theta)) if odd else (1.0, 1.0)
    for k in range(2 + odd, df - 1, 2):  # the ratio of successive terms: (k - 1)/k · cos²θ
        term *= (k - 1) / k * c2
        total += term
    if not odd:
        return math.sin(theta) * total
    return 2 / math.pi * (theta + (math.sin(theta) * total if df > 1 else 0.0))


def _t_coverage_slope(t: float, df: float) -> float:
    """d/dt P(|T| ≤ t): twice the t density."""
    log_norm = math.lgamma((df + 1) / 2) - math.lgamma(df / 2) - 0.5 * math.log(df * math.pi)
    return 2 * math.exp(log_norm - (df + 1) / 2 * math.log1p(t * t / df))


def _interval(est: np.ndarray, se: np.ndarray, g: np.ndarray | float, level: float) -> Interval:
    half = t_quantile(np.asarray(g, dtype=float) - 1, level) * se
    return est, est - half, est + half, se


def ratio_from_sums(
    g: np.ndarray | float,
    sy: np.ndarray | float,
    sm: np.ndarray | float,
    syy: np.ndarray | float,
    sym: np.ndarray | float,
    smm: np.ndarray | float,
    level: float = LEVEL,
) -> Interval:
    """``(estimate, low, high, standard error)`` of Σy/Σm from the clusters' moment sums.

    Arrays broadcast, so one call serves many estimates at once.
    """
    g, sy, sm, syy, sym, smm = (np.asarray(x, dtype=float) for x in (g, sy, sm, syy, sym, smm))
    with np.errstate(divide="ignore", invalid="ignore"):
        est = sy / sm
        ss = _residual_ss(est, syy, sym, smm)
        se = np.where(g > 1, np.sqrt(g / np.maximum(g - 1, 1) * ss) / sm, np.nan)
        return _interval(est, se, g, level)


def _residual_ss(est: np.ndarray, syy: np.ndarray, sym: np.ndarray, smm: np.ndarray) -> np.ndarray:
    """Σ_g (y_g − est·m_g)² from the moment sums (never below 0 by rounding)."""
    return np.maximum(syy - 2 * est * sym + est * est * smm, 0.0)


def fourth_powers(y: np.ndarray, m: np.ndarray) -> np.ndarray:
    """``[..., 5]``: y⁴, y³m, y²m², ym³, m⁴ of each cluster's count ``y`` and trials ``m``,
    whose sums over the clusters a rate's degrees of freedom need (:func:`variance_df`)."""
    y = np.asarray(y, dtype=float)[..., None]
    m = np.asarray(m, dtype=float)[..., None]
    k = np.arange(5)
    return y ** (4 - k) * m**k


def fourth_sums(y: np.ndarray, m: np.ndarray, axis: int = 0, running: bool = False) -> Sums:
    """Σy⁴, Σy³m, Σy²m², Σym³, Σm⁴ (:func:`fourth_powers`) over the clusters (``axis``;
    ``running``: the sums after each cluster, for a running estimate)."""
    total = np.cumsum if running else np.sum
    return tuple(np.moveaxis(total(fourth_powers(y, m), axis=axis), -1, 0))


def variance_df(g: np.ndarray | float, est: np.ndarray, ss: np.ndarray, fourth: Sums) -> np.ndarray:
    """Satterthwaite's degrees of freedom of the CR1 variance of Σy/Σm = ``est``, whose
    residual sum of squares is ``ss`` = Σe², e_g = y_g − est·m_g: ν = 2·(Σe²)²/V̂ar(Σe²)
    with V̂ar(Σe²) = G/(G − 1)·(Σe⁴ − (Σe²)²/G) (module docstring), rounded down (whole
    df keep :func:`t_quantile` exact without scipy) and kept within [1, G − 1]; G − 1
    where Σe⁴ does not vary (a rate exact or at 0 or 1)."""
    g = np.asarray(g, dtype=float)
    y4, y3m, y2m2, ym3, m4 = (np.asarray(v, dtype=float) for v in fourth)
    e4 = y4 - 4 * est * y3m + 6 * est**2 * y2m2 - 4 * est**3 * ym3 + est**4 * m4
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = g / (g - 1) * (e4 - ss * ss / g)
        nu = np.floor(2 * ss * ss / spread)
    return np.where((spread > 0) & np.isfinite(nu), np.clip(nu, 1, g - 1), g - 1)


def rate_from_sums(
    g: np.ndarray | float,
    sy: np.ndarray | float,
    sm: np.ndarray | float,
    syy: np.ndarray | float,
    sym: np.ndarray | float,
    smm: np.ndarray | float,
    level: float = LEVEL,
    fourth: Sums | None = None,
) -> Interval:
    """``(estimate, low, high, standard error)`` of a rate Σy/Σm (0 ≤ y_g ≤ m_g) from the
    clusters' moment sums: the Wilson score interval on the effective sample size (module
    docstring), never zero-width at an observed 0 or 1, never outside [0, 1]; with the
    :func:`fourth_sums`, t has the variance's own degrees of freedom (:func:`variance_df`).

    The CR1 interval's ± is symmetric, so for a rare event it reached below 0 and, when
    no event happened, had width 0 (``0.000 ± 0.000``); a 1 % rate with 30 clusters was
    covered in 84 % of runs. The score interval holds 93–97 % down to 0.2 % (tests)."""
    est, _, _, se = ratio_from_sums(g, sy, sm, syy, sym, smm, level)
    sm = np.asarray(sm, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        edge = (est <= 0) | (est >= 1)
        n_eff = np.where(edge, sm, est * (1 - est) / se**2)  # inf when the rate is exact
        df = np.asarray(g, dtype=float) - 1
        if fourth is not None:
            ss = _residual_ss(est, *(np.asarray(v, dtype=float) for v in (syy, sym, smm)))
            df = np.where(edge, df, variance_df(g, est, ss, fourth))
        t2 = t_quantile(df, level) ** 2 / n_eff
        centre = (est + t2 / 2) / (1 + t2)
        half = np.sqrt(t2 * est * (1 - est) + t2 * t2 / 4) / (1 + t2)
        # the score interval holds its estimate; at a rate of exactly 0 or 1 rounding put
        # the bound a hair inside it (0.9999999999999999 at 1 with numpy 1.26)
        low, high = np.minimum(centre - half, est), np.maximum(centre + half, est)
    return est, low, high, se


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


def ratios_by_cluster(y: np.ndarray, m: np.ndarray, level: float = LEVEL) -> Interval:
    """Σy/Σm for every column of ``[G, k]`` per-cluster sums, all clusters counted."""
    return ratio_from_sums(*_column_sums(y, m), level=level)


def _column_sums(y: np.ndarray, m: np.ndarray) -> tuple[object, ...]:
    """G and the five moment sums of ``[G, k]`` per-cluster sums, per column."""
    y = np.asarray(y, dtype=float)
    m = np.asarray(m, dtype=float)
    return (len(y), y.sum(0), m.sum(0), (y * y).sum(0), (y * m).sum(0), (m * m).sum(0))


def rates_by_cluster(y: np.ndarray, m: np.ndarray, level: float = LEVEL) -> Interval:
    """The rate Σy/Σm for every column of ``[G, k]`` per-cluster counts (:func:`rate_from_sums`,
    with the variance's degrees of freedom)."""
    return rate_from_sums(*_column_sums(y, m), level=level, fourth=fourth_sums(y, m))


def mean_interval(d: np.ndarray, level: float = LEVEL) -> tuple[float, float, float, float]:
    """``(mean, low, high, se)`` of one value per cluster (e.g. a paired difference)."""
    d = np.asarray(d, dtype=float)
    return ratio_interval(d, np.ones_like(d), level)


def influence_interval(
    estimate: np.ndarray, influence: np.ndarray, level: float = LEVEL
) -> Interval:
    """The CR1 interval of an estimate from its per-cluster linearised contributions.

    ``influence[..., g]`` is cluster g's first-order contribution to ``estimate - truth``
    (for Σy/Σm: (y_g − R·m_g)/Σm); Var = G/(G−1)·Σ_g (ψ_g − ψ̄)².
    """
    influence = np.asarray(influence, dtype=float)
    g = influence.shape[-1]
    centred = influence - influence.mean(axis=-1, keepdims=True)
    with np.errstate(invalid="ignore"):
        se = np.sqrt(g / max(g - 1, 1) * (centred**2).sum(axis=-1)) if g > 1 else np.nan
    return _interval(np.asarray(estimate, dtype=float), np.asarray(se, dtype=float), g, level)


def ratio_difference(
    ya: np.ndarray, ma: np.ndarray, yb: np.ndarray, mb: np.ndarray, level: float = LEVEL
) -> Interval:
    """Σy_a/Σm_a − Σy_b/Σm_b from per-cluster sums ``[..., G]`` of the same clusters.

    Both ratios move with the shared clusters (the same deals), so the difference's
    variance is that of the clusters' joint contributions, covariance included.
    """
    ya, ma, yb, mb = (np.asarray(v, dtype=float) for v in (ya, ma, yb, mb))
    with np.errstate(divide="ignore", invalid="ignore"):
        total_a, total_b = ma.sum(-1, keepdims=True), mb.sum(-1, keepdims=True)
        ra, rb = ya.sum(-1, keepdims=True) / total_a, yb.sum(-1, keepdims=True) / total_b
        psi = (ya - ra * ma) / total_a - (yb - rb * mb) / total_b
    return influence_interval((ra - rb)[..., 0], psi, level)


def jackknife_interval(full: np.ndarray, leave_out: np.ndarray, level: float = LEVEL) -> Interval:
    """Delete-one-cluster jackknife: ``full[...]`` on all clusters, ``leave_out[..., g]``
    without cluster g; the interval is centred on the full-data estimate."""
    full = np.asarray(full, dtype=float)
    leave_out = np.asarray(leave_out, dtype=float)
    g = leave_out.shape[-1]
    with np.errstate(invalid="ignore"):
        spread = leave_out - leave_out.mean(axis=-1, keepdims=True)
        se = (
            np.sqrt((g - 1) / g * (spread**2).sum(axis=-1)) if g > 1 else np.full_like(full, np.nan)
        )
    return _interval(full, se, g, level)


def two_sided_p(
    estimate: float | np.ndarray, se: float | np.ndarray, clusters: int | np.ndarray
) -> np.ndarray:
    """The two-sided p-value of ``estimate = 0`` against Student's t with G − 1 df (NaN
    with fewer than two clusters or no spread); arrays broadcast."""
    from scipy.special import stdtr

    estimate, se, g = (np.asarray(v, dtype=float) for v in (estimate, se, clusters))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = 2 * stdtr(np.maximum(g - 1, 1), -np.abs(estimate) / se)
    return np.where((g >= 2) & (se > 0), p, np.nan)


def holm(p_values: np.ndarray) -> np.ndarray:
    """Holm's step-down adjustment: the family-wise error of all the tests stays ≤ α
    when each adjusted p-value is compared with α. NaN p-values stay NaN and do not count."""
    p = np.asarray(p_values, dtype=float)
    out = np.full_like(p, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    order = ok[np.argsort(p[ok], kind="stable")]
    k = len(order)
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (k - i) * p[j]))
        out[j] = running
    return out


def batch_units(units: int, batches: int = BATCHES) -> int:
    """Whole units (matches, duplicate groups) per batch so that there are at most
    ``batches`` batches: every unit its own cluster when there are few."""
    return max(1, -(-units // batches))


LUCK_SUMS = ("y", "m", "x")  # per cluster and strategy: places, rounds, luck
FIT_SUMS = ("xy", "xx")  # per cluster, over its rows: luck × place, luck²


def luck_sums(y: np.ndarray, m: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``[..., G, 3, S]``: per cluster and strategy the :data:`LUCK_SUMS`, from per-cluster
    sums of place ``y``, rounds ``m`` and luck ``x`` (``[..., G, S]``)."""
    return np.stack([np.asarray(v, dtype=float) for v in (y, m, x)], axis=-2)


def _slope(fit: np.ndarray) -> np.ndarray:
    """Σxy / Σx² from ``fit[..., 2]`` (0 where the luck never varies)."""
    xy, xx = fit[..., 0], fit[..., 1]
    return np.where(xx > 0, xy / np.where(xx > 0, xx, 1.0), 0.0)


def _adjusted(t: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """θ_s = R_s − β·Q_s from totals ``t[..., 3, S]`` (the :data:`LUCK_SUMS`)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (t[..., 0, :] - beta * t[..., 2, :]) / t[..., 1, :]


class LuckAdjustment:
    """Luck-adjusted mean places (control variates) with jackknife intervals.

    Per strategy s, with per-cluster sums of place y, rounds m and luck x (the dealt-hand
    strength minus the table's mean, expectation 0 for every player and strategy):
    θ_s = (Σy − β·Σx)/Σm. Because E[x] = 0, θ_s estimates the same mean place as Σy/Σm
    with the part of the cards' luck that x explains removed, whatever β is.

    β is the **row-level** slope of place on luck over every seat-round of the data,
    β = Σxy / Σx² (``fit``: per cluster, those two sums over its rows). Each round's luck
    sums to 0 and its places to a constant, so this is exactly the ordinary least-squares
    slope (with intercept) of place on luck over all rows, and the same slope with round
    or cluster fixed effects: a reader can refit it from ``rounds.parquet``. It is
    stable as a run grows; a slope fitted on the G cluster totals instead (as before)
    kept the noise of G points, however large the run (0.0058 at 1 M rounds, 0.0091 at
    10 M, for a row slope of 0.0059). The delete-one-cluster jackknife refits β without
    each cluster, so its uncertainty is in every interval, and :meth:`slope` gives β's
    own interval, clustered like every other. Differences θ_a − θ_b share β and the
    clusters. Leading axes of ``sums`` (``[..., G, 3, S]``) are problems that share the
    one slope of ``fit`` (``[G, 2]``).
    """

    def __init__(self, sums: np.ndarray, fit: np.ndarray, level: float = LEVEL) -> None:
        self.level = level
        fit = np.asarray(fit, dtype=float)
        total, fit_total = sums.sum(axis=-3), fit.sum(axis=0)
        self.beta = _slope(fit_total)
        self.beta_leave_out = _slope(fit_total - fit)  # [G]
        self.full = _adjusted(total, self.beta)
        leave_out = _adjusted(total[..., None, :, :] - sums, self.beta_leave_out[:, None])
        self.leave_out = np.swapaxes(leave_out, -1, -2)

    def slope(self) -> Interval:
        """β and its delete-one-cluster jackknife interval."""
        return jackknife_interval(self.beta, self.beta_leave_out, self.level)

    def means(self) -> Interval:
        """Each strategy's adjusted mean place and its interval."""
        return jackknife_interval(self.full, self.leave_out, self.level)

    def difference(self, a: int, b: int) -> Interval:
        """θ_a − θ_b (negative: strategy a places better after the luck is removed)."""
        return jackknife_interval(
            self.full[..., a] - self.full[..., b],
            self.leave_out[..., a, :] - self.leave_out[..., b, :],
            self.level,
        )
