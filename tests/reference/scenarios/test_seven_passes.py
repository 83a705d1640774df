"""``seven_passes`` and ``ten_discards`` (docs/rules.md): a play of 7s obliges its player to
give as many cards of his choice as 7s to the next player holding cards; a play of 10s,
to discard as many, face up. Hand-worked scenarios (see :mod:`tests.reference.scenarios`).

Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out,
and ``lowest`` hands over its weakest cards (normal order).
"""

from __future__ import annotations

import pytest

from simulator.apps.replay import GameError, parse_game, replay
from simulator.reference.moves import Move
from simulator.reference.round import IllegalMove, Round
from simulator.rules.cards import SEVEN, TEN, counts_from_cards, parse_card
from simulator.rules.options import Rules
from tests.reference.scenarios.notation import check, cli_replay, game

SEVENS = {"seven_passes": True}
TENS = {"ten_discards": True}


def hand(text: str) -> list[int]:
    return counts_from_cards([parse_card(card) for card in text.split()])


# seat 0's pair of 7s hands its 3 and 4 to seat 1 (the first two scenarios)
PAIR_OF_SEVENS = [
    "0: 7 7",
    "0 gives 1: 3 4",
    "1: pass",  # 3 4 5 6: no pair
    "2: pass",
    "3: pass",
    "trick_end -> 0",
    "0: K",
    "out 0 #1",
    "1: pass",
    "2: pass",
    "3: pass",
    "trick_end -> 1",
    "1: 3",
    "2: 8",
    "3: 10",
    "1: pass",
    "2: pass",
    "trick_end -> 3",
    "3: J",
    "out 3 #2",
    "1: pass",
    "2: pass",
    "trick_end -> 1",
    "1: 4",
    "2: 9",
    "out 2 #3",
    "round_end 1 4 3 2",
]


def test_a_pair_of_sevens_gives_two_cards_to_the_next_player():
    check(SEVENS, ["7 7 3 4 K", "5 6", "8 9", "10 J"], 0, ["0: 7 7 give 3 4"], PAIR_OF_SEVENS)


def test_the_strategy_chooses_the_cards_when_the_script_does_not():
    """``lowest`` gives its two weakest cards, the 3 and the 4, as the script did above."""
    check(SEVENS, ["7 7 4 3 K", "5 6", "8 9", "10 J"], 0, ["0: 7 7"], PAIR_OF_SEVENS)


def test_the_cards_go_past_a_player_who_is_out():
    """Seat 1 is out: the 7's card goes to seat 2, the next player holding cards."""
    check(
        SEVENS,
        ["7 3 Q", "4", "5 K", "6 A"],
        leader=1,
        script=["1: 4", "2: 5", "3: 6", "0: 7 give 3"],
        expected=[
            "1: 4",
            "out 1 #1",
            "2: 5",
            "3: 6",
            "0: 7",
            "0 gives 2: 3",
            "2: K",
            "3: A",
            "out 3 #2",
            "0: pass",
            "2: pass",
            "trick_end -> 0",
            "0: Q",
            "out 0 #3",
            "round_end 3 1 4 2",
        ],
    )


def test_giving_away_the_last_cards_goes_out():
    """Two 7s owe two cards, but one is left: he gives it, and takes the first place."""
    check(
        SEVENS,
        ["7 7 3", "8 8 9", "4 5", "6 K"],
        leader=0,
        script=["0: 7 7 give 3"],
        expected=[
            "0: 7 7",
            "0 gives 1: 3",
            "out 0 #1",
            "1: 8 8",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 3",
            "2: 4",
            "3: 6",
            "1: 9",
            "out 1 #2",
            "2: pass",
            "3: K",
            "out 3 #3",
            "round_end 1 2 4 3",
        ],
    )


def test_going_out_by_a_gift_makes_the_capital_fall():
    check(
        {**SEVENS, "capital_falls": True},
        ["7 3", "8 9", "4 5 6", "10 J Q"],
        leader=0,
        script=["0: 7 give 3"],
        roles=["vice_president", "vice_scum", "scum", "president"],
        expected=[
            "0: 7",
            "0 gives 1: 3",
            "out 0 #1",
            "falls 3 #4",
            "1: 8",
            "2: pass",
            "trick_end -> 1",
            "1: 3",
            "2: 4",
            "1: 9",
            "out 1 #2",
            "round_end 1 2 3 4",
        ],
    )


def test_a_transparent_three_on_a_seven_gives_nothing():
    """The 3 takes the 7's rank, but it is no 7."""
    check(
        {**SEVENS, "transparent_threes": True},
        ["7 Q", "3 4", "8 9", "10 J"],
        leader=0,
        script=["0: 7 give Q", "1: 3"],
        expected=[
            "0: 7",
            "0 gives 1: Q",
            "out 0 #1",
            "1: 3",
            "2: 8",
            "3: 10",
            "1: Q",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 4",
            "out 1 #2",
            "2: 9",
            "out 2 #3",
            "round_end 1 2 3 4",
        ],
    )


def test_a_pair_of_tens_discards_two_cards():
    check(
        TENS,
        ["10 10 3 4 K", "5 6", "8 9", "7 J"],
        leader=0,
        script=["0: 10 10 give 4 K"],
        expected=[
            "0: 10 10",
            "0 discards: 4 K",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 0",
            "0: 3",
            "out 0 #1",
            "1: 5",
            "2: 8",
            "3: J",
            "1: pass",
            "2: pass",
            "trick_end -> 3",
            "3: 7",
            "out 3 #2",
            "1: pass",
            "2: 9",
            "out 2 #3",
            "round_end 1 4 3 2",
        ],
    )


def test_discarded_cards_count_as_played_given_cards_do_not():
    """Everybody saw the 10's discard: it is in what the next player observes as played.
    Only the giver and the receiver saw the 7's gift: it is not."""
    rules = Rules(players=3).with_options(seven_passes=True, ten_discards=True)
    rnd = Round(rules, [hand("10 7 3 4 5"), hand("8 9"), hand("J Q")], 0)
    rnd.apply(Move(TEN, 1), gift=[0])
    assert rnd.observation().played[0] == 1 and rnd.cards_left == [3, 2, 2]
    rnd = Round(rules, [hand("7 3 4"), hand("8 9"), hand("J Q")], 0)
    rnd.apply(Move(SEVEN, 1), gift=[1])
    obs = rnd.observation()
    assert obs.played[1] == 0 and obs.hand == tuple(hand("4 8 9")) and obs.cards_left == (1, 3, 2)


@pytest.mark.parametrize(
    ("rules", "script", "words"),
    [
        (SEVENS, ["0: 7 7 give 3"], "obliges seat 0 to give 2 cards to seat 1, not 1"),
        (SEVENS, ["0: 7 give K"], "holds 0 cards of rank K after the play, not 1"),
        (SEVENS, ["0: 7 7 give 7 3"], "holds 0 cards of rank 7 after the play, not 1"),
        (TENS, ["0: 3 give 4"], "the play hands over no cards"),
        ({}, ["0: 7 give 3"], "the play hands over no cards"),
        (TENS, ["0: 7 7"], None),  # 7s hand nothing over under ten_discards alone
    ],
)
def test_a_scripted_gift_the_rules_refuse_is_one_line(rules, script, words):
    data = game(rules, ["7 7 3 4", "8 9", "10 J", "Q K"], 0, script)
    if words is None:
        assert replay(parse_game(data))
        return
    with pytest.raises(GameError, match=words):
        replay(parse_game(data))
    result = cli_replay(data)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "move 0 (seat 0 plays" in result.stderr


def test_a_gift_on_a_pass_or_not_a_list_is_refused():
    for raw in ({"seat": 0, "pass": True, "give": ["3"]}, {"seat": 0, "play": ["7"], "give": "3"}):
        data = game(SEVENS, ["7 3", "8 9", "10 J"], 1, ["1: 8"])
        data["moves"] = [{"seat": 1, "play": ["8"]}, raw]
        with pytest.raises(GameError, match='"give"'):
            parse_game(data)


def test_the_engine_refuses_a_gift_of_the_wrong_size():
    rules = Rules(players=3).with_options(seven_passes=True)
    rnd = Round(rules, [hand("7 7 3 4"), hand("8 9"), hand("J Q")], 0)
    assert rnd.owes(Move(SEVEN, 2)) == 2
    with pytest.raises(IllegalMove, match="not 3"):
        rnd.apply(Move(SEVEN, 2), gift=[0, 1, 1])
    assert rnd.hands[0] == hand("7 7 3 4")  # nothing moved
