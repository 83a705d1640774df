"""Every kernel heuristic plays the same moves on the reference engine as in the kernel.

The reference engine plays them through :class:`strategies.adapter.KernelStrategy`,
which sees only an Observation (the other hands are placeholders): equal traces also
show that no heuristic reads a card it may not see. Every preset, every option that
changes what a heuristic does, 3 to 8 players, the heuristics mixed with ``lowest`` and
``random`` at one table.
"""

from __future__ import annotations

import pytest

from simulator.matchloop.api import KernelJob, record_trace, trace_match
from simulator.matchloop.matches import SEAT_PLACE, seats
from simulator.reference.match import play_match
from simulator.reference.rng import Stream
from simulator.reference.round import Move, Round
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies import registry
from strategies.specs import BUILT_INS

# every declared heuristic; linear a second time drawing from the match's stream
HEURISTICS = [*(b.name for b in BUILT_INS if b.heuristic), "linear:temperature=0.5"]
CONFIGS = [(name, preset(name)) for name in ("french", "regles-jeu", "spade", "scum")] + [
    (
        "every-option",
        Rules().with_options(
            jokers=2,
            equal_rank="skip",
            larger_sets="any",
            transparent_threes=True,
            quad_burns=True,
            revolution=True,
            no_finish_on_two=True,
            exchange=(3, 2, 1),
        ),
    ),
    ("two-ends-higher", Rules().with_options(two_ends_trick=True, larger_sets="higher_rank")),
    ("uecda", preset("uecda")),  # every heuristic lays sequences and answers them
    (  # the rules that read suits: legal plays the suits allow, cards the rules choose
        "suits",
        preset("french").with_options(
            jokers=1, suit_lock="suits", spade_three_return=True, sequences="above_highest"
        ),
    ),
]
ROUNDS = 3
MATCHES = 6  # per player count: x 6 player counts = 36 matches per configuration


def lineup(players: int, match: int) -> list[str]:
    """Heuristics in turn at every seat, with lowest and random among them."""
    pool = [*HEURISTICS, "lowest", "random", "control:strength=12,spend_at=5"]
    return [pool[(match * 3 + seat) % len(pool)] for seat in range(players)]


@pytest.mark.parametrize(("label", "rules"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_heuristics_replay_on_reference_engine(label: str, rules: Rules) -> None:
    seed = 5
    for players in range(3, 9):
        r = rules.with_options(players=players)
        for match in range(MATCHES):
            names = lineup(players, match)
            job = KernelJob.build(r, names, seed, None if r.target else ROUNDS, 200)
            rows, trace = trace_match(job, match)
            record = play_match(
                r, [registry.make(s, r) for s in names], seed, match, rounds=ROUNDS, max_rounds=200
            )
            expected = record_trace(record)
            where = f"{label}, {players} players, match {match}, {names}"
            assert trace.tolist() == expected, where
            assert [seats(row, SEAT_PLACE, players).tolist() for row in rows] == [
                rr.places for rr in record.rounds
            ], where


def test_heuristics_pass_and_keep_groups() -> None:
    """The heuristics differ from lowest where their idea says they should."""
    rules = Rules()
    # seat 0 leads a single 5; seat 1 holds a pair of 7s and a single 9.
    hands = [[0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], [0] * 4 + [2, 0, 1] + [0] * 7]
    hands[0][0] = 1
    rnd = Round(rules, hands, 0)
    rnd.apply(Move(2, 1))
    obs = rnd.observation()
    rng = Stream(1)
    assert registry.make("lowest").choose(obs, rng) == Move(4, 1)  # breaks the pair of 7s
    assert registry.make("keep-sets").choose(obs, rng) == Move(6, 1)  # the 9: no break
