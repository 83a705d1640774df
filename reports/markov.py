"""The role chain: what the transition matrix says about how long an advantage lasts.

Reading the rounds of a player as a Markov chain on roles (P(role next | role now)),
three numbers summarise it: the stationary distribution (the long-run share of each
role), the expected tenure of a President (1 / (1 − P(President → President)): the
expected number of consecutive rounds as President, the first one included) and the
second-largest eigenvalue modulus (SLEM), the factor by which the memory of the current
role shrinks each round; its half-life is ln ½ / ln SLEM rounds.

Per-strategy chains come first: a player keeps his strategy, so his chain is a chain.
The pooled chain (every player together) mixes skill with memory — a strong player
is President again because he is strong, not because he was President — so its
persistence and half-life overstate memory in a mixed field.

These are not ratios of sums, so their intervals come from the delete-one-batch
jackknife of :mod:`simulator.stats` over the same batches of whole matches (or groups).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports.estimates import POOLED, with_pooled
from simulator.rules.roles import ROLE_NAMES
from simulator.stats import jackknife_interval


def chain_summary(transitions: pd.DataFrame) -> pd.DataFrame:
    """Stationary distribution, President tenure, SLEM and half-life per strategy, then
    pooled.

    Long format: ``strategy``, ``measure``, ``estimate``, ``lo``, ``hi``.
    """
    frame = with_pooled(transitions)
    roles = [r for r in ROLE_NAMES if r in set(frame["prev_role"]) | set(frame["role"])]
    batches = np.sort(frame["batch"].unique())
    names = [f"stationary {r}" for r in roles] + ["President tenure", "SLEM", "half-life"]
    strategies = [*sorted(set(frame["strategy"]) - {POOLED}), POOLED]
    rows = []
    for strategy in strategies:
        counts = batch_counts(frame[frame["strategy"] == strategy], roles, batches)
        total = counts.sum(axis=0)
        point = chain_measures(total[None])[0]
        leave_out = chain_measures(total[None] - counts).T
        with np.errstate(all="ignore"):
            est, lo, hi, _ = jackknife_interval(point, leave_out)
        for name, e, low, high in zip(names, est, lo, hi, strict=True):
            rows.append(
                {"strategy": strategy, "measure": name, "estimate": e, "lo": low, "hi": high}
            )
    return pd.DataFrame(rows)


def batch_counts(part: pd.DataFrame, roles: list[str], batches: np.ndarray) -> np.ndarray:
    """Transition counts as an array (batch, role now, role next)."""
    index = {r: i for i, r in enumerate(roles)}
    counts = np.zeros((len(batches), len(roles), len(roles)))
    b = np.searchsorted(batches, part["batch"].to_numpy())
    i = part["prev_role"].map(index).to_numpy()
    j = part["role"].map(index).to_numpy()
    np.add.at(counts, (b, i, j), part["rows"].to_numpy(float))
    return counts


def chain_measures(counts: np.ndarray) -> np.ndarray:
    """For each count matrix (stack of k×k): stationary shares, tenure, SLEM, half-life.

    A matrix with a role never left (an empty row) gives NaN everywhere.
    """
    k = counts.shape[1]
    totals = counts.sum(axis=2, keepdims=True)
    bad = (totals == 0).any(axis=(1, 2))
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(totals > 0, counts / totals, 0.0)
    p[bad] = np.eye(k)
    values, vectors = np.linalg.eig(np.swapaxes(p, 1, 2))
    first = np.argmin(np.abs(values - 1), axis=1)
    pi = np.real(np.take_along_axis(vectors, first[:, None, None], axis=2)[:, :, 0])
    pi = pi / pi.sum(axis=1, keepdims=True)
    moduli = np.sort(np.abs(values), axis=1)[:, ::-1]
    slem = moduli[:, 1] if k > 1 else np.zeros(len(p))
    with np.errstate(divide="ignore", invalid="ignore"):
        tenure = 1 / (1 - p[:, 0, 0])
        half_life = np.log(0.5) / np.log(slem)
    out = np.column_stack([pi, tenure, slem, half_life])
    out[bad] = np.nan
    return out
