"""Fuzzing the kernel and whole runs (hypothesis, derandomized so CI is repeatable).

The reference engine's rounds are fuzzed against an independent oracle in
``test_invariants.py`` and ``test_oracle_diff.py``; here the other side:

* random rules (every option, match options included: dealer, reseat, opener, exchange,
  points, target) × random seeds, match numbers and seatings through the kernel
  (``trace_match``): every move, place, point and total equals the reference engine's;
* random jobs through the whole run: the kernel's rows equal the reference engine's, and
  the output table keeps every invariant of a run (whole matches numbered in order, places
  a permutation, roles and previous roles read from places, points from the rules, totals
  cumulative, a match under a target ends exactly when the target rule says).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.matchloop.api import KernelJob, trace_match
from simulator.matchloop.matches import (
    OUT_WINNER,
    SEAT_PLACE,
    SEAT_POINTS,
    SEAT_POS,
    SEAT_TOTAL,
    seats,
)
from simulator.rules.files import rules_from_mapping
from simulator.rules.options import Rules
from simulator.rules.roles import role_of
from simulator.runs.engines import LOCAL
from simulator.runs.job import SimConfig, make_config
from simulator.runs.schema import frame_from_rows
from simulator.runs.tally import Tally
from tests.kernel.test_kernel_vs_reference import ROUNDS, reference_trace
from tests.reference.test_oracle_diff import OPTION_VALUES, playable

KERNEL_EXAMPLES = 200
RUN_EXAMPLES = 80
FUZZ = settings(deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
MAX_ROUNDS = 40  # cut for matches under a target in these runs (keeps examples small)


@st.composite
def any_rules(draw: st.DrawFn) -> Rules:
    """Every option of the rule book at a random value, players 3 to 8."""
    options = {key: draw(st.sampled_from(values)) for key, values in OPTION_VALUES.items()}
    options["players"] = draw(st.integers(3, 8))
    options["dealer"] = draw(st.sampled_from(("scum", "president", "rotate")))
    options["reseat"] = draw(st.booleans())
    options["opener"] = draw(st.sampled_from(("scum", "president", "left_of_dealer")))
    options["exchange"] = draw(st.lists(st.integers(0, 4), max_size=3))
    top = draw(st.lists(st.integers(0, 3), max_size=3))
    bottom = draw(st.lists(st.integers(-3, 0), max_size=2))
    options["target"] = draw(st.sampled_from((0, 0, 3, 7)))
    if options["target"] and not any(top):
        top = [*top, 2]  # a target needs a positive point value
    options["points"] = {"top": top, "bottom": bottom}
    return rules_from_mapping(playable(options))


seatings = st.lists(st.sampled_from(("lowest", "random")), min_size=8, max_size=8)


@pytest.mark.slow  # the kernel compiled for many random rule sets
@settings(FUZZ, max_examples=KERNEL_EXAMPLES)
@given(
    rules=any_rules(),
    names=seatings,
    seed=st.integers(0, 2**63 - 1),
    match=st.integers(0, 2**31 - 2),
)
def test_kernel_equals_reference_on_random_rules_and_seeds(rules, names, seed, match):
    n = rules.players
    names = names[:n]
    job = KernelJob.build(rules, names, seed, None if rules.target else ROUNDS, 200)
    rows, trace = trace_match(job, match)
    record, expected = reference_trace(rules, names, seed, match)
    assert trace.tolist() == expected
    assert len(rows) == len(record.rounds)
    for row, rr in zip(rows, record.rounds, strict=True):
        assert seats(row, SEAT_PLACE, n).tolist() == rr.places
        assert seats(row, SEAT_POINTS, n).tolist() == rr.points
        assert seats(row, SEAT_TOTAL, n).tolist() == rr.totals
        assert seats(row, SEAT_POS, n).tolist() == [rr.seating.index(p) for p in range(n)]
    assert rows[-1, OUT_WINNER] == record.winner


@st.composite
def any_job(draw: st.DrawFn) -> SimConfig:
    rules = draw(any_rules())
    n = rules.players
    names = draw(seatings)[:n]
    seed = draw(st.integers(0, 2**63 - 1))
    duplicate = draw(st.booleans())
    if rules.target:
        return make_config(
            rules, names, seed, matches=draw(st.integers(1, 4)), max_rounds=MAX_ROUNDS,
            duplicate=duplicate,
        )  # fmt: skip
    return make_config(
        rules, names, seed, matches=draw(st.integers(1, 10)),
        rounds_per_match=draw(st.integers(1, 4)), duplicate=duplicate,
    )  # fmt: skip


@settings(FUZZ, max_examples=RUN_EXAMPLES)
@given(config=any_job())
def test_whole_runs_keep_every_invariant(config):
    assert SimConfig.from_json(config.to_json()) == config  # what --resume reads back
    rows = LOCAL["numba"](config, 1)(0, config.matches)
    assert np.array_equal(rows, LOCAL["python"](config, 1)(0, config.matches))
    check_run_table(config, frame_from_rows(config, rows))
    tally = Tally(config.rules.players, config.names)
    tally.add(config, rows)
    table = tally.table()
    assert sum(t["rounds"] for t in table) == len(rows) * config.rules.players
    clusters = tally.estimation()["clusters"]
    for t in table:
        assert abs(sum(t["shares"]) - 1) < 1e-9
        if clusters < 2:  # no interval from a single cluster
            assert t["president_low"] is t["president_high"] is None
            continue
        assert 0 <= t["president_low"] <= t["president"] <= t["president_high"] <= 1
        assert t["mean_place_low"] <= t["mean_place"] <= t["mean_place_high"]


def check_run_table(config: SimConfig, frame: pd.DataFrame) -> None:
    """The invariants of a run's output table (docs/formats.md §3)."""
    rules, n = config.rules, config.rules.players
    assert frame["match"].drop_duplicates().tolist() == list(range(config.matches))
    for match, rows in frame.groupby("match", sort=True):
        k = len(rows) // n
        assert len(rows) == k * n
        assert rows["round"].tolist() == np.repeat(np.arange(k), n).tolist()
        assert rows["seat"].tolist() == list(range(n)) * k
        turn = match % n if config.duplicate else 0
        assert rows["strategy"].tolist()[:n] == [
            config.strategies[(p - turn) % n] for p in range(n)
        ]
        place = rows["place"].to_numpy().reshape(k, n)
        assert (np.sort(place, axis=1) == np.arange(1, n + 1)).all()
        assert (np.sort(rows["position"].to_numpy().reshape(k, n), axis=1) == np.arange(n)).all()
        roles = [role_of(int(p), n) for p in place.ravel()]
        assert rows["role"].astype(str).tolist() == roles
        assert rows["prev_role"].astype(str).tolist() == [""] * n + roles[:-n]
        points = [rules.points.for_place(int(p), n) for p in place.ravel()]
        assert rows["points"].tolist() == points
        totals = np.cumsum(np.array(points).reshape(k, n), axis=0)
        assert (rows["total"].to_numpy().reshape(k, n) == totals).all()
        assert (rows["dealt"].to_numpy().reshape(k, n).sum(axis=1) == 1).all()
        assert (rows["led"].to_numpy().reshape(k, n).sum(axis=1) == 1).all()
        won = rows["won_match"].to_numpy().reshape(k, n)
        if not rules.target:
            assert k == config.rounds_per_match
            assert not won.any()
            continue
        final = totals[-1]
        alone = (final == final.max()).sum() == 1
        reached = (totals.max(axis=1) >= rules.target).any()
        assert not won[:-1].any()
        if alone and reached:
            assert won[-1].tolist() == (final == final.max()).tolist()
        else:
            assert k == MAX_ROUNDS and not won.any()  # cut before the target rule ended it
        for r in range(k - 1):  # no earlier round ended the match
            leads_alone = (totals[r] == totals[r].max()).sum() == 1
            assert not (leads_alone and (totals[: r + 1].max(axis=1) >= rules.target).any())
