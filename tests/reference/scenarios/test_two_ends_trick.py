"""``two_ends_trick``: a 2 (a real one, not a joker) ends the trick at once, also going
out and during a revolution. Hand-worked scenarios (see :mod:`tests.reference.scenarios`)."""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_two_ends_trick_on_a_two_played_on_a_single():
    check(
        {"two_ends_trick": True},
        ["5 9", "2 4", "8 K"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 2",  # ends the trick at once, nobody is asked
            "trick_end -> 1",
            "1: 4",
            "out 1 #1",
            "2: 8",
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_two_ends_trick_on_a_led_pair_of_twos_going_out():
    check(
        {"two_ends_trick": True},
        ["2 2", "5 6", "4 7"],
        leader=0,
        script=[],
        expected=[
            "0: 2 2",
            "out 0 #1",
            "trick_end -> 1",  # ends at once; owner out: next holder clockwise
            "1: 5",
            "2: 7",
            "1: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_two_ends_trick_on_regles_jeu_no_equal_two():
    """regles-jeu: a led 2 ends the trick, nobody may even equal it."""
    check(
        "regles-jeu",
        ["2 9", "2 5", "7 8"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "trick_end -> 0",  # 1's 2 would be an equal play, but nobody is asked
            "0: 9",
            "out 0 #1",
            "1: 2",
            "trick_end -> 1",  # no skip: the trick ended at once
            "1: 5",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_two_ends_trick_off_two_ends_only_after_passes():
    check(
        {"two_ends_trick": False},
        ["5 9", "2 4", "8 K"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 2",
            "2: pass",
            "0: pass",
            "trick_end -> 1",
            "1: 4",
            "out 1 #1",
            "2: 8",
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_two_ends_trick_off_a_joker_beats_the_two():
    check(
        {"two_ends_trick": False, "jokers": 2},
        ["2 5", "JK 6", "4 7"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: JK",
            "2: pass",
            "0: pass",
            "trick_end -> 1",
            "1: 6",
            "out 1 #1",
            "2: 7",
            "0: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_two_ends_trick_off_an_equal_two_skips():
    check(
        {"two_ends_trick": False, "equal_rank": "skip"},
        ["2 5", "2 6", "4 7"],
        leader=0,
        script=["0: 2"],
        expected=[
            "0: 2",
            "1: 2",
            "2: skip",
            "0: pass",
            "trick_end -> 1",
            "1: 6",
            "out 1 #1",
            "2: 7",
            "0: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_two_ends_trick_during_a_revolution():
    check(
        {"two_ends_trick": True, "revolution": True},
        ["8 8 8 8 2 5", "3 K", "4 9"],
        leader=0,
        script=["0: 8 8 8 8"],
        expected=[
            "0: 8 8 8 8",  # revolution from the next play on
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 2",  # now the weakest rank; still ends the trick at once
            "trick_end -> 0",
            "0: 5",
            "out 0 #1",
            "1: 3",  # reversed order: 3 beats 5, K does not
            "2: pass",  # nothing beats a 3 in a revolution
            "trick_end -> 1",
            "1: K",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_two_ends_trick_a_joker_does_not_end_the_trick():
    """READINGS: two_ends_trick applies to real 2s only."""
    check(
        {"two_ends_trick": True, "jokers": 2},
        ["JK 5", "6 7", "4 8"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 6",
            "2: 8",
            "0: JK",
            "out 0 #1",
            "1: pass",  # asked: the joker did not end the trick
            "2: pass",
            "trick_end -> 1",
            "1: 7",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )
