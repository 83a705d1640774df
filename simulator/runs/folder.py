"""A run's output folder: parquet parts written atomically, the manifest, the summary last.

The manifest is the single source of truth: a part counts only once it is renamed into
place *and* listed there, so a run killed at any moment leaves listed parts that are
complete, and at most one unlisted file, which :meth:`OutputFolder.reopen` removes.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simulator import __version__
from simulator.runs.job import SimConfig, SimulationError
from simulator.runs.summary import FORMAT, ROUNDS_FILE, SUMMARY_FILE
from simulator.runs.tally import Tally

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
            self._write_json(SUMMARY_FILE, summary)
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
