"""Differential tests: the reference engine against the independent oracle.

For every preset, the default rules with each single option switched to each of its
non-default values, and a few random combinations, with 3 to 8 players: random deals
(the whole deck dealt evenly, or a part of it dealt unevenly), a random leader, then

(a) every seat plays ``lowest``;
(b) a random legal prefix of scripted moves (plays and passes), then ``lowest``;
(c) a random legal prefix and then one illegal scripted move of each kind (wrong seat,
    card not held, not beating the top, pass when leading, a move after the round end,
    a move by a player who passed, not a combination; under rules that read suits also
    a play whose named cards have the wrong suits); the engine must refuse exactly that
    move (same index) and the oracle agrees.

Under rules that read suits (``suit_lock``, ``spade_three_return``) the hands are dealt
with suits, the random prefixes name their cards one play in two (else the default cards
leave the hand), and the events are compared with their suits.

The engine is driven only through ``simulator.apps.replay`` (``parse_game`` + ``replay``), as
``president replay`` drives it. Each test is one (configuration, players, seed), so a
failure names all three; the game that failed is printed as JSON for replaying.
"""

from __future__ import annotations

import json
import random
import re
import zlib

import pytest

from simulator.apps.replay import GameError, parse_game, replay
from simulator.rules.options import BOOL_KEYS, CHOICES, KEYS
from simulator.rules.roles import role_of
from tests.reference.oracle import (
    JOKER,
    MATCH_KEYS,
    RANKS,
    ROUND_DEFAULTS,
    SUITS,
    THREE,
    Move,
    OracleRound,
    card_key,
    card_rank,
    make_deal,
    move_dict,
    random_move,
    random_prefix,
    reads_suits,
    resolve_rules,
    run_game,
)

# ----------------------------------------------------------------- configurations

SINGLE_OPTIONS = [
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
    ("equal_rank", "allow"),
    ("eight_ends_trick", True),
    ("jack_back", True),
    ("accumulation_burns", True),
    ("out_ends_trick", True),
    ("clubs_three_opens", "first_round"),
    ("clubs_three_opens", "every_round"),
    ("capital_falls", True),
    ("five_skips", True),
]

# Each round-level option of the spec and its values: a new option of the spec comes in
# by itself, and the oracle refuses it until it knows it (resolve_rules).
OPTION_VALUES = {
    key: CHOICES.get(key, (False, True) if key in BOOL_KEYS else ())
    for key in KEYS
    if key not in MATCH_KEYS
}


def playable(rules: dict) -> dict:
    """A rules mapping the rule book accepts: ``after_out_lead = "last_in_trick"`` needs
    ``passing = "out_of_trick"`` (with ``may_return`` it is refused), and
    ``spade_three_return`` a joker."""
    if rules.get("after_out_lead") == "last_in_trick":
        rules = {**rules, "passing": "out_of_trick"}
    if rules.get("spade_three_return") and not rules.get("jokers"):
        rules = {**rules, "jokers": 1}
    return rules


# The rules that read suits (third catalogue), alone and with the rules they meet most:
# a lone joker, pairs of jokers following a lock, transparent threes, larger sets and
# burning fours that a lock forbids.
SUIT_CONFIGS: list[tuple[str, dict]] = [
    ("suit_lock=suits", {"suit_lock": "suits"}),
    ("spade_three_return+joker", {"spade_three_return": True, "jokers": 1}),
    ("suits+lock+spade+jokers2", {"suit_lock": "suits", "spade_three_return": True, "jokers": 2}),
    (
        "suits+lock+threes+larger+burn",
        {
            "suit_lock": "suits",
            "spade_three_return": True,
            "jokers": 1,
            "transparent_threes": True,
            "larger_sets": "any",
            "quad_burns": True,
            "equal_rank": "allow",
        },
    ),
]


def _random_combos(count: int, seed: int) -> list[tuple[str, dict]]:
    rng = random.Random(seed)
    out = []
    for i in range(count):
        rules = {key: rng.choice(values) for key, values in OPTION_VALUES.items()}
        out.append((f"combo{i}", playable(rules)))
    return out


CONFIGS: list[tuple[str, str | dict]] = [
    ("french", "french"),
    ("regles-jeu", "regles-jeu"),
    ("spade", "spade"),
    ("scum", "scum"),
    ("default", {}),
    *[(f"{key}={value}", playable({key: value})) for key, value in SINGLE_OPTIONS],
    *SUIT_CONFIGS,
    (
        "after_out_lead=last_in_trick",
        {"passing": "out_of_trick", "after_out_lead": "last_in_trick"},
    ),
    *_random_combos(6, seed=20240601),
    ("all_on", {k: v[-1] for k, v in OPTION_VALUES.items()}),
    ("french+burn+revolution", {"preset": "french", "quad_burns": True, "revolution": True}),
    (
        "regles-jeu+threes+larger",
        {"preset": "regles-jeu", "transparent_threes": True, "larger_sets": "higher_rank"},
    ),
]
assert set(OPTION_VALUES) == set(ROUND_DEFAULTS)

PLAYERS = range(3, 9)
SEEDS_PER_CASE = 6

CASES = [
    pytest.param(name, rules, n, seed, id=f"{name}-n{n}-s{seed}")
    for name, rules in CONFIGS
    for n in PLAYERS
    for seed in range(SEEDS_PER_CASE)
]

ILLEGAL_KINDS = (
    "wrong_seat",
    "not_held",
    "not_beating",
    "pass_leading",
    "after_round_end",
    "after_out_of_trick_pass",
    "not_a_combination",
)
# under rules that read suits only: named cards a rule forbids (the locked suits; the 3 of
# spades on a lone joker), of a rank and count that would be allowed ignoring suits
SUIT_ILLEGAL_KINDS = ("wrong_suits",)

# ----------------------------------------------------------------- engine driver

_MOVE_INDEX = re.compile(r"\bmove (\d+)\b")


def engine_run(game: dict):
    """(events as dicts, None) for a replay, or (None, index of the refused move)."""
    try:
        events = replay(parse_game(game))
    except GameError as exc:
        m = _MOVE_INDEX.search(str(exc))
        assert m, f"GameError without a move index: {exc}"
        return None, int(m.group(1)), str(exc)
    suits = reads_suits(resolve_rules(game["rules"]))
    return [_normal(e.to_json(), suits) for e in events], None, None


def _normal(event: dict, suits: bool = False) -> dict:
    """Suits may be appended to cards (docs/formats.md §2): compare ranks only, unless
    the rules read suits (then the events name every card with its suit)."""
    if event.get("event") == "play" and not suits:
        event = dict(event)
        event["cards"] = [c if c == "JK" or c[-1] not in "CDHS" else c[:-1] for c in event["cards"]]
    return event


def _seed(name: str, n: int, seed: int) -> int:
    return zlib.crc32(f"{name}/{n}/{seed}".encode())


def roles_of(hands) -> list[str]:
    """The previous round's roles of a game, drawn from its deal: the President is a
    different seat from game to game (``capital_falls`` reads him; ``lowest`` does not)."""
    n = len(hands)
    roles = [role_of(place, n) for place in range(1, n + 1)]
    random.Random(json.dumps(hands)).shuffle(roles)
    return roles


def president_of(hands) -> int:
    """The seat :func:`roles_of` makes President."""
    return roles_of(hands).index("president")


def _game(rules, hands, leader, moves) -> dict:
    return {
        "rules": rules,
        "hands": hands,
        "leader": leader,
        "strategies": ["lowest"] * len(hands),
        "moves": moves,
        "roles": roles_of(hands),
    }


def first_difference(a: list[dict], b: list[dict]) -> str:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"event {i}: oracle {x} vs engine {y}"
    return f"lengths: oracle {len(a)} vs engine {len(b)} events"


def assert_same_round(game: dict, label: str) -> list[dict]:
    expected = run_game(game)
    assert expected.illegal_index is None, (label, expected.illegal_reason)
    events, index, message = engine_run(game)
    where = f"{label}\ngame = {json.dumps(game)}"
    assert index is None, f"engine refused move {index} ({message}); oracle plays it\n{where}"
    assert events == expected.events, first_difference(expected.events, events) + "\n" + where
    return events


def assert_same_refusal(game: dict, index: int, label: str) -> None:
    expected = run_game(game)
    where = f"{label}\ngame = {json.dumps(game)}"
    assert expected.illegal_index == index, f"generator/oracle mismatch\n{where}"
    _events, got, message = engine_run(game)
    assert got is not None, (
        f"engine accepted illegal move {index} ({expected.illegal_reason})\n{where}"
    )
    assert got == index, f"engine refused move {got} ({message}), oracle move {index}\n{where}"


# ----------------------------------------------------------------- illegal moves


def _suited(move: Move, rnd: OracleRound, rng, suits: bool) -> dict:
    """A move as a dict: under rules that ignore suits, with random suit letters if
    ``suits``; under rules that read them, as the move names its cards."""
    return move_dict(move, rng if suits and not rnd.suited else None)


def suits_matter(rules) -> bool:
    """Can a play be refused for its suits alone (a lock, or a lone joker)?"""
    rules = resolve_rules(rules)
    return rules["suit_lock"] != "off" or (rules["spade_three_return"] and rules["jokers"] > 0)


def _lacking(rnd: OracleRound, seat: int, rng) -> Move:
    """A play naming a card with a suit ``seat`` lacks (with some of its cards of that
    rank): refused as a card not held (rules that read suits)."""
    held = set(rnd.cards[seat])
    missing = [f"{r}{s}" for r in RANKS[:13] for s in SUITS if f"{r}{s}" not in held]
    card = rng.choice(missing)
    same = [c for c in held if card_rank(c) == card_rank(card)]
    named = [card, *rng.sample(same, rng.randint(0, min(3, len(same))))]
    return Move(seat, card_rank(card), len(named), named=tuple(sorted(named, key=card_key)))


def _illegal_move(kind: str, rnd: OracleRound, rng) -> Move | dict | None:
    """An illegal move of ``kind`` in position ``rnd``, or None when there is none."""
    n = rnd.n
    if kind == "after_round_end":
        if not rnd.over:
            return None
        seat = rng.randrange(n)
        return Move(seat) if rng.random() < 0.5 else Move(seat, rng.randrange(13), 1)
    if rnd.over:
        return None
    turn = rnd.to_move
    hand = rnd.hands[turn]
    top_ranks = 14 if rnd.rules["jokers"] else 13
    if kind == "wrong_seat":
        seat = rng.choice([s for s in range(n) if s != turn])
        held = [r for r in range(14) if rnd.hands[seat][r]]
        if held and rng.random() < 0.7:
            rank = rng.choice(held)
            return Move(seat, rank, rng.randint(1, rnd.hands[seat][rank]))
        return Move(seat)
    if kind == "not_held":
        if rnd.suited and rng.random() < 0.5:
            return _lacking(rnd, turn, rng)
        ranks = [r for r in range(top_ranks) if hand[r] < (2 if r == JOKER else 4)]
        rank = rng.choice(ranks)
        return Move(turn, rank, hand[rank] + 1)
    if kind == "wrong_suits":  # only a lock or a lone joker makes the suits matter
        if rnd.top is None or not (rnd.lock or rnd.spade_return(THREE, 1)):
            return None
        options = [
            cards
            for r in range(JOKER)
            for k in range(1, hand[r] + 1)
            if rnd.play_effect(r, k) is not None  # allowed when suits are not looked at
            for cards in rnd.card_sets(r, k)
            if rnd.play_effect(r, k, cards) is None
        ]
        if not options:
            return None
        cards = rng.choice(options)
        return Move(turn, card_rank(cards[0]), len(cards), named=cards)
    if kind == "not_beating":
        if rnd.top is None:
            return None
        legal = set(rnd.legal_plays())
        options = [(r, k) for r in range(14) for k in range(1, hand[r] + 1) if (r, k) not in legal]
        if not options:
            return None
        return Move(turn, *rng.choice(options))
    if kind == "pass_leading":
        return Move(turn) if rnd.top is None else None
    if kind == "after_out_of_trick_pass":
        passed = [
            s
            for s in sorted(rnd.out_of_trick | rnd.since_top)
            if s != turn and rnd.holds(s) and rnd.top is not None
        ]
        if not passed:
            return None
        seat = rng.choice(passed)
        held = [r for r in range(14) if rnd.hands[seat][r]]
        rank = rng.choice(held)
        return Move(seat, rank, rnd.hands[seat][rank]) if rng.random() < 0.8 else Move(seat)
    if kind == "not_a_combination":
        held = [r for r in range(14) if hand[r]]
        choice = rng.randrange(3)
        if choice == 0 and len(held) >= 2:
            a, b = rng.sample(held, 2)
            return {"seat": turn, "play": [RANKS[a], RANKS[b]]}
        if choice == 1:
            return {"seat": rng.choice((n, n + 3)), "pass": True}
        rank = rng.choice(held)
        return {"seat": turn, "play": [RANKS[rank]] * 5}
    raise AssertionError(kind)


def illegal_game(rules, hands, leader, kind: str, rng, suits: bool):
    """A game whose scripted moves are legal up to one illegal move of ``kind``.

    The legal prefix has a random length; it is extended move by move (random legal
    moves, or ``lowest`` to reach the end of the round) until a move of ``kind`` exists.
    Returns (game, index of the illegal move, kind actually used)."""
    length = rng.randrange(0, 60)
    moves, rnd = random_prefix(rules, hands, leader, rng, length, suits, president_of(hands))
    while True:
        move = _illegal_move(kind, rnd, rng)
        if move is not None:
            break
        if rnd.over:  # no such move found before the end: fall back to a wrong seat
            kind = "after_round_end"
            continue
        nxt = rnd.lowest_move() if kind == "after_round_end" else random_move(rnd, rng)
        moves.append(_suited(nxt, rnd, rng, suits))
        rnd.apply(nxt)
    index = len(moves)
    if kind == "not_a_combination":  # two ranks, or five cards, or a seat that does not exist
        moves.append(move)
    else:
        moves.append(_suited(move, rnd, rng, suits))
    # a few moves after it, which must never be reached
    for _ in range(rng.randrange(3)):
        moves.append({"seat": rng.randrange(len(hands)), "pass": True})
    return _game(rules, hands, leader, moves), index, kind


# ----------------------------------------------------------------- the tests


@pytest.mark.parametrize(("name", "rules", "n", "seed"), CASES)
def test_engine_matches_oracle(name, rules, n, seed):
    rng = random.Random(_seed(name, n, seed))
    jokers = resolve_rules(rules)["jokers"]
    partial = seed % 3 == 2  # seeds 0, 1 (mod 3): the whole deck, dealt evenly
    clumped = seed % 3 == 1 or (partial and rng.random() < 0.5)
    suits = rng.random() < 0.5 or reads_suits(resolve_rules(rules))
    hands = make_deal(rng, n, jokers, partial=partial, suits=suits, clumped=clumped)
    leader = rng.randrange(n)
    label = f"{name} n={n} seed={seed}"

    # (a) all lowest
    assert_same_round(_game(rules, hands, leader, []), f"{label} (a) all lowest")

    # (b) random legal prefixes, then lowest
    for j in range(2):
        length = rng.choice((5, 20, 60, 400))
        moves, _ = random_prefix(rules, hands, leader, rng, length, suits, president_of(hands))
        assert_same_round(_game(rules, hands, leader, moves), f"{label} (b{j}) prefix {length}")

    # (c) one illegal scripted move of each kind
    kinds = ILLEGAL_KINDS + (SUIT_ILLEGAL_KINDS if suits_matter(rules) else ())
    for kind in kinds:
        game, index, used = illegal_game(rules, hands, leader, kind, rng, suits)
        assert_same_refusal(game, index, f"{label} (c) {kind} as {used} at move {index}")


def test_configurations_cover_every_option_value():
    seen = {key: set() for key in OPTION_VALUES}
    for _, rules in CONFIGS:
        for key, value in resolve_rules(rules).items():
            seen[key].add(value)
    for key, values in OPTION_VALUES.items():
        assert seen[key] == set(values), key


def test_oracle_passes_the_worked_examples():
    """The oracle's own test: every worked replay gives its expected events, and the
    illegal examples are refused at their index."""
    from tests.conftest import EXAMPLES

    illegal = {
        "illegal_not_higher_n4": 13,
        "illegal_after_pass_out_of_trick_n4": 39,
        "illegal_wrong_seat_n6": 33,
        "illegal_jack_back_n4": 6,
    }
    games = sorted(EXAMPLES.glob("*.json"))
    assert len(games) >= 15
    for path in games:
        game = json.loads(path.read_text())
        result = run_game(game)
        expected_file = path.with_suffix(".jsonl")
        if expected_file.exists():
            expected = [json.loads(x) for x in expected_file.read_text().splitlines() if x]
            assert result.illegal_index is None, path.name
            assert result.events == expected, (path.name, first_difference(result.events, expected))
        else:
            assert result.illegal_index == illegal[path.stem], path.name
