"""How many rounds until skill shows: σ, the long-run spread per round of the difference
of place between two players in ordinary matches, and N95 = (1.645 σ / Δ)².

If the better of two players gains |Δ| places a round on average and the difference of
their totals after N rounds spreads as σ√N, he leads after N rounds with probability
about Φ(√N |Δ| / σ), which reaches 0.95 at N95 = (1.645 σ / Δ)² (Fiedler and Rock's
form; ``docs/skill.md``). The rounds of a match are not independent — the roles of one
round decide the next round's exchange — so σ² is the *long-run* variance, read from
whole-match sums: σ² = Var(match sum) / rounds per match, the matches being the
clusters. Where N95 comes out under :data:`DIRECT_BELOW` rounds the normal approximation
is poor, and N95 is counted directly instead: the first N at which the better player
leads in 95 % of the sequences of ordinary matches played one after another.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from simulator.runs.skill.measure import Measure
from simulator.stats import Interval, jackknife_interval, rate_from_sums

Z95 = 1.6448536269514722  # the one-sided 95 % normal quantile of N95's definition
LEAD = 0.95  # N95: the probability with which the better player leads
DIRECT_BELOW = 30  # N95 under this many rounds is counted directly (normal approximation poor)
HORIZON = 2 * DIRECT_BELOW  # rounds a direct count follows (consecutive matches chained)


def _long_run_var(sums: np.ndarray, g: int) -> np.ndarray:
    """σ² from sums over ``g`` matches, ``sums`` = (Σs, Σm, Σs², Σsm, Σm²) on the first
    axis: G/(G − 1) · Σ(s_j − μ m_j)² / Σm_j with μ = Σs/Σm; not a number from one match
    (a spread needs two: a tiny atlas's leave-one-out of two matches)."""
    ss, sm, sss, ssm, smm = sums
    with np.errstate(divide="ignore", invalid="ignore"):
        mu = ss / sm
        q = np.maximum(sss - 2 * mu * ssm + mu * mu * smm, 0.0)
        return (g / (g - 1) if g > 1 else np.nan) * q / sm


def long_run_sd_interval(match_diff: np.ndarray, match_rounds: np.ndarray) -> Interval:
    """σ and its delete-one-match jackknife interval from per-match sums ``[..., M]``."""
    s = np.asarray(match_diff, dtype=float)
    m = np.asarray(match_rounds, dtype=float)
    g = s.shape[-1]
    parts = np.stack([s, m, s * s, s * m, m * m])  # [5, ..., M]
    total = parts.sum(-1)
    full = np.sqrt(_long_run_var(total, g))
    leave_out = np.sqrt(_long_run_var(total[..., None] - parts, g - 1))
    return jackknife_interval(full, leave_out)


def long_run_sd(match_diff: np.ndarray, match_rounds: np.ndarray) -> Measure:
    """σ per round of place_A − place_B in ordinary matches (roles carried from round to
    round): ``match_diff`` the per-match sums of the difference, ``match_rounds`` their
    rounds. Matches are independent; the rounds within one are not, and σ² = Var(match
    sum)/rounds counts their correlation: the per-round variance s² becomes the long-run
    s²(1 + 2Σρ_k), ρ_k the correlation of rounds k apart."""
    return Measure.of(long_run_sd_interval(match_diff, match_rounds))


def n95_bounds(
    delta: np.ndarray, delta_half: np.ndarray, sd: np.ndarray, sd_half: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """N95 and its interval from Δ and σ with their 95 % half-widths (arrays broadcast).

    The interval is built on the scale where the error is nearly normal and linear, the
    standardised edge e = |Δ|/σ = 1.645/√N95: the two independent errors (Δ from duplicate
    deals, σ from ordinary matches) add in quadrature, h_e² = (h_Δ/σ)² + (e·h_σ/σ)², and
    N95 = (1.645/e)² maps [e − h_e, e + h_e] to [low, high]. When the interval of e (or
    of Δ) holds 0 the better player is not known and the interval has no upper end."""
    delta, delta_half, sd, sd_half = np.broadcast_arrays(
        *(np.asarray(v, dtype=float) for v in (delta, delta_half, sd, sd_half))
    )
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.abs(delta) / sd
        half = np.hypot(delta_half / sd, e * sd_half / sd)
        estimate = (Z95 / e) ** 2
        low = (Z95 / (e + half)) ** 2
        open_ended = (e - half <= 0) | (np.abs(delta) <= delta_half)
        high = np.where(open_ended, np.inf, (Z95 / (e - half)) ** 2)
    return estimate, low, high


def n95(
    delta: Measure, sd: Measure, by_round: np.ndarray | Sequence[np.ndarray] | None = None
) -> Measure:
    """N95 = (1.645 σ/Δ)², the rounds after which the better of A and B leads on total
    place with probability 0.95, with its interval (:func:`n95_bounds`; open-ended when
    Δ's interval holds 0). Where it comes out under :data:`DIRECT_BELOW` and ``by_round``
    is given — a ``(matches, rounds)`` array of per-round place_A − place_B in ordinary
    matches, or one array per match — it is counted directly instead (:func:`direct_n95`),
    when they hold at least two runs of :data:`HORIZON` rounds."""
    est, low, high = (
        float(v) for v in n95_bounds(delta.estimate, delta.half_width, sd.estimate, sd.half_width)
    )
    if by_round is not None and est < DIRECT_BELOW and _chains(by_round, HORIZON).size >= 2:
        return direct_n95(by_round, better=-1 if delta.estimate < 0 else 1)
    return Measure(est, low, high)  # (or too few matches to count: the formula stands)


def direct_n95(by_round: np.ndarray | Sequence[np.ndarray], better: int) -> Measure:
    """The first N at which the better player leads on total place in ≥ 95 % of the runs
    of N rounds of consecutive ordinary matches, with an interval from the score
    intervals of those shares: low = the first N whose interval reaches 0.95, high = the
    first N whose interval lies above it (inf when none within :data:`HORIZON` rounds).

    ``by_round`` holds each match's per-round place_A − place_B, in the order played: a
    ``(matches, rounds)`` array, or one array per match when their lengths differ (under
    a target). ``better`` is −1 when A is the better player (place_A − place_B < 0 on
    average), +1 when B is. For each N, consecutive whole matches are chained until they
    hold N rounds, so each run starts as a match does and every match serves the N within
    one match; a run is one cluster (a tie is not a lead)."""
    matches = [np.asarray(m, dtype=float) for m in by_round]
    if _chains(matches, HORIZON).size < 2:
        raise ValueError(f"a direct N95 needs two runs of {HORIZON} rounds of whole matches")
    lengths = np.array([len(m) for m in matches])
    prefix = np.concatenate([[0.0], np.cumsum(np.concatenate(matches))])
    count, ahead = np.zeros(HORIZON), np.zeros(HORIZON)
    for n in range(1, HORIZON + 1):
        starts = _chains(matches, n, lengths)
        total = prefix[starts + n] - prefix[starts]  # each run's first n rounds
        count[n - 1], ahead[n - 1] = len(starts), np.sum(total * better > 0)
    share, lo, hi, _ = rate_from_sums(count, ahead, count, ahead, ahead, count)
    return Measure(*(_first_round(v >= LEAD) for v in (share, hi, lo)))


def _chains(
    matches: Sequence[np.ndarray], rounds: int, lengths: np.ndarray | None = None
) -> np.ndarray:
    """Where each run of consecutive whole matches holding ``rounds`` rounds starts (an
    offset into the rounds of all the matches), the runs taken one after the other; an
    incomplete last run is dropped."""
    lengths = np.array([len(m) for m in matches]) if lengths is None else lengths
    offsets = np.concatenate([[0], np.cumsum(lengths)])
    if len(lengths) and (lengths == lengths[0]).all():  # one length: every k-th match
        k = -(-rounds // int(lengths[0]))
        return offsets[: len(lengths) // k * k : k].astype(np.int64)
    starts, held = [], rounds
    for i, length in enumerate(lengths):
        if held >= rounds:  # the last run is full: this match starts a new one
            starts.append(offsets[i])
            held = 0
        held += length
    if held < rounds and starts:
        starts.pop()
    return np.asarray(starts, dtype=np.int64)


def _first_round(reached: np.ndarray) -> float:
    """The first N (from 1) where ``reached`` holds, inf if nowhere."""
    hits = np.flatnonzero(reached)
    return float(hits[0] + 1) if len(hits) else math.inf
