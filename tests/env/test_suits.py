"""The environment under the rules that read suits (``president_v3``): plays by their
suits, sequences, the suit lock and the 3 of spades, as the engine plays them.

The scenarios are worked by hand from docs/rules.md on a round of the reference engine,
through the functions the environment reads it with; the driven matches check the whole
action mask against the engine's legal moves and its refusals, action by action.
"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from simulator.env import env, raw_env
from simulator.env.encoding import (
    N_ACTIONS,
    OFFSETS,
    PASS_ACTION,
    RUN_BASE,
    RUN_SHAPES,
    SUITS_BASE,
    as_named,
    family,
    move_of,
    play_mask,
    play_observation,
    rules_vector,
)
from simulator.matchloop.api import KernelJob
from simulator.reference.exchange import GiveBack
from simulator.reference.moves import Run
from simulator.reference.round import Round
from simulator.rules.cards import counts_from_ids, parse_suited_cards
from simulator.rules.files import load_rules
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from tests.env.drive import kernel_matches_replayed

# compiles the loop of lowest and random with suits first, which test_fuzz_kernel.py
# then loads: in the middle of the run the two files had compiled it at once (18 s)
pytestmark = pytest.mark.early

SUITED_FILE = """\
players = 4
jokers = 2
exchange = [2, 1]
suit_lock = "suits"
spade_three_return = true
sequences = "above_lowest"
sequence_revolution = 4
eight_ends_trick = true
eights_in_sequences = "plain"
five_skips = true
seven_passes = true
ten_discards = true
"""
CLUBS, DIAMONDS, HEARTS, SPADES = 1, 2, 4, 8  # a set of suits, a bit each


@pytest.fixture
def suited_file(tmp_path):
    path = tmp_path / "suited.toml"
    path.write_text(SUITED_FILE)
    return path


def by_suits(rank: int, suits: int) -> int:
    """The action of a play of ``rank`` (0 = 3 … 12 = 2) of the set ``suits``."""
    return SUITS_BASE + 15 * rank + suits - 1


def sequence(low: int, length: int, suit: int) -> int:
    """The action of the sequence of ``length`` cards from ``low`` of ``suit`` (0..3)."""
    return RUN_BASE + 4 * RUN_SHAPES.index((length, low)) + suit


def table(rules: Rules, *hands: str) -> Round:
    """A round whose seats hold ``hands`` (card names with suits); seat 0 leads."""
    cards = [parse_suited_cards(hand.split()) for hand in hands]
    return Round(rules, [counts_from_ids(c) for c in cards], 0, (), [sorted(c) for c in cards])


def seen(rnd: Round) -> tuple[np.ndarray, set[int]]:
    """What the environment gives the player to move: his vector and his legal actions."""
    obs = rnd.observation()
    vec = play_observation(obs, rules_vector(rnd.rules))
    return vec, set(np.flatnonzero(play_mask(obs)).tolist())


def act(rnd: Round, action: int) -> None:
    """The player to move takes ``action``, as the environment sends it to the engine."""
    move, cards = as_named(move_of(action))
    assert rnd.why_illegal(rnd.turn, move, cards) is None
    rnd.apply(move, cards=cards)


def block(vec: np.ndarray, name: str, size: int = 1) -> list[int]:
    return [int(v) for v in vec[OFFSETS[name] : OFFSETS[name] + size]]


def test_pettingzoo_api_and_seed_tests_pass_under_uecda_and_a_suited_rules_file(
    suited_file,
) -> None:
    for kwargs in ({"rules": "uecda", "rounds": 3}, {"rules": suited_file, "rounds": 3}):
        api_test(env(**kwargs), num_cycles=300)
        seed_test(lambda kwargs=kwargs: env(**kwargs), num_cycles=300)


def test_a_sequence_is_an_action_and_the_next_player_sees_it_on_top() -> None:
    """0 leads 4♠ 5♠ 6♠; 1 may answer with 7♣ 8♣ 9♣ or, the joker as the 10, 8♣ 9♣ JK
    (both above the 6); 2's 5♥ 6♥ 7♥ is not above the 9: he passes."""
    rules = Rules().with_options(players=3, jokers=1, sequences="above_highest")
    rnd = table(rules, "4S 5S 6S KD", "7C 8C 9C JK 3H", "5H 6H 7H QD")
    _, legal = seen(rnd)
    assert {sequence(1, 3, 3), by_suits(10, DIAMONDS)} <= legal  # 4♠ 5♠ 6♠, the K♦
    act(rnd, sequence(1, 3, 3))
    vec, legal = seen(rnd)
    assert block(vec, "top_sequence") == [3] and block(vec, "top_count") == [3]
    assert block(vec, "top_rank", 14).index(1) == 1  # its lowest rank: the 4
    assert block(vec, "top_suits", 4) == [0, 0, 0, 1]  # spades
    assert legal == {sequence(4, 3, 0), sequence(5, 3, 0), PASS_ACTION}
    assert move_of(sequence(5, 3, 0)) == Run(5, 3, 0)
    act(rnd, sequence(4, 3, 0))
    vec, legal = seen(rnd)
    assert legal == {PASS_ACTION} and block(vec, "top_suits", 4) == [1, 0, 0, 0]


def test_a_locked_trick_allows_only_the_locked_suits() -> None:
    """docs/rules.md's example: 0 leads the 5♥, 1 plays the 8♥ (he could lay the 8♠):
    the trick is locked to hearts. 2 holds the K♠, 10♥ and 10♣: the 10♥ or the pass."""
    rules = Rules().with_options(players=3, jokers=1, suit_lock="suits")
    rnd = table(rules, "5H 5C QD", "8H 8S 4C", "KS 10H 10C 3D")
    _, legal = seen(rnd)
    assert {by_suits(2, CLUBS), by_suits(2, HEARTS), by_suits(2, CLUBS | HEARTS)} <= legal
    act(rnd, by_suits(2, HEARTS))
    _, legal = seen(rnd)
    assert {by_suits(5, HEARTS), by_suits(5, SPADES)} <= legal
    act(rnd, by_suits(5, HEARTS))
    vec, legal = seen(rnd)
    assert block(vec, "lock", 4) == [0, 0, 1, 0] and block(vec, "top_suits", 4) == [0, 0, 1, 0]
    assert legal == {by_suits(7, HEARTS), PASS_ACTION}
    assert block(vec, "cards", 54) == [int(c in parse_suited_cards(["KS", "10H", "10C", "3D"]))
                                       for c in range(54)]  # fmt: skip


def test_only_the_three_of_spades_answers_a_lone_joker() -> None:
    rules = Rules().with_options(players=3, jokers=1, spade_three_return=True)
    rnd = table(rules, "JK 4D", "3C 3S 9H", "5C 6C")
    act(rnd, 4 * 13 + 0)  # the joker alone: a play by count, jokers have no suit
    _, legal = seen(rnd)
    assert legal == {by_suits(0, SPADES), PASS_ACTION}


@pytest.mark.parametrize("which", ["uecda", "file", "french"])
def test_the_action_mask_is_the_legal_moves_and_what_the_engine_accepts(which, suited_file) -> None:
    """At every move, the moves of the masked actions are the engine's legal moves, and
    an action is masked exactly when the environment accepts it; the match is played by
    random masked actions, a sequence whenever one is legal."""
    rules = load_rules(suited_file) if which == "file" else preset(which)
    e = raw_env(rules=rules, rounds=2)
    e.reset(seed=11)
    rng = np.random.default_rng(0)
    families: set[str] = set()
    for _agent in e.agent_iter():
        observation, *_, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        mask = observation["action_mask"]
        legal = np.flatnonzero(mask)
        if not isinstance(e.decision, GiveBack):
            obs = e.decision.obs
            assert {as_named(move_of(a))[0] for a in legal} == set(obs.legal)
            accepted = [a for a in range(N_ACTIONS) if e._why_illegal(a) is None]
            assert accepted == legal.tolist()
        runs = legal[legal >= RUN_BASE]  # a sequence whenever one is legal
        action = int(rng.choice(runs if len(runs) else legal))
        families.add(family(action))
        e.step(action)
    wanted = {"play_suits", "sequence"} if rules.suited else {"play"}
    assert wanted | {"pass", "give"} <= families


def test_strategies_in_the_env_play_the_kernels_match_under_a_suited_rules_file(
    suited_file,
) -> None:
    rules, names, seed = load_rules(suited_file), ["random", "lowest", "random", "random"], 5
    job = KernelJob.build(rules, names, seed, 3, 40)
    e = env(rules=suited_file, rounds=3)
    runs = kernel_matches_replayed(e, job, names, seed, 2, rules.players)
    assert runs > 0 or not rules.sequenced  # sequences were laid, through their actions


def test_a_play_of_the_other_family_is_refused_in_words() -> None:
    for rules, action, words in (
        ("french", by_suits(0, CLUBS), "the rules do not read suits"),
        ("uecda", 0, "names its suits"),
    ):
        e = raw_env(rules=rules)
        e.reset(seed=2)  # a match's first question is a move
        with pytest.raises(ValueError, match=words):
            e.step(action)
