"""president tune's library: the search space, the field, common random numbers, the
generations, the held-out check, the Dask evaluator and the tuned file."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from simulator.rules.presets import preset
from simulator.runs.tune.play import (
    MEAN,
    Space,
    TuneConfig,
    TuneError,
    check_field,
    default_field,
    evaluate_locally,
    groups_for,
    lineup_of,
    play_sums,
    rounds_per_group,
    stream_seed,
    tuned_spec,
)
from simulator.runs.tune.search import run_tune
from strategies import registry
from strategies.specs import StrategyError
from strategies.tuned import tuned_text

RULES = preset("french")
SMALL = TuneConfig("planner", ("rules-aware", MEAN, "control"), generations=2, population=4,
                   rounds_per_candidate=60, held_out_rounds=120, rounds_per_match=3)  # fmt: skip


def test_the_search_starts_at_the_defaults_and_rounds_integer_parameters():
    planner = Space(registry.get("planner"))
    assert planner.values(planner.start()) == registry.get("planner").vector
    control = Space(registry.get("control"))
    values = control.values(np.array([0.0, 0.51, 2.0]))  # out of the cube: clipped
    assert values == (8.0, 7.0, 8.0)
    assert all(v.is_integer() for v in values)


def test_parameters_without_bounds_keep_their_defaults():
    spec = registry.get("rules-aware")
    assert "knows" not in [p.name for p in spec.tunable]
    values = Space(spec).values(np.ones(len(spec.tunable)))
    assert values[[p.name for p in spec.params].index("knows")] == spec.vector[-1]


def test_the_default_field_mixes_strong_heuristics_and_the_mean_never_the_tuned_one():
    assert default_field("planner", 4) == ("rules-aware", MEAN, "control")
    five = default_field("rules-aware", 5)
    assert five.count(MEAN) == 2 and "rules-aware" not in five and len(five) == 4


@pytest.mark.parametrize(
    ("field", "players", "message"),
    [(["lowest", "random"], 4, "2 strategies for the 3 other seats"),
     (["montecarlo"], 4, "montecarlo searches and is too slow"),
     (["nobody"], 4, "unknown strategy 'nobody'")],
)  # fmt: skip
def test_a_field_that_does_not_fit_is_refused(field, players, message):
    with pytest.raises((TuneError, StrategyError), match=message):
        check_field(field, players)


@pytest.mark.parametrize("name", ["lowest", "random", "montecarlo"])
def test_a_strategy_without_numeric_parameters_is_refused(name):
    with pytest.raises(TuneError, match="no numeric parameters to tune"):
        tuned_spec(name)


def test_generations_and_the_held_out_check_draw_different_seeds():
    seeds = {stream_seed(0, 0, g) for g in range(50)} | {stream_seed(0, 1, 0)}
    assert len(seeds) == 51
    assert stream_seed(0, 0, 3) == stream_seed(0, 0, 3) != stream_seed(1, 0, 3)


def test_candidates_of_a_generation_share_their_deals():
    """Common random numbers: the same candidate twice gives the same places, another
    candidate other places on the same number of seat-rounds."""
    space = Space(registry.get("planner"))
    mean = space.name(space.spec.vector)
    a = lineup_of(space.name((1.5, 0.0, 0.0, 1.5)), SMALL.field, mean)
    b = lineup_of(space.name((0.0, 0.9, 1.9, -1.0)), SMALL.field, mean)
    first, again, other = (play_sums(RULES, SMALL, lineup, 7, 5) for lineup in (a, a, b))
    np.testing.assert_array_equal(first.places, again.places)
    # every group: 4 rotations of 3 rounds, the candidate on one seat
    assert first.rounds.tolist() == other.rounds.tolist() == [12.0] * 5
    assert first.places.tolist() != other.places.tolist()


def test_a_candidate_equal_to_a_field_seat_counts_all_its_seats():
    space = Space(registry.get("planner"))
    same = space.name(space.spec.vector)
    sums = play_sums(RULES, SMALL, lineup_of(same, SMALL.field, same), 7, 5)
    assert sums.rounds.tolist() == [24.0] * 5  # two seats of four


def test_under_a_target_the_groups_follow_the_measured_length_of_a_match():
    """spade's matches end at 11 points (about 9 rounds): the first generation guesses
    (twice the quickest win: 12 rounds a match), the next ones measure, and every
    generation's candidates play about the rounds asked (a guess of 4 x 11 rounds a
    match once gave them a fifth of them)."""
    spade = preset("spade")
    config = replace(SMALL, generations=3, rounds_per_candidate=600, held_out_rounds=600)
    state = run_tune(spade, config, None, None, evaluate_locally)
    assert groups_for(spade, config, 600) == math.ceil(600 / (2 * 6 * 4))
    for generation in state.generations:
        played = [sum(c["rounds"]) for c in generation["candidates"]]
        assert 400 <= np.mean(played) <= 900, played
    assert state.generations[1]["groups"] == groups_for(
        spade, config, 600, rounds_per_group(state.generations[0])
    )
    assert 400 <= state.held_out.rounds <= 900
    # without a target nothing is measured: a match lasts rounds_per_match rounds
    assert groups_for(RULES, SMALL, 120, per_group=1.0) == math.ceil(120 / (3 * 4))


def test_a_tune_records_every_candidate_and_checks_on_fresh_seeds():
    state = run_tune(RULES, SMALL, None, None, evaluate_locally)
    assert [len(g["candidates"]) for g in state.generations] == [4, 4]
    assert state.generations[0]["seed"] != state.generations[1]["seed"]
    check = state.held_out
    assert check.seed not in {g["seed"] for g in state.generations}
    lo, hi = check.diff[1:]
    assert lo < check.diff[0] < hi
    assert check.diff[0] == pytest.approx(check.tuned[0] - check.default[0])
    again = run_tune(RULES, SMALL, None, None, evaluate_locally)
    assert again.generations == state.generations
    assert again.tuned == state.tuned == Space(registry.get("planner")).values(state.optimizer.mean)


def test_the_dask_evaluator_plays_the_same_sums():
    from simulator.runs.tune.search import dask_evaluator

    space = Space(registry.get("planner"))
    mean = space.name(space.spec.vector)
    lineups = [lineup_of(space.name(v), SMALL.field, mean)
               for v in ((1.5, 0.0, 0.0, 1.5), (0.2, 0.1, 0.3, 0.0))]  # fmt: skip
    here = evaluate_locally(RULES, SMALL, lineups, 3, 4)
    with dask_evaluator(2) as evaluate:
        there = evaluate(RULES, SMALL, lineups, 3, 4)
    for a, b in zip(here, there, strict=True):
        np.testing.assert_array_equal(a.places, b.places)
        np.testing.assert_array_equal(a.rounds, b.rounds)


# ---------------------------------------------------------------- the tuned file


def tuned_file(tmp_path, values=(1.0, 0.25, 0.5, -0.5)):
    path = tmp_path / "tuned.toml"
    path.write_text(tuned_text(registry.get("planner"), values, RULES, {"seed": 3}))
    return path


def test_a_tuned_file_is_a_strategy_with_its_values(tmp_path):
    spec = registry.get(str(tuned_file(tmp_path)))
    assert spec.name == "planner"
    assert spec.vector == (1.0, 0.25, 0.5, -0.5)
    assert spec.label == "planner:per_group=1,per_card=0.25,lead_bonus=0.5,pass_cost=-0.5"


@pytest.mark.parametrize(
    ("edit", "message"),
    [(lambda t: t.replace("params_version = 1", "params_version = 2"), "version 2 of planner"),
     (lambda t: t.replace("per_card = 0.25\n", ""), r"\[params\] must give exactly"),
     (lambda t: t.replace('"planner"', '"nobody"'), "not a built-in strategy"),
     (lambda t: t.replace("per_card = 0.25", 'per_card = "a"'), "must be a finite number"),
     (lambda t: t + "[[", "is not readable TOML")],
)  # fmt: skip
def test_a_bad_tuned_file_is_one_line(tmp_path, edit, message):
    path = tuned_file(tmp_path)
    path.write_text(edit(path.read_text()))
    with pytest.raises(StrategyError, match=message) as info:
        registry.get(str(path))
    assert "\n" not in str(info.value)


def test_a_missing_tuned_file_is_named(tmp_path):
    with pytest.raises(StrategyError, match="does not exist"):
        registry.get(str(tmp_path / "absent.toml"))
