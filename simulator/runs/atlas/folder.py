"""An atlas's ``--out`` folder: its manifest, every batch as soon as it is played, and
``atlas.parquet`` at the end.

``DIR/manifest.json`` (format :data:`simulator.runs.claims.ATLAS_FORMAT`) holds the
settings and the rule sets (their names, changes and resolved rules); each part of each
batch goes to ``DIR/batches/SET-PART-BATCH.npz`` (numpy's archive, no pickles) atomically
once played, so
``--resume DIR`` after any stop — SIGKILL included — plays no batch it holds, and ends
with the same data as an unbroken run (every batch is deterministic). The finished atlas
writes ``DIR/atlas.parquet`` (its format version in the file's metadata,
``atlas_format``) and marks the manifest complete.
"""

from __future__ import annotations

import io
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simulator.kernel.sources import sources_digest
from simulator.rules.files import rules_from_mapping
from simulator.runs.atlas.batches import BatchStore
from simulator.runs.atlas.play import FORMAT_VERSION, AtlasSettings, Batch
from simulator.runs.atlas.sets import AtlasError, RuleSet
from simulator.runs.claims import (
    ATLAS_FORMAT,
    CODE_KEY,
    MANIFEST_FILE,
    claim,
    damaged,
    resume_manifest,
    write_atomic,
    write_json_atomic,
)

PARQUET = "atlas.parquet"


class AtlasFolder(BatchStore):
    """The folder of one atlas (created for a new one, or reopened to go on)."""

    def __init__(self, path: Path, rule_sets: list[RuleSet], settings: AtlasSettings) -> None:
        super().__init__()
        self.path, self.rule_sets, self.settings = path, rule_sets, settings
        self.index = {r.name: i for i, r in enumerate(rule_sets)}
        self.settled_sets: dict[str, list[Any]] = {}
        self.complete = False

    @classmethod
    def create(cls, path: Path, rule_sets: list[RuleSet], settings: AtlasSettings) -> AtlasFolder:
        """Claim ``path`` (absent or empty) for a new atlas."""
        claim(path, "atlas")
        (path / "batches").mkdir()
        folder = cls(path, rule_sets, settings)
        folder._write()
        return folder

    @classmethod
    def reopen(cls, path: Path) -> AtlasFolder:
        """The atlas in ``path``, to go on (an AtlasError in one line when it holds none)."""
        manifest = resume_manifest(path, "atlas", ATLAS_FORMAT, AtlasError)
        try:
            settings = AtlasSettings(**manifest["settings"])
            settings.check()
            rule_sets = [RuleSet(r["name"], r["change"], rules_from_mapping(r["rules"]))
                         for r in manifest["rule_sets"]]  # fmt: skip
        except (KeyError, TypeError, ValueError) as exc:
            raise AtlasError(damaged(path, exc)) from None
        folder = cls(path, rule_sets, settings)
        folder.settled_sets = dict(manifest.get("settled", {}))
        folder.complete = manifest.get("complete") is True
        return folder

    def _file(self, name: str, part: str, batch: int) -> Path:
        return self.path / "batches" / f"{self.index[name]:03d}-{part}-{batch:03d}.npz"

    def get(self, name: str, part: str, batch: int) -> Batch | None:
        """A batch's part kept in the folder (None when it was never finished)."""
        try:
            with np.load(self._file(name, part, batch), allow_pickle=False) as data:
                return {key: data[key] for key in data.files}
        except FileNotFoundError:
            return None

    def put(self, name: str, part: str, batch: int, data: Batch) -> None:
        """Keep a batch's part, atomically (a stop leaves it whole or absent)."""
        buffer = io.BytesIO()
        np.savez(buffer, **data)
        write_atomic(self._file(name, part, batch), buffer.getvalue())

    def settled(self, name: str, parts: dict[str, list[Any]]) -> None:
        """Record that a rule set is done, ``[batches, capped]`` of each part (for whoever
        reads the manifest)."""
        self.settled_sets[name] = parts
        self._write()

    def finish(self, frame: pd.DataFrame) -> Path:
        """Write ``atlas.parquet`` (its format version in the metadata), mark complete."""
        table = pa.Table.from_pandas(frame, preserve_index=False)
        meta = {**(table.schema.metadata or {}), b"atlas_format": FORMAT_VERSION.encode()}
        buffer = pa.BufferOutputStream()
        pq.write_table(table.replace_schema_metadata(meta), buffer)
        write_atomic(self.path / PARQUET, buffer.getvalue().to_pybytes())
        self.complete = True
        self._write()
        return self.path / PARQUET

    def _write(self) -> None:
        manifest = {
            "format": ATLAS_FORMAT,
            CODE_KEY: sources_digest(),
            "complete": self.complete,
            "settings": asdict(self.settings),
            "rule_sets": [
                {
                    "name": r.name,
                    "change": r.change,
                    "rules": r.rules.to_dict(),
                }
                for r in self.rule_sets
            ],
            "settled": self.settled_sets,
        }
        write_json_atomic(self.path / MANIFEST_FILE, manifest)


def read_atlas(path: Path) -> pd.DataFrame:
    """The rows of an ``atlas.parquet``; an AtlasError in one line naming the format found
    and the one this version reads, for a file of another format (an older atlas: its
    measures were named otherwise)."""
    meta = pq.read_schema(path).metadata or {}
    found = meta.get(b"atlas_format", b"none").decode()
    if found != FORMAT_VERSION:
        raise AtlasError(f"{path}: an atlas.parquet of format {found}, and this version "
                         f"reads format {FORMAT_VERSION} only; run the atlas again")  # fmt: skip
    return pd.read_parquet(path)
