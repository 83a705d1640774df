"""Match-level helpers of ``simulator.reference.match``, hand-worked from docs/rules.md and docs/READINGS.md.

Roles by place, the card exchange (forced best cards, then a give-back of choice), the
reseating, the dealer and the opener of round 2 on, points and the end of a match.
Players are named by their starting seat; ``seating[pos]`` is the player at position pos.

The exchange, the dealer and the opener have kernel twins in the compiled match loop
(:mod:`simulator.matchloop.matches`); each scenario that the kernel can play (a give-back
as ``lowest`` gives) runs on both engines and must give the same hand-worked result.
"""

from __future__ import annotations

import numpy as np
import pytest

from simulator.kernel.knowledge import H_SIZE, forget
from simulator.kernel.layout import MAX_PLAYERS, rules_array
from simulator.matchloop import matches
from simulator.reference.exchange import exchange
from simulator.reference.match import (
    match_over,
    next_dealer,
    next_seating,
    opening_position,
)
from simulator.rules.cards import NUM_RANKS, counts_from_cards, parse_card
from simulator.rules.options import Rules
from simulator.rules.roles import role_of
from strategies.adapter import hand_mask
from strategies.lowest import Lowest
from strategies.specs import LOWEST, NPARAMS


def counts(text: str) -> list[int]:
    """Rank counts of a readable hand ``"3 5 K"``."""
    return counts_from_cards(parse_card(c) for c in text.split())


def lowest_give_back(who: int, hand: list[int], k: int, opens: bool = False) -> list[int]:
    """The rule book's ``lowest``: the k weakest cards (normal order) of the hand it holds
    (whether it holds the 3 of clubs that opens the round, ``opens``, changes nothing)."""
    return Lowest().give_back(hand, k, None)


# ---------------------------------------------------------------- the kernel's twins


def counts_of_mask(h: int) -> list[int]:
    """Rank counts of a kernel hand bitmask (bit ``16*level + rank``)."""
    return [sum((h >> (16 * level + rank)) & 1 for level in range(4)) for rank in range(NUM_RANKS)]


def positions(seating) -> np.ndarray:
    """The kernel's ``pos_of[player]`` of a seating (``seating[pos] = player``)."""
    pos_of = np.zeros(MAX_PLAYERS, dtype=np.int64)
    for pos, player in enumerate(seating):
        pos_of[player] = pos
    return pos_of


def places_table(prev_places) -> np.ndarray:
    """The kernel's ``by_place[place] = player``."""
    by_place = np.zeros(MAX_PLAYERS + 1, dtype=np.int64)
    for player, place in enumerate(prev_places):
        by_place[place] = player
    return by_place


def kernel_exchange(
    rules: Rules, hands: list[list[int]], prev_places, give_back, club: int = -1
) -> int:
    """:func:`simulator.matchloop.matches.exchange` in place on ``hands`` (seat = position),
    every better player giving back as the kernel's ``lowest`` does; returns where the 3 of
    clubs held by position ``club`` is after it (-1: not followed, clubs_three_opens off)."""
    assert give_back is lowest_give_back, "the kernel gives back through a strategy id"
    n = len(hands)
    H = np.zeros(H_SIZE, dtype=np.uint64)
    forget(H)
    for player, hand in enumerate(hands):
        H[player] = hand_mask(hand)
    sids = np.full(MAX_PLAYERS, LOWEST, dtype=np.int64)
    params = np.zeros((MAX_PLAYERS, NPARAMS), dtype=np.float64)
    rs = np.zeros(3, dtype=np.uint64)  # the shared stream (lowest draws nothing)
    seat_streams = np.zeros((MAX_PLAYERS, 3), dtype=np.uint64)
    srow = np.full(MAX_PLAYERS, -1, dtype=np.int64)  # everyone on the shared stream
    give = np.zeros(8, dtype=np.int64)
    club = matches.exchange(
        rules_array(rules),
        H,
        positions(range(n)),
        places_table(prev_places),
        sids,
        params,
        rs,
        seat_streams,
        srow,
        give,
        club,
    )
    for player in range(n):
        hands[player][:] = counts_of_mask(int(H[player]))
    return int(club)


def kernel_next_dealer(rules: Rules, seating, prev_places, prev_dealer: int) -> int:
    """:func:`simulator.matchloop.matches.position_after` in the reference's terms."""
    return int(
        matches.position_after(
            rules_array(rules),
            positions(seating),
            places_table(prev_places),
            prev_dealer,
            rules.players,
        )
    )


def kernel_opening_position(rules: Rules, seating, prev_places, dealer: int) -> int:
    """:func:`simulator.matchloop.matches.opener_position` in the reference's terms."""
    return int(
        matches.opener_position(
            rules_array(rules), positions(seating), places_table(prev_places), dealer, rules.players
        )
    )


ENGINES = pytest.mark.parametrize("engine", ["reference", "kernel"])
EXCHANGE = {"reference": exchange, "kernel": kernel_exchange}
DEALER = {"reference": next_dealer, "kernel": kernel_next_dealer}
OPENER = {"reference": opening_position, "kernel": kernel_opening_position}


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


@ENGINES
def test_exchange_two_one_with_four_players(engine):
    """[2, 1]: the Scum gives his 2 best cards to the President, who gives back 2;
    then the Vice-Scum gives his best card to the Vice-President, who gives back 1."""
    # player 0 President, 1 Scum, 2 Vice-President, 3 Vice-Scum
    prev_places = [1, 4, 2, 3]
    hands = [counts("3 4 9"), counts("5 A 2 2"), counts("8 10"), counts("6 K 7")]
    EXCHANGE[engine](Rules(exchange=(2, 1)), hands, prev_places, lowest_give_back)
    # Scum's 2 best: 2 2; the President then holds 3 4 9 2 2 and gives back 3 4
    assert hands[0] == counts("9 2 2")
    assert hands[1] == counts("3 4 5 A")
    # Vice-Scum's best: K; the Vice-President holds 8 10 K and gives back 8
    assert hands[2] == counts("10 K")
    assert hands[3] == counts("6 7 8")


@ENGINES
def test_exchange_pair_two_skipped_with_three_players(engine):
    """With 3 players only pair 1 takes part (2·2 > 3): the Scum gives 2 cards."""
    prev_places = [3, 1, 2]  # player 1 President, player 0 Scum, player 2 Neutral
    hands = [counts("4 Q A"), counts("3 5 6"), counts("7 8")]
    EXCHANGE[engine](Rules(players=3, exchange=(2, 1)), hands, prev_places, lowest_give_back)
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


@ENGINES
def test_exchange_empty_and_zero_items_take_no_cards(engine):
    prev_places = [1, 4, 2, 3]
    start = [counts("3 4"), counts("A 2"), counts("8 10"), counts("6 K")]
    hands = [list(h) for h in start]
    EXCHANGE[engine](Rules(exchange=()), hands, prev_places, lowest_give_back)
    assert hands == start
    EXCHANGE[engine](Rules(exchange=(0, 1)), hands, prev_places, lowest_give_back)
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
@ENGINES
def test_next_dealer(engine, dealer, seating, prev_dealer, expected):
    rules = Rules(dealer=dealer, reseat=seating != [0, 1, 2, 3])
    assert DEALER[engine](rules, seating, PREV, prev_dealer) == expected


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
@ENGINES
def test_opening_position(engine, opener, seating, dealer, expected):
    assert OPENER[engine](Rules(opener=opener), seating, PREV, dealer) == expected


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
