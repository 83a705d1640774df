"""``revolution``: a four reverses the order of 3…2 from the next play on (jokers stay
on top), a second four reverses it back; with transparent threes. Hand-worked scenarios
(see :mod:`tests.reference.scenarios`)."""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_revolution_reverses_the_order_after_the_four():
    check(
        {"revolution": True},
        ["9 9 9 9 4 K", "5 Q", "6 J"],
        leader=0,
        script=["0: 9 9 9 9"],
        expected=[
            "0: 9 9 9 9",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: K",  # lowest: weakest under the order in force
            "1: Q",  # the weakest rank that beats K in reverse
            "2: J",
            "0: 4",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_revolution_second_four_reverses_back():
    check(
        {"revolution": True},
        ["5 5 5 5 9", "4 4 4 4 K", "8 A"],
        leader=0,
        script=["0: 5 5 5 5"],
        expected=[
            "0: 5 5 5 5",
            "1: 4 4 4 4",  # in reverse 4 beats 5
            "2: pass",
            "0: pass",
            "trick_end -> 1",
            "1: K",
            "out 1 #1",
            "2: A",  # normal order again: A beats K (8 does not)
            "0: pass",
            "trick_end -> 2",
            "2: 8",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_revolution_jokers_stay_on_top():
    check(
        {"revolution": True, "jokers": 2},
        ["6 6 6 6 3", "JK 4", "5 7"],
        leader=0,
        script=["0: 6 6 6 6"],
        expected=[
            "0: 6 6 6 6",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 3",
            "out 0 #1",
            "1: JK",  # beats the 3 even in reverse
            "2: pass",
            "trick_end -> 1",
            "1: 4",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_revolution_with_transparent_threes():
    """Threes stay transparent during a revolution: they take the rank they cover."""
    check(
        {"revolution": True, "transparent_threes": True},
        ["7 7 7 7 9", "3 8", "5 K"],
        leader=0,
        script=["0: 7 7 7 7", "1: pass", "2: pass", "0: 9", "1: 3"],
        expected=[
            "0: 7 7 7 7",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #1",
            "1: 3",  # takes 9 (as a plain 3 nothing would beat it in reverse)
            "2: 5",  # in reverse 5 beats 9; K does not
            "1: pass",  # 8 is weaker than 5 in reverse
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_revolution_off_a_four_changes_nothing():
    check(
        {"revolution": False},
        ["9 9 9 9 4 K", "5 Q", "6 J"],
        leader=0,
        script=["0: 9 9 9 9"],
        expected=[
            "0: 9 9 9 9",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 4",
            "1: 5",
            "2: 6",
            "0: K",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: Q",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_revolution_off_three_stays_weakest():
    check(
        {"revolution": False},
        ["8 8 8 8 3", "2 4", "5 6"],
        leader=0,
        script=["0: 8 8 8 8"],
        expected=[
            "0: 8 8 8 8",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 3",
            "out 0 #1",
            "1: 4",
            "2: 5",
            "1: 2",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_revolution_lowest_counts_transparent_threes_as_rank_three():
    """In a revolution the 3 is the strongest rank, so lowest prefers the 8 to a transparent 3."""
    check(
        {"revolution": True, "transparent_threes": True},
        ["7 7 7 7 9 Q", "3 8", "5 K"],
        leader=0,
        script=["0: 7 7 7 7"],
        expected=[
            "0: 7 7 7 7",
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: Q",  # weaker than 9 in reverse
            "1: 8",  # legal: 8 and a transparent 3; the 3 is the strongest rank now
            "2: 5",  # 5 beats 8 in reverse, K does not
            "0: pass",  # 9 is weaker than 5 in reverse
            "1: 3",  # transparent: takes the 5
            "out 1 #1",
            "2: pass",  # K does not beat 5 in reverse
            "0: pass",
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_revolution_four_transparent_threes_flip_the_order_back():
    """Four threes on four 9s are transparent and, being a four, flip the order back."""
    check(
        {"revolution": True, "transparent_threes": True},
        ["9 9 9 9 5", "3 3 3 3 8", "K K K K 4"],
        leader=0,
        script=["0: 9 9 9 9"],
        expected=[
            "0: 9 9 9 9",  # reversed from the next play on
            "1: 3 3 3 3",  # transparent: takes 9; flips back to the normal order
            "2: K K K K",  # beats four 9s in the normal order; reversed again
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #1",
            "0: pass",  # in reverse 5 does not beat 4
            "1: pass",  # nor does 8
            "trick_end -> 0",
            "0: 5",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )
