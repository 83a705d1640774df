"""A tune's ``--out`` folder: its state after each generation, and what it ends with.

``DIR/generations.jsonl`` holds every generation played, one JSON line each (each
candidate's parameters, mean place and per-deal-group sums), appended and synced as the
generation ends: rewriting the whole history each generation, as the manifest once held
it, cost time that grew with the square of the generations (a 40,000-round french tune
spent more time writing its 265 MB manifest than playing by generation 600).
``DIR/manifest.json`` (format :data:`simulator.runs.claims.TUNE_FORMAT`) holds the rules,
the tune's settings, how many lines of that file count and, while generations remain,
the optimiser's generation and mean (``optimizer``): written atomically after the line,
so that ``--resume DIR`` after any stop — SIGKILL included — plays nothing it holds (a
line written after the last manifest is dropped, and played again). Nothing is pickled:
the optimiser is rebuilt from the seed and the recorded fitness
(:func:`simulator.runs.tune.search.replayed`), and a folder whose records do not rebuild
it is refused in one line. Once the generations are over the manifest holds the tuned
values instead. The finished tune adds ``DIR/tuned.toml``, ``DIR/tune.html`` and
``DIR/figures/``, then marks the manifest complete.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path
from typing import Any

from simulator.kernel.sources import sources_digest
from simulator.rules.files import rules_from_mapping
from simulator.rules.options import Rules
from simulator.runs.claims import (
    CODE_KEY,
    MANIFEST_FILE,
    TUNE_FORMAT,
    claim,
    damaged,
    resume_manifest,
    write_atomic,
    write_json_atomic,
)
from simulator.runs.job import require_integers
from simulator.runs.tune.play import HeldOut, TuneConfig, TuneError
from simulator.runs.tune.search import TuneState, optimizer_record, replayed

GENERATIONS_FILE = "generations.jsonl"  # a generation a line, appended as each ends
INTEGERS = ("generations", "population", "rounds_per_candidate", "held_out_rounds",
            "rounds_per_match", "max_rounds", "seed")  # fmt: skip


class TuneFolder:
    """The folder of one tune (created for a new one, or reopened to go on)."""

    def __init__(self, path: Path, rules: Rules, config: TuneConfig) -> None:
        self.path = path
        self.rules = rules
        self.config = config
        self.state: TuneState | None = None
        self.complete = False
        self.written = 0  # the generations in GENERATIONS_FILE
        self.trim_to: int | None = None  # a reopened folder's file size, as its manifest counts

    @classmethod
    def create(cls, path: Path, rules: Rules, config: TuneConfig) -> TuneFolder:
        """Claim ``path`` (absent or empty) for a new tune."""
        claim(path, "tune")
        return cls(path, rules, config)

    @classmethod
    def reopen(cls, path: Path) -> TuneFolder:
        """The tune in ``path``, to go on (a TuneError in one line when it holds none)."""
        manifest = resume_manifest(path, "tune", TUNE_FORMAT, TuneError)
        try:
            folder = cls._read(path, manifest)
        except (KeyError, TypeError, ValueError, AttributeError, OSError) as exc:
            raise TuneError(damaged(path, exc)) from None
        return folder

    @classmethod
    def _read(cls, path: Path, manifest: dict[str, Any]) -> TuneFolder:
        data = manifest["config"]
        require_integers(data, INTEGERS)
        config = TuneConfig(**{**data, "field": tuple(data["field"])})
        folder = cls(path, rules_from_mapping(manifest["rules"]), config)
        tuned = manifest["tuned"] and tuple(float(v) for v in manifest["tuned"])
        require_integers(manifest, ("generations",))
        generations, kept = kept_generations(path / GENERATIONS_FILE, manifest["generations"])
        optimizer = None
        if not tuned:
            record = manifest["optimizer"]
            try:
                optimizer = replayed(config, generations, record)
            except (KeyError, TypeError, ValueError) as exc:
                raise TuneError(
                    f"--resume {path}: its {GENERATIONS_FILE} and {MANIFEST_FILE} do not "
                    f"rebuild the tune's optimiser ({exc}); start again with a new --out"
                ) from None
        folder.written, folder.trim_to = len(generations), len(kept.encode("utf-8"))
        check = manifest["held_out"]
        found = check and HeldOut(**{k: tuple(v) if isinstance(v, list) else v
                                     for k, v in check.items()})  # fmt: skip
        folder.state = TuneState(optimizer, generations, tuned or None, found or None)
        folder.complete = manifest.get("complete") is True
        return folder

    def save(self, state: TuneState) -> None:
        """Append the generations ``state`` adds, then write the manifest (atomically)."""
        self.state = state
        if self.trim_to is not None:  # drop what a stop left after the last manifest
            os.truncate(self.path / GENERATIONS_FILE, self.trim_to)
            self.trim_to = None
        with open(self.path / GENERATIONS_FILE, "a", encoding="utf-8") as file:
            for generation in state.generations[self.written :]:
                file.write(json.dumps(generation) + "\n")
            file.flush()
            os.fsync(file.fileno())
        self.written = len(state.generations)
        self._write(False)

    def finish(self) -> None:
        """Mark the tune complete (its result files are written)."""
        self._write(True)
        self.complete = True

    def write(self, name: str, content: str) -> Path:
        """Write a result file atomically; its path."""
        write_atomic(self.path / name, content)
        return self.path / name

    def _write(self, complete: bool) -> None:
        assert self.state is not None
        state = self.state
        manifest = {
            "format": TUNE_FORMAT,
            CODE_KEY: sources_digest(),
            "complete": complete,
            "rules": self.rules.to_dict(),
            "config": asdict(self.config),
            "tuned": state.tuned,
            "held_out": asdict(state.held_out) if state.held_out else None,
            "generations": self.written,
        }
        if state.tuned is None:  # what checks the optimiser's replay, while generations remain
            assert state.optimizer is not None
            manifest["optimizer"] = optimizer_record(state.optimizer)
        write_json_atomic(self.path / MANIFEST_FILE, manifest)


def kept_generations(path: Path, count: int) -> tuple[list[dict[str, Any]], str]:
    """The first ``count`` generations of ``path`` and the text that holds exactly them:
    a line written after the last manifest (a stop between the two) is played again."""
    if count < 0:
        raise ValueError(f"generations = {count} is negative")
    text = path.read_text("utf-8") if count else ""
    lines = text.split("\n")[:count]
    kept = "".join(line + "\n" for line in lines)
    if len(lines) < count or not text.startswith(kept):
        raise ValueError(f"{GENERATIONS_FILE} holds fewer than its {count} generations")
    generations = [json.loads(line) for line in lines]
    if not all(isinstance(g, dict) for g in generations):
        raise TypeError(f"{GENERATIONS_FILE} holds a line that is not a generation")
    return generations, kept
