"""Run directories for the report tests: real matches (reference engine) or synthetic rows.

``reference_run`` plays real matches, slowly (~800 rounds/s), so tests keep it small.
``synthetic_run`` draws schema-exact rows with numpy for size and speed measurements:
places are random permutations, the rest is consistent with them (roles, previous
roles, points, totals, one leader per round), but it is not a game of Président.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from simulator.matchloop.api import rows_of_record
from simulator.matchloop.matches import (
    OUT_LEADER,
    OUT_MATCH,
    OUT_PASSES,
    OUT_PLAYS,
    OUT_ROUND,
    OUT_SKIPS,
    OUT_TRICKS,
    OUT_WINNER,
    SEAT_PLACE,
    SEAT_POINTS,
    SEAT_POS,
    SEAT_TOTAL,
    out_cols,
    seats,
)
from simulator.reference.match import play_match
from simulator.rules.options import Rules
from simulator.runs.job import SimConfig, make_config
from simulator.runs.schema import frame_from_rows
from simulator.runs.summary import RunResult, summary_of
from strategies import registry


def job(
    rules: Rules, names: Sequence[str], seed: int, matches: int, rounds: int | None
) -> SimConfig:
    """The job that plays ``matches`` matches of ``rounds`` rounds (or to the target)."""
    return make_config(rules, names, seed, matches=matches, rounds_per_match=rounds)


def write_run(
    root: Path, frame: pd.DataFrame, rules: Rules, names: Sequence[str], seed: int, parts: int
) -> Path:
    """Write ``frame`` as DIR/rounds.parquet (one file, or ``parts`` parts) and summary.json."""
    root.mkdir(parents=True, exist_ok=True)
    target = root / "rounds.parquet"
    if parts <= 1:
        frame.to_parquet(target, index=False)
    else:
        target.mkdir()
        matches = frame["match"].to_numpy()
        bounds = np.linspace(0, matches.max() + 1, parts + 1).astype(int)
        for k in range(parts):
            part = frame[(matches >= bounds[k]) & (matches < bounds[k + 1])]
            part.to_parquet(target / f"part-{k:05d}.parquet", index=False)
    lengths = frame.groupby("match")["round"].max().add(1)
    config = job(rules, names, seed, len(lengths), None if rules.target else int(lengths.max()))
    result = RunResult(len(lengths), int(lengths.sum()), 0.0, [], {}, int(lengths.sum()))
    (root / "summary.json").write_text(json.dumps(summary_of(config, result)))
    return root


def reference_frame(
    rules: Rules, names: Sequence[str], seed: int, matches: int, rounds: int | None
) -> pd.DataFrame:
    """The output table of real matches on the reference engine."""
    rows = [
        rows_of_record(
            m,
            play_match(rules, [registry.make(n) for n in names], seed, m, rounds=rounds),
            rules.players,
        )
        for m in range(matches)
    ]
    return frame_from_rows(job(rules, names, seed, matches, rounds), np.concatenate(rows))


def synthetic_frame(
    matches: int, rounds: int, names: Sequence[str], seed: int, rules: Rules
) -> pd.DataFrame:
    """Schema-exact random rows: ``matches`` × ``rounds`` rounds of len(names) players."""
    n = len(names)
    rng = np.random.default_rng(seed)
    total_rounds = matches * rounds
    places = np.argsort(rng.random((total_rounds, n)), axis=1).astype(np.int64) + 1
    table = np.array([0] + [rules.points.for_place(p, n) for p in range(1, n + 1)])
    points = table[places]
    out = np.zeros((total_rounds, out_cols(n)), dtype=np.int32)
    out[:, OUT_MATCH] = np.arange(total_rounds) // rounds
    out[:, OUT_ROUND] = np.arange(total_rounds) % rounds
    out[:, OUT_LEADER] = rng.integers(0, n, total_rounds)
    out[:, OUT_WINNER] = -1
    for column, (lo, hi) in zip(
        (OUT_TRICKS, OUT_PLAYS, OUT_PASSES, OUT_SKIPS), _LENGTHS, strict=True
    ):
        out[:, column] = rng.integers(lo, hi, total_rounds)
    seats(out, SEAT_PLACE, n)[:] = places
    seats(out, SEAT_POINTS, n)[:] = points
    seats(out, SEAT_TOTAL, n)[:] = (
        points.reshape(matches, rounds, n).cumsum(axis=1).reshape(total_rounds, n)
    )
    seats(out, SEAT_POS, n)[:] = np.arange(n)
    return frame_from_rows(job(rules, names, seed, matches, rounds), out)


_LENGTHS = ((8, 20), (20, 40), (10, 40), (0, 3))  # tricks, plays, passes, skips per round
