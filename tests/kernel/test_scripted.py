"""The kernel's scripted round (:mod:`tests.kernel.scripted`) against the oracle
and the reference engine.

The hand-worked scenarios (:mod:`tests.reference.scenarios`) run on it through
``check``; here, many more rounds than anyone works out by hand:

* the random deals and scripted prefixes of ``test_oracle_diff.py`` (every preset, each
  option, random combinations, the rule sets with sequences, 3 to 8 players): the
  kernel's events, read off its state, equal the independent oracle's, and every kind of
  illegal scripted move (under sequences, every kind of illegal sequence too) is refused
  at the oracle's index;
* every built-in kernel strategy, seated with ``random`` and ``lowest``: the same seed
  gives the same events on the kernel as on the reference replay (the same play stream);
  the search player, which has no reference-engine version, plays whole legal rounds, the
  same for the same seed;
* a game the kernel cannot play is refused in one message.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from simulator.apps.replay import parse_game, replay
from simulator.rules.options import Rules
from strategies import registry
from strategies.specs import PLUGIN_BASE, StrategyError
from tests.kernel.scripted import play_scripted_round
from tests.reference.oracle import (
    IllegalMove,
    card_rank,
    make_deal,
    parse_sequence,
    random_prefix,
    resolve_rules,
    run_game,
)
from tests.reference.scenarios.notation import kernel_events, kernel_moves
from tests.reference.test_oracle_diff import (
    CONFIGS,
    ILLEGAL_KINDS,
    PLAYERS,
    SEQUENCE_ILLEGAL_KINDS,
    _game,
    _normal,
    _seed,
    first_difference,
    has_sequences,
    illegal_game,
    president_of,
)

SEEDS = range(2)
SEQUENCE_SEEDS = range(1)  # the rule sets with sequences: one seed, every kind of sequence
CASES = [
    pytest.param(name, rules, n, seed, id=f"{name}-n{n}-s{seed}")
    for name, rules in CONFIGS
    for n in PLAYERS
    for seed in (SEQUENCE_SEEDS if has_sequences(rules) else SEEDS)
]


def kernel_move(move: dict) -> tuple[int, int, int] | None:
    """A scripted-move dict as ``(seat, rank, count)`` (a sequence: its weakest rank and
    its length), or None for cards that are neither a set nor a sequence."""
    if move.get("pass"):
        return move["seat"], 0, 0
    ranks = {card_rank(card) for card in move["play"]}
    if len(ranks) == 1:
        return move["seat"], ranks.pop(), len(move["play"])
    try:
        low, length, _suit = parse_sequence(move["play"])
    except IllegalMove:
        return None
    return move["seat"], low, length


def on_kernel(game: dict) -> list[dict]:
    """The game's events on the kernel (its moves are given as dicts, possibly illegal)."""
    parsed = parse_game({**game, "moves": []})
    assert None not in [kernel_move(m) for m in game["moves"]]
    moves = kernel_moves(parse_game(game))  # with their gifts, and the cards they name
    events = play_scripted_round(
        parsed.rules,
        parsed.hands,
        parsed.leader,
        parsed.strategies,
        moves,
        roles=parsed.roles,
        cards=parsed.cards,
    )
    return [_normal(e, parsed.rules.suited) for e in events]


@pytest.mark.parametrize(("name", "rules", "n", "seed"), CASES)
def test_kernel_round_matches_the_oracle(name, rules, n, seed):
    rng = random.Random(_seed(name, n, 100 + seed))
    jokers = resolve_rules(rules)["jokers"]
    partial = seed % 2 == 1
    hands = make_deal(rng, n, jokers, partial=partial, suits=True, clumped=rng.random() < 0.5)
    leader = rng.randrange(n)
    games = [_game(rules, hands, leader, [])]
    for length in (10, 400):
        moves, _ = random_prefix(rules, hands, leader, rng, length, True, president_of(hands))
        games.append(_game(rules, hands, leader, moves))
    for game in games:
        expected = run_game(game)
        assert expected.illegal_index is None
        events = on_kernel(game)
        assert events == expected.events, first_difference(expected.events, events) + f"\n{game}"

    sequences = SEQUENCE_ILLEGAL_KINDS if has_sequences(rules) else ()
    for kind in ILLEGAL_KINDS + sequences:
        game, index, _ = illegal_game(rules, hands, leader, kind, rng, suits=True)
        assert run_game(game).illegal_index == index
        if kernel_move(game["moves"][index]) is None:
            continue  # neither a set nor a sequence: not a (seat, rank, count) move at all
        with pytest.raises(ValueError, match=f"^move {index} "):
            on_kernel(game)


KERNEL_STRATEGIES = [
    name for name in registry.names() if 0 <= registry.get(name).kernel_id < PLUGIN_BASE
]
ON_BOTH_ENGINES = [name for name in KERNEL_STRATEGIES if registry.get(name).make_python]
TABLES = [("french", 4), ("regles-jeu", 5), ("scum", 3), ({"jokers": 2, "quad_burns": True}, 6)]


def tables(strategy: str):
    """(game, seed) of a few tables where ``strategy`` sits with ``random`` and ``lowest``."""
    rng = random.Random(strategy)
    for rules, n in TABLES:
        for seed in range(3):
            hands = make_deal(rng, n, resolve_rules(rules)["jokers"], partial=seed == 2)
            seats = [strategy, "random", "lowest", strategy, "random", "lowest"][:n]
            rng.shuffle(seats)
            game = {**_game(rules, hands, rng.randrange(n), []), "strategies": seats}
            moves, _ = random_prefix(
                rules, hands, game["leader"], rng, rng.choice((0, 6)), False, president_of(hands)
            )
            yield {**game, "moves": moves}, seed


def test_every_kernel_strategy_is_tried():
    assert {"lowest", "random", "control"} <= set(ON_BOTH_ENGINES)
    assert set(KERNEL_STRATEGIES) - set(ON_BOTH_ENGINES) == {
        "montecarlo",
        "champion",
        "clairvoyant",
    }


@pytest.mark.parametrize("strategy", ON_BOTH_ENGINES)
def test_strategies_play_alike_on_the_kernel_and_the_reference_replay(strategy):
    for game, seed in tables(strategy):
        want = [_normal(e.to_json()) for e in replay(parse_game(game), seed=seed)]
        got = kernel_events(game, seed=seed)
        assert got == want, first_difference(want, got) + f"\n{game}"


@pytest.mark.parametrize("search", ["montecarlo", "champion:budget=16", "clairvoyant:budget=16"])
def test_the_search_players_play_legal_rounds_the_same_for_a_seed(search):
    """Every move a strategy chooses is checked by the kernel's legality test as it plays."""
    for game, seed in tables(search):
        events = kernel_events(game, seed=seed)
        assert events[-1]["event"] == "round_end"
        assert sorted(events[-1]["places"]) == list(range(1, len(game["hands"]) + 1))
        assert kernel_events(game, seed=seed) == events


def test_a_game_the_kernel_cannot_play_is_refused():
    hands = [[1] + [0] * 13, [0, 1] + [0] * 12, [0, 0, 1] + [0] * 11]
    lowest = ["lowest"] * 3
    rules = Rules(players=3)
    with pytest.raises(ValueError, match="3 hands for rules of 4 players"):
        play_scripted_round(Rules(), hands, 0, ["lowest"] * 4)
    with pytest.raises(ValueError, match="2 strategies for 3 seats"):
        play_scripted_round(rules, hands, 0, lowest[:2])
    with pytest.raises(ValueError, match="leader 3 is out of range"):
        play_scripted_round(rules, hands, 3, lowest)
    with pytest.raises(ValueError, match="the leader, seat 0, holds no cards"):
        play_scripted_round(rules, [[0] * 14, *hands[1:]], 0, lowest)
    with pytest.raises(ValueError, match="at least two players holding cards"):
        play_scripted_round(rules, [hands[0], [0] * 14, [0] * 14], 0, lowest)
    with pytest.raises(ValueError, match="the hand of seat 1 is not a hand"):
        play_scripted_round(rules, [hands[0], [5] + [0] * 13, hands[2]], 0, lowest)
    with pytest.raises(ValueError, match=r"^move 1 \(seat 1 plays 9 of rank 1\) is not a move"):
        play_scripted_round(rules, hands, 0, lowest, [(0, 0, 1), (1, 1, 9)])
    with pytest.raises(ValueError, match=r"^move 0 \(seat 3 passes\) is not a move"):
        play_scripted_round(rules, hands, 0, lowest, [(3, 0, 0)])
    cautious = f"{Path(__file__).parents[2]}/examples/strategies/cautious.py:Cautious"
    with pytest.raises(StrategyError, match="built-in kernel strategies only"):
        play_scripted_round(rules, hands, 0, ["lowest", cautious, "lowest"])
