"""Card ids with suits (:mod:`simulator.rules.cards`) and the reference engine's deal of
them: the deck in id order holds the ranks the engines' decks of ranks hold, so a deal
of card ids is today's deal of ranks (the kernel's deal of the same ids, dealt as ranks, is
checked against it in ``tests/kernel/test_deal.py``)."""

from __future__ import annotations

import pytest

from simulator.reference.match import deal_cards, shuffle_deal
from simulator.reference.rng import Stream
from simulator.rules.cards import (
    DECK_IDS,
    JOKER,
    JOKER_IDS,
    NUM_RANKS,
    CardError,
    card_id,
    card_name,
    card_rank,
    card_suit,
    counts_from_ids,
    format_cards,
    parse_suited_card,
    parse_suited_cards,
)
from simulator.rules.options import Rules


def test_the_deck_in_id_order_is_the_deck_of_ranks() -> None:
    ranks = [rank for rank in range(NUM_RANKS - 1) for _ in range(4)] + [JOKER, JOKER]
    assert [card_rank(card) for card in range(DECK_IDS)] == ranks
    assert card_name(0) == "3C" and card_name(1) == "3D" and card_name(3) == "3S"
    assert card_name(card_id(7, 2)) == "10H" and card_name(51) == "2S"
    assert [card_name(j) for j in JOKER_IDS] == ["JK", "JK"]
    assert card_suit(JOKER_IDS[1]) is None and card_suit(card_id(5, 1)) == 1


def test_every_card_reads_back_from_its_name() -> None:
    names = [card_name(card) for card in range(DECK_IDS)]
    assert parse_suited_cards(names) == list(range(DECK_IDS))
    assert parse_suited_card(" 10s ") == card_id(7, 3)  # case and spaces as typed


@pytest.mark.parametrize(
    ("text", "why"),
    [("7", "followed by a suit"), ("1H", "unknown card '1H'"), ("JKH", "unknown card"),
     ("7X", "C D H S"), ("", "unknown card ''")],
)  # fmt: skip
def test_a_name_without_a_card_is_refused_saying_what_a_card_is(text, why) -> None:
    with pytest.raises(CardError, match=why) as error:
        parse_suited_card(text)
    assert "\n" not in str(error.value) and 'or the joker "JK"' in str(error.value)


def test_a_card_named_twice_is_refused_but_two_jokers_are_two_cards() -> None:
    assert parse_suited_cards(["JK", "3C", "JK"]) == [52, 0, 53]
    with pytest.raises(CardError, match="card 7H is named twice"):
        parse_suited_cards(["7H", "8H", "7h"])
    with pytest.raises(CardError, match="card JK is named twice"):
        parse_suited_cards(["JK"] * 3)
    with pytest.raises(CardError, match="card id 54 is not a card"):
        card_name(54)


def test_cards_are_written_weakest_first_then_by_suit() -> None:
    assert format_cards([53, card_id(7, 2), 3, 0]) == "3C 3S 10H JK"
    assert format_cards([]) == "-"
    assert counts_from_ids([0, 3, 52, card_id(7, 2)]) == [2] + [0] * 6 + [1] + [0] * 5 + [1]


@pytest.mark.parametrize("players", [3, 4, 5, 7])
@pytest.mark.parametrize("jokers", [0, 2])
def test_a_deal_of_card_ids_deals_each_card_once_and_names_the_three_of_clubs(players, jokers):
    rules = Rules(players=players, jokers=jokers)
    for match in range(20):
        dealer = match % players
        hands, base = deal_cards(rules, Stream.of(5, match, 1), dealer)
        assert sorted(c for h in hands for c in h) == list(range(52)) + list(JOKER_IDS[:jokers])
        assert all(set(b) <= set(h) for b, h in zip(base, hands, strict=True))
        counts, _, club = shuffle_deal(rules, Stream.of(5, match, 1), dealer)
        assert counts == [counts_from_ids(h) for h in hands]
        assert 0 in hands[club]
