"""Invariants of the reference engine under random play, checked against the oracle.

* Matches of ``random`` players (``simulator.reference.match.play_match``, 3 rounds, exchange
  included) for every preset and each single option switched, 3 to 8 players: the deck
  is conserved by the deal and the exchange, hands + played cards = the hands the round
  began with, every event is legal and the events are exactly those the oracle gives for
  the same moves (so every trick ends exactly where the oracle's reading of docs/rules.md
  ends it), places are a permutation of 1..n, ``out`` events take the best free place in
  increasing order (or, under ``no_finish_on_two`` after 2s or jokers, the worst free
  place in decreasing order), a leader always has a move and may not pass.
* Hypothesis: random rules × random deals × random legal moves, stepping
  ``simulator.reference.round.Round`` and the oracle in lockstep: the same legal moves in every
  position, the same events after every move, the same state (hands, places, turn).
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.apps.replay import parse_game
from simulator.reference.match import play_match
from simulator.reference.moves import Run
from simulator.reference.round import PASS, IllegalMove, Round
from simulator.reference.round import Move as EngineMove
from simulator.rules.files import rules_from_mapping
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies import registry
from tests.reference.oracle import (
    JOKER,
    RANK_INDEX,
    SUITS,
    TWO,
    Move,
    OracleRound,
    card_rank,
    make_deal,
    moves_of_events,
    resolve_rules,
    run_round,
    to_counts,
)
from tests.reference.test_oracle_diff import OPTION_VALUES, SINGLE_OPTIONS, playable

PRESET_NAMES = ("french", "regles-jeu", "spade", "scum")

MATCH_CONFIGS: list[tuple[str, str | None, dict]] = [
    *[(name, name, {}) for name in PRESET_NAMES],
    ("default", None, {}),
    *[(f"{key}={value}", None, playable({key: value})) for key, value in SINGLE_OPTIONS],
]

MATCH_CASES = [
    pytest.param(name, base, options, n, seed, id=f"{name}-n{n}-s{seed}")
    for name, base, options in MATCH_CONFIGS
    for n in range(3, 9)
    for seed in range(2)
]


def _rules(base: str | None, options: dict, n: int) -> Rules:
    rules = preset(base) if base else Rules()
    return rules_from_mapping({**options, "players": n}, base=rules)


def _deck(rules: Rules) -> list[int]:
    return [4] * 13 + [rules.jokers]


def _sum_hands(hands) -> list[int]:
    return [sum(h[r] for h in hands) for r in range(14)]


def check_round_events(
    round_rules: dict, hands, leader: int, events: list[dict], president: int | None = None
) -> None:
    """The invariants of one round's events (seats are table positions; ``president``: the
    previous round's President, whom ``capital_falls`` may send to the last place)."""
    n = len(hands)
    label = f"rules={round_rules} leader={leader} hands={hands} president={president}"

    # every event legal, and exactly the events of the oracle for the same moves
    moves = moves_of_events(events)
    result = run_round(round_rules, hands, leader, moves, president=president)
    assert result.illegal_index is None, (
        f"move {result.illegal_index} {moves[result.illegal_index]} is illegal for the "
        f"oracle: {result.illegal_reason}\n{label}"
    )
    for i, (mine, theirs) in enumerate(zip(result.events, events, strict=False)):
        assert mine == theirs, f"event {i}: oracle {mine} vs engine {theirs}\n{label}"
    assert len(result.events) == len(events), label

    # cards: hands + played (+ a fallen President's cards) = dealt, the last player keeps his
    played = Counter()
    for e in events:
        if e["event"] == "play":
            for card in e["cards"]:
                played[RANK_INDEX[card]] += 1
    left = result.round.hands
    dealt = [to_counts(h) for h in hands]
    fallen = [e["seat"] for e in events if e["event"] == "falls"]  # at most one
    gone = [list(dealt[seat]) for seat in fallen]  # his cards left the round unplayed
    for e in events:
        if e["event"] == "play" and e["seat"] in fallen:
            for card in e["cards"]:
                gone[0][RANK_INDEX[card]] -= 1
    out_of_hands = [played[r] + sum(h[r] for h in left + gone) for r in range(14)]
    assert _sum_hands(dealt) == out_of_hands, label
    assert sum(1 for h in left if sum(h)) == 1, label

    # places: a permutation; outs take the best free place in order, or (2s/jokers
    # under no_finish_on_two) the worst free place in order
    assert events[-1]["event"] == "round_end"
    places = events[-1]["places"]
    assert sorted(places) == list(range(1, n + 1)), label
    assert sum(1 for e in events if e["event"] == "round_end") == 1
    best, worst = 1, n
    last_play: dict[int, list[str]] = {}
    outs = set()
    for e in events:
        if e["event"] == "play":
            last_play[e["seat"]] = e["cards"]
        elif e["event"] == "out":
            rank = RANK_INDEX[last_play[e["seat"]][0]]
            if round_rules["no_finish_on_two"] and rank in (TWO, JOKER):
                assert e["place"] == worst, label
                worst -= 1
            else:
                assert e["place"] == best, label
                best += 1
            assert places[e["seat"]] == e["place"]
            outs.add(e["seat"])
        elif e["event"] == "falls":  # the President beaten to first place
            assert round_rules["capital_falls"] and e["seat"] == president, label
            assert e["place"] == worst and best == 2, label
            worst -= 1
            assert places[e["seat"]] == e["place"]
            outs.add(e["seat"])
    assert best == worst and len(outs) == n - 1, label
    (last,) = set(range(n)) - outs
    assert places[last] == best

    # a trick begins with a play by its leader; a leader never passes
    starts = [{"event": "trick_end", "next_leader": leader}, *events[:-1]]
    for prev, e in zip(starts, events, strict=True):
        if prev["event"] == "trick_end":
            assert e["event"] == "play" and e["seat"] == prev["next_leader"], label


@pytest.mark.parametrize(("name", "base", "options", "n", "seed"), MATCH_CASES)
def test_random_matches_keep_the_invariants(name, base, options, n, seed):
    rules = _rules(base, options, n)
    players = [registry.make("random")] * n
    record = play_match(rules, players, seed, match=seed, rounds=3, max_rounds=3, keep_events=True)
    assert len(record.rounds) == 3
    round_rules = resolve_rules(rules.to_dict())
    president = None  # no roles in the first round
    for rnd in record.rounds:
        # the deal and the exchange conserve the deck
        assert _sum_hands(rnd.dealt) == _deck(rules)
        assert _sum_hands(rnd.hands) == _deck(rules)
        assert sorted(rnd.places) == list(range(1, n + 1))
        seating = rnd.seating
        assert sorted(seating) == list(range(n))
        by_pos = [rnd.hands[p] for p in seating]
        leader = seating.index(rnd.leader)
        events = [e.to_json() for e in rnd.events]
        at = None if president is None else seating.index(president)
        check_round_events(round_rules, by_pos, leader, events, at)
        # places by player = places by position read through the seating
        final = events[-1]["places"]
        assert [final[seating.index(p)] for p in range(n)] == rnd.places
        president = rnd.places.index(1)
        assert len(rnd.moves) == sum(1 for e in events if e["event"] in ("play", "pass"))


# ----------------------------------------------------------------- lockstep (hypothesis)


def _engine_move(move: Move) -> EngineMove | Run:
    if move.is_sequence:
        return Run(move.rank, move.count, SUITS.index(move.suit))
    return PASS if move.is_pass else EngineMove(move.rank, move.count)


def _oracle_move(seat: int, move: EngineMove | Run) -> tuple:
    """An engine move as :func:`_key` of the same move of the oracle."""
    if isinstance(move, Run):
        return seat, move.low, move.length, SUITS[move.suit]
    return _key(Move(seat) if move.is_pass else Move(seat, move.rank, move.count))


def _key(move: Move) -> tuple:
    """An oracle move as (seat, rank, count, suit): a sequence names its cards besides."""
    return move.seat, move.rank, move.count, move.suit


rules_strategy = st.fixed_dictionaries(
    {k: st.sampled_from(v) for k, v in OPTION_VALUES.items()}
).map(playable)


def _with_gift(oracle: OracleRound, move, rng: random.Random):
    """``move`` with the cards it hands over (7s, 10s) drawn at random from those left."""
    owed = oracle.owed(move)
    if owed == 0:
        return move
    left = list(oracle.hands[move.seat])
    left[move.rank] -= move.count
    cards = [rank for rank in range(14) for _ in range(left[rank])]
    return replace(move, gift=tuple(rng.sample(cards, owed)))


@settings(
    max_examples=300,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    options=rules_strategy,
    n=st.integers(3, 8),
    deal_seed=st.integers(0, 2**32 - 1),
    kind=st.sampled_from(("even", "clumped", "partial", "partial_clumped")),
    move_seed=st.integers(0, 2**32 - 1),
    president=st.integers(-1, 7),
)
def test_engine_and_oracle_in_lockstep(options, n, deal_seed, kind, move_seed, president):
    """Both engines move by move; the previous round's President (for ``capital_falls``)
    is a seat of the table, or nobody (``president`` out of range: a first round)."""
    rng = random.Random(deal_seed)
    rules = rules_from_mapping({**options, "players": n})
    hands = make_deal(
        rng,
        n,
        options["jokers"],
        partial=kind.startswith("partial"),
        clumped=kind.endswith("clumped"),
        suits=rules.suited,
    )
    leader = rng.randrange(n)
    moves_rng = random.Random(move_seed)
    counts = [to_counts(h) for h in hands]
    chief = president if 0 <= president < n else None
    roles = () if chief is None else tuple("president" if s == chief else "" for s in range(n))
    cards = None  # the card ids, under the rules that read suits
    if rules.suited:
        cards = parse_game({"rules": options, "hands": hands, "leader": leader}).cards
    engine = Round(rules, counts, leader, roles, cards)
    oracle = OracleRound(options, hands, leader, chief)
    played = [0] * 14
    for step in range(2000):
        if oracle.over:
            break
        assert not engine.over
        assert engine.turn == oracle.to_move, step
        seat = oracle.to_move
        legal = oracle.legal_moves()
        assert legal, "a player to move always has a move"
        assert {_oracle_move(seat, m) for m in engine.legal_moves()} == set(map(_key, legal)), (
            f"step {step}: legal moves differ"
        )
        if oracle.top is None:  # a leader has a play and may not pass
            assert all(not m.is_pass for m in legal)
            with pytest.raises(IllegalMove):
                engine.apply(PASS)
        move = _with_gift(oracle, moves_rng.choice(legal), moves_rng)
        before = len(oracle.events)
        oracle.apply(move)
        got = [e.to_json() for e in engine.apply(_engine_move(move), gift=move.gift or ())]
        assert got == oracle.events[before:], f"step {step}"
        for card in oracle.events[before].get("cards", []) if not move.is_pass else ():
            played[card_rank(card)] += 1
        # cards conserved: hands + played = dealt (a fallen President's cards count as
        # played: the engine's played holds them beside the plays)
        assert [engine.played[r] + sum(h[r] for h in engine.hands) for r in range(14)] == (
            _sum_hands(counts)
        )
        assert all(played[r] <= engine.played[r] for r in range(14))
        assert [list(h) for h in engine.hands] == oracle.hands
        assert engine.reversed == oracle.reversed
        assert engine.jack_back == oracle.jack_back
    assert oracle.over and engine.over
    assert list(engine.places) == oracle.places
    assert sorted(oracle.places) == list(range(1, n + 1))
