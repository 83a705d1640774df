"""The simulation output table (``rounds.parquet``): one row per player per round.

:data:`SCHEMA` is the row spec (:data:`simulator.matchloop.rowspec.SPEC`), the one
statement of the columns — their names, dtypes, meanings and kernel slots — that the
kernel, the writer, the reports and ``docs/formats.md`` all follow. The eight columns
promised from the start (``match`` … ``points``) come first; the others serve the
reports. Columns may be added, never renamed or dropped. Every engine produces kernel
output rows (:mod:`simulator.matchloop.matches`), turned into this table by
:func:`table_from_rows`, so a kernel run and a reference-engine run of the same matches
give the same table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from simulator.matchloop.matches import OUT_MATCH
from simulator.matchloop.rowspec import COLUMNS, SPEC
from simulator.rules.roles import PREV_ROLE_NAMES, ROLE_NAMES, role_of
from simulator.runs.job import SimConfig

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa


SCHEMA = SPEC  # the columns, as the row spec declares them
_DTYPES = {c.name: c.dtype for c in SCHEMA}


def roles_by_place(players: int) -> np.ndarray:
    """``[place]``: the role index (into ROLE_NAMES) of each place 1..n (0 at index 0)."""
    return np.array(
        [0] + [ROLE_NAMES.index(role_of(p, players)) for p in range(1, players + 1)], dtype=np.int8
    )


def table_from_rows(
    config: SimConfig, rows: np.ndarray, codes: np.ndarray | None = None
) -> pa.Table:
    """The output table of kernel rows (one per round) of whole matches, in match order.

    Every column is written in one compiled pass over the rows
    (:mod:`simulator.runs.columns`), straight into Arrow: no pandas (a part of a million
    rows takes milliseconds, and a run that keeps no table never imports pandas). The
    categories are dictionaries that always list every strategy and role, so parts of a
    large run concatenate without surprises. ``codes`` is
    ``config.strategy_codes`` of the rows' matches when the caller has it already.
    """
    import pyarrow as pa  # loaded only by a run that writes its table

    from simulator.runs.columns import fill_columns, row_layout  # numba: here only

    n = config.rules.players
    if codes is None:
        codes = config.strategy_codes(rows[:, OUT_MATCH])
    size = len(rows) * n
    arrays = {name: np.empty(size, np.int8 if _DTYPES[name] == "category" else _DTYPES[name])
              for name in COLUMNS}  # fmt: skip
    roles = roles_by_place(n)
    prev_roles = np.concatenate([[0], roles[1:] + 1]).astype(np.int8)  # no place: ""
    fill_columns(np.ascontiguousarray(rows), np.ascontiguousarray(codes), row_layout(n), roles,
                 prev_roles, *arrays.values())  # fmt: skip
    categories = {"strategy": config.names, "role": ROLE_NAMES, "prev_role": PREV_ROLE_NAMES}
    columns = {
        name: pa.DictionaryArray.from_arrays(arrays[name], pa.array(categories[name], pa.string()))
        if name in categories
        else pa.array(arrays[name])
        for name in COLUMNS
    }
    # no column ever holds a null: declared so, parquet skips the definition levels
    # (a fifth of the writing time)
    fields = [pa.field(name, column.type, nullable=False) for name, column in columns.items()]
    return pa.Table.from_arrays(list(columns.values()), schema=pa.schema(fields))


def frame_from_rows(config: SimConfig, rows: np.ndarray) -> pd.DataFrame:
    """The output table as pandas reads it back from the parquet parts (categoricals for
    the dictionary columns)."""
    return table_from_rows(config, rows).to_pandas()
