"""The round loop of ``linear`` tables (:mod:`simulator.matchloop.linear_plain`).

* A job whose every player is ``linear``, under rules with no table rule and no suits,
  gets it; any other job does not.
* Its rows are those of the heuristics' loop, which reaches ``linear`` through the
  dispatch, move for move: under the presets and under rule sets that turn every rule
  of the first catalogue on, with the shipped weights, a temperature above 0 (its draws),
  weights that make ties common (the exact scores' tie-break) and duplicate deals.
* The cards out there counted from the cards gone are :func:`strategies.hand.outside`'s.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from simulator.kernel.bits import U0
from simulator.matchloop import specialise
from simulator.matchloop.api import KernelJob, run_matches
from simulator.matchloop.linear_plain import count_gone, fast_seats, gone_counts, outside_of
from simulator.matchloop.specialise import Specialisation, specialised_loop
from simulator.rules.cards import NUM_RANKS
from simulator.rules.files import load_rules
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies.dispatch import TIERS
from strategies.hand import outside
from strategies.specs import LINEAR, LINEAR_FEATURES, LINEAR_TEMPERATURE, NPARAMS, PLANNER
from tests.conftest import ROOT

# every rule of the first catalogue on, at 5 and at 3 players
ALL_ON = Rules(players=5, jokers=2, equal_rank="allow", larger_sets="any",
               transparent_threes=True, two_ends_trick=True, quad_burns=True, revolution=True,
               passing="out_of_trick", no_finish_on_two=True, reseat=True)  # fmt: skip
SKIPS = Rules(players=3, jokers=1, equal_rank="skip", larger_sets="higher_rank",
              revolution=True, dealer="rotate")  # fmt: skip
TABLES = {
    "default": Rules(),
    "french": preset("french"),
    "scum": preset("scum"),
    "spade": preset("spade"),
    "regles-jeu": preset("regles-jeu"),
    "no table rules": load_rules(ROOT / "examples/rules/daifugo-without-table-rules.toml"),
    "all on": ALL_ON,
    "skips": SKIPS,
}
# ties: without strengths, plays of other ranks often score alike
TIES = "linear:w_strength=0,w_lead_strength=0,w_weakest=0,w_control_kept=0"
LINEUPS = (["linear"], ["linear", "linear:temperature=0.3"], [TIES, "linear"])


def test_only_linear_tables_without_table_rules_or_suits_get_the_loop() -> None:
    assert Specialisation.of([LINEAR] * 4, table_rules=False).linear_rounds
    assert not Specialisation.of([LINEAR] * 4, table_rules=True).linear_rounds
    assert not Specialisation.of([LINEAR] * 4, table_rules=False, suits=True).linear_rounds
    assert not Specialisation.of([LINEAR, PLANNER], table_rules=False).linear_rounds
    spec = Specialisation.of([LINEAR] * 4, table_rules=False)
    # a study's shared tier (the atlas's) would only make another module of the same loop
    assert Specialisation.of([LINEAR] * 4, table_rules=False, shared=TIERS[-1]) == spec
    assert (
        Specialisation.of([LINEAR, PLANNER], table_rules=False, shared=TIERS[-1]).tier == TIERS[-1]
    )
    assert "LINEAR_ROUNDS = True" in specialise.module_source(spec, "k")
    assert "LINEAR_ROUNDS = False" in specialise.module_source(
        replace(spec, linear_rounds=False), "k"
    )


@pytest.mark.parametrize("name", TABLES)
def test_the_linear_loop_plays_the_moves_of_the_general_one(name: str) -> None:
    rules = TABLES[name]
    for lineup in LINEUPS:
        names = (lineup * rules.players)[: rules.players]
        for duplicate in (False, True):
            job = KernelJob.build(rules, names, 11, 6, 60, duplicate=duplicate)
            spec = Specialisation.of(job.sids, table_rules=False)
            assert spec.linear_rounds
            general = replace(
                job, runner=specialised_loop(replace(spec, linear_rounds=False), names)
            )
            assert general.runner is not job.runner
            rows = [run_matches(j, 0, 120, block=8) for j in (job, general)]
            assert len(rows[0]) >= 120 and np.array_equal(rows[0], rows[1]), (names, duplicate)


def test_the_cards_out_there_follow_the_cards_gone() -> None:
    rng = np.random.default_rng(5)
    for _ in range(300):
        jokers = int(rng.integers(0, 3))
        deck = rng.permutation(np.repeat(np.arange(NUM_RANKS), [4] * 13 + [jokers]))
        hands = np.array_split(deck, 4)
        played = np.zeros(NUM_RANKS, np.int64)
        g = gone_counts(jokers)
        for card in hands[1][: int(rng.integers(0, len(hands[1]) + 1))]:  # played one by one
            played[card] += 1
            g = count_gone(*g, int(card), 1)
        for rank in np.unique(hands[2]):  # and by groups
            count = int((hands[2] == rank).sum())
            played[rank] += count
            g = count_gone(*g, int(rank), count)
        h = U0
        for rank, count in zip(*np.unique(hands[0], return_counts=True), strict=True):
            for level in range(count):
                h |= np.uint64(1) << np.uint64(16 * level + rank)
        assert outside_of(h, *g) == outside(h, played, jokers)


def test_a_seat_the_rough_scores_do_not_serve_is_told() -> None:
    """Weights that are not finite, or a temperature above 0, send a seat's every move to
    the exact scores; the scale of the near ties is the largest of the others'."""
    params = np.zeros((8, NPARAMS))
    params[:4, :3] = (1.0, -2.0, 0.5)
    params[1, LINEAR_FEATURES - 1] = np.inf
    params[2, LINEAR_TEMPERATURE] = 0.3
    params[3, 0] = 4.0
    assert fast_seats(params, 4) == (0b1001, 6.5)
