"""The running per-strategy tally of a run: enough for the end-of-run table, merged part by part.

Each part's tally is stored in the manifest, so a resumed run rebuilds the same table.

Clusters: the intervals treat batches of whole independent units — matches, or
duplicate groups when matches share their deals — as the observations (sized for
:data:`simulator.stats.BATCHES` of them; every unit its own batch in small runs), so
the tally keeps, per batch and strategy, the sums the estimates need. The batches are
fixed by the job (:attr:`SimConfig.batch_matches`), never by parts or workers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulator.matchloop.matches import OUT_MATCH, SEAT_PLACE, SEAT_STRENGTH, seats
from simulator.runs.job import SimConfig
from simulator.stats import LuckAdjustment, luck_sums, rates_by_cluster, ratios_by_cluster

SUMS = ("rounds", "places", "president", "luck", "xy", "xx")  # per batch and strategy
# xy, xx: luck × centred place and luck² over the rows, for the luck slope (fitted on rows)
FIT = ("xy", "xx", "yy")  # pooled over rows: luck × centred place, luck², centred place²


def luck(strength: np.ndarray) -> np.ndarray:
    """Each player's luck in a round: n × (his dealt-hand strength − the table's mean).

    Integers (n × the difference), so that under duplicate deals a group's luck sums to
    exactly zero for every strategy. ``strength`` is ``[rounds, n]``.
    """
    n = strength.shape[1]
    s = strength.astype(np.int64)
    table = s @ np.ones(n, dtype=np.int64)  # row sums: 4x faster than sum(axis=1) on n columns
    return n * s - table[:, None]


def fit_sums(x: np.ndarray, place: np.ndarray, players: int) -> np.ndarray:
    """``[rounds, 3]``: per round (``x``, ``place``: ``[rounds, n]``) Σ luck × centred
    place, Σ luck², Σ centred place² over its seats (places centred on the mean place
    (n + 1)/2, which is every round's mean): the luck slope and R² of place on luck."""
    centred = 2 * place.astype(np.int64) - (players + 1)  # 2 × the centred place
    products = (x * centred / 2, x * x, centred * centred / 4)
    return np.stack([v.sum(axis=1) for v in products], axis=1).astype(np.float64)


def r_squared(fit: np.ndarray) -> float | None:
    """R² of place on luck within rounds, from Σxy, Σx², Σy² (both centred per round)."""
    xy, xx, yy = (float(v) for v in fit)
    return xy * xy / (xx * yy) if xx > 0 and yy > 0 else None


@dataclass
class Tally:
    """Running per-strategy counts and per-batch sums (see the module docstring)."""

    players: int
    names: list[str]
    rounds: np.ndarray = field(init=False)
    places: np.ndarray = field(init=False)
    first_batch: int = field(init=False, default=0)
    sums: np.ndarray = field(init=False)  # [batch - first_batch, strategy, SUMS]
    fit: np.ndarray = field(init=False)  # FIT

    def __post_init__(self) -> None:
        k = len(self.names)
        self.rounds = np.zeros(k, dtype=np.int64)
        self.places = np.zeros((k, self.players + 1), dtype=np.int64)
        self.sums = np.zeros((0, k, len(SUMS)), dtype=np.float64)
        self.fit = np.zeros(len(FIT), dtype=np.float64)

    def add(self, config: SimConfig, rows: np.ndarray, codes: np.ndarray | None = None) -> None:
        """Count the rows of whole matches (``codes``: ``config.strategy_codes`` of their
        matches, when the caller has it already).

        Every sum is one ``bincount`` over the (batch, strategy) of each seat-round: a
        part of a million rows costs milliseconds, not a pass per strategy.
        """
        n = self.players
        if not len(rows):
            return
        k = len(self.names)
        place = seats(rows, SEAT_PLACE, n).astype(np.int64)
        x = luck(seats(rows, SEAT_STRENGTH, n))
        if codes is None:
            codes = config.strategy_codes(rows[:, OUT_MATCH])
        batch = rows[:, OUT_MATCH].astype(np.int64) // config.batch_matches
        lo = int(batch[0])  # rows come in match order
        count = int(batch[-1]) - lo + 1
        cell = ((batch - lo)[:, None] * k + codes).ravel()  # (batch, strategy) of each seat
        place_flat, x_flat = place.ravel(), x.ravel().astype(np.float64)
        centred = place_flat - (n + 1) / 2
        part = np.empty((count, k, len(SUMS)))
        per_seat = (None, place_flat, place_flat == 1, x_flat, x_flat * centred, x_flat * x_flat)
        for i, weights in enumerate(per_seat):
            part[:, :, i] = np.bincount(cell, weights, minlength=count * k).reshape(count, k)
        self.rounds += part[:, :, 0].sum(axis=0).astype(np.int64)
        self.places += np.bincount(
            codes.ravel() * (n + 1) + place_flat, minlength=k * (n + 1)
        ).reshape(k, n + 1)
        self.fit += fit_sums(x, place, n).sum(axis=0)
        self._add_sums(lo, part)

    def _add_sums(self, lo: int, part: np.ndarray) -> None:
        """Add per-batch sums starting at batch ``lo``, growing the table as needed."""
        if not len(self.sums):
            self.first_batch = lo
        start = min(self.first_batch, lo)
        end = max(self.first_batch + len(self.sums), lo + len(part))
        grown = np.zeros((end - start, *self.sums.shape[1:]))
        grown[self.first_batch - start : self.first_batch - start + len(self.sums)] = self.sums
        grown[lo - start : lo - start + len(part)] += part
        self.first_batch, self.sums = start, grown

    def merge(self, other: Tally) -> None:
        """Add another tally's counts (a part's): every count is an integer, so the order
        in which parts are merged never changes the table."""
        self.rounds += other.rounds
        self.places += other.places
        self.fit += other.fit
        if len(other.sums):
            self._add_sums(other.first_batch, other.sums)

    def to_json(self) -> dict[str, Any]:
        """The counts, exactly (the sums are integers held in floats)."""
        return {
            "rounds": self.rounds.tolist(),
            "places": self.places.tolist(),
            "first_batch": self.first_batch,
            "sums": self.sums.tolist(),
            "fit": self.fit.tolist(),
        }

    @classmethod
    def from_json(cls, players: int, names: list[str], data: dict[str, Any]) -> Tally:
        tally = cls(players, names)
        tally.rounds[:] = data["rounds"]
        tally.places[:] = data["places"]
        tally.first_batch = data["first_batch"]
        tally.sums = np.array(data["sums"], dtype=np.float64).reshape(-1, len(names), len(SUMS))
        tally.fit[:] = data["fit"]
        return tally

    def clusters(self) -> np.ndarray:
        """The per-batch sums of the batches that hold rows: ``[G, strategy, SUMS]``."""
        return self.sums[self.sums[:, :, 0].sum(axis=1) > 0]

    def table(self) -> list[dict[str, Any]]:
        """Per strategy: seat-rounds, place shares, mean place, luck-adjusted mean place
        and President rate, each with its 95 % interval over the batches."""
        c = self.clusters()
        mean = ratios_by_cluster(c[:, :, 1], c[:, :, 0])
        president = rates_by_cluster(c[:, :, 2], c[:, :, 0])
        adjusted = self.luck_adjustment().means()
        out = []
        for si, name in enumerate(self.names):
            total = self.rounds[si]
            row: dict[str, Any] = {
                "strategy": name,
                "rounds": int(total),
                "shares": (self.places[si, 1:] / max(total, 1)).tolist(),
            }
            for key, (est, low, high, _) in (
                ("mean_place", mean),
                ("adjusted_mean_place", adjusted),
                ("president", president),
            ):
                row[key], row[f"{key}_low"], row[f"{key}_high"] = (
                    _plain(est[si]),
                    _plain(low[si]),
                    _plain(high[si]),
                )
            out.append(row)
        return out

    def luck_adjustment(self) -> LuckAdjustment:
        """The luck adjustment of the batches, its slope fitted on their rows."""
        c = self.clusters()
        luck_fit = c[:, :, 4:6].sum(axis=1)  # per batch: Σ luck × place, Σ luck²
        return LuckAdjustment(luck_sums(c[:, :, 1], c[:, :, 0], c[:, :, 3]), luck_fit)

    def estimation(self) -> dict[str, Any]:
        """How the table's intervals were computed (for summary.json): the clusters, the
        luck slope (expected places per point of dealt-hand strength above the table's
        mean, fitted on the rows) with its interval, and the share of the place variance
        the luck explains."""
        beta, low, high, _ = (float(v) * self.players for v in self.luck_adjustment().slope())
        return {
            "clusters": len(self.clusters()),
            "luck_slope": beta,
            "luck_slope_low": _plain(low),
            "luck_slope_high": _plain(high),
            "luck_r_squared": r_squared(self.fit),
        }


def _plain(value: float) -> float | None:
    """A float for JSON: None where there is no value (too few clusters)."""
    return None if np.isnan(value) else float(value)
