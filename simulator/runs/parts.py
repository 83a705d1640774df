"""A part of a run on its way to the folder: computed by an engine, tallied, written, listed.

Engines hand the run its parts in order (:mod:`simulator.runs.engines`). Where a part's
rows were computed decides what travels: the local engines give the rows themselves,
and the run tallies and writes them on its writer thread; a Dask worker tallies its rows
and, when it reaches the output folder, stages the part's file itself, so that only the
tally and the file's name come back (:mod:`simulator.runs.dask`). Either way the run
commits the parts in order (:meth:`simulator.runs.folder.OutputFolder.commit_part`), and
the files are the same bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from simulator.matchloop.matches import OUT_MATCH
from simulator.runs.folder import OutputFolder, StagedPart, WorkerTarget
from simulator.runs.job import Range, SimConfig
from simulator.runs.schema import table_from_rows
from simulator.runs.tally import Tally


@dataclass
class Part:
    """Part ``index``: the matches ``span`` and their ``rounds``, with what the engine
    computed — the rows (the run tallies and writes them), or the tally and, when a
    worker wrote the part, its staged file."""

    index: int
    span: Range
    rounds: int
    rows: np.ndarray | None = None
    tally: Tally | None = None
    staged: StagedPart | None = None
    release: Callable[[np.ndarray], None] | None = None  # told of the rows once written


def cut_at_rounds(rows: np.ndarray, wanted: int, m_hi: int) -> tuple[np.ndarray, int]:
    """Keep whole matches up to the first one at which ``wanted`` rounds are reached."""
    if len(rows) < wanted:
        return rows, m_hi
    last_match = int(rows[wanted - 1, OUT_MATCH])
    keep = int(np.searchsorted(rows[:, OUT_MATCH], last_match, side="right"))
    return rows[:keep], last_match + 1


def computed_part(
    config: SimConfig,
    index: int,
    span: Range,
    rows: np.ndarray,
    target: WorkerTarget | None,
    keep_rows: bool,
) -> Part:
    """Where rows were computed: the part with its tally, staged in ``target`` when given
    and reachable; the rows are kept when the part is not staged and ``keep_rows``."""
    codes = config.strategy_codes(rows[:, OUT_MATCH])
    tally = Tally(config.rules.players, config.names)
    tally.add(config, rows, codes)
    part = Part(index, span, len(rows), tally=tally)
    if target is not None and target.reachable():
        part.staged = target.stage(index, table_from_rows(config, rows, codes))
    if part.staged is None and keep_rows:
        part.rows = rows
    return part


def settle(config: SimConfig, part: Part, folder: OutputFolder | None) -> Tally:
    """On the run's writer thread: tally the part (unless its engine did), write it to
    ``folder`` (unless a worker staged it) and list it there; the part's tally."""
    tally = part.tally
    codes = None
    if tally is None:
        assert part.rows is not None, "a part comes with its rows or its tally"
        codes = config.strategy_codes(part.rows[:, OUT_MATCH])
        tally = Tally(config.rules.players, config.names)
        tally.add(config, part.rows, codes)
    if folder is not None:
        if part.staged is None:
            assert part.rows is not None, "a part not staged by a worker comes with its rows"
            folder.write_part(
                part.index, table_from_rows(config, part.rows, codes), part.span, tally
            )
        else:
            folder.commit_part(part.staged, part.span, tally)
    if part.release is not None and part.rows is not None:
        part.release(part.rows)  # tallied and written: the engine may use their memory again
    return tally
