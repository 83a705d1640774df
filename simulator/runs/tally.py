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

SEAT_SUMS = ("rounds", "places", "president", "scum", "luck", "xy", "xx", "yy")
# xy, xx, yy: luck × centred place, luck², centred place² (places centred on the mean
# place (n + 1)/2, every round's mean): the luck slope and R² of place on luck
AT = {name: i for i, name in enumerate(SEAT_SUMS)}
SUMS = ("rounds", "places", "president", "luck", "xy", "xx")  # a run keeps per batch, strategy
FIT = ("xy", "xx", "yy")  # a run keeps pooled over its rows


def luck(strength: np.ndarray) -> np.ndarray:
    """Each player's luck in a round: n × (his dealt-hand strength − the table's mean).

    Integers (n × the difference), so that under duplicate deals a group's luck sums to
    exactly zero for every strategy. ``strength`` is ``[rounds, n]``.
    """
    n = strength.shape[1]
    s = strength.astype(np.int64)
    table = s @ np.ones(n, dtype=np.int64)  # row sums: 4x faster than sum(axis=1) on n columns
    return n * s - table[:, None]


def cell_sums(
    cell: np.ndarray, place: np.ndarray, x: np.ndarray, players: int, cells: int
) -> np.ndarray:
    """``[cells, SEAT_SUMS]``: the sums of :data:`SEAT_SUMS` over the seat-rounds of each
    cell (``cell``, ``place``, ``x``: each seat-round's cell, place and luck, flat).

    The one tally of a run's sums by (cluster, strategy) cell: the run's :class:`Tally`,
    the report's standings (:func:`reports.chunk_sums.tally_standings`) and a tournament's
    clusters all count with it. Each sum is one ``bincount`` (milliseconds for a million
    seat-rounds), and exact: integers and halves held in floats, so the order in which
    parts are added never changes a sum.
    """
    place = place.astype(np.int64)
    x = x.astype(np.float64)
    centred = place - (players + 1) / 2
    per_seat = (None, place, place == 1, place == players, x, x * centred, x * x,
                centred * centred)  # fmt: skip
    return np.stack([np.bincount(cell, w, minlength=cells) for w in per_seat], axis=1)


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
        matches, when the caller has it already) by (batch, strategy): :func:`cell_sums`."""
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
        every = cell_sums(cell, place.ravel(), x.ravel(), n, count * k).reshape(count, k, -1)
        part = every[:, :, [AT[s] for s in SUMS]]
        self.rounds += part[:, :, 0].sum(axis=0).astype(np.int64)
        self.places += np.bincount(
            codes.ravel() * (n + 1) + place.ravel(), minlength=k * (n + 1)
        ).reshape(k, n + 1)
        self.fit += every[:, :, [AT[s] for s in FIT]].sum(axis=(0, 1))
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
