"""The 3 of clubs (``clubs_three_opens``, docs/rules.md), hand-worked from docs/rules.md and
docs/READINGS.md: at match level, and in replays (which name their leader).

The 3 of clubs is card 0 of the unshuffled deck (the deck is ordered by rank index, so
it is a 3); the shuffle never depends on suits. In the exchange cards carry no suit: a
player keeps the 3 of clubs while he keeps a 3, and it moves with his last 3, forced
gift or give-back alike. Its holder leads round 1 (``first_round``) or every round, the
holder after the exchange (``every_round``). Players are named by their starting seat.
"""

from __future__ import annotations

import pytest

from simulator.reference.exchange import exchange
from simulator.reference.match import play_match, shuffle_deal
from simulator.reference.rng import Stream
from simulator.rules.cards import THREE, counts_from_cards, parse_card
from simulator.rules.options import Rules
from strategies import registry
from tests.reference.scenarios.notation import check
from tests.reference.scenarios.test_match import kernel_exchange, lowest_give_back


def counts(text: str) -> list[int]:
    """Rank counts of a readable hand ``"3 5 K"``."""
    return counts_from_cards(parse_card(c) for c in text.split())


ENGINES = pytest.mark.parametrize(
    "exchange", [exchange, kernel_exchange], ids=["reference", "kernel"]
)

# player 0 President, 1 Scum, 2 Vice-President, 3 Vice-Scum
PREV = [1, 4, 2, 3]


@ENGINES
def test_the_president_gives_back_his_last_three_and_the_club_goes_with_it(exchange):
    hands = [counts("3 9 10"), counts("5 6 K A"), counts("8 J"), counts("7 Q")]
    club = exchange(Rules(exchange=(2, 1)), hands, PREV, lowest_give_back, club=0)
    # the Scum gives A K; the President, holding 3 9 10 K A, gives back 3 9: his only 3
    assert hands[0] == counts("10 K A")
    assert hands[1] == counts("3 5 6 9")
    assert club == 1


@ENGINES
def test_giving_back_some_but_not_all_threes_keeps_the_club(exchange):
    hands = [counts("3 3 3 9 Q"), counts("5 6 K A"), counts("8 J"), counts("7 Q")]
    club = exchange(Rules(exchange=(2, 1)), hands, PREV, lowest_give_back, club=0)
    assert hands[0] == counts("3 9 Q K A")  # two 3s given back, one kept
    assert club == 0


def test_a_forced_gift_of_the_last_three_moves_the_club_and_it_can_come_back():
    """The Scum's 2 best cards are his 4 and his only 3: the club goes to the President,
    whose 2 weakest cards, given back, are that 3 and that 4: it comes back."""
    hands = [counts("7 8 9"), counts("3 4"), counts("10 J"), counts("5 Q")]
    seen = []

    def give_back(who, hand, k, opens=False):
        seen.append(opens)
        return lowest_give_back(who, hand, k)

    rules = Rules(exchange=(2,), clubs_three_opens="every_round")
    club = exchange(rules, hands, PREV, give_back, club=1)
    assert seen == [True]  # he gave back holding the 3 of clubs, which opens the round
    assert hands[1] == counts("3 4")
    assert club == 1
    hands = [counts("7 8 9"), counts("3 4"), counts("10 J"), counts("5 Q")]
    assert kernel_exchange(rules, hands, PREV, lowest_give_back, club=1) == 1
    assert hands[1] == counts("3 4")


@ENGINES
def test_the_club_travels_through_both_pairs(exchange):
    """Pair 1 gives it to the Scum, pair 2 has nothing to do with it; then a second
    exchange case where the Vice-President gives it to the Vice-Scum."""
    hands = [counts("3 9 10"), counts("5 6 K A"), counts("3 8 J"), counts("7 Q")]
    assert exchange(Rules(exchange=(2, 1)), hands, PREV, lowest_give_back, club=0) == 1
    hands = [counts("9 10"), counts("5 6 K A"), counts("3 8 J"), counts("7 Q")]
    # pair 2: the Vice-Scum gives his Q; the Vice-President gives back his weakest, the 3
    assert exchange(Rules(exchange=(2, 1)), hands, PREV, lowest_give_back, club=2) == 3
    assert hands[3] == counts("3 7")


@ENGINES
def test_an_exchange_that_does_not_follow_the_club_says_so(exchange):
    hands = [counts("3 9 10"), counts("5 6 K A"), counts("8 J"), counts("7 Q")]
    assert exchange(Rules(exchange=(2, 1)), hands, PREV, lowest_give_back) == -1


@pytest.mark.parametrize("players", [3, 4, 5, 8])
@pytest.mark.parametrize("seed", range(5))
def test_the_club_is_card_zero_of_the_deck_followed_through_the_shuffle(players, seed):
    """A labelled deck shuffled with the same draws: card 0's place gives its holder."""
    rules = Rules(players=players)
    dealer = seed % players
    hands, _, club = shuffle_deal(rules, Stream.of(seed, 0, 1), dealer)
    labels = list(range(52))
    stream = Stream.of(seed, 0, 1)
    for i in range(51):
        j = i + stream.below(52 - i)
        labels[i], labels[j] = labels[j], labels[i]
    assert club == (dealer + 1 + labels.index(0)) % players
    assert hands[club][THREE] >= 1


def _leaders(rules: Rules, seed: int, match: int) -> list[tuple[int, int, int, int]]:
    """(dealer, leader, club holder after the exchange, Scum of the previous round) by round."""
    players = [registry.make("lowest") for _ in range(rules.players)]
    record = play_match(rules, players, seed, match, rounds=4)
    out = []
    prev_scum = -1
    for rr in record.rounds:
        out.append((rr.dealer, rr.leader, rr.club, prev_scum))
        prev_scum = rr.places.index(rules.players)
    return out


@pytest.mark.parametrize("match", range(6))
def test_who_leads_each_round_under_each_value(match):
    base = Rules(players=5)
    off = _leaders(base, 3, match)
    first = _leaders(base.with_options(clubs_three_opens="first_round"), 3, match)
    every = _leaders(base.with_options(clubs_three_opens="every_round"), 3, match)
    dealer0 = off[0][0]
    assert off[0][1] == (dealer0 + 1) % 5  # round 1: left of the dealer
    assert [r[1] for r in off[1:]] == [r[3] for r in off[1:]]  # then the Scum (opener)
    assert first[0][0] == every[0][0] == dealer0  # the dealer rules do not change
    assert first[0][1] == first[0][2] == every[0][1]  # the club's holder opens round 1
    assert [r[1] for r in first[1:]] == [r[3] for r in first[1:]]  # then opener decides
    assert all(r[1] == r[2] for r in every)  # every round: the holder after the exchange


@pytest.mark.parametrize("suited", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_the_three_of_diamonds_is_card_one_and_its_holder_leads(suited, seed):
    """``opening_three = "diamonds"``: card 1 of the deck (the 3 of diamonds) is followed
    instead, through the shuffle and, under rules that read suits, card by card through the
    exchange: its holder after the exchange leads every round."""
    rules = Rules(players=4, clubs_three_opens="every_round", opening_three="diamonds")
    if suited:
        rules = rules.with_options(suit_lock="suits")
    hands, _, club = shuffle_deal(rules, Stream.of(seed, 0, 1), seed % 4)
    clubs, _, club_of_clubs = shuffle_deal(Rules(players=4), Stream.of(seed, 0, 1), seed % 4)
    assert hands == clubs  # the same deal; only the card followed differs
    labels = list(range(52))
    stream = Stream.of(seed, 0, 1)
    for i in range(51):
        j = i + stream.below(52 - i)
        labels[i], labels[j] = labels[j], labels[i]
    assert club == (seed % 4 + 1 + labels.index(1)) % 4
    assert club_of_clubs == (seed % 4 + 1 + labels.index(0)) % 4
    leaders = _leaders(rules, seed, 1)
    assert all(leader == holder for _, leader, holder, _ in leaders)


def test_the_deal_is_the_same_whatever_the_option():
    base = Rules(players=4)
    players = [registry.make("lowest") for _ in range(4)]
    dealt = [
        play_match(base.with_options(clubs_three_opens=v), players, 8, 2, rounds=1).rounds[0].dealt
        for v in ("off", "first_round", "every_round")
    ]
    assert dealt[0] == dealt[1] == dealt[2]


@pytest.mark.parametrize("value", ["off", "first_round", "every_round"])
def test_a_replay_names_its_leader_whatever_clubs_three_opens_says(value):
    check(
        {"clubs_three_opens": value},
        ["5 9", "3C 7", "6 8"],
        leader=2,
        script=[],
        expected=["2: 6", "0: 9", "1: pass", "2: pass", "trick_end -> 0", "0: 5", "out 0 #1",
                  "1: 7", "2: 8", "out 2 #2", "round_end 1 3 2"],
    )  # fmt: skip
