"""Strategies under the second catalogue: the kernel's heuristics on the reference engine,
what ``rules-aware`` does with the table rules, and ``montecarlo``'s rollouts.

* Every heuristic (``rules-aware`` with its table-rules knowledge on and off) plays the
  same moves on the reference engine as in the kernel, 3 to 8 players, exchanges included
  (the give-back of a hand holding the 3 of clubs too).
* ``rules-aware`` keeps its 8s as controls, burns the pile to take the lead, lays jacks
  when the reversed order turns a weak group into a winner, and with the bits that are
  off by default keeps a strong card another player could go out on (out_ends_trick) and
  its last 3 while it holds the 3 of clubs; switched off, it does none of these.
* ``montecarlo`` plays whole matches under every table rule: its rollouts step the
  kernel's state, jack-back and the accumulation run included, and the cards a play of 7s
  or 10s hands over (catalogue III).
"""

from __future__ import annotations

import numpy as np
import pytest

import tests.strategies.test_strategies_vs_reference as twin
from simulator.matchloop.api import KernelJob, run_matches
from simulator.matchloop.matches import SEAT_PLACE, seats
from simulator.reference.rng import Stream
from simulator.reference.round import Move, Round
from simulator.rules.cards import counts_from_cards, parse_card
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies import registry
from strategies.adapter import KernelStrategy
from strategies.specs import KNOWS_DEFAULT, KNOWS_SEVENS, KNOWS_TENS
from tests.kernel.test_kernel_catalogue2 import CATALOGUE_2

CONFIGS = [
    ("catalogue2", preset("french").with_options(**CATALOGUE_2)),
    ("allow+revolution+threes", Rules().with_options(
        equal_rank="allow", revolution=True, transparent_threes=True, jack_back=True,
        eight_ends_trick=True, clubs_three_opens="first_round")),
    ("daifugo", Rules().with_options(jokers=2, revolution=True, eight_ends_trick=True,
                                     jack_back=True, exchange=(2, 1))),
    ("catalogue3", Rules().with_options(jokers=1, revolution=True, eight_ends_trick=True,
                                        five_skips=True, capital_falls=True, seven_passes=True,
                                        ten_discards=True)),
]  # fmt: skip
IGNORANT = "rules-aware:knows=0"


@pytest.mark.parametrize(("label", "rules"), CONFIGS, ids=[c[0] for c in CONFIGS])
def test_heuristics_replay_on_reference_engine(label: str, rules: Rules) -> None:
    twin.test_heuristics_replay_on_reference_engine(label, rules)


def test_knowledge_off_replays_on_reference_engine(monkeypatch) -> None:
    monkeypatch.setattr(twin, "HEURISTICS", [*twin.HEURISTICS, IGNORANT])
    twin.test_heuristics_replay_on_reference_engine("catalogue2", CONFIGS[0][1])


def counts(text: str) -> list[int]:
    return counts_from_cards(parse_card(c) for c in text.split())


def choice(rules: Rules, hands: list[str], script: list[tuple[int, int]], name: str) -> Move:
    """The move of strategy ``name`` for the player to move after ``script`` (ranks, counts)."""
    rnd = Round(rules, [counts(h) for h in hands], 0)
    for rank, count in script:
        rnd.apply(Move(rank, count))
    return registry.make(name).choose(rnd.observation(), Stream(1))


THREE, FIVE, SEVEN, EIGHT, NINE, TEN, JACK, KING = 0, 2, 4, 5, 6, 7, 8, 10


def test_it_keeps_its_eights_as_controls():
    """On a 5 it lays its K and keeps the 8, which can take the lead later; without the
    knowledge the 8 is just its weakest group."""
    rules = Rules(eight_ends_trick=True)
    hands = ["5 Q", "8 K 4", "9 A"]
    assert choice(rules, hands, [(FIVE, 1)], "rules-aware") == Move(KING, 1)
    assert choice(rules, hands, [(FIVE, 1)], IGNORANT) == Move(EIGHT, 1)
    lead = ["8 3", "9 A", "Q K"]  # the 8 ends the trick, then the 3 goes out
    assert choice(rules, lead, [], "rules-aware") == Move(EIGHT, 1)
    assert choice(rules, lead, [], IGNORANT) == Move(THREE, 1)


def test_it_lays_sevens_and_tens_that_hand_over_weak_singles():
    """Under seven_passes and ten_discards a whole group of 7s or 10s rids it of as many
    weak single cards (the 7s by default, the 10s with their bit); without the bits it
    keeps to its weakest groups."""
    rules = Rules(seven_passes=True, ten_discards=True)
    knows = f"rules-aware:knows={KNOWS_DEFAULT | KNOWS_TENS}"
    ignorant = f"rules-aware:knows={KNOWS_DEFAULT & ~KNOWS_SEVENS}"
    lead = ["10 10 3 5 K", "6 9", "8 Q"]
    assert choice(rules, lead, [], knows) == Move(TEN, 2)
    assert choice(rules, lead, [], ignorant) == Move(THREE, 1)
    follow = ["5 5 A", "6 6 10 10 3 8 K", "9 9 Q"]  # on the 5s: the 10s, not the 6s
    assert choice(rules, follow, [(FIVE, 2)], knows) == Move(TEN, 2)
    assert choice(rules, follow, [(FIVE, 2)], ignorant) == Move(parse_card("6"), 2)
    sevens = ["7 7 4 9 J", "6 8", "10 Q"]  # the 7s give the 4 and the 9 to the next player
    assert choice(rules, sevens, [], "rules-aware") == Move(SEVEN, 2)
    assert choice(rules, sevens, [], ignorant) == Move(parse_card("4"), 1)
    too_few = ["7 7 4 4 J J", "6 8", "10 Q"]  # no single to hand over: it keeps its pairs
    assert choice(rules, too_few, [], knows) == choice(rules, too_few, [], ignorant)
    assert choice(Rules(), lead, [], knows) == Move(THREE, 1)  # the rules are off


def test_it_burns_the_pile_when_the_run_reaches_four():
    """7, a 3 taking 7, 7: a run of three 7s. A single 7 from its pair burns the pile and
    takes the lead; without the knowledge it keeps the pair whole and lays its K."""
    rules = Rules(equal_rank="allow", transparent_threes=True, accumulation_burns=True)
    hands = ["7 Q", "3 5", "7 9", "7 7 K"]
    script = [(SEVEN, 1), (THREE, 1), (SEVEN, 1)]
    assert choice(rules, hands, script, "rules-aware") == Move(SEVEN, 1)
    assert choice(rules, hands, script, IGNORANT) == Move(KING, 1)


def test_it_lays_a_jack_when_a_weak_group_then_wins_the_trick():
    """After its J the order is reversed until the trick ends: its single 3 cannot be
    beaten then (nothing is stronger than a 3 in that order, and there are no jokers)."""
    rules = Rules(jack_back=True)
    hands = ["9 K", "10 J 3 A", "10 Q"]
    assert choice(rules, hands, [(NINE, 1)], "rules-aware") == Move(JACK, 1)
    assert choice(rules, hands, [(NINE, 1)], IGNORANT) == Move(TEN, 1)  # the weakest group
    lead = ["J 3 A 10", "9 K", "10 Q"]
    assert choice(rules, lead, [], "rules-aware") == Move(JACK, 1)
    assert choice(rules, lead, [], IGNORANT) == Move(THREE, 1)


def test_with_the_out_ends_bit_it_keeps_a_strong_card_a_player_could_go_out_on():
    """out_ends_trick: seat 2 holds one card and is still to answer; an A could be beaten
    by it (a 2 is still out), ending the trick with seat 2 out: the A is kept. The bit is
    off by default (it measured a small loss)."""
    rules = Rules(out_ends_trick=True)
    hands = ["K 5 6", "A 4 4 9 9", "7"]
    assert choice(rules, hands, [(10, 1)], "rules-aware:knows=8").is_pass
    assert choice(rules, hands, [(10, 1)], "rules-aware") == Move(11, 1)
    assert choice(rules, hands, [(10, 1)], IGNORANT) == Move(11, 1)


def test_the_default_knowledge_is_the_measured_one():
    # 8s, burns, jacks, 7s, locks
    assert registry.get("rules-aware").vector[6] == 1 | 2 | 4 | 32 | 128


def test_with_the_clubs_bit_it_keeps_its_last_three_while_it_holds_the_three_of_clubs():
    hand = counts("3 5 9 9 K A 2")
    clubs = "rules-aware:knows=31"  # every table rule, keeping the 3 of clubs included
    knows = KernelStrategy(clubs, 6, registry.get(clubs).kernel_vector)
    ignorant = KernelStrategy(IGNORANT, 6, registry.get(IGNORANT).kernel_vector)
    assert sorted(knows.give_back(hand, 2, Stream(1), opens=True)) == [FIVE, 10]
    assert sorted(knows.give_back(hand, 2, Stream(1))) == [THREE, FIVE]
    assert sorted(ignorant.give_back(hand, 2, Stream(1), opens=True)) == [THREE, FIVE]


@pytest.mark.slow  # the search tier compiled with every table rule
@pytest.mark.parametrize("name", ["montecarlo:samples=4", "montecarlo:samples=4,rollout=6"])
def test_montecarlo_plays_whole_matches_under_every_table_rule(name: str) -> None:
    for _, rules in (CONFIGS[0], CONFIGS[-1]):  # the second catalogue's, then the third's
        job = KernelJob.build(rules.with_options(players=4),
                              [name, "rules-aware", "lowest", "random"], 2, 3, 60)  # fmt: skip
        rows = run_matches(job, 0, 6)
        assert len(rows) == 18
        places = np.sort(seats(rows, SEAT_PLACE, 4), axis=1)
        assert (places == np.arange(1, 5)).all()
