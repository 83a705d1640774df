"""The folder of ``president tournament --out DIR``: every finished table kept, resumable.

``DIR/manifest.json`` records the tournament (its rules and settings) before anything is
played, then each table once it is finished; the table's rows (:class:`TableRows`, all
the standings need) are in ``DIR/tables/table-NNNNN.npz``. As with a run's parts, a
table counts only once its file is renamed into place *and* listed, so a tournament
stopped at any moment (Ctrl-C, SIGTERM, SIGKILL) leaves listed tables that are complete.
``president tournament --resume DIR`` plays only the tables not listed: the standings
depend on the tables' rows alone, so its files are byte for byte an uninterrupted
tournament's. The tables' files carry no time stamp, so they too are the same.

Every file is written atomically (:func:`simulator.runs.claims.write_atomic`); the
result files (:func:`simulator.runs.tournament.tables.results`, the page) are written once
every table is played, and the manifest says ``complete`` once they all are.
"""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
from dataclasses import asdict, fields
from pathlib import Path
from typing import Any

import numpy as np

from simulator import __version__
from simulator.rules.files import rules_from_mapping
from simulator.rules.options import Rules, RulesError
from simulator.runs.claims import (
    MANIFEST_FILE,
    TOURNAMENT_FORMAT,
    claim,
    free_sibling,
    held_by_another,
    manifest_in,
    write_atomic,
    write_json_atomic,
)
from simulator.runs.job import SimulationError, check_sizes, require_integers
from simulator.runs.tournament.tables import (
    TableRows,
    TournamentConfig,
    TournamentError,
    strategy_names,
    tables,
)
from strategies.registry import StrategyError

TABLES_DIR = "tables"
TABLE_FILE = re.compile(r"table-\d{5}\.npz")
LEFTOVER = re.compile(r"\..+\.tmp")  # a file being written when the tournament stopped
ARRAYS = tuple(f.name for f in fields(TableRows) if f.name != "lineup")
STAMP = (1980, 1, 1, 0, 0, 0)  # every table file's member date: the same bytes every time
EXAMPLE = "president tournament --strategies lowest,random --out"  # a new tournament


def table_name(index: int) -> str:
    """The file of table ``index`` (in the order of :func:`tables`) in ``DIR/tables``."""
    return f"table-{index:05d}.npz"


def config_json(rules: Rules, config: TournamentConfig) -> dict[str, Any]:
    """The tournament as the manifest records it: what :func:`config_from_json` reads."""
    return {"rules": rules.to_dict(), **asdict(config), "strategies": list(config.strategies)}


def config_from_json(data: Any) -> tuple[Rules, TournamentConfig]:
    """The tournament :func:`config_json` wrote, checked as the command line would be."""
    try:
        require_integers(data, ("matches", "rounds_per_match", "max_rounds", "seed"))
        if not isinstance(data["strategies"], list):
            raise TypeError(f"strategies = {data['strategies']!r} is not a list")
        rules = rules_from_mapping(data["rules"])
        config = TournamentConfig(
            tuple(data["strategies"]),
            data["matches"],
            data["rounds_per_match"],
            data["max_rounds"],
            data["seed"],
        )
        check_config(config)
    except (KeyError, TypeError) as exc:
        raise TournamentError(f"the tournament is incomplete or malformed ({exc!r})") from None
    except (RulesError, SimulationError, StrategyError) as exc:
        raise TournamentError(f"the tournament is invalid: {exc}") from None
    if config_json(rules, config) != data:
        raise TournamentError("the tournament does not read back to itself (edited by hand?)")
    return rules, config


def check_config(config: TournamentConfig) -> None:
    """Refuse a tournament that cannot be played (before its folder is taken)."""
    check_sizes(config.matches, None, config.rounds_per_match, config.max_rounds)
    strategy_names(config)


class TournamentFolder:
    """``DIR`` of a tournament: its manifest, its finished tables, then its results.

    It is the :class:`simulator.runs.tournament.tables.TableStore` of :func:`run_tournament`.
    """

    def __init__(self, path: Path, rules: Rules, config: TournamentConfig, report: bool) -> None:
        self.path = path
        self.rules = rules
        self.config = config
        self.manifest: dict[str, Any] = {
            "format": TOURNAMENT_FORMAT,
            "version": __version__,
            "config": config_json(rules, config),
            "report": report,
            "tables": [],
            "complete": False,
        }
        self.dropped: list[str] = []  # damaged tables found by reopen, played again
        self.was_complete = False  # reopen found a finished tournament, every table intact

    @property
    def report(self) -> bool:
        """Whether the tournament writes its page (``--report``, when started or resumed)."""
        return bool(self.manifest["report"])

    @classmethod
    def create(
        cls, path: Path, rules: Rules, config: TournamentConfig, report: bool
    ) -> TournamentFolder:
        """The folder of a new tournament: ``path`` absent or empty, else refused."""
        check_config(config)
        claim(path, "tournament")
        folder = cls(path, rules, config, report)
        try:
            (path / TABLES_DIR).mkdir()
            folder._save()
        except OSError as exc:
            raise TournamentError(f"--out {path} is not writable: {exc.strerror}") from None
        return folder

    @classmethod
    def reopen(cls, path: Path, report: bool) -> TournamentFolder:
        """The tournament in ``path`` (``--resume``), checked and cleaned so it can go on:
        damaged tables are dropped (and played again), leftovers of a stopped write
        removed; a foreign file among the tables is refused."""
        found = _read_manifest(path)
        try:
            rules, config = config_from_json(found.get("config"))
            listed = list(found["tables"])
        except (KeyError, TypeError) as exc:
            raise TournamentError(f"{path}/{MANIFEST_FILE} is malformed ({exc!r})") from None
        except TournamentError as exc:
            raise TournamentError(f"{path}/{MANIFEST_FILE}: {exc}") from None
        folder = cls(path, rules, config, report or found.get("report") is True)
        folder.manifest["tables"] = folder._verified(listed)
        folder.was_complete = found.get("complete") is True and not folder.dropped
        folder._remove_leftovers()
        folder._save()
        return folder

    def played(self) -> dict[int, TableRows]:
        """The finished tables, by index (their files checked by :meth:`reopen`)."""
        lineups = tables(strategy_names(self.config), self.rules.players)
        return {
            entry["table"]: _decode(self._file(entry), lineups[entry["table"]])
            for entry in self.manifest["tables"]
        }

    def keep(self, index: int, rows: TableRows) -> None:
        """Write table ``index``'s file atomically, then list it in the manifest."""
        path = self.path / TABLES_DIR / table_name(index)
        data = _encode(rows)
        try:
            write_atomic(path, data)
            self.manifest["tables"].append(
                {
                    "table": index,
                    "lineup": list(rows.lineup),
                    "file": path.name,
                    "rounds": len(rows.group),
                    "bytes": len(data),
                }
            )
            self.manifest["tables"].sort(key=lambda entry: entry["table"])  # one a resume replays
            self._save()
        except OSError as exc:
            raise TournamentError(
                f"cannot write {path}: {exc.strerror or exc} (the finished tables are kept: "
                f"free the problem, then president tournament --resume {self.path})"
            ) from None

    def write(self, name: str, data: str | bytes) -> Path:
        """Write the result file ``DIR/name`` atomically."""
        path = self.path / name
        write_atomic(path, data)
        return path

    def finish(self) -> None:
        """Say in the manifest that every result file is written."""
        self.manifest["complete"] = True
        self._save()

    def _save(self) -> None:
        write_json_atomic(self.path / MANIFEST_FILE, self.manifest)

    def _file(self, entry: dict[str, Any]) -> Path:
        return self.path / TABLES_DIR / entry["file"]

    def _verified(self, listed: list[Any]) -> list[dict[str, Any]]:
        """The listed tables that are intact and where they belong (the others are noted
        in :attr:`dropped`, to be played again)."""
        lineups = tables(strategy_names(self.config), self.rules.players)
        kept: dict[int, dict[str, Any]] = {}
        for entry in listed:
            problem = self._problem(entry, lineups)
            if problem:
                self.dropped.append(problem)
            else:
                kept[entry["table"]] = entry
        return [kept[index] for index in sorted(kept)]

    def _problem(self, entry: Any, lineups: list[tuple[str, ...]]) -> str | None:
        """Why a listed table cannot be kept, or None."""
        try:
            index = entry["table"]
            if not 0 <= index < len(lineups) or entry["lineup"] != list(lineups[index]):
                return f"manifest entry {entry!r} names no table of this tournament"
            if entry["file"] != table_name(index):
                return f"manifest entry {index} names {entry['file']!r}"
            size = self._file(entry).stat().st_size
            if size != entry["bytes"]:
                return f"{entry['file']} has {size} bytes, not {entry['bytes']}"
            rounds = len(_decode(self._file(entry), lineups[index]).group)
            if rounds != entry["rounds"]:
                return f"{entry['file']} has {rounds} rounds, not {entry['rounds']}"
        except (KeyError, TypeError):
            return f"manifest entry {entry!r} is malformed"
        except FileNotFoundError:
            return f"{entry['file']} is missing"
        except (OSError, ValueError, zipfile.BadZipFile) as exc:
            return f"{entry['file']} is unreadable ({exc})"
        return None

    def _remove_leftovers(self) -> None:
        """Delete unlisted tables and temporary files; refuse files of any other kind."""
        listed = {entry["file"] for entry in self.manifest["tables"]}
        folder = self.path / TABLES_DIR
        folder.mkdir(exist_ok=True)
        for item in sorted(folder.iterdir()):
            if item.name in listed:
                continue
            if not (TABLE_FILE.fullmatch(item.name) or LEFTOVER.fullmatch(item.name)):
                raise TournamentError(
                    f"{item} is not part of this tournament (its tables/ holds "
                    "table-NNNNN.npz files only): move it away, then president tournament "
                    f"--resume {self.path}"
                )
            item.unlink()
        for item in (*self.path.glob(".*.tmp"), *self.path.glob("figures/.*.tmp")):
            with contextlib.suppress(FileNotFoundError):
                item.unlink()


def _encode(rows: TableRows) -> bytes:
    """A table's rows as an ``.npz``: integers in the smallest type that holds them, fast
    compression (a table of 200,000 rounds, 4 players: 0.06 s and 0.7 MB, for 0.7 s of play),
    members dated :data:`STAMP`."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in ARRAYS:
            member = io.BytesIO()
            np.lib.format.write_array(member, _compact(getattr(rows, name)), allow_pickle=False)
            info = zipfile.ZipInfo(f"{name}.npy", STAMP)
            archive.writestr(info, member.getvalue(), zipfile.ZIP_DEFLATED, compresslevel=1)
    return buffer.getvalue()


def _compact(values: np.ndarray) -> np.ndarray:
    """Integers in the smallest signed type that holds them all (read back as int64)."""
    if values.dtype.kind != "i" or not values.size:
        return values
    low, high = int(values.min()), int(values.max())
    kind = next(t for t in (np.int8, np.int16, np.int32, np.int64)
                if np.iinfo(t).min <= low and high <= np.iinfo(t).max)  # fmt: skip
    return values.astype(kind)


def _decode(path: Path, lineup: tuple[str, ...]) -> TableRows:
    """The rows :func:`_encode` wrote (a ValueError when a member is missing or its
    shape does not fit; the archive checks every member's CRC)."""
    with np.load(path, allow_pickle=False) as archive:
        try:
            arrays = {name: archive[name] for name in ARRAYS}
        except KeyError as exc:
            raise ValueError(f"no {exc.args[0]!r} array") from None
    arrays = {n: a.astype(np.int64) if a.dtype.kind == "i" else a for n, a in arrays.items()}
    rounds = len(arrays["group"])
    wide = ("codes", "place", "strength", "win")
    if any(arrays[n].shape != (rounds, len(lineup)) for n in wide) or arrays["last"].shape != (
        rounds,
    ):
        raise ValueError("its arrays do not fit one another")
    return TableRows(lineup, **arrays)


def _read_manifest(path: Path) -> dict[str, Any]:
    """``path/manifest.json`` of a tournament, or a TournamentError saying what works."""
    found = manifest_in(path) if path.is_dir() else None
    if other := held_by_another(path, found, "tournament"):
        raise TournamentError(other)
    if found is None or found.get("format") != TOURNAMENT_FORMAT:
        what = (
            "no such folder"
            if not path.is_dir()
            else "it holds no tournament"
            if found is None
            else f"its {MANIFEST_FILE} is unreadable or foreign"
        )
        raise TournamentError(
            f"--resume {path}: {what} (a new tournament: {EXAMPLE} {free_sibling(path)})"
        )
    if found.get("version") != __version__:
        raise TournamentError(
            f"{path} was written by president-sim {found.get('version')}, this is "
            f"{__version__} (allowed: finish it with the version that started it)"
        )
    return found
