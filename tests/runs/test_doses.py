"""The doses prove the atlas's measures (docs/skill.md, «Doses: the measures proved»).

The dose of luck's stream is reproducible and blind to how the rows are cut, draws
nothing at p = 0 and dosed rounds hold an order; the predictions' algebra holds on a
synthetic process; on small tables of ``random``, ``lowest`` and ``linear`` (no search
player) the mean-place gaps, the mean places and Δ move with p as predicted, within
their intervals, while the undosed values would be refused; a dose of skill on a cheap
``champion`` makes its place worse step by step; a dose outside [0, 1) is one line.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from simulator.matchloop.matches import OUT_MATCH, OUT_ROUND, SEAT_PLACE, seats
from simulator.matchloop.rowspec import OUT_SEATS, SEAT_QUANTITIES
from simulator.rules.presets import preset
from simulator.runs.atlas.doses import Doses, dose_luck, with_skill_dose
from simulator.runs.atlas.play import DUEL, PAIR, AtlasSettings, Table, play_table
from simulator.runs.atlas.sets import AtlasError
from simulator.runs.skill.doses import (
    FALLS,
    RISES,
    UNCHANGED,
    Undosed,
    luck_verdict,
    moves_as_predicted,
    n95_under_luck,
    prediction_for,
    random_order_variance,
    spread_of,
)
from simulator.runs.skill.duels import DuelSums, edge, mean_places
from simulator.runs.skill.measure import Measure, cluster_ratio
from tests.conftest import run_cli

N = 4


def kernel_rows(matches: int, rounds: int) -> np.ndarray:
    """Rows shaped as the kernel's, places in seat order 1 … n (an order nobody drew)."""
    rows = np.zeros((matches * rounds, OUT_SEATS + SEAT_QUANTITIES * N), np.int32)
    rows[:, OUT_MATCH] = np.repeat(np.arange(matches), rounds)
    rows[:, OUT_ROUND] = np.tile(np.arange(rounds), matches)
    seats(rows, SEAT_PLACE, N)[:] = np.arange(1, N + 1)
    return rows


def test_no_dose_of_luck_returns_the_rows_themselves():
    rows = kernel_rows(3, 5)
    assert dose_luck(rows, N, Doses(0.0, 7), 11) is rows


def test_a_dose_of_luck_draws_orders_reproducibly_whatever_the_cut():
    rows = kernel_rows(400, 10)
    dosed = dose_luck(rows, N, Doses(0.5, 7), 11)
    places = seats(dosed, SEAT_PLACE, N)
    assert (np.sort(places, axis=1) == np.arange(1, N + 1)).all()  # every round an order
    changed = (places != seats(rows, SEAT_PLACE, N)).any(axis=1).mean()
    assert changed == pytest.approx(0.5 * (1 - 1 / 24), abs=0.03)  # 1 order in 24 is kept
    assert np.array_equal(dose_luck(rows[1000:], N, Doses(0.5, 7), 11), dosed[1000:])
    another_atlas = dose_luck(rows, N, Doses(0.5, 8), 11)
    another_table = dose_luck(rows, N, Doses(0.5, 7), 12)
    assert not np.array_equal(another_atlas, dosed)
    assert not np.array_equal(another_table, dosed)
    first = places[~(places == np.arange(1, N + 1)).all(axis=1), 0]
    assert np.bincount(first)[1:] == pytest.approx([len(first) / N] * N, rel=0.2)


def test_the_top_takes_its_dose_of_skill_by_name():
    assert with_skill_dose("champion", 0.0) == "champion"
    assert with_skill_dose("champion", 0.25) == "champion:dose=0.25"
    assert with_skill_dose("champion:budget=4.0", 0.5) == "champion:budget=4.0,dose=0.5"
    # the ladder's names declare every parameter, dose=0.0 among them: one dose is played
    assert with_skill_dose("champion:budget=4.0,dose=0.0", 0.5) == "champion:budget=4.0,dose=0.5"
    assert with_skill_dose("champion:dose=0.0,budget=4.0", 0.5) == "champion:budget=4.0,dose=0.5"


@pytest.mark.parametrize("field", ["luck_dose", "skill_dose"])
@pytest.mark.parametrize("dose", [1.0, -0.1])
def test_a_dose_outside_zero_to_one_is_refused_in_one_line(field, dose):
    with pytest.raises(AtlasError) as caught:
        AtlasSettings(**{field: dose}).check()
    assert str(caught.value).startswith(f"--{field.replace('_', '-')} must be at least 0")


def test_the_command_line_refuses_a_dose_of_one(tmp_path):
    result = run_cli("atlas", "--rules", "french", "--luck-dose", "1", "--out", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines()[-1].startswith("error: --luck-dose must be")
    assert not (tmp_path / "o").exists()


def test_the_predictions_are_found_by_name_and_n95_rises_with_p():
    assert prediction_for("mean_place_champion_high").skill == RISES  # the top rung
    assert prediction_for("mean_place_champion").skill == UNCHANGED
    assert prediction_for("relative_skill_champion_high").skill == FALLS
    assert prediction_for("relative_skill").skill == UNCHANGED
    assert prediction_for("skill_gap_linear_vs_base").skill is None
    assert prediction_for("nothing_known") is None
    spread = spread_of(np.array([3.0, -1.0, 2.0]), np.array([8.0, 8.0, 8.0]),
                       np.array([1.0, -1.0, 2.0, 0.0]))  # fmt: skip
    n95s = [n95_under_luck(Undosed(20.0, N, spread), p) for p in (0.0, 0.25, 0.5)]
    assert n95s[0] == pytest.approx(20.0) and n95s[0] < n95s[1] < n95s[2]
    assert spread.mean == pytest.approx(4 / 24)


def test_the_long_run_spread_under_p_is_as_derived():
    """σ² under p on a synthetic pair: rounds carried over within a match (an AR(1)
    difference with a mean), dosed rounds replaced by two seats of a random order."""
    rng = np.random.default_rng(1)
    matches, rounds, p = 6000, 8, 0.4
    d = np.empty((matches, rounds))
    d[:, 0] = rng.normal(0, 1.5, matches)
    for t in range(1, rounds):
        d[:, t] = 0.6 * d[:, t - 1] + rng.normal(0, 1.2, matches)
    d += -0.5
    undosed = spread_of(d.sum(1), np.full(matches, rounds), d.ravel())
    orders = np.argsort(rng.random((matches, rounds, N)), axis=2)
    r = (orders[..., 0] - orders[..., 1]).astype(float)  # two seats of a random order
    e = np.where(rng.random((matches, rounds)) < p, r, d)
    dosed = spread_of(e.sum(1), np.full(matches, rounds), e.ravel())
    assert np.var(r) == pytest.approx(random_order_variance(N), rel=0.05)
    predicted = ((1 - p) ** 2 * undosed.long_run + p * (1 - p) * (undosed.per_round
                 + undosed.mean**2) + p * random_order_variance(N))  # fmt: skip
    assert dosed.long_run == pytest.approx(predicted, rel=0.05)
    assert dosed.long_run != pytest.approx(undosed.long_run, rel=0.05)


def test_moves_as_predicted_reads_directions():
    m = [Measure(v, v - 0.1, v + 0.1) for v in (1.0, 1.2, 1.5)]
    assert moves_as_predicted(m, RISES) and not moves_as_predicted(m, FALLS)
    assert not moves_as_predicted(m, UNCHANGED)
    assert moves_as_predicted(m[:1] * 3, UNCHANGED)


# ---------------------------------------------------------------- on the kernel, small

GROUPS = 150  # deal groups a table: 150 × 4 rotations × 8 rounds = 4,800 rounds


def duels(p: float) -> DuelSums:
    """``random`` and ``linear`` in the test seat against three ``lowest``, dose p."""
    rules, sums = preset("french"), {}
    for x in ("random", "linear"):
        table = Table(DUEL, (x, "lowest", "lowest", "lowest"), 5, GROUPS, doses=Doses(p, 3))
        sums[x] = play_table(rules, table)
    return DuelSums({x: s["places"] for x, s in sums.items()}, sums["random"]["rounds"])


def delta(p: float) -> Measure:
    """Δ of ``linear`` over ``random`` at one table, two ``lowest`` beside, dose p."""
    table = Table(PAIR, ("linear", "random", "lowest", "lowest"), 9, GROUPS, doses=Doses(p, 3))
    s = play_table(preset("french"), table)
    return edge(s["diff"], s["rounds"])


def gap(d: DuelSums) -> Measure:
    """G(random) − G(linear), paired by deal group."""
    (yr, yl), (m, _) = d.sums("random", "linear")
    return Measure.of(cluster_ratio(yr - yl, m))


GAP, MEAN_PLACE = prediction_for("edge_x"), prediction_for("mean_place_linear")


@pytest.fixture(scope="module")
def luck_doses() -> dict[float, tuple[DuelSums, Measure]]:
    return {p: (duels(p), delta(p)) for p in (0.0, 0.25, 0.5)}


def test_the_gaps_and_delta_scale_by_one_minus_p(luck_doses):
    """Each under p within its tolerance of its prediction (the 8 checks' chance of any
    false miss 5 %), and the dose visible: at p = 0.5 the undosed value is outside the
    dosed interval."""
    (d0, delta0) = luck_doses[0.0]
    undosed = {"gap": gap(d0), "edge_linear_vs_random": delta0, **mean_places(d0)}
    for p in (0.25, 0.5):
        d, delta_p = luck_doses[p]
        dosed = {"gap": gap(d), "edge_linear_vs_random": delta_p, **mean_places(d)}
        for name, m0 in undosed.items():
            rule = MEAN_PLACE if name in ("random", "linear") else GAP
            predicted, ok = luck_verdict(rule, m0, dosed[name], p, N, comparisons=8)
            assert ok, (name, p, predicted, dosed[name])
            if p == 0.5 and name != "random":  # random's place is the middle already
                assert abs(dosed[name].estimate - m0.estimate) > dosed[name].half_width, name
    assert math.isclose(undosed["gap"].estimate, mean_places(d0)["random"].estimate
                        - mean_places(d0)["linear"].estimate)  # fmt: skip


def test_a_dose_of_skill_makes_a_cheap_champion_worse_step_by_step():
    """``champion`` at its cheapest search in the test seat against three ``lowest``:
    its mean place rises with q, and q = 0.5 is clearly worse than none."""
    rules, places = preset("french"), []
    for q in (0.0, 0.25, 0.5):
        name = with_skill_dose("champion:budget=1,guesses=1,solve=1", q)
        s = play_table(rules, Table(DUEL, (name, "lowest", "lowest", "lowest"), 5, 60))
        places.append(Measure.of(cluster_ratio(s["places"], s["rounds"])))
    assert moves_as_predicted(places, RISES), places
    assert places[2].low > places[0].high, places
