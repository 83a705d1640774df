"""The atlas's mixed tables (simulator.runs.atlas.mix), without the kernel: the windows,
the rungs' names, the finishing orders from a table's places, and the rows from
batches of known strengths."""

from __future__ import annotations

import numpy as np

from simulator.rules.presets import preset
from simulator.runs.atlas.mix import mix_measures, mix_tables
from simulator.runs.atlas.play import EDGE, MIX, AtlasSettings, part_of, rung_player
from simulator.runs.atlas.windows import (
    NEIGHBOURS,
    RUNGS,
    is_mix_measure,
    mix_sums,
    windows,
)
from strategies import registry

THETA = np.linspace(0.0, 1.8, len(RUNGS))  # known strengths, weakest rung first


def test_windows_slide_over_the_ladder() -> None:
    assert windows(4) == [0, 1, 2, 3]
    assert windows(6) == [0, 1]
    assert windows(7) == [0]


def test_the_windows_seat_the_ladders_rungs_at_the_atlas_budget_and_dose() -> None:
    """Each window seats n consecutive rungs as the ladder plays them: the best heuristic
    by name, the search rungs at the atlas's budget scale, the top with the dose of skill."""
    settings = AtlasSettings(budget_scale=2.0, skill_dose=0.25)
    tables = mix_tables(preset("french"), settings, 0, "planner", 2, 3)
    assert len(tables) == 2 * len(windows(4))
    for table, start in zip(tables, windows(4) * 2, strict=True):
        rungs = RUNGS[start : start + 4]
        assert table.lineup == tuple(rung_player(r, settings, "planner") for r in rungs)
    top = registry.get(tables[len(windows(4)) - 1].lineup[-1])
    values = dict(zip([p.name for p in top.params], top.vector, strict=True))
    assert [values[k] for k in ("budget", "guesses", "solve", "dose")] == [384, 96, 1600, 0.25]


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
