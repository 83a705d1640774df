"""The simulation output table (``rounds.parquet``): one row per player per round.

:data:`SCHEMA` is the one statement of the columns — their names, dtypes and meanings —
that the writer, the reports and ``docs/formats.md`` all follow. The eight columns
promised from the start (``match`` … ``points``) come first; the others serve the
reports. Columns may be added, never renamed or dropped. Every engine produces kernel
output rows (:mod:`simulator.matchloop.matches`), turned into this table by
:func:`table_from_rows`, so a kernel run and a reference-engine run of the same matches
give the same table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from simulator.matchloop import matches as kernel_rows
from simulator.rules.roles import PREV_ROLE_NAMES, ROLE_NAMES, role_of
from simulator.runs.job import SimConfig

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa


@dataclass(frozen=True)
class Column:
    """One column of the rounds table."""

    name: str
    dtype: str
    meaning: str


SCHEMA = (
    Column("match", "int64", "match number, from 0"),
    Column("round", "int32", "round number within the match, from 0"),
    Column("seat", "int8", "the seat the player held at the start of the match"),
    Column("strategy", "category", "the player's strategy name"),
    Column("place", "int8", "1 = first out … n = last"),
    Column("role", "category", "president, vice_president, neutral, vice_scum, scum"),
    Column("prev_role", "category", 'the role in the previous round of the match, "" in round 0'),
    Column("points", "int16", "points scored this round"),
    Column("total", "int32", "the player's points in the match after this round"),
    Column("position", "int8", "table position this round (differs from seat under reseat)"),
    Column("dealt", "bool", "this player dealt the round"),
    Column("led", "bool", "this player led the first trick of the round"),
    Column("tricks", "int16", "tricks begun in the round (same on every row of the round)"),
    Column("plays", "int16", "plays in the round"),
    Column("passes", "int16", "passes in the round"),
    Column("skips", "int16", "equal-rank skips in the round"),
    Column("won_match", "bool", "on the last round of a match under a target: this player won it"),
    Column(
        "hand_strength",
        "int16",
        "strength of the player's dealt base hand, before the exchange "
        "(simulator.rules.hand_strength; luck adjustment centres it on the round's mean)",
    ),
)
COLUMNS = tuple(c.name for c in SCHEMA)
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

    Built from numpy straight into Arrow, each column cast once to its dtype: no pandas
    (a part of a million rows takes milliseconds, and a run that keeps no table never
    imports pandas). The categories are dictionaries that always list every strategy and
    role, so parts of a large run concatenate without surprises. ``codes`` is
    ``config.strategy_codes`` of the rows' matches when the caller has it already.
    """
    import pyarrow as pa  # loaded only by a run that writes its table

    n = config.rules.players
    r = len(rows)
    match = rows[:, kernel_rows.OUT_MATCH]
    place = rows[:, kernel_rows.OUT_PLACE : kernel_rows.OUT_PLACE + n].astype(np.int8)
    prev = np.zeros((r, n), dtype=np.int8)  # the place one round earlier, 0 in round 0
    np.multiply(place[:-1], (match[1:] == match[:-1])[:, None], out=prev[1:])
    if codes is None:
        codes = config.strategy_codes(match)
    players = np.arange(n, dtype=rows.dtype)

    def per_player(name: str, col: int) -> pa.Array:
        return pa.array(rows[:, col : col + n].astype(_DTYPES[name]).ravel())

    def per_round(name: str, col: int) -> pa.Array:
        return pa.array(np.repeat(rows[:, col].astype(_DTYPES[name]), n))

    def holder(col: int) -> pa.Array:
        """True on the row of the player a per-round column names (-1: nobody)."""
        return pa.array((np.ascontiguousarray(rows[:, col])[:, None] == players).ravel())

    def category(indices: np.ndarray, names: Sequence[str]) -> pa.DictionaryArray:
        return pa.DictionaryArray.from_arrays(
            indices.astype(np.int8, copy=False).ravel(), pa.array(names, pa.string())
        )

    roles = roles_by_place(n)
    prev_roles = np.concatenate([[0], roles[1:] + 1]).astype(np.int8)  # no place: ""
    columns = {
        "match": per_round("match", kernel_rows.OUT_MATCH),
        "round": per_round("round", kernel_rows.OUT_ROUND),
        "seat": pa.array(np.tile(players.astype(np.int8), r)),
        "strategy": category(codes, config.names),
        "place": pa.array(place.ravel()),
        "role": category(roles.take(place), ROLE_NAMES),
        "prev_role": category(prev_roles.take(prev), PREV_ROLE_NAMES),
        "points": per_player("points", kernel_rows.OUT_POINTS),
        "total": per_player("total", kernel_rows.OUT_TOTAL),
        "position": per_player("position", kernel_rows.OUT_POS),
        "dealt": holder(kernel_rows.OUT_DEALER),
        "led": holder(kernel_rows.OUT_LEADER),
        "tricks": per_round("tricks", kernel_rows.OUT_TRICKS),
        "plays": per_round("plays", kernel_rows.OUT_PLAYS),
        "passes": per_round("passes", kernel_rows.OUT_PASSES),
        "skips": per_round("skips", kernel_rows.OUT_SKIPS),
        "won_match": holder(kernel_rows.OUT_WINNER),
        "hand_strength": per_player("hand_strength", kernel_rows.OUT_STRENGTH),
    }
    # no column ever holds a null: declared so, parquet skips the definition levels
    # (a fifth of the writing time)
    fields = [pa.field(name, column.type, nullable=False) for name, column in columns.items()]
    return pa.Table.from_arrays(list(columns.values()), schema=pa.schema(fields))


def frame_from_rows(config: SimConfig, rows: np.ndarray) -> pd.DataFrame:
    """The output table as pandas reads it back from the parquet parts (categoricals for
    the dictionary columns)."""
    return table_from_rows(config, rows).to_pandas()
