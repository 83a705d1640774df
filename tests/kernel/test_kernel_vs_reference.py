"""The numba kernel is the reference engine's twin: same deals, same moves, same places.

For every preset and every single option toggled, 3 to 8 players, with ``lowest`` and
``random`` in several seatings, at least 200 matches each: the reference engine replays
each kernel match from its seed and the full move sequences (every play and pass of
every round) and the places must be identical.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from simulator.matchloop.api import KernelJob, record_trace, run_matches, trace_match
from simulator.matchloop.matches import (
    OUT_WINNER,
    SEAT_PLACE,
    SEAT_POINTS,
    SEAT_POS,
    SEAT_STRENGTH,
    SEAT_TOTAL,
    seats,
)
from simulator.matchloop.seating import reference_options
from simulator.reference.match import play_match
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies import registry

pytestmark = pytest.mark.early  # compiles the kernel for every preset's strategies

OPTIONS = [
    ("jokers", 2),
    ("jokers", 1),
    ("equal_rank", "skip"),
    ("larger_sets", "higher_rank"),
    ("larger_sets", "any"),
    ("transparent_threes", True),
    ("two_ends_trick", True),
    ("quad_burns", True),
    ("revolution", True),
    ("passing", "out_of_trick"),
    ("no_finish_on_two", True),
    ("dealer", "president"),
    ("dealer", "rotate"),
    ("reseat", True),
    ("opener", "president"),
    ("opener", "left_of_dealer"),
    ("exchange", (1,)),
    ("exchange", ()),
    ("exchange", (3, 2, 1)),
    ("points", {"top": [2, 1], "bottom": [-1, -2]}),
    ("target", 5),
]
CONFIGS = [(name, preset(name)) for name in ("french", "regles-jeu", "spade", "scum")]
CONFIGS += [
    (
        f"{key}={value}",
        Rules().with_options(
            **{key: value}, **({"points": {"top": [2, 1]}} if key == "target" else {})
        ),
    )
    for key, value in OPTIONS
]
CONFIGS.append(
    (
        "everything",
        Rules().with_options(
            jokers=2,
            equal_rank="skip",
            larger_sets="any",
            transparent_threes=True,
            two_ends_trick=True,
            quad_burns=True,
            revolution=True,
            passing="out_of_trick",
            no_finish_on_two=True,
            dealer="rotate",
            reseat=True,
            opener="left_of_dealer",
            exchange=(3, 2, 1),
            points={"top": [3, 2, 1], "bottom": [-1]},
            target=9,
        ),
    )
)
MATCHES_PER_PLAYER_COUNT = 34  # x 6 player counts = 204 matches per configuration
ROUNDS = 3


def seat_strategies(players: int, match: int) -> list[str]:
    """All lowest, all random, or a mix, varying with the match."""
    kind = match % 3
    if kind == 0:
        return ["lowest"] * players
    if kind == 1:
        return ["random"] * players
    return [("random", "lowest")[(s + match) % 2] for s in range(players)]


def reference_trace(rules: Rules, names: list[str], seed: int, match: int):
    record = play_match(
        rules, [registry.make(s, rules) for s in names], seed, match, rounds=ROUNDS, max_rounds=200
    )
    return record, record_trace(record)


@pytest.mark.parametrize(("label", "rules"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_kernel_replays_reference_move_for_move(label, rules):
    seed = 11
    compared = 0
    for players in range(3, 9):
        r = rules.with_options(players=players)
        for match in range(MATCHES_PER_PLAYER_COUNT):
            names = seat_strategies(players, match)
            job = KernelJob.build(r, names, seed, None if r.target else ROUNDS, 200)
            rows, trace = trace_match(job, match)
            record, expected = reference_trace(r, names, seed, match)
            where = f"{label}, {players} players, match {match}, {names}"
            assert trace.tolist() == expected, where
            assert len(rows) == len(record.rounds), where
            for row, rr in zip(rows, record.rounds, strict=True):
                assert seats(row, SEAT_PLACE, players).tolist() == rr.places, where
                assert seats(row, SEAT_POINTS, players).tolist() == rr.points, where
                assert seats(row, SEAT_TOTAL, players).tolist() == rr.totals, where
                assert seats(row, SEAT_STRENGTH, players).tolist() == rr.strength, where
                assert seats(row, SEAT_POS, players).tolist() == [
                    rr.seating.index(p) for p in range(players)
                ], where
            assert rows[-1, OUT_WINNER] == record.winner, where
            compared += 1
    assert compared >= 200


def test_parallel_blocks_equal_single_matches():
    """Blocks and threads never change a match: the batch equals match-by-match traces."""
    rules = preset("spade").with_options(players=5)
    names = ["random", "lowest", "random", "lowest", "random"]
    job = KernelJob.build(rules, names, 3, None, 200)
    batch = run_matches(job, 0, 150, block=7)
    single = [trace_match(job, m)[0] for m in range(150)]
    assert np.array_equal(batch, np.concatenate(single))


def test_overflowing_block_is_redone_identically():
    """A block too small for its matches (long matches under a target) gives the same rows."""
    rules = preset("spade")
    names = ["lowest", "random", "lowest", "random"]
    job = KernelJob.build(rules, names, 5, None, 200)
    tiny = dataclasses.replace(job, expected_rounds=2)  # every block overflows
    assert np.array_equal(run_matches(tiny, 0, 40, block=8), run_matches(job, 0, 40, block=8))


@pytest.mark.parametrize("preset_name", ["french", "spade"])
def test_duplicate_deals_replay_reference(preset_name):
    """Under duplicate deals, match m plays deal group m // 4 (four distinct rotations),
    seat p the strategy of slot (p - m) mod 4, the hands in the first dealer's frame and
    each seat its own stream: the reference engine replays that move for move, and every
    match of a group deals seat p the same hands in every round."""
    rules = preset(preset_name).with_options(players=4)
    names = ["lowest", "random", "random", "lowest"]
    job = KernelJob.build(rules, names, 9, None if rules.target else ROUNDS, 200, duplicate=True)
    assert job.duplicate == 4
    dealt: dict[int, list] = {}
    for match in range(24):
        turn = match % 4
        rotated = [names[(p - turn) % 4] for p in range(4)]
        rows, trace = trace_match(job, match)
        record = play_match(
            rules,
            [registry.make(s, rules) for s in rotated],
            9,
            match,
            rounds=ROUNDS,
            max_rounds=200,
            **reference_options(match, 4, 4, True),
        )
        assert trace.tolist() == record_trace(record), match
        assert [seats(r, SEAT_PLACE, 4).tolist() for r in rows] == [
            rr.places for rr in record.rounds
        ], match
        assert [seats(r, SEAT_STRENGTH, 4).tolist() for r in rows] == [
            rr.strength for rr in record.rounds
        ], match
        hands = [rr.dealt for rr in record.rounds]  # 52 = 4 × 13: no leftover cards
        first = dealt.setdefault(match // 4, hands)
        common = min(len(first), len(hands))
        assert hands[:common] == first[:common], match  # same hands per seat in the group
