"""Reading a run directory: its settings and its rows, whole batches of matches at a time.

A run of 10 M rounds is 50 M rows; the reports never hold them all. They read only the
columns they need, in chunks of about a million rows, and each chunk holds whole
batches of matches (the rows of the last batch of a chunk are carried over to the next
one; a batch holds whole duplicate groups), so that per-match and per-group quantities —
match length, the rounds that follow a given round, a group's sums — are computed inside
one chunk. Rows must come ordered by match, as the simulator writes them
(parts are read in the order of their first match).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from simulator.errors import PresidentError
from simulator.matchloop.seating import group_size
from simulator.rules.roles import PREV_ROLE_NAMES, ROLE_NAMES
from simulator.runs.schema import COLUMNS
from simulator.runs.summary import ROUNDS_FILE, SUMMARY_FILE, SummaryError, read_summary
from simulator.stats import BATCHES, batch_units

# the columns every chunk holds: its matches, and what the chunks are normalised on; a
# reader asks for these and the columns it reads itself (no more: they only cost memory)
CHUNK_COLUMNS = ("match", "strategy", "role", "prev_role")
CHUNK_ROWS = 1 << 20  # about 1 M rows per chunk: large enough to amortise pandas overhead


class ReportError(PresidentError):
    """A directory that is not a readable simulation run; the message says what is wrong."""


@dataclass(frozen=True)
class Run:
    """An opened run directory: its settings and its parquet parts, in match order."""

    path: Path
    summary: dict[str, Any]
    parts: tuple[str, ...]

    @property
    def players(self) -> int:
        """Number of players (from the rules in ``summary.json``)."""
        return int(self.summary["rules"]["players"])

    @property
    def matches(self) -> int:
        """Matches played: ``matches_played`` when the simulator wrote it.

        A run sized by ``--rounds`` under a scoring target has ``matches = null``.
        """
        return int(self.summary.get("matches_played") or self.summary["matches"])

    @property
    def duplicate(self) -> bool:
        """Whether the run played duplicate deals."""
        return bool(self.summary.get("duplicate"))

    @property
    def lineup(self) -> list[str]:
        """The strategies, seat by seat, as the run names them."""
        return list(self.summary.get("strategies", []))

    @property
    def group(self) -> int:
        """Matches that must share a batch: a duplicate group (they share deals), else 1."""
        return group_size(self.lineup, self.duplicate) if self.lineup else 1

    @property
    def batch_size(self) -> int:
        """Matches per batch (whole duplicate groups), sized for ``BATCHES`` batches:
        the simulator's own batches when summary.json names them, so that the report and
        the end-of-run table use the same clusters.

        Matches of a duplicate group are dependent, so a batch never splits a group: the
        groups, not the matches, are the independent units.
        """
        if isinstance(self.summary.get("batch_matches"), int):
            return int(self.summary["batch_matches"])
        groups = -(-self.matches // self.group)
        return self.group * batch_units(groups, BATCHES)


def open_run(path: str | Path) -> Run:
    """Open ``DIR``: list the parts of ``rounds.parquet`` and read ``summary.json``.

    Raises ReportError (one line) for anything that is not a run: no parquet, an
    unreadable one, a missing or malformed summary. Whether the parts hold the columns
    a reader needs is checked when it reads them (:func:`iter_chunks`).
    """
    root = Path(path)
    if not root.is_dir():
        raise ReportError(f"{root} is not a directory")
    parts = _open_parts(root / ROUNDS_FILE)
    try:
        summary = read_summary(root / SUMMARY_FILE)
    except SummaryError as exc:
        raise ReportError(str(exc)) from None
    return Run(root, summary, parts)


def _open_parts(path: Path) -> tuple[str, ...]:
    """The parquet parts (one file, or a folder of parts) ordered by their first match.

    Only metadata is read here.
    """
    if not path.exists():
        raise ReportError(f"no {ROUNDS_FILE} in {path.parent}")
    try:
        files = ds.dataset(path, format="parquet").files
        firsts = {file: _first_match(file) for file in files}
    except (pa.ArrowException, OSError) as exc:
        raise ReportError(f"cannot read {path}: {_first_line(exc)}") from None
    if not files:
        raise ReportError(f"{path} holds no parquet parts")
    return tuple(sorted(files, key=firsts.__getitem__))


def _first_match(file: str) -> int:
    """The smallest match number of a part, from its statistics (0 when absent)."""
    meta = pq.ParquetFile(file).metadata
    if meta.num_row_groups == 0 or "match" not in meta.schema.names:
        return 0
    stats = meta.row_group(0).column(meta.schema.names.index("match")).statistics
    return int(stats.min) if stats is not None and stats.has_min_max else 0


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def iter_chunks(run: Run, columns: tuple[str, ...]) -> Iterator[pd.DataFrame]:
    """The rows of the run in chunks of whole batches (so whole matches and whole
    duplicate groups), with a ``batch`` column added: ``columns`` (with
    :data:`CHUNK_COLUMNS`), which every part must hold (else ReportError, before any row
    is read).

    ``role`` and ``prev_role`` come as categoricals over the rule book's roles ("" for
    no previous role), whatever dictionaries the parts were written with.
    """
    wanted = [c for c in COLUMNS if c in {*CHUNK_COLUMNS, *columns}]  # in the table's order
    carry: pd.DataFrame | None = None
    done = -1
    try:
        _check_columns(run.parts, wanted)
        for table in _tables(run.parts, wanted):
            frame = table.to_pandas()
            if carry is not None:
                frame = pd.concat([carry, frame], ignore_index=True)
            match = frame["match"].to_numpy()
            if match.min() <= done:
                raise ReportError(f"{run.path / ROUNDS_FILE} is not ordered by match")
            batch = match // run.batch_size
            last = batch.max()
            carry = frame[batch == last]
            ready = frame[batch != last]
            if len(ready):
                done = int(ready["match"].max())
                yield _normalise(ready, run.batch_size)
    except (pa.ArrowException, OSError) as exc:
        raise ReportError(f"cannot read {run.path / ROUNDS_FILE}: {_first_line(exc)}") from None
    if carry is None:
        raise ReportError(f"{run.path / ROUNDS_FILE} holds no rows")
    yield _normalise(carry, run.batch_size)


def _check_columns(parts: tuple[str, ...], columns: list[str]) -> None:
    """Refuse parts that lack a column the reader needs (ReportError naming them)."""
    for part in parts:
        names = pq.read_schema(part).names
        missing = [c for c in columns if c not in names]
        if missing:
            raise ReportError(f"{part} lacks the columns {', '.join(missing)}")


def _tables(parts: tuple[str, ...], columns: list[str]) -> Iterator[pa.Table]:
    """Record batches gathered into tables of at least CHUNK_ROWS rows (the last may be less).

    Parts are read one row group at a time, which keeps memory bounded (a dataset
    scanner reads ahead several parts).
    """
    pending: list[pa.RecordBatch] = []
    rows = 0
    for part in parts:
        for batch in pq.ParquetFile(part).iter_batches(batch_size=CHUNK_ROWS, columns=columns):
            pending.append(batch)
            rows += batch.num_rows
            if rows >= CHUNK_ROWS:
                yield pa.Table.from_batches(pending)
                pending, rows = [], 0
    if rows:
        yield pa.Table.from_batches(pending)


def _normalise(frame: pd.DataFrame, batch_size: int) -> pd.DataFrame:
    """Fixed role categories, a categorical strategy, and the batch of each row's match."""
    frame = frame.copy()
    for column, allowed in (("role", ROLE_NAMES), ("prev_role", PREV_ROLE_NAMES)):
        values = frame[column].astype("category")
        unknown = set(values.cat.categories) - set(allowed)
        if unknown:
            raise ReportError(f"unknown {column} values: {', '.join(map(str, sorted(unknown)))}")
        frame[column] = values.cat.set_categories(allowed)
    if not isinstance(frame["strategy"].dtype, pd.CategoricalDtype):
        frame["strategy"] = frame["strategy"].astype("category")
    frame["batch"] = (frame["match"].to_numpy() // batch_size).astype(np.int64)
    return frame
