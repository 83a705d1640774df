"""The simulation output table (``rounds.parquet``): one row per player per round.

:data:`SCHEMA` is the one statement of the columns — their names, dtypes and meanings —
that the writer, the reports and ``docs/formats.md`` all follow. The eight columns
promised from the start (``match`` … ``points``) come first; the others serve the
reports. Columns may be added, never renamed or dropped. Every engine produces kernel
output rows (:mod:`simulator.matchloop.matches`), turned into this table by
:func:`frame_from_rows`, so a kernel run and a reference-engine run of the same matches
give the same frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simulator.matchloop import matches as kernel_rows
from simulator.rules.roles import PREV_ROLE_NAMES, ROLE_NAMES, role_of
from simulator.runs.job import SimConfig


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


def role_codes(places: np.ndarray, players: int) -> np.ndarray:
    """Role index (into ROLE_NAMES) of each place."""
    table = np.array(
        [0] + [ROLE_NAMES.index(role_of(p, players)) for p in range(1, players + 1)], dtype=np.int8
    )
    return table[places]


def frame_from_rows(config: SimConfig, rows: np.ndarray) -> pd.DataFrame:
    """The output table of kernel rows (one per round) of whole matches, in match order.

    Categories always list every strategy and role, so parts of a large run concatenate
    without surprises.
    """
    n = config.rules.players
    r = len(rows)
    place = rows[:, kernel_rows.OUT_PLACE : kernel_rows.OUT_PLACE + n].astype(np.int64)
    match = rows[:, kernel_rows.OUT_MATCH]
    prev = np.zeros_like(place)
    if r > 1:
        prev[1:] = place[:-1]
        prev[1:][match[1:] != match[:-1]] = 0
    players = np.arange(n)

    def per_player(col: int) -> np.ndarray:
        return rows[:, col : col + n].ravel()

    def per_round(col: int) -> np.ndarray:
        return np.repeat(rows[:, col], n)

    prev_roles = np.where(prev > 0, role_codes(prev, n) + 1, 0).ravel()
    values = {
        "match": per_round(kernel_rows.OUT_MATCH),
        "round": per_round(kernel_rows.OUT_ROUND),
        "seat": np.tile(players, r),
        "strategy": pd.Categorical.from_codes(
            config.strategy_codes(match).ravel().astype(np.int8), categories=config.names
        ),
        "place": place.ravel(),
        "role": pd.Categorical.from_codes(role_codes(place, n).ravel(), categories=ROLE_NAMES),
        "prev_role": pd.Categorical.from_codes(
            prev_roles.astype(np.int8), categories=PREV_ROLE_NAMES
        ),
        "points": per_player(kernel_rows.OUT_POINTS),
        "total": per_player(kernel_rows.OUT_TOTAL),
        "position": per_player(kernel_rows.OUT_POS),
        "dealt": (rows[:, kernel_rows.OUT_DEALER, None] == players).ravel(),
        "led": (rows[:, kernel_rows.OUT_LEADER, None] == players).ravel(),
        "tricks": per_round(kernel_rows.OUT_TRICKS),
        "plays": per_round(kernel_rows.OUT_PLAYS),
        "passes": per_round(kernel_rows.OUT_PASSES),
        "skips": per_round(kernel_rows.OUT_SKIPS),
        "won_match": (rows[:, kernel_rows.OUT_WINNER, None] == players).ravel(),
        "hand_strength": per_player(kernel_rows.OUT_STRENGTH),
    }
    return pd.DataFrame(
        {
            name: value if _DTYPES[name] == "category" else value.astype(_DTYPES[name])
            for name, value in values.items()
        }
    )
