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

from collections.abc import Sequence
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
        name: pa.DictionaryArray.from_arrays(
            arrow_array(arrays[name]), arrow_strings(categories[name])
        )
        if name in categories
        else arrow_array(arrays[name])
        for name in COLUMNS
    }
    # no column ever holds a null: declared so, parquet skips the definition levels
    # (a fifth of the writing time)
    fields = [pa.field(name, column.type, nullable=False) for name, column in columns.items()]
    return pa.Table.from_arrays(list(columns.values()), schema=pa.schema(fields))


def arrow_array(values: np.ndarray) -> pa.Array:
    """``values`` (one dimension, no nulls) as an Arrow array over the same memory.

    Not ``pa.array``: on its first call it imports pandas to ask whether its argument is
    a pandas object, which was a fifth of a short ``president simulate`` (0.4 s) that
    never uses pandas. Arrow stores booleans as bits, numbers as they are.
    """
    import pyarrow as pa  # loaded only by a run that writes its table

    values = np.ascontiguousarray(values)
    if values.dtype == np.bool_:
        bits = np.packbits(values, bitorder="little")
        return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])
    kind = pa.from_numpy_dtype(values.dtype)
    return pa.Array.from_buffers(kind, len(values), [None, pa.py_buffer(values)])


def arrow_strings(names: Sequence[str]) -> pa.Array:
    """``names`` as an Arrow string array, without ``pa.array`` (see :func:`arrow_array`)."""
    import pyarrow as pa

    encoded = [name.encode() for name in names]
    offsets = np.cumsum([0, *map(len, encoded)], dtype=np.int32)
    buffers = [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(encoded))]
    return pa.Array.from_buffers(pa.string(), len(names), buffers)


def frame_from_rows(config: SimConfig, rows: np.ndarray) -> pd.DataFrame:
    """The output table as pandas reads it back from the parquet parts (categoricals for
    the dictionary columns)."""
    return table_from_rows(config, rows).to_pandas()
