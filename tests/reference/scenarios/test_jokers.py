"""``jokers``: the two jokers rank above the 2 (never wild), alone or as a pair; with
``jokers = 0`` nothing beats a 2. Hand-worked scenarios (see :mod:`tests.reference.scenarios`)."""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_jokers_single_joker_beats_a_two():
    check(
        {"jokers": 2},
        ["2 5", "JK 4", "6 7"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: JK",  # a joker ranks above the 2; the 4 does not beat it
            "2: pass",
            "0: pass",
            "trick_end -> 1",
            "1: 4",
            "out 1 #1",
            "2: 6",
            "0: pass",  # 5 < 6
            "trick_end -> 2",
            "2: 7",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_jokers_pair_of_jokers_beats_a_pair_of_twos():
    check(
        {"jokers": 2},
        ["2 2 9", "JK JK 3", "A A 4"],
        leader=0,
        script=["0: 2 2"],
        expected=[
            "0: 2 2",
            "1: JK JK",  # the pair of jokers beats any pair
            "2: pass",  # A A < JK JK
            "0: pass",  # a single 9 never beats a pair
            "trick_end -> 1",
            "1: 3",
            "out 1 #1",
            "2: 4",  # weakest single above 3
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_jokers_joker_on_joker_is_an_equal_play():
    """READINGS: jokers on a joker are an equal play (skip)."""
    check(
        {"jokers": 2, "equal_rank": "skip"},
        ["JK 5", "JK 6", "7 8"],
        leader=0,
        script=["0: JK"],
        expected=[
            "0: JK",
            "1: JK",  # equal play: the weakest (only) legal play
            "2: skip",
            "0: pass",  # 5 does not beat the joker
            "trick_end -> 1",  # 2 skipped and 0 passed since 1's joker
            "1: 6",
            "out 1 #1",
            "2: 7",
            "0: pass",
            "trick_end -> 2",
            "2: 8",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_no_jokers_nothing_beats_a_two():
    """jokers = 0 (default): the 2 is the highest card; everyone passes on it."""
    check(
        {"jokers": 0},
        ["2 5", "A 6", "K 7"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 5",
            "out 0 #1",
            "1: 6",
            "2: 7",
            "1: A",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )
