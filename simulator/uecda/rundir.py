"""A UECda tournament written as the run folder ``president simulate`` writes
(``rounds.parquet`` in parts, the manifest, ``summary.json``), by the run's own writers
(:mod:`simulator.runs.folder`, :mod:`simulator.runs.parts`, :mod:`simulator.runs.summary`),
so that ``president report DIR`` reads it.

A block of games between two resets of the classes is one match (one part of the folder,
written as soon as it ends, so a tournament cut short keeps every finished game); the
strategies are the names the clients gave, player by player.
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

from simulator.matchloop.api import rows_of_record
from simulator.reference.match import MatchRecord, RoundRecord
from simulator.rules.options import Rules
from simulator.runs.claims import claim
from simulator.runs.folder import MANIFEST_FILE, OutputFolder
from simulator.runs.job import SimConfig
from simulator.runs.parts import Part, settle
from simulator.runs.summary import RunResult, summary_of
from simulator.runs.tally import Tally


class RunWriter:
    """The run folder of one tournament: claimed at once (a bad ``--out`` is refused
    before any client is awaited), opened when the players are known."""

    def __init__(self, path: Path | None, rules: Rules, seed: int, games: int, per_match: int):
        self.path, self.rules, self.seed = path, rules, seed
        self.games, self.per_match = games, per_match
        self.folder: OutputFolder | None = None
        self.config: SimConfig | None = None
        self.tally: Tally | None = None
        self.parts = self.rounds = self.matches = 0
        self.started = time.perf_counter()
        if path is not None:
            claim(path, "run")

    def open(self, names: list[str]) -> None:
        """The players are known: the job of the run (one strategy name per player)."""
        matches = -(-self.games // self.per_match)
        self.config = SimConfig(self.rules, tuple(names), self.seed, matches, None, self.per_match)
        self.tally = Tally(self.rules.players, self.config.names)
        if self.path is not None:
            self.folder = OutputFolder(self.path, self.config, 1)
            self.folder.prepare()
        self.started = time.perf_counter()

    def add_match(self, match: int, records: list[RoundRecord]) -> None:
        """A block's finished games: tallied, and written as the next part."""
        if not records or self.config is None or self.tally is None:
            return
        rows = rows_of_record(match, MatchRecord(records), self.rules.players)
        part = Part(self.parts, (match, match + 1), len(records), rows=rows)
        self.tally.merge(settle(self.config, part, self.folder))
        self.parts += 1
        self.rounds += len(records)
        self.matches = match + 1

    def finish(self) -> RunResult | None:
        """``summary.json`` last; a tournament cut short says the matches it played, and
        one that finished no game leaves the folder empty (None)."""
        if self.config is None or self.tally is None:
            return None
        if not self.matches:
            if self.folder is not None:
                (self.folder.path / MANIFEST_FILE).unlink(missing_ok=True)
                self.folder.parts.rmdir()
            return None
        if self.matches != self.config.matches:
            self.config = replace(self.config, matches=self.matches)
            if self.folder is not None:
                self.folder.config = self.config
                self.folder.manifest["config"] = self.config.to_json()
        result = RunResult(
            self.matches,
            self.rounds,
            time.perf_counter() - self.started,
            self.tally.table(),
            self.tally.estimation(),
            self.rounds,
        )
        if self.folder is not None:
            self.folder.finish(summary_of(self.config, result))
        return result
