"""A run's output folder: parquet parts written atomically, the manifest, the summary last.

The manifest is the single source of truth: a part counts only once it is renamed into
place *and* listed there, so a run killed at any moment leaves listed parts that are
complete, and unlisted or temporary files only, which :meth:`OutputFolder.reopen` removes.

A part is written in two steps, so that whoever computed it can write it: it is
*staged* (:func:`stage_part`: written and flushed under a hidden temporary name, on the
client or on a Dask worker that reaches the folder), then *committed* by the run
(:meth:`OutputFolder.commit_part`: renamed into place and listed, in part order). While
workers may write, the folder holds a hidden ``.live-TOKEN`` file: a worker keeps its
staged part only while it exists, so that the tasks of a finished or interrupted run
never leave files behind (:class:`WorkerTarget`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator import __version__
from simulator.runs.claims import (
    MANIFEST_FILE,
    claim,
    free_sibling,
    fsync,
    held_by_another,
    write_json_atomic,
)
from simulator.runs.job import SimConfig, SimulationError
from simulator.runs.summary import FORMAT, ROUNDS_FILE, SUMMARY_FILE
from simulator.runs.tally import Tally

if TYPE_CHECKING:
    import pyarrow as pa

PART_NAME = re.compile(r"part-(\d{5})\.parquet")
# a part being written (``.TOKEN`` when several writers may stage the same part), and the
# mark of a run whose workers may write
LEFTOVER = re.compile(r"\.part-\d{5}\.parquet(\.[0-9a-f]+)?\.tmp|\.live-[0-9a-f]+")

# How parts are encoded (measured on a part of a million rows: 87 ms to write, 2.2 MB, where
# pyarrow's defaults took 135 ms for 2.7 MB). zstd at its default level. Dictionary
# encoding only where it pays, the three categories and the columns of few distinct
# values that repeat in no order; the per-round and per-seat columns compress better plain.
# Statistics (min/max) for ``match`` only: readers order the parts by it, and no other
# column's range differs between parts, so their statistics cost time and skip nothing.
PARQUET_OPTIONS: dict[str, Any] = {
    "compression": "zstd",
    "use_dictionary": ["round", "strategy", "place", "role", "prev_role", "hand_strength"],
    "write_statistics": ["match"],
}


def part_name(index: int) -> str:
    """The file of part ``index`` in ``DIR/rounds.parquet``."""
    return f"part-{index:05d}.parquet"


@dataclass(frozen=True)
class StagedPart:
    """A part written and flushed under a temporary name, not yet in the run."""

    index: int
    path: Path
    rows: int
    bytes: int


def stage_part(parts: Path, index: int, table: pa.Table) -> StagedPart:
    """Write part ``index`` to a hidden file of its own in ``parts`` and flush it to the disk.

    The name carries a random token, so that two writers of the same part (a task run
    again after its worker was lost, a resumed run beside a late task of the run it
    resumes) never write into one file. A failed write removes what it wrote.
    """
    import pyarrow.parquet as pq  # loaded only by a run that writes parts

    path = parts / f".{part_name(index)}.{secrets.token_hex(4)}.tmp"
    try:
        pq.write_table(table, path, **PARQUET_OPTIONS)
        fsync(path)
        return StagedPart(index, path, table.num_rows, path.stat().st_size)
    except OSError as exc:
        with contextlib.suppress(OSError):
            path.unlink()
        raise SimulationError(
            f"cannot write {parts / part_name(index)}: {exc.strerror or exc} "
            "(the finished parts are kept: free the problem, then "
            f"president simulate --resume {parts.parent})"
        ) from None


@dataclass(frozen=True)
class WorkerTarget:
    """Where the workers of a run stage its parts, and the mark that says the run is on.

    A worker stages a part only when it sees the mark (so it reaches this very folder,
    not a folder of the same name on its own machine), and keeps it only when the mark
    is still there once the file is written: the run removes the mark, then its leftover
    files, when it ends, so a task that outlives its run removes its own file.
    """

    parts: Path
    mark: str

    def reachable(self) -> bool:
        return (self.parts / self.mark).exists()

    def stage(self, index: int, table: pa.Table) -> StagedPart | None:
        """Stage part ``index`` here; None (and nothing left behind) once the run has ended."""
        staged = stage_part(self.parts, index, table)
        if self.reachable():
            return staged
        with contextlib.suppress(OSError):
            staged.path.unlink()
        return None


class OutputFolder:
    """``DIR`` of a run: parts, manifest, summary; refuses a folder holding something else.

    The manifest is the single source of truth: a part counts only once it is renamed
    into place *and* listed there, so a run killed at any moment leaves listed parts that
    are complete, and at most one unlisted file, which :meth:`reopen` removes.
    """

    def __init__(self, path: Path, config: SimConfig, part_matches: int) -> None:
        self.path = path
        self.parts = path / ROUNDS_FILE
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
        self.was_complete = False  # reopen found a finished run, every part intact

    def prepare(self) -> None:
        """Create the folder; refuse one that holds another run or foreign files."""
        claim(self.path, "run")
        try:
            self.parts.mkdir(exist_ok=True)
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
        config = _job(manifest, path)
        try:
            part_matches = manifest["part_matches"]
            parts = list(manifest["parts"])
            if not isinstance(part_matches, int) or part_matches < 1:
                raise TypeError(f"part_matches = {part_matches!r}")
        except (KeyError, TypeError) as exc:
            raise SimulationError(f"{path}/manifest.json is malformed ({exc})") from None
        folder = cls(path, config, part_matches)
        folder.manifest["parts"] = folder._verified(parts)
        folder.was_complete = manifest.get("complete") is True and not folder.dropped
        folder._remove_leftovers()
        folder.manifest["complete"] = False
        folder._save_manifest()
        with contextlib.suppress(FileNotFoundError):
            (path / SUMMARY_FILE).unlink()
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
        import pyarrow as pa
        import pyarrow.parquet as pq

        name = part_name(index)
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
                    f"files only): move it away, then president simulate --resume {self.path}"
                )
            item.unlink()
        for name in (".manifest.json.tmp", ".summary.json.tmp"):
            with contextlib.suppress(FileNotFoundError):
                (self.path / name).unlink()

    def write_part(
        self, index: int, table: pa.Table, matches: tuple[int, int], tally: Tally
    ) -> None:
        """Stage and commit one part (the client writes it)."""
        self.commit_part(stage_part(self.parts, index, table), matches, tally)

    def commit_part(self, staged: StagedPart, matches: tuple[int, int], tally: Tally) -> None:
        """Rename a staged part into place, then list it in the manifest (parts in order).

        A failed commit (a full disk…) removes what it wrote, so the folder stays a valid
        interrupted run that ``--resume`` can finish.
        """
        name = part_name(staged.index)
        final = self.parts / name
        try:
            os.replace(staged.path, final)
            self.manifest["parts"].append(
                {
                    "file": name,
                    "first_match": matches[0],
                    "end_match": matches[1],
                    "rounds": staged.rows // self.config.rules.players,
                    "rows": staged.rows,
                    "bytes": staged.bytes,
                    "tally": tally.to_json(),
                }
            )
            self._save_manifest()
        except OSError as exc:
            if self.manifest["parts"] and self.manifest["parts"][-1]["file"] == name:
                self.manifest["parts"].pop()
            for path in (staged.path, final):
                with contextlib.suppress(OSError):
                    path.unlink()
            raise SimulationError(
                f"cannot write {final}: {exc.strerror or exc} "
                "(the finished parts are kept: free the problem, then "
                f"president simulate --resume {self.path})"
            ) from None

    def open_to_workers(self) -> WorkerTarget:
        """Mark the folder as one the run's workers may stage parts in (see WorkerTarget)."""
        target = WorkerTarget(self.parts.absolute(), f".live-{secrets.token_hex(8)}")
        (target.parts / target.mark).write_text("")
        return target

    def close_to_workers(self, target: WorkerTarget) -> None:
        """Remove the mark, then every staged part no commit took (the parts of tasks
        beyond the run's end, or of a worker lost while writing)."""
        with contextlib.suppress(FileNotFoundError):
            (target.parts / target.mark).unlink()
        for item in self.parts.iterdir():
            if LEFTOVER.fullmatch(item.name):
                with contextlib.suppress(FileNotFoundError):
                    item.unlink()

    def finish(self, summary: dict[str, Any]) -> None:
        try:
            self.manifest["complete"] = True
            self._save_manifest()
            self._write_json(SUMMARY_FILE, summary)
        except OSError as exc:
            raise SimulationError(
                f"cannot finish {self.path}: {exc.strerror or exc} "
                f"(free the problem, then president simulate --resume {self.path})"
            ) from None

    def _save_manifest(self) -> None:
        self._write_json(MANIFEST_FILE, self.manifest)

    def _write_json(self, name: str, data: dict[str, Any]) -> None:
        write_json_atomic(self.path / name, data)


def job_in(path: Path) -> SimConfig:
    """The job of the run in ``path``, from its manifest, checked; nothing is changed."""
    return _job(_read_manifest(path), path)


def _job(manifest: dict[str, Any], path: Path) -> SimConfig:
    """The job a manifest records, or a SimulationError naming the manifest."""
    try:
        return SimConfig.from_json(manifest["config"])
    except KeyError as exc:
        raise SimulationError(f"{path}/manifest.json is malformed ({exc})") from None
    except SimulationError as exc:
        raise SimulationError(f"{path}/manifest.json: {exc}") from None


def _read_manifest(path: Path) -> dict[str, Any]:
    """``path/manifest.json`` of a president-sim run, or a SimulationError saying why not."""
    if not path.is_dir():
        raise SimulationError(
            f"--resume {path}: no such folder (a new run: president simulate --out {path})"
        )
    try:
        manifest = json.loads((path / MANIFEST_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise SimulationError(
            f"--resume {path}: no manifest.json, so it holds no run (a new run: president "
            f"simulate --out {free_sibling(path)})"
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise SimulationError(
            f"{path}/manifest.json is unreadable or corrupt ({exc}; a new run: president "
            f"simulate --out {free_sibling(path)})"
        ) from None
    if other := held_by_another(path, manifest, "simulate"):
        raise SimulationError(other)
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        found = manifest.get("format") if isinstance(manifest, dict) else None
        raise SimulationError(
            f"{path}/manifest.json is not a president-sim run (format {found!r}, "
            f"allowed: {FORMAT!r}; a new run: president simulate --out {free_sibling(path)})"
        )
    if manifest.get("version") != __version__:
        raise SimulationError(
            f"{path} was written by president-sim {manifest.get('version')}, this is "
            f"{__version__} (allowed: resume with the version that started the run)"
        )
    return manifest
