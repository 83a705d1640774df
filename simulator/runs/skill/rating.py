"""A ladder-wide rating from whole finishing orders: the Plackett–Luce model, fitted by
penalised maximum likelihood, with 95 % intervals from a cluster bootstrap
(``docs/skill.md``, "The rating and the skill depth").

Plackett (1975) and Luce (1959): item i has a strength γ_i = exp(θ_i), and a round's
finishing order is drawn place by place, the next place going to each player still in
play with probability proportional to its strength. An order (a ≻ b ≻ c ≻ d) is then
three independent choices — a from {a, b, c, d}, b from {b, c, d}, c from {c, d} — so the
log-likelihood of many orders depends on the data only through how often each choice
(a set, its winner) occurred: :func:`choices` reduces the orders to those counts per
cluster, and a bootstrap replicate is the same counts re-weighted by how often it drew
each cluster.

**The fit.** The penalised negative log-likelihood
Σ_e n_e (log Σ_{j∈S_e} e^{θ_j} − θ_{w_e}) + α Σ_i θ_i² — the objective of ``choix``'s
``opt_rankings`` (Hunter 2004's MM and ``choix``'s LSR reach its maximiser too) — is
convex, and :func:`fit` minimises it by Newton's method for every replicate at once.
``choix`` itself loops in Python over every order and takes no weights: measured on
24,000 orders of 4, 0.6 s per fit (``ilsr_rankings``) and 200 s (``opt_rankings``), so
the bootstrap's 200 re-weighted fits of two data sets would cost minutes per rule set
and the coverage test hours; here a fit takes milliseconds, and the tests check that
it is ``choix``'s maximiser to 1e-6. The small ridge α (:data:`ALPHA`) fixes the common
level (the likelihood sees only differences) and keeps an item that a tiny replicate
shows winning every choice finite; against thousands of orders its pull on a
difference is far below the sampling error.

**The interval.** Clusters (duplicate deal groups, whose rounds share their cards) are
resampled with replacement, the same draws for every item (and, for a paired
difference, for both data sets: :func:`paired_spread`). The interval is the estimate ±
t(C − 1) × the bootstrap standard error and its p-value the matching two-sided t: with a
modest number of replicates the standard error is stable while the 2.5 % and 97.5 %
quantiles each rest on a handful of replicates, a percentile interval could not give
the small p-values that Holm's adjustment over rule sets needs, and Student's t with
C − 1 degrees of freedom is what the atlas's other (CR1) intervals use.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulator.runs.skill.measure import Measure
from simulator.stats import t_quantile, two_sided_p

ALPHA = 0.01  # the ridge on Σθ² (module docstring)
REPLICATES = 200  # bootstrap replicates of a rating
SEED = 39  # of the bootstrap's draws: the same intervals on every run
NEWTON_STEPS = 30  # ample: from θ = 0 the fits settle to 1e-10 in under ten
MAX_STEP = 2.0  # the largest change of one θ in one Newton step (a safeguard, rarely met)


@dataclass(frozen=True)
class Choices:
    """Finishing orders reduced to their choices: choice e is the set ``sets[e]`` (a mask
    over the items) with winner ``winner[e]``; ``counts[c, e]`` how often it occurred in
    cluster c."""

    sets: np.ndarray  # [E, items] bool
    winner: np.ndarray  # [E] int
    counts: np.ndarray  # [C, E] float

    @property
    def items(self) -> int:
        return int(self.sets.shape[1])

    @property
    def clusters(self) -> int:
        return int(self.counts.shape[0])


def choices(orders: np.ndarray, cluster: np.ndarray, items: int, clusters: int) -> Choices:
    """The choices of finishing orders ``orders`` ``[R, n]`` (item indices, first place
    first; every order over n distinct items) in clusters ``cluster`` ``[R]`` (0 to
    ``clusters`` − 1)."""
    orders = np.asarray(orders, dtype=np.int64)
    n = orders.shape[1]
    bits = np.left_shift(np.int64(1), orders)  # each item's bit
    remaining = np.cumsum(bits[:, ::-1], axis=1)[:, ::-1]  # the items still in play
    keys = (remaining[:, : n - 1] * items + orders[:, : n - 1]).ravel()  # (set, winner)
    unique, event = np.unique(keys, return_inverse=True)
    where = np.repeat(np.asarray(cluster, dtype=np.int64), n - 1)
    counts = np.zeros((clusters, len(unique)))
    np.add.at(counts, (where, event.ravel()), 1.0)
    masks = unique // items
    sets = (masks[:, None] >> np.arange(items)) & 1 == 1
    return Choices(sets, unique % items, counts)


def fit(
    sets: np.ndarray, winner: np.ndarray, counts: np.ndarray, alpha: float = ALPHA
) -> np.ndarray:
    """The penalised maximum-likelihood θ (mean 0) of the choices' counts ``[..., E]``, for
    every leading index at once (a bootstrap's replicates)."""
    counts = np.asarray(counts, dtype=float)
    items = sets.shape[1]
    wins = counts @ (np.arange(items) == winner[:, None]).astype(float)  # [..., items]
    theta = np.zeros((*counts.shape[:-1], items))
    eye = np.eye(items)
    for _ in range(NEWTON_STEPS):
        logits = np.where(sets, theta[..., None, :], -np.inf)  # [..., E, items]
        p = np.exp(logits - logits.max(-1, keepdims=True))
        p /= p.sum(-1, keepdims=True)
        expected = counts[..., None] * p  # each choice's expected wins, weighted
        grad = expected.sum(-2) - wins + 2 * alpha * theta
        hess = np.einsum("...ei,ij->...ij", expected, eye) - np.einsum(
            "...ei,...ej->...ij", expected, p
        )
        step = np.linalg.solve(hess + 2 * alpha * eye, grad[..., None])[..., 0]
        theta = theta - np.clip(step, -MAX_STEP, MAX_STEP)
        if np.abs(step).max() < 1e-10:
            break
    return theta


def draws(clusters: int, replicates: int = REPLICATES, seed: int = SEED) -> np.ndarray:
    """How often each of ``replicates`` bootstrap replicates draws each cluster ``[B, C]``
    (C draws with replacement each)."""
    rng = np.random.default_rng(seed)
    picks = rng.integers(0, clusters, size=(replicates, clusters))
    return np.stack([np.bincount(row, minlength=clusters) for row in picks]).astype(float)


def _measure(estimate: float, boot: np.ndarray, clusters: int) -> Measure:
    """The estimate ± t(C − 1) × the replicates' standard error, and its two-sided p. The
    bootstrap's variance of a mean over C clusters is (C − 1)/C of the unbiased one: the
    standard error is scaled back by √(C/(C − 1)), as CR1 scales the sandwich."""
    se = (
        float(np.std(boot, ddof=1) * np.sqrt(clusters / (clusters - 1)))
        if clusters > 1
        else float("nan")
    )
    half = float(t_quantile(clusters - 1)) * se if clusters > 1 else float("nan")
    return Measure(estimate, estimate - half, estimate + half,
                   float(two_sided_p(estimate, se, clusters)))  # fmt: skip


@dataclass(frozen=True)
class Ratings:
    """Every item's θ (the full data's fit) and its bootstrap replicates ``[B, items]``,
    from :func:`ratings`."""

    theta: np.ndarray
    boot: np.ndarray
    clusters: int

    def rating(self, item: int, reference: int = 0) -> Measure:
        """θ_item − θ_reference: the log of how much more often ``item`` would take a
        place against ``reference`` than ``reference`` against it."""
        return self.spread(item, reference)

    def spread(self, a: int, b: int) -> Measure:
        """θ_a − θ_b with its interval (the skill depth when a is the top rung and b
        ``random``); its p-value: of "a and b are equally strong"."""
        diff = self.boot[:, a] - self.boot[:, b]
        return _measure(float(self.theta[a] - self.theta[b]), diff, self.clusters)


def ratings(data: Choices, weights: np.ndarray | None = None) -> Ratings:
    """The fit of ``data`` and its replicates under the bootstrap ``weights`` ``[B, C]``
    (default: :func:`draws` over its clusters)."""
    w = draws(data.clusters) if weights is None else weights
    total = data.counts.sum(0)
    theta = fit(data.sets, data.winner, total)
    return Ratings(theta, fit(data.sets, data.winner, w @ data.counts), data.clusters)


def paired_spread(variant: Choices, base: Choices, a: int, b: int) -> Measure:
    """(θ_a − θ_b)(variant) − (θ_a − θ_b)(base), the clusters paired by index (the same
    deals): each replicate draws the same clusters in both, so what the deals do to both
    cancels. Its p-value: of "the spread is the same"."""
    if variant.clusters != base.clusters:
        raise ValueError(
            f"paired data sets need the same clusters: {variant.clusters} and {base.clusters}"
        )
    w = draws(variant.clusters)
    return spread_difference(ratings(variant, w), ratings(base, w), a, b)


def spread_difference(variant: Ratings, base: Ratings, a: int, b: int) -> Measure:
    """(θ_a − θ_b)(variant) − (θ_a − θ_b)(base) from two fits whose replicates drew the
    same clusters (:func:`paired_spread`)."""
    v, s = variant, base
    boot = (v.boot[:, a] - v.boot[:, b]) - (s.boot[:, a] - s.boot[:, b])
    estimate = float(v.theta[a] - v.theta[b] - (s.theta[a] - s.theta[b]))
    return _measure(estimate, boot, v.clusters)
