"""A tune's ``--out`` folder: its manifest after each generation, and what it ends with.

``DIR/manifest.json`` (format :data:`simulator.runs.claims.TUNE_FORMAT`) holds the rules,
the tune's settings, every generation played (each candidate's parameters, mean place and
per-deal-group sums) and, while generations remain, the optimiser's state (its pickle,
base64): written atomically after each generation, so that ``--resume DIR`` after any
stop — SIGKILL included — replays nothing it holds. Once the generations are over it
holds the tuned values instead: ``cmaes`` pickles memory it never initialised, so the
optimiser's bytes vary between runs whose every number agrees, and a finished folder is
the same, byte for byte, for the same seed and arguments. The finished tune adds
``DIR/tuned.toml``, ``DIR/tune.html`` and ``DIR/figures/``, then marks the manifest
complete.
"""

from __future__ import annotations

import base64
import binascii
import pickle
from dataclasses import asdict
from pathlib import Path
from typing import Any

from cmaes import CMA

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
from simulator.runs.tune import HeldOut, TuneConfig, TuneError
from simulator.runs.tune_search import TuneState

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
        except (KeyError, TypeError, ValueError, AttributeError, EOFError, binascii.Error,
                pickle.UnpicklingError) as exc:  # fmt: skip
            raise TuneError(damaged(path, exc)) from None
        return folder

    @classmethod
    def _read(cls, path: Path, manifest: dict[str, Any]) -> TuneFolder:
        data = manifest["config"]
        require_integers(data, INTEGERS)
        config = TuneConfig(**{**data, "field": tuple(data["field"])})
        folder = cls(path, rules_from_mapping(manifest["rules"]), config)
        tuned = manifest["tuned"] and tuple(float(v) for v in manifest["tuned"])
        optimizer = None
        if not tuned:
            optimizer = pickle.loads(base64.b64decode(manifest["cma"], validate=True))
            if not isinstance(optimizer, CMA):
                raise TypeError("its optimiser is not a CMA")
        generations = manifest["generations"]
        if not isinstance(generations, list):
            raise TypeError("generations is not a list")
        check = manifest["held_out"]
        found = check and HeldOut(**{k: tuple(v) if isinstance(v, list) else v
                                     for k, v in check.items()})  # fmt: skip
        folder.state = TuneState(optimizer, generations, tuned or None, found or None)
        folder.complete = manifest.get("complete") is True
        return folder

    def save(self, state: TuneState) -> None:
        """Write the manifest with ``state`` (atomically)."""
        self.state = state
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
            "generations": state.generations,
        }
        if state.tuned is None:  # the optimiser's state, while the generations go on
            assert state.optimizer is not None
            manifest["cma"] = base64.b64encode(pickle.dumps(state.optimizer)).decode("ascii")
        write_json_atomic(self.path / MANIFEST_FILE, manifest)
