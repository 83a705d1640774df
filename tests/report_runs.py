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

import strategies
from simulator import __version__
from simulator.match import play_match
from simulator.output import frame_from_arrays, frame_from_records
from simulator.rules import Rules


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
    summary = {
        "rules": rules.to_dict(),
        "strategies": list(names),
        "seed": seed,
        "matches": int(frame["match"].max()) + 1,
        "rounds": int(frame.groupby("match")["round"].max().add(1).sum()),
        "version": __version__,
    }
    (root / "summary.json").write_text(json.dumps(summary))
    return root


def reference_frame(
    rules: Rules, names: Sequence[str], seed: int, matches: int, rounds: int
) -> pd.DataFrame:
    """The output table of real matches on the reference engine."""
    records = [
        (m, play_match(rules, [strategies.make(n) for n in names], seed, m, rounds=rounds))
        for m in range(matches)
    ]
    return frame_from_records(records, rules.players, names)


def synthetic_frame(
    matches: int, rounds: int, names: Sequence[str], seed: int, rules: Rules
) -> pd.DataFrame:
    """Schema-exact random rows: ``matches`` × ``rounds`` rounds of len(names) players."""
    n = len(names)
    rng = np.random.default_rng(seed)
    total_rounds = matches * rounds
    places = np.argsort(rng.random((total_rounds, n)), axis=1).astype(np.int64) + 1
    prev = np.zeros_like(places)
    later = np.arange(total_rounds) % rounds != 0
    prev[later] = places[np.flatnonzero(later) - 1]
    table = np.array([0] + [rules.points.for_place(p, n) for p in range(1, n + 1)])
    points = table[places]
    totals = points.reshape(matches, rounds, n).cumsum(axis=1).reshape(total_rounds, n)
    leader = rng.integers(0, n, total_rounds)
    per_round = {k: rng.integers(lo, hi, total_rounds) for k, lo, hi in _LENGTHS}
    seat = np.tile(np.arange(n), total_rounds)
    names_list = list(dict.fromkeys(names))
    return frame_from_arrays(
        n,
        names_list,
        np.array([names_list.index(s) for s in names])[seat],
        np.repeat(np.arange(total_rounds) // rounds, n),
        np.repeat(np.arange(total_rounds) % rounds, n),
        seat,
        places.ravel(),
        prev.ravel(),
        points.ravel(),
        totals.ravel(),
        seat,
        np.repeat(leader, n) == seat,
        np.repeat(leader, n) == seat,
        *(np.repeat(per_round[k], n) for k, _, _ in _LENGTHS),
        np.zeros(total_rounds * n, dtype=bool),
    )


_LENGTHS = (("tricks", 8, 20), ("plays", 20, 40), ("passes", 10, 40), ("skips", 0, 3))
