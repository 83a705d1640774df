"""``president simulate``: many matches on the kernel, written to parquet in parts.

A run is cut into parts of whole matches whose boundaries depend only on the job (never
on the number of workers), so the same seed and arguments give the same files. Each part
is computed by the kernel (numba threads over blocks of matches), turned into the output
table (:mod:`simulator.output`) and written to ``DIR/rounds.parquet/part-NNNNN.parquet``
while the next part is computed. A part is written to a temporary name and renamed, and
``DIR/manifest.json`` lists the finished parts, so an interrupted run leaves only complete
parts; ``summary.json`` is written last.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

import strategies
from simulator import __version__
from simulator.engines import ENGINES
from simulator.kernel.matches import (
    OUT_DEALER,
    OUT_LEADER,
    OUT_MATCH,
    OUT_PASSES,
    OUT_PLACE,
    OUT_PLAYS,
    OUT_POINTS,
    OUT_POS,
    OUT_ROUND,
    OUT_SKIPS,
    OUT_TOTAL,
    OUT_TRICKS,
    OUT_WINNER,
)
from simulator.output import frame_from_arrays
from simulator.rules import Rules

FORMAT = "president-sim/1"
PART_ROUNDS = 500_000  # rounds per part (a part is whole matches)
DEFAULT_ROUNDS = 1_000_000
DEFAULT_ROUNDS_PER_MATCH = 10
DEFAULT_MAX_ROUNDS = 1000


class SimulationError(ValueError):
    """A simulation that cannot be run as asked; the message says why."""


@dataclass(frozen=True)
class SimConfig:
    """Everything that determines a run's data (workers do not)."""

    rules: Rules
    strategies: tuple[str, ...]
    seed: int = 0
    matches: int | None = None  # None: play until ``rounds`` rounds
    rounds: int | None = None  # total rounds wanted when ``matches`` is None
    rounds_per_match: int | None = DEFAULT_ROUNDS_PER_MATCH  # None under a target
    max_rounds: int = DEFAULT_MAX_ROUNDS  # cut for matches under a target
    duplicate: bool = False  # groups of n matches share deals, strategies turning seats

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "strategies": list(self.strategies),
            "seed": self.seed,
            "matches": self.matches,
            "rounds": self.rounds,
            "rounds_per_match": self.rounds_per_match,
            "max_rounds": self.max_rounds,
            "duplicate": self.duplicate,
        }

    @property
    def part_matches(self) -> int:
        """Matches per part: fixed by the job, so parts never depend on workers."""
        per_match = self.rounds_per_match or max(8, 4 * self.rules.target)
        group = self.rules.players if self.duplicate else 1
        return max(1, PART_ROUNDS // per_match // group) * group

    def strategy_codes(self, match: np.ndarray) -> np.ndarray:
        """``[rows, n]``: index into ``names`` of each seat's strategy in each row's match.

        Under duplicate deals the strategies turn one seat per match of a group.
        """
        n = self.rules.players
        names = self.names
        base = np.array([names.index(s) for s in self.strategies])
        if not self.duplicate:
            return np.broadcast_to(base, (len(match), n))
        turn = match.astype(np.int64)[:, None] % n
        return base[(np.arange(n)[None, :] - turn) % n]

    @property
    def names(self) -> list[str]:
        """The distinct strategy names, in seat order."""
        return list(dict.fromkeys(self.strategies))


def make_config(
    rules: Rules,
    strategy_names: Sequence[str],
    seed: int = 0,
    matches: int | None = None,
    rounds: int | None = None,
    rounds_per_match: int | None = None,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    duplicate: bool = False,
) -> SimConfig:
    """Validate the command-line view of a job and resolve its defaults."""
    n = rules.players
    names = list(strategy_names)
    if len(names) == 1:
        names *= n
    if len(names) != n:
        raise SimulationError(
            f"{len(names)} strategies for {n} players (allowed: one name for all seats, "
            f"or exactly {n} names separated by commas)"
        )
    for name in names:
        strategies.get(name)
    if matches is not None and rounds is not None:
        raise SimulationError("give --matches or --rounds, not both")
    for label, value in (
        ("--matches", matches),
        ("--rounds", rounds),
        ("--rounds-per-match", rounds_per_match),
        ("--max-rounds", max_rounds),
    ):
        if value is not None and value <= 0:
            raise SimulationError(f"{label} must be a positive integer, not {value}")
    if rules.target:
        if rounds_per_match is not None:
            raise SimulationError(
                f"the rules have target = {rules.target}: matches end by the target rule "
                "(allowed: --max-rounds to cap them, or target = 0 with --rounds-per-match)"
            )
        if matches is None and rounds is None:
            rounds = DEFAULT_ROUNDS
        if duplicate and matches is not None:
            matches = math.ceil(matches / n) * n
        return SimConfig(rules, tuple(names), seed, matches, rounds, None, max_rounds, duplicate)
    k = rounds_per_match or DEFAULT_ROUNDS_PER_MATCH
    if matches is None:
        matches = math.ceil((rounds or DEFAULT_ROUNDS) / k)
    if duplicate:
        matches = math.ceil(matches / n) * n  # whole groups of duplicate matches
    return SimConfig(rules, tuple(names), seed, matches, None, k, max_rounds, duplicate)


# ---------------------------------------------------------------- rows to frames


def frame_from_rows(config: SimConfig, rows: np.ndarray) -> pd.DataFrame:
    """The output table of kernel rows (one per round) of whole matches."""
    n = config.rules.players
    r = len(rows)
    place = rows[:, OUT_PLACE : OUT_PLACE + n]
    match = rows[:, OUT_MATCH]
    prev = np.zeros_like(place)
    if r > 1:
        prev[1:] = place[:-1]
        prev[1:][match[1:] != match[:-1]] = 0
    players = np.arange(n)

    def per_player(col: int) -> np.ndarray:
        return rows[:, col : col + n].ravel()

    def per_round(col: int) -> np.ndarray:
        return np.repeat(rows[:, col], n)

    return frame_from_arrays(
        n,
        config.names,
        config.strategy_codes(match).ravel(),
        match=per_round(OUT_MATCH),
        round_=per_round(OUT_ROUND),
        seat=np.tile(players, r),
        place=place.ravel(),
        prev_place=prev.ravel(),
        points=per_player(OUT_POINTS),
        total=per_player(OUT_TOTAL),
        position=per_player(OUT_POS),
        dealt=(rows[:, OUT_DEALER, None] == players).ravel(),
        led=(rows[:, OUT_LEADER, None] == players).ravel(),
        tricks=per_round(OUT_TRICKS),
        plays=per_round(OUT_PLAYS),
        passes=per_round(OUT_PASSES),
        skips=per_round(OUT_SKIPS),
        won_match=(rows[:, OUT_WINNER, None] == players).ravel(),
    )


# ---------------------------------------------------------------- statistics


@dataclass
class Tally:
    """Running per-strategy counts, enough for the end-of-run table.

    The President rate's interval treats matches as clusters (rounds within a match are
    correlated): per match and strategy, y = President rounds and m = rounds played; the
    ratio estimator's variance is M/(M-1) · Σ(y - p·m)² / (Σm)², accumulated through
    Σy², Σym and Σm².
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

    def table(self) -> list[dict[str, Any]]:
        """Per strategy: rounds, place shares, mean place, President rate with a 95% interval."""
        out = []
        for si, name in enumerate(self.names):
            total = self.rounds[si]
            shares = self.places[si, 1:] / max(total, 1)
            mean_place = float((np.arange(1, self.players + 1) * shares).sum())
            big_m, sy, sm, syy, sym, smm = self.sums[si]
            p = sy / sm if sm else 0.0
            var = 0.0
            if big_m > 1 and sm:
                var = big_m / (big_m - 1) * (syy - 2 * p * sym + p * p * smm) / sm**2
            half = 1.959964 * math.sqrt(max(var, 0.0))
            out.append(
                {
                    "strategy": name,
                    "rounds": int(total),
                    "shares": shares.tolist(),
                    "mean_place": mean_place,
                    "president": p,
                    "president_low": max(0.0, p - half),
                    "president_high": min(1.0, p + half),
                }
            )
        return out


# ---------------------------------------------------------------- output folder


class OutputFolder:
    """``DIR`` of a run: parts, manifest, summary; refuses a folder holding something else."""

    def __init__(self, path: Path, config: SimConfig) -> None:
        self.path = path
        self.parts = path / "rounds.parquet"
        self.config = config

    def prepare(self) -> None:
        """Create the folder; refuse one that holds another run or foreign files."""
        if self.path.exists() and not self.path.is_dir():
            raise SimulationError(f"--out {self.path} is a file, not a folder")
        if self.path.is_dir() and any(self.path.iterdir()):
            if (self.path / "manifest.json").exists():
                raise SimulationError(
                    f"--out {self.path} already holds a run (allowed: an empty or new folder)"
                )
            raise SimulationError(
                f"--out {self.path} is not empty and holds no run (allowed: an empty or new folder)"
            )
        try:
            self.parts.mkdir(parents=True, exist_ok=True)
            probe = self.path / ".write-test"
            probe.write_text("")
            probe.unlink()
        except OSError as exc:
            raise SimulationError(f"--out {self.path} is not writable: {exc.strerror}") from None
        self._write_json(
            "manifest.json",
            {
                "format": FORMAT,
                "version": __version__,
                "config": self.config.to_json(),
                "parts": [],
                "complete": False,
            },
        )

    def write_part(self, index: int, frame: pd.DataFrame, matches: tuple[int, int]) -> None:
        """Write one part atomically and record it in the manifest."""
        name = f"part-{index:05d}.parquet"
        tmp = self.parts / f".{name}.tmp"
        table = pa.Table.from_pandas(frame, preserve_index=False)
        pq.write_table(table, tmp, compression="zstd")
        os.replace(tmp, self.parts / name)
        manifest = json.loads((self.path / "manifest.json").read_text())
        manifest["parts"].append(
            {"file": name, "first_match": matches[0], "end_match": matches[1], "rows": len(frame)}
        )
        self._write_json("manifest.json", manifest)

    def finish(self, summary: dict[str, Any]) -> None:
        manifest = json.loads((self.path / "manifest.json").read_text())
        manifest["complete"] = True
        self._write_json("manifest.json", manifest)
        self._write_json("summary.json", summary)

    def _write_json(self, name: str, data: dict[str, Any]) -> None:
        tmp = self.path / f".{name}.tmp"
        tmp.write_text(json.dumps(data, indent=2) + "\n")
        os.replace(tmp, self.path / name)


# ---------------------------------------------------------------- the run


@dataclass
class RunResult:
    """What a run produced: totals, the per-strategy table, timings."""

    matches: int
    rounds: int
    seconds: float
    table: list[dict[str, Any]]


def run(
    config: SimConfig,
    out: Path | None,
    workers: int = 1,
    progress: Callable[[int, int | None, float], None] | None = None,
    engine: str = "numba",
) -> RunResult:
    """Play the job; write ``out`` (when given) part by part; return the summary table.

    ``progress(rounds_done, rounds_expected, seconds)`` is called after each part;
    ``engine`` names one of :data:`simulator.engines.ENGINES` (the data never depends on it).
    """
    folder = OutputFolder(out, config) if out is not None else None
    if folder:
        folder.prepare()
    rows_of = ENGINES[engine](config, workers)
    tally = Tally(config.rules.players, config.names)
    expected = (
        config.matches * config.rounds_per_match
        if config.matches and config.rounds_per_match
        else config.rounds
    )
    started = time.perf_counter()
    done_rounds = 0
    m_lo = 0
    index = 0
    pending: Future | None = None
    with ThreadPoolExecutor(max_workers=1) as writer:
        while True:
            m_hi = m_lo + config.part_matches
            if config.matches is not None:
                m_hi = min(m_hi, config.matches)
            if m_hi <= m_lo:
                break
            rows = rows_of(m_lo, m_hi)
            if config.matches is None:
                rows, m_hi = _cut_at_rounds(rows, config.rounds - done_rounds, m_lo, m_hi)
            tally.add(config, rows)
            done_rounds += len(rows)
            if folder:
                if pending:
                    pending.result()
                pending = writer.submit(
                    folder.write_part, index, frame_from_rows(config, rows), (m_lo, m_hi)
                )
            index += 1
            m_lo = m_hi
            if progress:
                progress(done_rounds, expected, time.perf_counter() - started)
            if config.matches is None and done_rounds >= config.rounds:
                break
        if pending:
            pending.result()
    result = RunResult(m_lo, done_rounds, time.perf_counter() - started, tally.table())
    if folder:
        folder.finish(summary_of(config, result))
    return result


def _cut_at_rounds(rows: np.ndarray, wanted: int, m_lo: int, m_hi: int) -> tuple[np.ndarray, int]:
    """Keep whole matches up to the first one at which ``wanted`` rounds are reached."""
    if len(rows) < wanted:
        return rows, m_hi
    last_match = int(rows[wanted - 1, OUT_MATCH])
    keep = int(np.searchsorted(rows[:, OUT_MATCH], last_match, side="right"))
    return rows[:keep], last_match + 1


def summary_of(config: SimConfig, result: RunResult) -> dict[str, Any]:
    """``summary.json``: everything needed to repeat the run exactly, and its results."""
    return {
        "format": FORMAT,
        "version": __version__,
        **config.to_json(),
        "players": config.rules.players,
        "matches_played": result.matches,
        "rounds_played": result.rounds,
        "table": result.table,
    }
