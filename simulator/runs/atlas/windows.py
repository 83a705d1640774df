"""The mixed tables' rungs, windows and measure names, and a window's rounds reduced to
finishing orders: what :mod:`simulator.runs.atlas.play` needs of the mixed tables
(:mod:`simulator.runs.atlas.mix` plays them and reads their rows), kept apart so that
the two import it without a cycle.
"""

from __future__ import annotations

import numpy as np

from simulator.matchloop.seating import deal_source
from simulator.runs.atlas.ladder import RUNGS

NEIGHBOURS = [(RUNGS[k + 1], RUNGS[k]) for k in range(len(RUNGS) - 1)]  # (A stronger, B)
MEASURES = ("rating_", "skill_depth", "rating_gain_top",
            *(f"{kind}_{a}_vs_{b}" for a, b in NEIGHBOURS for kind in ("edge", "n95")))  # fmt: skip


def is_mix_measure(measure: str) -> bool:
    """Whether a measure of ``atlas.parquet`` comes from the mixed tables."""
    return measure.startswith(MEASURES)


def windows(players: int) -> list[int]:
    """The first rung of each table: n consecutive rungs, sliding over the ladder."""
    return list(range(max(1, len(RUNGS) - players + 1)))


def mix_sums(place: np.ndarray, slot: np.ndarray, match: np.ndarray, group: int,
             count: int) -> dict[str, np.ndarray]:  # fmt: skip
    """A duplicate window's rounds: each round's line-up slots, first place first, its deal
    group, and the rounds per deal group."""
    order = np.empty_like(slot)
    np.put_along_axis(order, place - 1, slot, axis=1)
    cluster = deal_source(match, group)
    return {"order": order.astype(np.int8), "cluster": cluster.astype(np.int32),
            "rounds": np.bincount(cluster, minlength=count).astype(np.float64)}  # fmt: skip
