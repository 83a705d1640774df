"""``president simulate``: many matches on the kernel, written to parquet in parts.

A run is cut into parts of whole matches whose boundaries depend only on the job (never
on the number of workers), so the same seed and arguments give the same files. Each part
is computed by the kernel (numba threads over blocks of matches), turned into the output
table (:mod:`simulator.output`) and written to ``DIR/rounds.parquet/part-NNNNN.parquet``
while the next part is computed. A part is written to a temporary name and renamed, and
``DIR/manifest.json`` lists the finished parts, so an interrupted run leaves only complete
parts; ``summary.json`` is written last.

A run is resumable: :func:`resume` reads the manifest (the job, the part size and each
finished part with its share of the end-of-run table), checks the parts, removes what an
interrupted write left behind and computes the missing parts only, so the finished
folder equals an uninterrupted run's byte for byte.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
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
from simulator.engines import EngineError, open_engine
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
from simulator.rules import Rules, RulesError, rules_from_mapping

FORMAT = "president-sim/1"
PART_ROUNDS = 250_000  # rounds per part (whole matches); 10 M rounds of 5 players peak at 0.6 GiB
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

    @classmethod
    def from_json(cls, data: Any) -> SimConfig:
        """The job :meth:`to_json` wrote, validated as the command line would be."""
        try:
            for key in ("seed", "max_rounds", "matches", "rounds", "rounds_per_match"):
                if not isinstance(data[key], int | None) or isinstance(data[key], bool):
                    raise TypeError(f"{key} = {data[key]!r} is not an integer")
            config = make_config(
                rules_from_mapping(data["rules"]),
                data["strategies"],
                data["seed"],
                data["matches"],
                data["rounds"],
                data["rounds_per_match"],
                data["max_rounds"],
                data["duplicate"],
            )
        except (KeyError, TypeError) as exc:
            raise SimulationError(f"the job is incomplete or malformed ({exc!r})") from None
        except (RulesError, strategies.StrategyError) as exc:
            raise SimulationError(f"the job is invalid: {exc}") from None
        if config.to_json() != data:
            raise SimulationError("the job does not read back to itself (edited by hand?)")
        return config

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

PART_NAME = re.compile(r"part-(\d{5})\.parquet")
LEFTOVER = re.compile(r"\.part-\d{5}\.parquet\.tmp")


class OutputFolder:
    """``DIR`` of a run: parts, manifest, summary; refuses a folder holding something else.

    The manifest is the single source of truth: a part counts only once it is renamed
    into place *and* listed there, so a run killed at any moment leaves listed parts that
    are complete, and at most one unlisted file, which :meth:`reopen` removes.
    """

    def __init__(self, path: Path, config: SimConfig, part_matches: int) -> None:
        self.path = path
        self.parts = path / "rounds.parquet"
        self.config = config
        self.part_matches = part_matches
        self.manifest: dict[str, Any] = {
            "format": FORMAT,
            "version": __version__,
            "config": config.to_json(),
            "part_matches": part_matches,
            "parts": [],
            "complete": False,
        }
        self.dropped: list[str] = []  # damaged parts found by reopen, computed again

    def prepare(self) -> None:
        """Create the folder; refuse one that holds another run or foreign files."""
        if self.path.exists() and not self.path.is_dir():
            raise SimulationError(f"--out {self.path} is a file, not a folder")
        if self.path.is_dir() and any(self.path.iterdir()):
            if (self.path / "manifest.json").exists():
                raise SimulationError(
                    f"--out {self.path} already holds a run (allowed: an empty or new folder, "
                    f"or --resume {self.path} to finish it)"
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
        self._save_manifest()

    @classmethod
    def reopen(cls, path: Path) -> OutputFolder:
        """The run in ``path``, checked and cleaned so that it can go on.

        Listed parts must exist with their recorded size and row count; from the first
        one that does not, parts are dropped (and computed again: a part depends only on
        the job). Unlisted parts and temporary files are what an interrupted write left
        behind, and are removed; anything else is refused as foreign.
        """
        manifest = _read_manifest(path)
        try:
            config = SimConfig.from_json(manifest["config"])
            part_matches = manifest["part_matches"]
            parts = list(manifest["parts"])
            if not isinstance(part_matches, int) or part_matches < 1:
                raise TypeError(f"part_matches = {part_matches!r}")
        except (KeyError, TypeError) as exc:
            raise SimulationError(f"{path}/manifest.json is malformed ({exc})") from None
        except SimulationError as exc:
            raise SimulationError(f"{path}/manifest.json: {exc}") from None
        folder = cls(path, config, part_matches)
        folder.manifest["parts"] = folder._verified(parts)
        folder._remove_leftovers()
        folder.manifest["complete"] = False
        folder._save_manifest()
        with contextlib.suppress(FileNotFoundError):
            (path / "summary.json").unlink()
        return folder

    def _verified(self, parts: list[Any]) -> list[dict[str, Any]]:
        """The leading run of listed parts that are intact and where they belong."""
        kept: list[dict[str, Any]] = []
        for index, entry in enumerate(parts):
            problem = self._check_part(index, entry, kept[-1]["end_match"] if kept else 0)
            if problem:
                self.dropped = [f"{problem}; it and the {len(parts) - index - 1} parts after it"]
                break
            kept.append(entry)
        return kept

    def _check_part(self, index: int, entry: Any, first_match: int) -> str | None:
        """Why a listed part cannot be kept, or None."""
        name = f"part-{index:05d}.parquet"
        try:
            if entry["file"] != name or entry["first_match"] != first_match:
                return f"manifest entry {index} is out of sequence"
            size = (self.parts / name).stat().st_size
            if size != entry["bytes"]:
                return f"{name} has {size} bytes, not {entry['bytes']}"
            rows = pq.ParquetFile(self.parts / name).metadata.num_rows
            if rows != entry["rows"]:
                return f"{name} has {rows} rows, not {entry['rows']}"
        except (KeyError, TypeError):
            return f"manifest entry {index} is malformed"
        except FileNotFoundError:
            return f"{name} is missing"
        except (OSError, pa.ArrowException) as exc:
            return f"{name} is unreadable ({exc})"
        return None

    def _remove_leftovers(self) -> None:
        """Delete unlisted parts and temporary files; refuse files of any other kind."""
        listed = {entry["file"] for entry in self.manifest["parts"]}
        self.parts.mkdir(exist_ok=True)
        for item in sorted(self.parts.iterdir()):
            if item.name in listed:
                continue
            if not (PART_NAME.fullmatch(item.name) or LEFTOVER.fullmatch(item.name)):
                raise SimulationError(
                    f"{item} is not part of this run (a run folder holds part-NNNNN.parquet "
                    "files only): move it away and resume again"
                )
            item.unlink()
        for name in (".manifest.json.tmp", ".summary.json.tmp"):
            with contextlib.suppress(FileNotFoundError):
                (self.path / name).unlink()

    def write_part(
        self, index: int, frame: pd.DataFrame, matches: tuple[int, int], tally: Tally
    ) -> None:
        """Write one part atomically (temp file, fsync, rename), then list it in the manifest.

        A failed write (a full disk…) removes what it wrote, so the folder stays a valid
        interrupted run that ``--resume`` can finish.
        """
        name = f"part-{index:05d}.parquet"
        tmp = self.parts / f".{name}.tmp"
        final = self.parts / name
        try:
            table = pa.Table.from_pandas(frame, preserve_index=False)
            pq.write_table(table, tmp, compression="zstd")
            _fsync(tmp)
            os.replace(tmp, final)
            self.manifest["parts"].append(
                {
                    "file": name,
                    "first_match": matches[0],
                    "end_match": matches[1],
                    "rounds": len(frame) // self.config.rules.players,
                    "rows": len(frame),
                    "bytes": final.stat().st_size,
                    "tally": tally.to_json(),
                }
            )
            self._save_manifest()
        except OSError as exc:
            if self.manifest["parts"] and self.manifest["parts"][-1]["file"] == name:
                self.manifest["parts"].pop()
            for path in (tmp, final):
                with contextlib.suppress(OSError):
                    path.unlink()
            raise SimulationError(
                f"cannot write {final}: {exc.strerror or exc} "
                f"(the finished parts are kept: free the problem, then --resume {self.path})"
            ) from None

    def finish(self, summary: dict[str, Any]) -> None:
        try:
            self.manifest["complete"] = True
            self._save_manifest()
            self._write_json("summary.json", summary)
        except OSError as exc:
            raise SimulationError(
                f"cannot finish {self.path}: {exc.strerror or exc} "
                f"(free the problem, then --resume {self.path})"
            ) from None

    def _save_manifest(self) -> None:
        self._write_json("manifest.json", self.manifest)

    def _write_json(self, name: str, data: dict[str, Any]) -> None:
        tmp = self.path / f".{name}.tmp"
        try:
            tmp.write_text(json.dumps(data, indent=2) + "\n")
            _fsync(tmp)
            os.replace(tmp, self.path / name)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
            raise


def _fsync(path: Path) -> None:
    """Flush a file to the disk before it is renamed into place (survives a power cut)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _read_manifest(path: Path) -> dict[str, Any]:
    """``path/manifest.json`` of a president-sim run, or a SimulationError saying why not."""
    if not path.is_dir():
        raise SimulationError(f"--resume {path}: no such folder")
    try:
        manifest = json.loads((path / "manifest.json").read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SimulationError(
            f"--resume {path}: no manifest.json, so not a run of president simulate --out"
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SimulationError(f"{path}/manifest.json is unreadable or corrupt ({exc})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else None
        raise SimulationError(
            f"{path}/manifest.json is not a president-sim run (format {found!r}, "
            f"allowed: {FORMAT!r})"
        )
    if manifest.get("version") != __version__:
        raise SimulationError(
            f"{path} was written by president-sim {manifest.get('version')}, this is "
            f"{__version__} (allowed: resume with the version that started the run)"
        )
    return manifest


# ---------------------------------------------------------------- the run


@dataclass
class RunResult:
    """What a run produced: totals, the per-strategy table, timings."""

    matches: int
    rounds: int
    seconds: float
    table: list[dict[str, Any]]


Progress = Callable[[int, int | None, float], None]


def run(
    config: SimConfig,
    out: Path | None,
    workers: int = 1,
    progress: Progress | None = None,
    engine: str = "numba",
    scheduler: str | None = None,
) -> RunResult:
    """Play the job; write ``out`` (when given) part by part; return the summary table.

    ``progress(rounds_done, rounds_expected, seconds)`` is called after each part;
    ``engine`` names one of :func:`simulator.engines.engine_names` (the data never depends
    on it); ``scheduler`` is a Dask scheduler's address for ``engine="dask"``.
    """
    folder = None
    if out is not None:
        folder = OutputFolder(out, config, config.part_matches)
        folder.prepare()
    return _play(config, folder, config.part_matches, workers, progress, engine, scheduler)


def resume(
    out: Path,
    workers: int = 1,
    progress: Progress | None = None,
    engine: str = "numba",
    scheduler: str | None = None,
) -> tuple[OutputFolder, RunResult]:
    """Finish the interrupted run in ``out``: the folder (its job, damaged parts dropped)
    and the result, equal to an uninterrupted run's."""
    folder = OutputFolder.reopen(out)
    result = _play(folder.config, folder, folder.part_matches, workers, progress, engine, scheduler)
    return folder, result


def _play(
    config: SimConfig,
    folder: OutputFolder | None,
    part_matches: int,
    workers: int,
    progress: Progress | None,
    engine: str,
    scheduler: str | None,
) -> RunResult:
    """Compute the parts not yet in ``folder`` (all without one), writing each as it comes."""
    tally = Tally(config.rules.players, config.names)
    done_rounds = m_lo = 0
    done_parts = folder.manifest["parts"] if folder else []
    for entry in done_parts:
        tally.merge(Tally.from_json(config.rules.players, config.names, entry["tally"]))
        done_rounds += entry["rounds"]
        m_lo = entry["end_match"]
    expected = (
        config.matches * config.rounds_per_match
        if config.matches and config.rounds_per_match
        else config.rounds
    )
    started = time.perf_counter()
    left = m_lo < config.matches if config.matches is not None else done_rounds < config.rounds
    pending: Future | None = None
    try:
        with ThreadPoolExecutor(max_workers=1) as writer:
            if left:
                with (
                    open_engine(engine, config, workers, scheduler) as parts_of,
                    contextlib.closing(parts_of(_ranges(config, m_lo, part_matches))) as parts,
                ):
                    for index, ((lo, hi), all_rows) in enumerate(parts, len(done_parts)):
                        rows = all_rows
                        if config.matches is None:
                            rows, hi = _cut_at_rounds(all_rows, config.rounds - done_rounds, hi)
                        part = Tally(config.rules.players, config.names)
                        part.add(config, rows)
                        tally.merge(part)
                        done_rounds += len(rows)
                        m_lo = hi
                        if folder:
                            if pending:
                                pending.result()
                            frame = frame_from_rows(config, rows)
                            pending = writer.submit(folder.write_part, index, frame, (lo, hi), part)
                        if progress:
                            progress(done_rounds, expected, time.perf_counter() - started)
                        if config.matches is None and done_rounds >= config.rounds:
                            break
            if pending:
                pending.result()
    except EngineError as exc:
        raise SimulationError(str(exc)) from None
    result = RunResult(m_lo, done_rounds, time.perf_counter() - started, tally.table())
    if folder:
        folder.finish(summary_of(config, result))
    return result


def _ranges(config: SimConfig, m_lo: int, part_matches: int) -> Iterator[tuple[int, int]]:
    """The match ranges of the parts from ``m_lo`` on (endless when the run counts rounds)."""
    while config.matches is None or m_lo < config.matches:
        m_hi = m_lo + part_matches
        if config.matches is not None:
            m_hi = min(m_hi, config.matches)
        yield m_lo, m_hi
        m_lo = m_hi


def _cut_at_rounds(rows: np.ndarray, wanted: int, m_hi: int) -> tuple[np.ndarray, int]:
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
