"""A strategy chooses the cards of its play under the rules that read suits: a ``Named``
play on the reference engine, ``pick_cards`` in the kernel, checked alike by both
(docs/strategies.md, "Under the rules that read suits")."""

from __future__ import annotations

import numpy as np
import pytest

from simulator.apps.replay import parse_game
from simulator.kernel.knowledge import CARDS, H_SIZE
from simulator.kernel.layout import (
    R_TRICK_FLAGS,
    S_LOCK,
    S_SIZE,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    rules_array,
)
from simulator.kernel.suits import bad_pick, chosen_cards, locking_cards, pick_cards
from simulator.reference.match import play_match
from simulator.reference.moves import Move, Named
from simulator.reference.rng import Stream
from simulator.reference.round import Observation, Round
from simulator.rules.cards import card_rank, parse_suited_cards
from simulator.rules.options import Rules
from strategies.guard import Guarded
from strategies.specs import StrategyError
from tests.reference.scenarios.notation import game

LOCK = {"suit_lock": "suits"}
HANDS = ["5H 5S 9D", "7C 7H 7S KD", "8C 8D JC", "6C 6H 4D"]


class Namer:
    """Plays the weakest legal play (the pass when it is the only move), naming the cards
    ``names`` (card names, or anything) for it."""

    name = "namer"

    def __init__(self, names: object) -> None:
        self.names = names

    def choose(self, obs: Observation, rng: Stream) -> Move | Named:
        move = obs.legal[0]
        names = self.names
        cards = parse_suited_cards(names) if isinstance(names, list) else names
        return Named(move, cards)  # type: ignore[arg-type]

    def give_back(self, hand: list[int], k: int, rng: Stream) -> list[int]:
        return [r for r in range(len(hand)) for _ in range(hand[r])][:k]


class Highest:
    """The weakest legal play, laid with the highest suits of its rank."""

    name = "highest"

    def choose(self, obs: Observation, rng: Stream) -> Move | Named:
        move = obs.legal[0]
        if move.is_pass or obs.lock:
            return move
        cards = [c for c in obs.cards if card_rank(c) == move.rank]
        return Named(move, tuple(cards[-move.count :]))

    def give_back(self, hand: list[int], k: int, rng: Stream) -> list[int]:
        return [r for r in range(len(hand)) for _ in range(hand[r])][:k]


def round_after(
    script: list[str], rules: dict[str, object] = LOCK, hands: list[str] = HANDS
) -> Round:
    """The round of ``hands`` after the moves of ``script``."""
    parsed = parse_game(game(rules, hands, 0, script))
    rnd = Round(parsed.rules, parsed.hands, parsed.leader, (), parsed.cards)
    for seat, move, _, named, _ in parsed.moves:
        rnd.apply(move, seat, cards=named)
    return rnd


def test_the_cards_named_are_laid_and_lock_the_trick() -> None:
    rnd = round_after(["0: 5H 5S"])
    answer = Guarded("namer", Namer(["7H", "7S"])).choose(rnd.observation(), Stream.of(1, 0, 0))
    assert answer == Named(Move(4, 2), tuple(parse_suited_cards(["7H", "7S"])))
    events = rnd.apply(answer.move, cards=answer.cards)
    assert [str(c) for c in events[0].card_names()] == ["7H", "7S"]
    assert rnd.suits is not None and rnd.suits.lock == 0b1100  # hearts and spades


@pytest.mark.parametrize(
    ("names", "reason"),
    [
        (["7C", "7D"], "you do not hold the 7D"),
        (["7C", "KD"], "the KD is not of the rank played"),
        (["7C", "7H", "7S"], "3 cards named for a play of 2"),
        ("7H", "'7H' are not card ids"),
        ((99, 100), "(99, 100) are not card ids"),
    ],
)
def test_named_cards_that_do_not_fit_stop_the_run_in_one_line(names, reason) -> None:
    rnd = round_after(["0: 5H 5S"])
    with pytest.raises(StrategyError) as caught:
        Guarded("namer", Namer(names)).choose(rnd.observation(), Stream.of(1, 0, 0))
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("strategy 'namer' named cards that cannot be those of its play 7 7")
    assert reason in message and "seat 1 on 5 5" in message


def test_under_a_lock_only_the_locked_suits_may_be_named() -> None:
    rnd = round_after(["0: 5C", "1: 6C"], hands=["5C 2H", "6C KD", "9C 9D 2D", "4H 8S"])
    assert rnd.suits is not None and rnd.suits.lock == 1  # clubs on clubs: locked
    with pytest.raises(StrategyError, match=r"locked to clubs \(suit_lock\)"):
        Guarded("namer", Namer(["9D"])).choose(rnd.observation(), Stream.of(1, 0, 0))
    answer = Guarded("namer", Namer(["9C"])).choose(rnd.observation(), Stream.of(1, 0, 0))
    assert answer == Named(Move(6, 1), tuple(parse_suited_cards(["9C"])))


def test_under_rules_without_suits_the_names_are_ignored() -> None:
    rnd = round_after(["0: 5 5"], rules={})
    answer = Guarded("namer", Namer(["7H", "9D"])).choose(rnd.observation(), Stream.of(1, 0, 0))
    assert answer == Move(4, 2)


def test_a_match_lays_the_cards_a_strategy_names() -> None:
    """Over a match, each play of ``highest`` (unlocked) lays the highest suits it holds
    of the rank, which the default (the lowest suits) does not always do."""
    rules = Rules(suit_lock="suits", players=4)
    record = play_match(rules, [Guarded("highest", Highest()), *[Namer(())] * 3], 3, 0, rounds=2)
    laid = [(cards, move) for rr in record.rounds for (p, move), cards in
            zip(rr.moves, rr.laid, strict=True) if p == 0 and not move.is_pass]  # fmt: skip
    assert laid and all(len(cards) == move.count for cards, move in laid)
    assert any(max(c % 4 for c in cards) == 3 for cards, _ in laid)  # spades laid


# ---------------------------------------------------------------- the kernel's twin


def kernel_arrays(hand: str, top: tuple[int, int, int], lock: int = 0):
    """``(S, H, R)`` for position 0 holding ``hand`` on a top of ``(rank, count, suits)``."""
    R = rules_array(Rules(suit_lock="suits", jokers=1, spade_three_return=True))
    S = np.zeros(S_SIZE, np.int64)
    S[S_TOP_RANK], S[S_TOP_COUNT], S[S_TOP_SUITS] = top
    S[S_LOCK] = lock
    H = np.zeros(H_SIZE, np.uint64)
    H[CARDS] = np.uint64(sum(1 << c for c in parse_suited_cards(hand.split())))
    return S, H, R


def mask(names: str) -> np.uint64:
    return np.uint64(sum(1 << c for c in parse_suited_cards(names.split())))


def test_the_kernel_lays_the_cards_picked_when_they_fit_and_flags_them_when_not() -> None:
    S, H, R = kernel_arrays("7C 7H 7S KD", (2, 2, 0b1100))  # on the 5s of hearts and spades
    k, trick_rules = H[CARDS], R[R_TRICK_FLAGS]
    assert locking_cards(S, k, 4, 2) == mask("7H 7S")
    assert chosen_cards(S, k, 4, 2, 2, 2, trick_rules) == mask("7C 7H")  # nothing picked
    pick_cards(S, mask("7H 7S"))
    assert chosen_cards(S, k, 4, 2, 2, 2, trick_rules) == mask("7H 7S")
    assert not bad_pick(0, 4, 2, S, H, R)
    for wrong in ("7C 7D", "7C KD", "7C 7H 7S"):
        pick_cards(S, mask(wrong))
        assert bad_pick(0, 4, 2, S, H, R), wrong
        assert chosen_cards(S, k, 4, 2, 2, 2, trick_rules) == mask("7C 7H"), wrong
    assert not bad_pick(0, -1, 0, S, H, R)  # a pass lays nothing: the pick is not read


def test_the_kernel_holds_a_pick_to_the_lock_and_to_the_spade_three() -> None:
    S, H, R = kernel_arrays("9C 9D KD", (5, 1, 1), lock=1)  # locked to clubs
    pick_cards(S, mask("9D"))
    assert bad_pick(0, 6, 1, S, H, R)
    pick_cards(S, mask("9C"))
    assert not bad_pick(0, 6, 1, S, H, R)
    assert locking_cards(S, H[CARDS], 6, 1) == np.uint64(0)  # locked already
    S, H, R = kernel_arrays("3C 3S 9D", (13, 1, 0))  # on a lone joker
    pick_cards(S, mask("3C"))
    assert bad_pick(0, 0, 1, S, H, R)
    pick_cards(S, mask("3S"))
    assert not bad_pick(0, 0, 1, S, H, R)
