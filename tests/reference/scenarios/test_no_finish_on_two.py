"""``no_finish_on_two``: going out on a 2 or a joker takes the worst free place (3s that
took a 2's rank go out normally); without it, the best. Hand-worked scenarios (see
:mod:`tests.reference.scenarios`)."""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_no_finish_on_two_last_two_takes_the_worst_place():
    check(
        {"no_finish_on_two": True},
        ["2", "5 9", "4 8"],
        leader=0,
        script=[],
        expected=[
            "0: 2",
            "out 0 #3",  # goes out, but last
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "2: 8",
            "1: 9",
            "out 1 #1",
            "round_end 3 1 2",
        ],
    )


def test_no_finish_on_two_joker_then_two_take_last_then_second_to_last():
    check(
        {"no_finish_on_two": True, "jokers": 2},
        ["JK", "5 9", "2", "6 7"],
        leader=0,
        script=[],
        expected=[
            "0: JK",
            "out 0 #4",  # jokers count like 2s
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 5",
            "2: 2",
            "out 2 #3",  # second such player: second-to-last
            "3: pass",
            "1: pass",
            "trick_end -> 3",
            "3: 6",
            "1: 9",
            "out 1 #1",
            "round_end 4 1 3 2",
        ],
    )


def test_no_finish_on_two_threes_that_took_a_two_go_out_normally():
    check(
        {"no_finish_on_two": True, "transparent_threes": True},
        ["2 9", "3", "4 5"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: 3",  # takes the rank 2
            "out 1 #1",  # its cards are a 3: the best place
            "2: pass",
            "0: pass",
            "trick_end -> 2",
            "2: 4",
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_no_finish_on_two_during_a_revolution():
    check(
        {"no_finish_on_two": True, "revolution": True},
        ["7 7 7 7 2", "5 8", "4 9"],
        leader=0,
        script=["0: 7 7 7 7"],
        expected=[
            "0: 7 7 7 7",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 2",  # the weakest rank in reverse, still a 2
            "out 0 #3",
            "1: 8",  # weakest rank above 2 in reverse
            "2: 4",  # 4 beats 8 in reverse, 9 does not
            "1: pass",
            "trick_end -> 2",
            "2: 9",
            "out 2 #1",
            "round_end 3 2 1",
        ],
    )


def test_no_finish_on_two_off_last_two_takes_the_best_place():
    check(
        {"no_finish_on_two": False},
        ["2", "5 9", "4 8"],
        leader=0,
        script=[],
        expected=[
            "0: 2",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "2: 8",
            "1: 9",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_no_finish_on_two_off_last_joker_takes_the_best_place():
    check(
        {"no_finish_on_two": False, "jokers": 2},
        ["JK", "5 9", "4 8"],
        leader=0,
        script=[],
        expected=[
            "0: JK",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "2: 8",
            "1: 9",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )
