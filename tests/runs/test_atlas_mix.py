"""The atlas's mixed tables (simulator.runs.atlas.mix), without the kernel: the windows,
the rungs' names, the finishing orders from a table's places, and the rows from
batches of known strengths."""

from __future__ import annotations

import numpy as np

from simulator.runs.atlas.mix import mix_measures
from simulator.runs.atlas.play import EDGE, MIX, part_of
from simulator.runs.atlas.windows import (
    NEIGHBOURS,
    RUNGS,
    is_mix_measure,
    mix_sums,
    rung_strategy,
    windows,
)
from strategies import registry

THETA = np.linspace(0.0, 1.8, len(RUNGS))  # known strengths, weakest rung first


def test_windows_slide_over_the_ladder() -> None:
    assert windows(4) == [0, 1, 2, 3]
    assert windows(6) == [0, 1]
    assert windows(7) == [0]


def test_rungs_play_the_heuristic_and_champion_at_three_search_levels() -> None:
    assert rung_strategy("heuristic", "planner") == "planner"
    assert rung_strategy("linear", "planner") == "linear"
    knobs = {}
    for rung in ("champion_low", "champion", "champion_high"):
        spec = registry.get(rung_strategy(rung, "planner"))
        values = dict(zip([p.name for p in spec.params], spec.vector, strict=True))
        knobs[rung] = [values[k] for k in ("budget", "guesses", "solve")]
    assert knobs["champion"] == [48, 12, 200]  # the declared values
    assert knobs["champion_low"] == [12, 3, 50]
    assert knobs["champion_high"] == [192, 48, 800]


def test_mix_sums_orders_the_slots_by_place() -> None:
    """Slot 2 first, slot 0 second, slot 1 third: the order (2, 0, 1)."""
    place = np.array([[2, 3, 1], [1, 2, 3]])
    slot = np.array([[0, 1, 2], [1, 2, 0]])
    sums = mix_sums(place, slot, np.array([0, 1]), 3, 1)
    assert sums["order"].tolist() == [[2, 0, 1], [1, 2, 0]]
    assert sums["cluster"].tolist() == [0, 0] and sums["rounds"].tolist() == [2.0]


def test_mix_measures_are_their_own_part() -> None:
    assert is_mix_measure("edge_lowest_vs_random") and part_of("skill_depth") == MIX
    assert part_of("edge_champion_vs_heuristic") == EDGE
    assert part_of("rating_champion_high") == MIX


def fake_batches(theta: np.ndarray, players: int, seed: int, batches: int = 2) -> list:
    """Batches of the mixed tables as play_mix keys them, the orders drawn from
    Plackett–Luce(θ) (rounds of a deal group share their noise half the time), the
    ordinary matches' places from the same model."""
    rng = np.random.default_rng(seed)
    groups, per, matches, rounds = 40, 4, 20, 5
    out = []
    for _ in range(batches):
        batch = {}
        common = rng.gumbel(size=(groups, 1, players))
        for s in windows(players):
            items = np.arange(s, s + players)
            own = rng.gumbel(size=(groups, per, players))
            noise = np.where(rng.random((groups, per, 1)) < 0.5, common, own)
            order = np.argsort(-(theta[items] + noise.reshape(-1, players)), axis=1)
            batch[f"mix:{s}:order"] = order.astype(np.int8)
            batch[f"mix:{s}:cluster"] = np.repeat(np.arange(groups), per).astype(np.int32)
            batch[f"mix:{s}:rounds"] = np.full(groups, float(per))
            noise = rng.gumbel(size=(matches * rounds, players))
            place = np.argsort(np.argsort(-(theta[items] + noise), axis=1), axis=1) + 1
            batch[f"mixmatch:{s}:place"] = place.astype(np.int8)
            batch[f"mixmatch:{s}:match"] = np.repeat(np.arange(matches), rounds)
            batch[f"mixmatch:{s}:rounds"] = np.full(matches, float(rounds))
        out.append(batch)
    return out


def test_rows_of_known_strengths() -> None:
    """Every rung's rating, the skill depth and the neighbours' rows, named as issue 39's
    design says, with the truth inside the depth's interval, each stronger neighbour
    placing better, and the paired depth of a rule set with itself exactly 0."""
    players = 4
    batches = fake_batches(THETA, players, 1)
    rows = {name: m for name, m, _, _ in mix_measures(batches, players, (batches, players))}
    assert {f"rating_{r}" for r in RUNGS} <= rows.keys()
    assert rows["rating_random"].estimate == 0
    depth = rows["skill_depth"]
    assert depth.low <= THETA[-1] - THETA[0] <= depth.high
    assert rows["skill_depth_vs_base"].estimate == 0
    for a, b in NEIGHBOURS:
        assert rows[f"edge_{a}_vs_{b}"].estimate < 0  # A places better
        assert rows[f"n95_{a}_vs_{b}"].estimate > 0
    gain = rows["rating_gain_top"]
    assert gain.low <= THETA[-1] - THETA[-2] <= gain.high
    assert "skill_depth_vs_base" not in dict(
        (name, m) for name, m, _, _ in mix_measures(batches, players, None)
    )
