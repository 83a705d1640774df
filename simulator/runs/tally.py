"""The running per-strategy tally of a run: enough for the end-of-run table, merged part by part.

Each part's tally is stored in the manifest, so a resumed run rebuilds the same table.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simulator.matchloop.matches import OUT_MATCH, OUT_PLACE
from simulator.runs.job import SimConfig
from simulator.stats import ratio_from_sums


@dataclass
class Tally:
    """Running per-strategy counts, enough for the end-of-run table.

    The President rate's interval treats matches as clusters (rounds within a match are
    correlated): per match and strategy, y = President rounds and m = rounds played,
    accumulated as the moment sums of :mod:`simulator.stats`.
    """

    players: int
    names: list[str]
    rounds: np.ndarray = field(init=False)
    places: np.ndarray = field(init=False)
    sums: np.ndarray = field(init=False)  # per strategy: M, Σy, Σm, Σy², Σym, Σm²

    def __post_init__(self) -> None:
        k = len(self.names)
        self.rounds = np.zeros(k, dtype=np.int64)
        self.places = np.zeros((k, self.players + 1), dtype=np.int64)
        self.sums = np.zeros((k, 6), dtype=np.float64)

    def add(self, config: SimConfig, rows: np.ndarray) -> None:
        n = self.players
        place = rows[:, OUT_PLACE : OUT_PLACE + n]
        match = rows[:, OUT_MATCH].astype(np.int64)
        _, match_idx = np.unique(match, return_inverse=True)
        nmatch = match_idx.max() + 1 if len(match) else 0
        codes = config.strategy_codes(match)
        for si in range(len(self.names)):
            mine = codes == si
            self.rounds[si] += mine.sum()
            self.places[si] += np.bincount(place[mine], minlength=n + 1)
            y = np.bincount(match_idx, weights=((place == 1) & mine).sum(axis=1), minlength=nmatch)
            m = np.bincount(match_idx, weights=mine.sum(axis=1), minlength=nmatch)
            self.sums[si] += [nmatch, y.sum(), m.sum(), (y * y).sum(), (y * m).sum(), (m * m).sum()]

    def merge(self, other: Tally) -> None:
        """Add another tally's counts (a part's): every count is an integer, so the order
        in which parts are merged never changes the table."""
        self.rounds += other.rounds
        self.places += other.places
        self.sums += other.sums

    def to_json(self) -> dict[str, Any]:
        """The counts, exactly (the sums are integers held in floats)."""
        return {
            "rounds": self.rounds.tolist(),
            "places": self.places.tolist(),
            "sums": self.sums.tolist(),
        }

    @classmethod
    def from_json(cls, players: int, names: list[str], data: dict[str, Any]) -> Tally:
        tally = cls(players, names)
        tally.rounds[:] = data["rounds"]
        tally.places[:] = data["places"]
        tally.sums[:] = data["sums"]
        return tally

    def table(self) -> list[dict[str, Any]]:
        """Per strategy: seat-rounds, place shares, mean place, President rate with its 95 %
        interval (matches as clusters, :func:`simulator.stats.ratio_from_sums`)."""
        est, low, high, _ = ratio_from_sums(*self.sums.T)
        out = []
        for si, name in enumerate(self.names):
            total = self.rounds[si]
            shares = self.places[si, 1:] / max(total, 1)
            out.append(
                {
                    "strategy": name,
                    "rounds": int(total),
                    "shares": shares.tolist(),
                    "mean_place": float((np.arange(1, self.players + 1) * shares).sum()),
                    "president": float(est[si]) if self.sums[si, 2] else 0.0,
                    "president_low": float(max(0.0, low[si])),
                    "president_high": float(min(1.0, high[si])),
                }
            )
        return out
