"""``transparent_threes``: 3s played on a top of as many cards take its rank; led, or as a
larger set, they are plain 3s; with ``equal_rank = "skip"``, which rank they equal.
Hand-worked scenarios (see :mod:`tests.reference.scenarios`)."""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_transparent_threes_take_the_rank_they_cover():
    check(
        {"transparent_threes": True},
        ["Q 5", "3 4", "J K"],
        leader=0,
        script=["0: Q", "1: 3"],
        expected=[
            "0: Q",
            "1: 3",  # takes the rank Q
            "2: K",  # J does not beat the Q the 3 took
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: J",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 5",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_transparent_threes_on_a_two_and_lowest_plays_them_first():
    """lowest counts transparent threes as rank 3 (READINGS): the weakest play."""
    check(
        {"transparent_threes": True},
        ["K K 9", "3 3 A A", "2 4"],
        leader=0,
        script=[],
        expected=[
            "0: 9",
            "1: 3",  # transparent, takes 9
            "2: 2",
            "0: pass",
            "1: 3",  # transparent on the 2: takes the rank 2
            "2: pass",  # nothing beats a 2 here
            "0: pass",
            "trick_end -> 1",
            "1: A A",
            "out 1 #1",
            "2: pass",
            "0: pass",  # K K < A A
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_transparent_threes_led_are_plain_threes():
    check(
        {"transparent_threes": True},
        ["3 3 8", "4 4 9", "5 5"],
        leader=0,
        script=[],
        expected=[
            "0: 3 3",  # led: plain threes
            "1: 4 4",
            "2: 5 5",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",  # owner 2 out: next holder clockwise
            "0: 8",  # its last card
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_transparent_threes_as_a_larger_set_are_plain_threes():
    check(
        {"transparent_threes": True, "larger_sets": "any"},
        ["K 9", "3 3 A", "4 4 J"],
        leader=0,
        script=["0: K", "1: 3 3"],
        expected=[
            "0: K",
            "1: 3 3",  # more cards than the top: plain threes (rank 3)
            "2: 4 4",  # beats a pair of 3s (it would not beat a pair that took K)
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: J",
            "out 2 #1",
            "0: pass",
            "1: A",
            "out 1 #2",
            "round_end 3 2 1",
        ],
    )


def test_transparent_threes_off_a_three_is_the_lowest_single():
    """Same deal as transparent threes on: without them 1 cannot answer the 8."""
    check(
        {"transparent_threes": False},
        ["8 Q", "3 4", "5 9"],
        leader=0,
        script=[],
        expected=[
            "0: 8",
            "1: pass",  # 3 and 4 are lower than 8
            "2: 9",
            "0: Q",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "trick_end -> 1",  # owner 0 out: next holder clockwise
            "1: 3",
            "2: 5",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_transparent_threes_on_then_the_same_deal():
    check(
        {"transparent_threes": True},
        ["8 Q", "3 4", "5 9"],
        leader=0,
        script=[],
        expected=[
            "0: 8",
            "1: 3",  # transparent: takes the rank 8
            "2: 9",
            "0: Q",
            "out 0 #1",
            "1: pass",  # 4 < Q (no three left)
            "2: pass",
            "trick_end -> 1",
            "1: 4",  # its last card
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_transparent_threes_with_skip_equal_rank_of_the_taken_rank():
    """A Q on threes that took Q is an equal play; the threes themselves are not."""
    check(
        {"transparent_threes": True, "equal_rank": "skip"},
        ["Q 8", "3 K", "Q 4", "3 A"],
        leader=0,
        script=["0: Q", "1: 3", "2: Q"],
        expected=[
            "0: Q",
            "1: 3",  # takes Q; 3 on a Q is no equal play: no skip
            "2: Q",  # equal to the rank the top carries
            "3: skip",
            "0: pass",  # 8 < Q
            "1: K",
            "out 1 #1",
            "2: pass",
            "3: 3",  # lowest: transparent threes count as rank 3; takes K, no skip
            "0: pass",
            "2: pass",
            "trick_end -> 3",
            "3: A",
            "out 3 #2",
            "0: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 8",
            "out 0 #3",
            "round_end 3 1 4 2",
        ],
    )


def test_transparent_threes_with_skip_threes_on_threes():
    """Threes on a top of rank 3 are an equal play (skip)."""
    check(
        {"transparent_threes": True, "equal_rank": "skip"},
        ["3 9", "3 8", "5 J"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 3",  # equal play on threes
            "2: skip",
            "0: 9",
            "out 0 #1",
            "1: pass",  # 8 < 9
            "2: J",
            "1: pass",  # 8 < J
            "trick_end -> 2",
            "2: 5",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_transparent_threes_with_skip_threes_on_threes_that_took_q():
    """Threes on threes that took Q take Q again: no equal play, no skip."""
    check(
        {"transparent_threes": True, "equal_rank": "skip"},
        ["Q 9", "3 3", "3 K"],
        leader=0,
        script=["0: Q", "1: 3", "2: 3"],
        expected=[
            "0: Q",
            "1: 3",
            "2: 3",  # no skip: 0 is asked next
            "0: pass",
            "1: 3",  # still takes Q
            "out 1 #1",
            "2: K",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_transparent_threes_off_a_pair_of_threes_does_not_cover_kings():
    check(
        {"transparent_threes": False},
        ["K K 9", "3 3 A", "4 5"],
        leader=0,
        script=["0: K K"],
        expected=[
            "0: K K",
            "1: pass",  # 3 3 is a lower pair, A a single
            "2: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #1",
            "1: A",
            "2: pass",
            "trick_end -> 1",
            "1: 3 3",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_transparent_threes_on_a_plain_three_without_equal_rank():
    """equal_rank off: a 3 on a 3 is still transparent (it takes the rank 3), with no skip."""
    check(
        {"transparent_threes": True},
        ["3 9", "3 8", "5 J"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 3",  # transparent, the weakest legal play
            "2: 5",  # not skipped
            "0: 9",
            "out 0 #1",
            "1: pass",
            "2: J",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )
