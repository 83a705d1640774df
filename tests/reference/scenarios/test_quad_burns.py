"""``quad_burns``: a four of a kind may be played on any top and ends the trick at once;
without it a four is an ordinary combination. Hand-worked scenarios (see
:mod:`tests.reference.scenarios`)."""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_quad_burns_four_on_a_single_burns():
    check(
        {"quad_burns": True},
        ["K 4", "6 6 6 6 5", "9 A"],
        leader=0,
        script=["0: K"],
        expected=[
            "0: K",
            "1: 6 6 6 6",  # the only legal play on the K
            "trick_end -> 1",
            "1: 5",
            "out 1 #1",
            "2: 9",
            "0: pass",
            "trick_end -> 2",
            "2: A",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_quad_burns_led_four_burns():
    check(
        {"quad_burns": True},
        ["7 7 7 7 Q", "5 K", "4 A"],
        leader=0,
        script=[],
        expected=[
            "0: 7 7 7 7",
            "trick_end -> 0",  # also when it leads the trick
            "0: Q",
            "out 0 #1",
            "1: K",
            "2: A",
            "1: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_quad_burns_four_on_a_pair_going_out():
    check(
        {"quad_burns": True},
        ["5 5 9", "J J J J", "6 6 K"],
        leader=0,
        script=["0: 5 5", "1: J J J J"],
        expected=[
            "0: 5 5",
            "1: J J J J",
            "out 1 #1",
            "trick_end -> 2",  # burnt; owner out: next holder clockwise
            "2: 6 6",
            "0: pass",
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_quad_burns_off_a_four_is_not_played_on_a_single():
    check(
        {"quad_burns": False},
        ["K 4", "6 6 6 6 5", "9 A"],
        leader=0,
        script=["0: K"],
        expected=[
            "0: K",
            "1: pass",
            "2: A",
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 9",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 4",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_quad_burns_off_a_led_four_waits_for_passes():
    check(
        {"quad_burns": False},
        ["7 7 7 7 Q", "5 K", "4 A"],
        leader=0,
        script=[],
        expected=[
            "0: 7 7 7 7",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: Q",
            "out 0 #1",
            "1: K",
            "2: A",
            "1: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_quad_burns_four_threes_are_a_four_of_a_kind():
    check(
        {"quad_burns": True, "transparent_threes": True},
        ["K 6", "3 3 3 3 9", "7 A"],
        leader=0,
        script=["0: K", "1: 3 3 3 3"],
        expected=[
            "0: K",
            "1: 3 3 3 3",
            "trick_end -> 1",
            "1: 9",
            "out 1 #1",
            "2: A",
            "0: pass",
            "trick_end -> 2",
            "2: 7",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_quad_burns_with_revolution_burns_and_reverses():
    check(
        {"quad_burns": True, "revolution": True},
        ["9 9 9 9 K 4", "5 Q", "6 J"],
        leader=0,
        script=["0: 9 9 9 9"],
        expected=[
            "0: 9 9 9 9",
            "trick_end -> 0",
            "0: K",  # reversed order: K is weaker than 4
            "1: Q",
            "2: J",
            "0: 4",
            "out 0 #1",
            "1: pass",  # 5 is weaker than 4 in a revolution
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_quad_burns_four_low_cards_burn_a_joker():
    """A four may be played on any top, whatever its size and rank."""
    check(
        {"quad_burns": True, "jokers": 2},
        ["JK 9", "4 4 4 4 8", "5 K"],
        leader=0,
        script=["0: JK"],
        expected=[
            "0: JK",
            "1: 4 4 4 4",  # the only legal play on the joker
            "trick_end -> 1",
            "1: 8",
            "out 1 #1",
            "2: K",
            "0: pass",  # 9 < K
            "trick_end -> 2",
            "2: 5",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )
