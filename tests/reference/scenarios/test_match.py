"""Match-level helpers of ``simulator.reference.match``, hand-worked from RULES.md and READINGS.md.

Roles by place, the card exchange (forced best cards, then a give-back of choice), the
reseating, the dealer and the opener of round 2 on, points and the end of a match.
Players are named by their starting seat; ``seating[pos]`` is the player at position pos.
"""

from __future__ import annotations

import pytest

from simulator.reference.match import (
    exchange,
    match_over,
    next_dealer,
    next_seating,
    opening_position,
)
from simulator.rules.cards import counts_from_cards, parse_card
from simulator.rules.options import Rules
from simulator.rules.roles import role_of
from strategies.lowest import Lowest


def counts(text: str) -> list[int]:
    """Rank counts of a readable hand ``"3 5 K"``."""
    return counts_from_cards(parse_card(c) for c in text.split())


def lowest_give_back(who: int, hand: list[int], k: int) -> list[int]:
    """The rule book's ``lowest``: the k weakest cards (normal order) of the hand it holds."""
    return Lowest().give_back(hand, k, None)


# ---------------------------------------------------------------- roles


@pytest.mark.parametrize(
    ("players", "roles"),
    [
        (3, ["president", "neutral", "scum"]),
        (4, ["president", "vice_president", "vice_scum", "scum"]),
        (5, ["president", "vice_president", "neutral", "vice_scum", "scum"]),
        (
            8,
            ["president", "vice_president"] + ["neutral"] * 4 + ["vice_scum", "scum"],
        ),
    ],
)
def test_role_of_each_place(players, roles):
    assert [role_of(place, players) for place in range(1, players + 1)] == roles


# ---------------------------------------------------------------- exchange


def test_exchange_two_one_with_four_players():
    """[2, 1]: the Scum gives his 2 best cards to the President, who gives back 2;
    then the Vice-Scum gives his best card to the Vice-President, who gives back 1."""
    # player 0 President, 1 Scum, 2 Vice-President, 3 Vice-Scum
    prev_places = [1, 4, 2, 3]
    hands = [counts("3 4 9"), counts("5 A 2 2"), counts("8 10"), counts("6 K 7")]
    exchange(Rules(exchange=(2, 1)), hands, prev_places, lowest_give_back)
    # Scum's 2 best: 2 2; the President then holds 3 4 9 2 2 and gives back 3 4
    assert hands[0] == counts("9 2 2")
    assert hands[1] == counts("3 4 5 A")
    # Vice-Scum's best: K; the Vice-President holds 8 10 K and gives back 8
    assert hands[2] == counts("10 K")
    assert hands[3] == counts("6 7 8")


def test_exchange_pair_two_skipped_with_three_players():
    """With 3 players only pair 1 takes part (2·2 > 3): the Scum gives 2 cards."""
    prev_places = [3, 1, 2]  # player 1 President, player 0 Scum, player 2 Neutral
    hands = [counts("4 Q A"), counts("3 5 6"), counts("7 8")]
    exchange(Rules(players=3, exchange=(2, 1)), hands, prev_places, lowest_give_back)
    assert hands[1] == counts("6 Q A")  # received Q A, gave back 3 5
    assert hands[0] == counts("3 4 5")
    assert hands[2] == counts("7 8")  # the Neutral takes no part


def test_exchange_gives_jokers_first_and_may_give_received_cards_back():
    """Jokers are the best cards; the better player may hand back what he just got."""
    prev_places = [2, 1, 3]  # player 1 President, player 2 Scum
    hands = [counts("9"), counts("3 3"), counts("5 JK 2")]
    given_back = []

    def give_back_the_joker(who, hand, k):
        given_back.append((who, list(hand), k))
        return [parse_card("JK")]

    exchange(Rules(players=3, jokers=2, exchange=(1,)), hands, prev_places, give_back_the_joker)
    assert given_back == [(1, counts("3 3 JK"), 1)]  # he held the joker when choosing
    assert hands[1] == counts("3 3")
    assert hands[2] == counts("5 2 JK")


def test_exchange_empty_and_zero_items_take_no_cards():
    prev_places = [1, 4, 2, 3]
    start = [counts("3 4"), counts("A 2"), counts("8 10"), counts("6 K")]
    hands = [list(h) for h in start]
    exchange(Rules(exchange=()), hands, prev_places, lowest_give_back)
    assert hands == start
    exchange(Rules(exchange=(0, 1)), hands, prev_places, lowest_give_back)
    assert hands[0:2] == start[0:2]  # pair 1 exchanges 0 cards
    assert hands[2] == counts("10 K")  # pair 2 still exchanges one card
    assert hands[3] == counts("6 8")


# ---------------------------------------------------------------- seating, dealer, opener

# After a round: player 0 came 3rd, player 1 1st, player 2 4th (Scum), player 3 2nd.
PREV = [3, 1, 4, 2]


def test_next_seating_reseats_in_finishing_order():
    rules = Rules(reseat=True)
    assert next_seating(rules, [0, 1, 2, 3], PREV) == [1, 3, 0, 2]


def test_next_seating_without_reseat_keeps_the_seats():
    assert next_seating(Rules(reseat=False), [0, 1, 2, 3], PREV) == [0, 1, 2, 3]


@pytest.mark.parametrize(
    ("dealer", "seating", "prev_dealer", "expected"),
    [
        ("scum", [0, 1, 2, 3], 0, 2),  # the Scum, player 2, sits at position 2
        ("president", [0, 1, 2, 3], 0, 1),  # player 1
        ("rotate", [0, 1, 2, 3], 3, 0),  # left of position 3 wraps to 0
        # reseated [1, 3, 0, 2]: the Scum (player 2) is at position 3
        ("scum", [1, 3, 0, 2], 0, 3),
        ("president", [1, 3, 0, 2], 0, 0),
        # rotate, read in the new seating: player 0 now sits at 2, so position 3 deals
        ("rotate", [1, 3, 0, 2], 0, 3),
    ],
)
def test_next_dealer(dealer, seating, prev_dealer, expected):
    rules = Rules(dealer=dealer, reseat=seating != [0, 1, 2, 3])
    assert next_dealer(rules, seating, PREV, prev_dealer) == expected


@pytest.mark.parametrize(
    ("opener", "seating", "dealer", "expected"),
    [
        ("scum", [0, 1, 2, 3], 0, 2),
        ("president", [0, 1, 2, 3], 0, 1),
        ("left_of_dealer", [0, 1, 2, 3], 3, 0),
        ("left_of_dealer", [0, 1, 2, 3], 1, 2),
        ("scum", [1, 3, 0, 2], 0, 3),
        ("president", [1, 3, 0, 2], 0, 0),
    ],
)
def test_opening_position(opener, seating, dealer, expected):
    assert opening_position(Rules(opener=opener), seating, PREV, dealer) == expected


# ---------------------------------------------------------------- end of a match


@pytest.mark.parametrize(
    ("totals", "reached", "over"),
    [
        ([11, 5, 3, 0], True, True),  # target reached, alone in the lead
        ([11, 11, 2, 0], True, False),  # shared best total: the match goes on
        ([9, 8, 2, 0], True, True),  # reached earlier; now leads alone below the target
        ([9, 8, 2, 0], False, False),  # nobody has reached the target yet
        ([12, 12, 12, 3], True, False),
    ],
)
def test_match_over(totals, reached, over):
    assert match_over(totals, reached) is over
