"""The simulation output table (``rounds.parquet``): one row per player per round.

The columns of ``INTERFACES.md`` §3 come first; the others serve the reports. Both
engines build this table through :func:`frame_from_arrays`, so a kernel run and a
reference-engine run of the same matches give the same frame.

| column | dtype | meaning |
|---|---|---|
| match | int64 | match number, from 0 |
| round | int32 | round number within the match, from 0 |
| seat | int8 | the seat the player held at the start of the match |
| strategy | category | the player's strategy name |
| place | int8 | 1 = first out … n = last |
| role | category | president, vice_president, neutral, vice_scum, scum |
| prev_role | category | the role in the previous round of the match, "" in round 0 |
| points | int16 | points scored this round |
| total | int32 | the player's points in the match after this round |
| position | int8 | table position this round (differs from seat under reseat) |
| dealt | bool | this player dealt the round |
| led | bool | this player led the first trick of the round |
| tricks | int16 | tricks begun in the round (same on every row of the round) |
| plays | int16 | plays in the round |
| passes | int16 | passes in the round |
| skips | int16 | equal-rank skips in the round |
| won_match | bool | on the last round of a match under a target: this player won it |
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from simulator.match import ROLE_NAMES, MatchRecord, role_of

COLUMNS = (
    "match",
    "round",
    "seat",
    "strategy",
    "place",
    "role",
    "prev_role",
    "points",
    "total",
    "position",
    "dealt",
    "led",
    "tricks",
    "plays",
    "passes",
    "skips",
    "won_match",
)
PREV_ROLE_NAMES = ("", *ROLE_NAMES)


def role_codes(places: np.ndarray, players: int) -> np.ndarray:
    """Role index (into ROLE_NAMES) of each place."""
    table = np.array(
        [0] + [ROLE_NAMES.index(role_of(p, players)) for p in range(1, players + 1)], dtype=np.int8
    )
    return table[places]


def frame_from_arrays(
    players: int,
    strategy_names: Sequence[str],
    strategy_code: np.ndarray,
    match: np.ndarray,
    round_: np.ndarray,
    seat: np.ndarray,
    place: np.ndarray,
    prev_place: np.ndarray,
    points: np.ndarray,
    total: np.ndarray,
    position: np.ndarray,
    dealt: np.ndarray,
    led: np.ndarray,
    tricks: np.ndarray,
    plays: np.ndarray,
    passes: np.ndarray,
    skips: np.ndarray,
    won_match: np.ndarray,
) -> pd.DataFrame:
    """The output table from flat per-row arrays.

    ``strategy_code`` indexes ``strategy_names`` for each row; ``prev_place`` is 0 in a
    match's first round. Categories always list every strategy and role, so parts of
    a large run concatenate without surprises.
    """
    roles = role_codes(place.astype(np.int64), players)
    prev_roles = np.where(prev_place > 0, role_codes(prev_place.astype(np.int64), players) + 1, 0)
    uniq = list(strategy_names)
    return pd.DataFrame(
        {
            "match": match.astype(np.int64),
            "round": round_.astype(np.int32),
            "seat": seat.astype(np.int8),
            "strategy": pd.Categorical.from_codes(strategy_code.astype(np.int8), categories=uniq),
            "place": place.astype(np.int8),
            "role": pd.Categorical.from_codes(roles, categories=list(ROLE_NAMES)),
            "prev_role": pd.Categorical.from_codes(
                prev_roles.astype(np.int8), categories=list(PREV_ROLE_NAMES)
            ),
            "points": points.astype(np.int16),
            "total": total.astype(np.int32),
            "position": position.astype(np.int8),
            "dealt": dealt.astype(bool),
            "led": led.astype(bool),
            "tricks": tricks.astype(np.int16),
            "plays": plays.astype(np.int16),
            "passes": passes.astype(np.int16),
            "skips": skips.astype(np.int16),
            "won_match": won_match.astype(bool),
        }
    )


def frame_from_records(
    records: Sequence[tuple[int, MatchRecord]], players: int, seat_strategies: Sequence[str]
) -> pd.DataFrame:
    """The output table of reference-engine matches ``(match number, record)``."""
    rows: dict[str, list[int]] = {k: [] for k in COLUMNS if k != "strategy"}
    names = list(dict.fromkeys(seat_strategies))
    for m, rec in records:
        prev = [0] * players
        last = len(rec.rounds) - 1
        for rr in rec.rounds:
            for p in range(players):
                rows["match"].append(m)
                rows["round"].append(rr.index)
                rows["seat"].append(p)
                rows["place"].append(rr.places[p])
                rows["prev_role"].append(prev[p])
                rows["points"].append(rr.points[p])
                rows["total"].append(rr.totals[p])
                rows["position"].append(rr.seating.index(p))
                rows["dealt"].append(rr.dealer == p)
                rows["led"].append(rr.leader == p)
                rows["tricks"].append(rr.tricks)
                rows["plays"].append(rr.plays)
                rows["passes"].append(rr.passes)
                rows["skips"].append(rr.skips)
                rows["won_match"].append(rr.index == last and rec.winner == p)
            prev = rr.places
    arr = {k: np.asarray(v) for k, v in rows.items()}
    seat_codes = np.array([names.index(s) for s in seat_strategies])
    return frame_from_arrays(
        players,
        names,
        seat_codes[arr["seat"]],
        arr["match"],
        arr["round"],
        arr["seat"],
        arr["place"],
        arr["prev_role"],
        arr["points"],
        arr["total"],
        arr["position"],
        arr["dealt"],
        arr["led"],
        arr["tricks"],
        arr["plays"],
        arr["passes"],
        arr["skips"],
        arr["won_match"],
    )
