"""The row spec: every output column declared once, with the kernel slot it is read from.

A run's output is made twice: the kernel writes one ``int32`` row per round
(:mod:`simulator.matchloop.matches`), and the writer turns those rows into the rounds
table, one row per player per round (:mod:`simulator.runs.schema`). :data:`SPEC` states
each column of the table once — its name, its dtype, what it means, and the kernel slot
it comes from — and everything else is derived from it: the kernel's ``OUT_*`` and
``SEAT_*`` slot numbers (:data:`OUT`, :data:`SEAT`), the parquet schema, the order in
which :func:`simulator.runs.columns.fill_columns` fills the columns, and the check that
``docs/formats.md`` documents every column with its dtype.

A slot is ``OUT_X`` (one value per round) or ``SEAT_X`` (one value per player, indexed
by the seat he held at the start of the match). The slots are numbered in the order the
columns first read them; columns may be added, never renamed or dropped, so a new slot
only ever comes last. Several columns may read one slot (``role`` and ``prev_role`` are
the ``place`` of this round and the last one); ``seat`` and ``strategy`` read none.

A new slot is written by the kernel (``play_match`` in :mod:`simulator.matchloop.matches`,
whose edit also renews numba's cache of it: numba compiles the slot numbers in as
constants and would not see a change of this file alone) and by the reference engine's
rows (:func:`simulator.matchloop.api.rows_of_record`).
"""

from __future__ import annotations

from dataclasses import dataclass

ROUND_PREFIX = "OUT_"  # a slot with one value per round
SEAT_PREFIX = "SEAT_"  # a slot with one value per player


@dataclass(frozen=True)
class Column:
    """One column of the rounds table, and the kernel slot it is read from ("": none)."""

    name: str
    dtype: str
    meaning: str
    slot: str = ""


SPEC = (
    Column("match", "int64", "match number, from 0", "OUT_MATCH"),
    Column("round", "int32", "round number within the match, from 0", "OUT_ROUND"),
    Column("seat", "int8", "the seat the player held at the start of the match"),
    Column("strategy", "category", "the player's strategy name"),
    Column("place", "int8", "1 = first out … n = last", "SEAT_PLACE"),
    Column("role", "category", "president, vice_president, neutral, vice_scum, scum", "SEAT_PLACE"),
    Column(
        "prev_role",
        "category",
        'the role in the previous round of the match, "" in round 0',
        "SEAT_PLACE",
    ),
    Column("points", "int16", "points scored this round", "SEAT_POINTS"),
    Column("total", "int32", "the player's points in the match after this round", "SEAT_TOTAL"),
    Column(
        "position",
        "int8",
        "table position this round (differs from seat when players sit in finishing order)",
        "SEAT_POS",
    ),
    Column("dealt", "bool", "this player dealt the round", "OUT_DEALER"),
    Column("led", "bool", "this player led the first trick of the round", "OUT_LEADER"),
    Column(
        "tricks",
        "int16",
        "tricks begun in the round (same on every row of the round)",
        "OUT_TRICKS",
    ),
    Column("plays", "int16", "plays in the round", "OUT_PLAYS"),
    Column("passes", "int16", "passes in the round", "OUT_PASSES"),
    Column("skips", "int16", "equal-rank skips in the round", "OUT_SKIPS"),
    Column(
        "won_match",
        "bool",
        "on the last round of a match under a target: this player won it",
        "OUT_WINNER",
    ),
    Column(
        "hand_strength",
        "int16",
        "strength of the player's dealt base hand, before the exchange "
        "(simulator.rules.hand_strength; luck adjustment centres it on the round's mean)",
        "SEAT_STRENGTH",
    ),
)
COLUMNS = tuple(c.name for c in SPEC)


def _slots(prefix: str) -> dict[str, int]:
    """The slots of one kind (``OUT_``, ``SEAT_``) by name, numbered in the order the
    columns of :data:`SPEC` first read them."""
    names = dict.fromkeys(c.slot.removeprefix(prefix) for c in SPEC if c.slot.startswith(prefix))
    return {name: i for i, name in enumerate(names)}


OUT = _slots(ROUND_PREFIX)  # a round's slots: their column in the kernel's rows
SEAT = _slots(SEAT_PREFIX)  # the per-player quantities: their index (see ``seat_col``)
OUT_SEATS = len(OUT)  # the first per-player column
SEAT_QUANTITIES = len(SEAT)
