"""What the deal and the roles decide, from the rounds of ordinary matches: the share of
the deal (R² of place on the dealt hand's strength), persistence (P(President stays
President) against its no-memory baseline) and the exchange's effect on the next round.

The arrays are the kernel's wide form: one row per round, one column per player (the
seat he held at the start of the match), ``[rounds, n]``; ``clusters`` gives each round's
cluster (its match, or a batch of whole matches), the unit every interval treats as
independent. ``prev_place`` is the player's place in the previous round of the match, 0
in a match's first round (:func:`previous_places`).
"""

from __future__ import annotations

import numpy as np

from simulator.runs.skill.measure import Measure
from simulator.runs.tally import AT, FIT, cell_sums, luck
from simulator.stats import jackknife_interval, rate_from_sums


def previous_places(place: np.ndarray, match: np.ndarray) -> np.ndarray:
    """Each player's place one round earlier in the same match, 0 in its first round
    (rows in match order, rounds in order within a match)."""
    place = np.asarray(place)
    match = np.asarray(match)
    prev = np.zeros_like(place)
    prev[1:] = place[:-1]
    first = np.ones(len(match), dtype=bool)
    first[1:] = match[1:] != match[:-1]
    prev[first] = 0
    return prev


def _codes(clusters: np.ndarray) -> tuple[np.ndarray, int]:
    """Each round's cluster as 0 … G − 1, and G."""
    labels, codes = np.unique(np.asarray(clusters), return_inverse=True)
    return codes.ravel(), len(labels)


def _by_cluster(codes: np.ndarray, count: int, *weights: np.ndarray) -> np.ndarray:
    """``[len(weights), G]``: per cluster, the sums of each per-round weight."""
    return np.stack([np.bincount(codes, w, minlength=count) for w in weights])


def deal_r2(place: np.ndarray, strength: np.ndarray, clusters: np.ndarray) -> Measure:
    """R² of place on the dealt hand's strength, within rounds: the share of the spread of
    places that the cards dealt explain linearly, with its delete-one-cluster jackknife
    interval, inside [0, 1]. The sums are a run's own luck fit
    (:func:`simulator.runs.tally.cell_sums`: luck = strength minus the round's mean, place
    minus the round's mean place), so over all the rounds of a run it is the run's
    ``luck_r_squared``.

    Pass the rounds it should read: the first round of each match (before any exchange)
    or the later ones (after it) — :func:`deal_r2_by_exchange`."""
    place = np.asarray(place)
    n = place.shape[1]
    codes, count = _codes(clusters)
    cells = cell_sums(np.repeat(codes, n), place.ravel(), luck(np.asarray(strength)).ravel(),
                      n, count)  # fmt: skip
    sums = cells[:, [AT[k] for k in FIT]].T  # [(Σxy, Σx², Σy²), G]
    total = sums.sum(1)
    interval = jackknife_interval(_r2(total), _r2(total[:, None] - sums))
    est, low, high, _ = (float(v) for v in interval)
    return Measure(est, max(low, 0.0), min(high, 1.0))


def _r2(sums: np.ndarray) -> np.ndarray:
    """Σxy² / (Σx² Σy²) from the sums (Σxy, Σx², Σy²) on the first axis."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return sums[0] ** 2 / (sums[1] * sums[2])


def deal_r2_by_exchange(
    place: np.ndarray, prev_place: np.ndarray, strength: np.ndarray, clusters: np.ndarray
) -> tuple[Measure, Measure]:
    """The share of the deal before the exchange (each match's first round, where no roles
    exist yet) and after it (every later round: the cards then held are the deal moved by
    the exchange, which the roles — earned by play — decide)."""
    first = np.asarray(prev_place)[:, 0] == 0
    place, strength, clusters = (np.asarray(v) for v in (place, strength, clusters))
    before, after = (deal_r2(place[r], strength[r], clusters[r]) for r in (first, ~first))
    return before, after


def persistence(
    prev_place: np.ndarray,
    place: np.ndarray,
    clusters: np.ndarray,
    players: np.ndarray | None = None,
) -> tuple[Measure, float]:
    """P(President → President): the share of rounds (with a previous round) that the
    previous round's President wins again, with the score interval of a rate over the
    clusters; and its no-memory baseline, the same probability if each round forgot the
    last, Σ_i p_i² over the players i with their President rates p_i (1/n for equals).

    ``players`` labels who sits in each column (``[rounds, n]``, e.g. strategy codes when
    line-ups rotate; players with one label are taken as equals); by default each column
    is its own player."""
    prev_place, place = np.asarray(prev_place), np.asarray(place)
    rows = prev_place[:, 0] > 0
    prev_place, place = prev_place[rows], place[rows]
    stays = ((prev_place == 1) & (place == 1)).any(axis=1).astype(float)
    codes, count = _codes(np.asarray(clusters)[rows])
    y, m = _by_cluster(codes, count, stays, np.ones_like(stays))
    rate = rate_from_sums(count, y.sum(), m.sum(), (y * y).sum(), (y * m).sum(), (m * m).sum())
    return Measure.of(rate), _no_memory(place, _labels(players, rows, place.shape[1]))


def _labels(players: np.ndarray | None, rows: np.ndarray, n: int) -> np.ndarray:
    """The player label of each cell of the kept ``rows`` (default: the column)."""
    if players is None:
        return np.broadcast_to(np.arange(n), (int(rows.sum()), n))
    return np.asarray(players)[rows]


def _no_memory(place: np.ndarray, labels: np.ndarray) -> float:
    """Σ_i p_i² per round, averaged: p_i the President rate of player i's label (per
    seat-round), normalised so that one of each round's players is President."""
    _, codes = np.unique(labels, return_inverse=True)
    codes = codes.reshape(labels.shape)
    top = np.bincount(codes.ravel(), (place == 1).ravel().astype(float))
    rate = top / np.bincount(codes.ravel())
    p = rate[codes]
    return float(((p * p).sum(1) / p.sum(1)).mean())


def exchange_effect(
    prev_place: np.ndarray,
    place: np.ndarray,
    clusters: np.ndarray,
    players: np.ndarray | None = None,
) -> Measure:
    """The effect of last round's roles on this round's place: how many places worse a
    player finishes after a round as Scum than after a round as President — the same
    player (``players``' label, default the column) compared with himself, so that his
    skill cancels and only what the roles carry into the round remains (chiefly the
    exchange; also who deals and who leads). Under rules without an exchange it measures
    those other carry-overs alone (``french`` without it: −0.2, the Scum opening the next
    round), so the exchange's own part is the difference between two rule sets.

    Per label s, d_s = mean place after Scum − mean place after President; the labels are
    pooled with weights n_S·n_P/(n_S + n_P) (their rounds after each role), and the
    interval is the delete-one-cluster jackknife. Its p-value is that of "the roles carry
    nothing"."""
    prev_place, place = np.asarray(prev_place), np.asarray(place)
    rows = prev_place[:, 0] > 0
    n = place.shape[1]
    labels = _labels(players, rows, n)
    prev_place, place = prev_place[rows], place[rows]
    _, label_codes = np.unique(labels, return_inverse=True)
    label_codes = label_codes.reshape(labels.shape)
    k = int(label_codes.max()) + 1
    codes, count = _codes(np.asarray(clusters)[rows])
    cell = (codes[:, None] * k + label_codes).ravel()
    after_scum, after_president = (prev_place == n).ravel(), (prev_place == 1).ravel()
    weights = (after_scum, place.ravel() * after_scum, after_president,
               place.ravel() * after_president)  # fmt: skip
    sums = np.stack([np.bincount(cell, w, minlength=count * k) for w in weights])
    sums = sums.reshape(4, count, k)  # [4, G, labels]
    total = sums.sum(1)
    interval = jackknife_interval(_gap(total), _gap(total[:, None] - sums))
    return Measure.of(interval, count)


def _gap(s: np.ndarray) -> np.ndarray:
    """The pooled within-label gap from (n_S, Σplace_S, n_P, Σplace_P) on the first axis
    and labels on the last."""
    n_s, y_s, n_p, y_p = s
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.where((n_s > 0) & (n_p > 0), n_s * n_p / (n_s + n_p), 0.0)
        d = np.where(w > 0, y_s / np.where(n_s > 0, n_s, 1) - y_p / np.where(n_p > 0, n_p, 1), 0)
        return (w * d).sum(-1) / w.sum(-1)
