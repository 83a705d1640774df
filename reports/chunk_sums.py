"""Per-chunk sums: a chunk of whole matches → small frames of counts and sums by batch.

Each ``tally_*`` function is pure (a chunk and the run → a DataFrame) and its output is
additive: the tallies of a run are the sums of the tallies of its chunks
(:func:`combine`). Every tally keeps ``batch`` as a key, because the intervals of
:mod:`reports.batch_intervals` need the sums per batch of matches. Strategy and role keys
come out as plain strings.

Each tally is declared once, as a field of :class:`Tallies` (:func:`summed`: its
function, the keys its rows add up by, the columns it reads); the report's pass over the
rows (:func:`reports.build.collect`) and the columns it reads (:data:`NEEDED_COLUMNS`)
follow from those declarations.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd

from reports.data import CHUNK_COLUMNS, Run
from simulator.runs.schema import COLUMNS
from simulator.runs.tally import AT, SEAT_SUMS, cell_sums

HORIZONS = (1, 3, 10)  # rounds ahead for the value of a role (those a match allows)
HISTOGRAMS = ("tricks", "plays", "passes")  # per-round counts drawn as histograms


def role_horizons(rounds_per_match: int | None) -> tuple[int, ...]:
    """The horizons of the value of a role that matches of ``rounds_per_match`` rounds
    allow: a round's value over h rounds needs h more rounds in the match, so h ≤ K − 1
    (the longest, K − 1, is added). Under a target (None), :data:`HORIZONS`."""
    if rounds_per_match is None:
        return HORIZONS
    longest = rounds_per_match - 1
    return tuple(sorted({h for h in HORIZONS if h <= longest} | ({longest} - {0})))


def _sum_by(frame: pd.DataFrame, keys: list[str], values: dict[str, str]) -> pd.DataFrame:
    """Sum (or count) columns by keys; categorical keys become strings."""
    out = frame.groupby(keys, observed=True, sort=False).agg(**values).reset_index()
    for key in keys:
        if isinstance(out[key].dtype, pd.CategoricalDtype):
            out[key] = out[key].astype(str)
    return out


def tally_places(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Rows and points by (batch, strategy, seat, place): places, roles, seat effects."""
    return _sum_by(
        chunk,
        ["batch", "strategy", "seat", "place"],
        {"rows": ("place", "size"), "points": ("points", "sum")},
    )


def tally_transitions(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Counts of (previous role → role) and the sum of places that followed, by strategy.

    Round 0 rows (no previous role) are left out.
    """
    later = chunk[chunk["prev_role"] != ""]
    return _sum_by(
        later,
        ["batch", "strategy", "prev_role", "role"],
        {"rows": ("place", "size"), "place_sum": ("place", "sum")},
    )


def tally_leads(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """First-lead effect: place and President/Scum counts by who led, round 0 apart.

    Round 0 is kept apart because its leader is left of a random dealer, while from
    round 1 on the opener rule picks him by role (the Scum, usually), which confounds.
    """
    frame = pd.DataFrame(
        {
            "batch": chunk["batch"],
            "strategy": chunk["strategy"],
            "first_round": chunk["round"].to_numpy() == 0,
            "led": chunk["led"].to_numpy(),
            "place": chunk["place"].to_numpy(np.int64),
            "president": chunk["place"].to_numpy() == 1,
            "scum": chunk["place"].to_numpy() == run.players,
        }
    )
    return _sum_by(
        frame,
        ["batch", "strategy", "first_round", "led"],
        {
            "rows": ("place", "size"),
            "place_sum": ("place", "sum"),
            "president": ("president", "sum"),
            "scum": ("scum", "sum"),
        },
    )


def _round_rows(chunk: pd.DataFrame) -> pd.DataFrame:
    """One row per round: the leader's row (exactly one player leads each round)."""
    return chunk[chunk["led"].to_numpy()]


def tally_length(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Rounds and the sums of tricks, plays, passes, skips per batch (game length)."""
    rounds = _round_rows(chunk)
    return _sum_by(
        rounds,
        ["batch"],
        {
            "rounds": ("tricks", "size"),
            "tricks": ("tricks", "sum"),
            "plays": ("plays", "sum"),
            "passes": ("passes", "sum"),
            "skips": ("skips", "sum"),
        },
    )


def tally_length_histogram(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """How many rounds had each number of tricks, plays and passes (for histograms)."""
    rounds = _round_rows(chunk)
    return pd.concat(
        [
            rounds[measure]
            .value_counts()
            .rename_axis("value")
            .reset_index(name="rounds")
            .assign(measure=measure)
            for measure in HISTOGRAMS
        ],
        ignore_index=True,
    )


def tally_matches(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Matches played and won by (batch, strategy, seat), with the rounds they lasted.

    A chunk holds whole matches, so a match's length is its largest round number + 1.
    """
    first = chunk[chunk["round"].to_numpy() == 0][["match", "batch", "strategy", "seat"]]
    length = chunk.groupby("match", sort=False)["round"].max() + 1
    won = chunk[chunk["won_match"].to_numpy()][["match", "seat"]].assign(won=1)
    frame = first.merge(won, on=["match", "seat"], how="left")
    frame["won"] = frame["won"].fillna(0).astype(np.int64)
    frame["length"] = length.reindex(frame["match"]).to_numpy(np.int64)
    frame["decided"] = frame["match"].isin(won["match"]).astype(np.int64)
    return _sum_by(
        frame,
        ["batch", "strategy", "seat"],
        {
            "matches": ("won", "size"),
            "won": ("won", "sum"),
            "rounds": ("length", "sum"),
            "decided": ("decided", "sum"),
        },
    )


def tally_strategy_matches(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Matches played and won by (batch, strategy), each match counted once per strategy
    however many seats the strategy held (it wins when any of its players does)."""
    first = chunk[chunk["round"].to_numpy() == 0]
    played = first[["match", "batch", "strategy"]].drop_duplicates()
    won = chunk[chunk["won_match"].to_numpy()][["match", "strategy"]].drop_duplicates()
    frame = played.merge(won.assign(won=1), on=["match", "strategy"], how="left")
    frame["won"] = frame["won"].fillna(0).astype(np.int64)
    return _sum_by(
        frame, ["batch", "strategy"], {"matches": ("won", "size"), "won": ("won", "sum")}
    )


def luck_of(chunk: pd.DataFrame, players: int) -> np.ndarray:
    """Each row's luck: n × (dealt-hand strength − the mean of the round's table), as
    :func:`simulator.runs.tally.luck` computes it from kernel rows."""
    strength = chunk["hand_strength"].to_numpy(np.int64)
    table = chunk.groupby(["match", "round"], sort=False)["hand_strength"].transform("sum")
    return players * strength - table.to_numpy(np.int64)


def tally_standings(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Per (batch, strategy) that holds rows: the sums of a run's tally
    (:data:`simulator.runs.tally.SEAT_SUMS`: rounds, places, President and Scum rounds,
    luck, and the luck × centred place products for the slope and R²), counted as the
    run counts them (:func:`simulator.runs.tally.cell_sums`), for the strategy ranking."""
    strategy = chunk["strategy"].astype("category")
    names = strategy.cat.categories.astype(str)
    k = len(names)
    batch = chunk["batch"].to_numpy(np.int64)
    lo = int(batch.min())
    cells = (int(batch.max()) - lo + 1) * k
    cell = (batch - lo) * k + strategy.cat.codes.to_numpy(np.int64)
    place = chunk["place"].to_numpy(np.int64)
    sums = cell_sums(cell, place, luck_of(chunk, run.players), run.players, cells)
    held = np.flatnonzero(sums[:, AT["rounds"]] > 0)
    frame = pd.DataFrame(sums[held], columns=list(SEAT_SUMS))
    return frame.assign(batch=lo + held // k, strategy=names[held % k])[
        ["batch", "strategy", *SEAT_SUMS]
    ]


def tally_strength(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Rows and places by (batch, strategy, dealt-hand strength), for the deciles."""
    return _sum_by(
        chunk, ["batch", "strategy", "hand_strength"],
        {"rows": ("place", "size"), "places": ("place", "sum")},
    )  # fmt: skip


def tally_dealt(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Rows and the sum of places by (batch, strategy, whether the player dealt)."""
    return _sum_by(
        chunk, ["batch", "strategy", "dealt"],
        {"rows": ("place", "size"), "place_sum": ("place", "sum")},
    )  # fmt: skip


def tally_match_lengths(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """How many matches lasted each number of rounds."""
    length = chunk.groupby("match", sort=False)["round"].max() + 1
    return length.value_counts().rename_axis("length").reset_index(name="matches")


def tally_forward(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Points and places over the next h rounds after holding each role, by strategy.

    For a row (a player in round t, holding ``role`` after it) and a horizon h of
    :func:`role_horizons` (those the run's matches allow), the
    value is the sum of the player's points in rounds t+1 … t+h and the sum of his
    places there. Rows whose match ends before round t+h are left out, so under a
    scoring target the value is conditional on the match going on.
    """
    order = np.lexsort(
        (chunk["round"].to_numpy(), chunk["seat"].to_numpy(), chunk["match"].to_numpy())
    )
    match = chunk["match"].to_numpy()[order]
    seat = chunk["seat"].to_numpy()[order]
    rnd = chunk["round"].to_numpy()[order].astype(np.int64)
    points = np.concatenate([[0], np.cumsum(chunk["points"].to_numpy(np.int64)[order])])
    places = np.concatenate([[0], np.cumsum(chunk["place"].to_numpy(np.int64)[order])])
    base = chunk.iloc[order][["batch", "strategy", "role"]].reset_index(drop=True)
    parts = []
    for h in role_horizons(run.summary.get("rounds_per_match")):
        i = np.arange(len(order) - h)
        ok = (match[i + h] == match[i]) & (seat[i + h] == seat[i]) & (rnd[i + h] == rnd[i] + h)
        i = i[ok]
        part = base.iloc[i].assign(
            horizon=h,
            points=points[i + h + 1] - points[i + 1],
            places=places[i + h + 1] - places[i + 1],
        )
        parts.append(part)
    # matches of one round have no horizon: an empty tally, not a crash
    empty = base.iloc[:0].assign(horizon=0, points=0, places=0)
    frame = pd.concat(parts, ignore_index=True) if parts else empty
    return _sum_by(
        frame,
        ["batch", "strategy", "role", "horizon"],
        {"rows": ("points", "size"), "points": ("points", "sum"), "places": ("places", "sum")},
    )


def combine(tallies: Sequence[pd.DataFrame], keys: Sequence[str]) -> pd.DataFrame:
    """The sum of chunk tallies: rows with the same keys are added."""
    frame = pd.concat(tallies, ignore_index=True)
    return frame.groupby(list(keys), sort=True).sum().reset_index()


MOMENT_MEASURES = ("place", "president")  # per-unit sums whose variance a duplicate run cuts


def tally_match_moments(chunk: pd.DataFrame, run: Run) -> pd.DataFrame:
    """Per (batch, strategy): y (places, President rounds) and m (rounds) with their second
    moments over matches and over the run's duplicate groups (``run.group`` matches).

    Summing y², y·m and m² per match (``*_sq``, ``*_rows``, ``rows_sq``) and per group
    (the ``g_`` columns) by batch keeps the tally additive and small, yet gives the
    cluster-robust variance (Σ(y − R·m)² = Σy² − 2RΣym + R²Σm²) with the match and with
    the group as cluster: a duplicate run's report compares the two
    (:func:`reports.estimates.duplicate_gain`).
    """
    frame = pd.DataFrame(
        {
            "batch": chunk["batch"].to_numpy(),
            "match": chunk["match"].to_numpy(),
            "strategy": chunk["strategy"],
            "place": chunk["place"].to_numpy(np.int64),
            "president": (chunk["place"].to_numpy() == 1).astype(np.int64),
        }
    )
    per_match = frame.groupby(["batch", "match", "strategy"], observed=True, sort=False).agg(
        rows=("place", "size"), place=("place", "sum"), president=("president", "sum")
    )
    keys = per_match.index.to_frame(index=False)
    per_group = per_match.groupby(
        [
            keys["batch"].to_numpy(),
            keys["match"].to_numpy() // run.group,
            keys["strategy"].to_numpy(),
        ]
    ).sum()
    out = []
    for level, sums, count in (("", per_match, "matches"), ("g_", per_group, "groups")):
        m = sums["rows"].to_numpy(float)
        moments = {count: np.ones(len(sums)), f"{level}rows_sq": m * m}
        if not level:
            moments["rows"] = m
        for measure in MOMENT_MEASURES:
            y = sums[measure].to_numpy(float)
            moments |= {f"{level}{measure}_sq": y * y, f"{level}{measure}_rows": y * m}
            if not level:
                moments[measure] = y
        index = sums.index.to_frame(index=False)
        frame = pd.DataFrame(moments).assign(
            batch=index.iloc[:, 0].to_numpy(), strategy=index.iloc[:, 2].astype(str).to_numpy()
        )
        out.append(frame.groupby(["batch", "strategy"]).sum())
    return pd.concat(out, axis=1).fillna(0.0).reset_index()


@dataclass(frozen=True)
class ChunkSum:
    """How one tally is made: ``of(chunk, run)`` sums a chunk, whose rows
    :func:`combine` adds up by ``keys``; ``reads``: the columns of the rounds table it
    reads (besides :data:`reports.data.CHUNK_COLUMNS`, which every chunk holds).
    ``duplicate_only``: tallied only for a run of duplicate deals (else ``None``)."""

    of: Callable[[pd.DataFrame, Run], pd.DataFrame]
    keys: tuple[str, ...]
    reads: tuple[str, ...]
    duplicate_only: bool = False


def summed(
    of: Callable[[pd.DataFrame, Run], pd.DataFrame],
    keys: Sequence[str],
    reads: Sequence[str],
    duplicate_only: bool = False,
) -> dict[str, ChunkSum]:
    """The metadata of a field of :class:`Tallies` that declares its tally (see
    :class:`ChunkSum`)."""
    return {"sum": ChunkSum(of, tuple(keys), tuple(reads), duplicate_only)}


@dataclass(frozen=True)
class Tallies:
    """The sums of a whole run, by batch: each field declares the tally it holds."""

    places: pd.DataFrame = field(
        metadata=summed(
            tally_places, ["batch", "strategy", "seat", "place"], ["seat", "place", "points"]
        )
    )
    transitions: pd.DataFrame = field(
        metadata=summed(tally_transitions, ["batch", "strategy", "prev_role", "role"], ["place"])
    )
    leads: pd.DataFrame = field(
        metadata=summed(
            tally_leads, ["batch", "strategy", "first_round", "led"], ["round", "led", "place"]
        )
    )
    length: pd.DataFrame = field(
        metadata=summed(tally_length, ["batch"], ["led", *HISTOGRAMS, "skips"])
    )
    length_histogram: pd.DataFrame = field(
        metadata=summed(tally_length_histogram, ["measure", "value"], ["led", *HISTOGRAMS])
    )
    matches: pd.DataFrame = field(
        metadata=summed(
            tally_matches, ["batch", "strategy", "seat"], ["round", "seat", "won_match"]
        )
    )
    strategy_matches: pd.DataFrame = field(
        metadata=summed(tally_strategy_matches, ["batch", "strategy"], ["round", "won_match"])
    )
    match_lengths: pd.DataFrame = field(metadata=summed(tally_match_lengths, ["length"], ["round"]))
    forward: pd.DataFrame = field(
        metadata=summed(
            tally_forward,
            ["batch", "strategy", "role", "horizon"],
            ["round", "seat", "points", "place"],
        )
    )
    standings: pd.DataFrame = field(
        metadata=summed(tally_standings, ["batch", "strategy"], ["round", "place", "hand_strength"])
    )
    strength: pd.DataFrame = field(
        metadata=summed(
            tally_strength, ["batch", "strategy", "hand_strength"], ["hand_strength", "place"]
        )
    )
    dealt: pd.DataFrame = field(
        metadata=summed(tally_dealt, ["batch", "strategy", "dealt"], ["dealt", "place"])
    )
    # per-match and per-group moments, duplicate runs only
    moments: pd.DataFrame | None = field(
        default=None,
        metadata=summed(tally_match_moments, ["batch", "strategy"], ["place"], duplicate_only=True),
    )


def declared() -> dict[str, ChunkSum]:
    """Every tally of :class:`Tallies`, by field name, in field order."""
    return {f.name: f.metadata["sum"] for f in fields(Tallies)}


# the columns the report reads, in the rounds table's order: those the tallies declare
NEEDED_COLUMNS = tuple(
    c
    for c in COLUMNS
    if c in {*CHUNK_COLUMNS, *(c for made in declared().values() for c in made.reads)}
)
