"""``equal_rank``: ``off``, an equal rank does not beat; ``skip``, it does and skips the
next player who would be asked — also with each ``passing`` rule, which decides who that
is. Hand-worked scenarios (see :mod:`tests.reference.scenarios`)."""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_equal_rank_off_equal_single_does_not_beat():
    check(
        {"equal_rank": "off"},
        ["5 9", "4 5", "6"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: pass",  # its 5 only equals the 5; its 4 is lower
            "2: 6",
            "out 2 #1",
            "0: 9",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_equal_rank_off_equal_pair_does_not_beat():
    check(
        {"equal_rank": "off"},
        ["7 7 Q", "7 7 K", "8 8"],
        leader=0,
        script=["0: 7 7"],
        expected=[
            "0: 7 7",
            "1: pass",  # 7 7 only equals; a single K never beats a pair
            "2: 8 8",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",  # owner 2 out: next holder clockwise is 0
            "0: Q",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_equal_rank_skip_skips_the_next_player_and_trick_goes_on():
    check(
        {"equal_rank": "skip"},
        ["5 9", "5 J", "8 10", "6 Q"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 5",  # equal 5: the weakest legal play
            "2: skip",  # loses this turn
            "3: 6",  # the rank to beat is still 5
            "0: 9",
            "out 0 #1",
            "1: J",
            "out 1 #2",
            "2: pass",  # 8, 10 < J
            "3: Q",
            "out 3 #3",
            "round_end 1 2 4 3",
        ],
    )


def test_equal_rank_skip_of_the_last_one_to_answer_ends_the_trick():
    """The skipped player was the only one left to answer: the equaller plays again."""
    check(
        {"equal_rank": "skip"},
        ["5", "5 8", "6 7"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "out 0 #1",
            "1: 5",
            "2: skip",
            "trick_end -> 1",  # the skip counts as a pass
            "1: 8",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_equal_rank_skip_and_pass_end_the_trick_may_return():
    check(
        {"equal_rank": "skip"},
        ["5 4", "5 9", "3 6"],
        leader=0,
        script=["0: 5"],
        expected=[
            "0: 5",
            "1: 5",
            "2: skip",
            "0: pass",  # 4 < 5
            "trick_end -> 1",  # 2 skipped, 0 passed since 1's 5
            "1: 9",
            "out 1 #1",
            "2: pass",
            "0: pass",
            "trick_end -> 2",  # owner 1 out: next holder clockwise
            "2: 3",
            "0: 4",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_equal_rank_skip_does_not_take_the_skipped_player_out_of_trick():
    """out_of_trick: 2 is skipped, not out of the trick; it plays after 3's new 8."""
    check(
        {"equal_rank": "skip", "passing": "out_of_trick"},
        ["5 K", "5 6", "9 7", "8 4"],
        leader=0,
        script=["0: 5", "1: 5", "3: 8", "0: pass", "1: pass", "2: 9"],
        expected=[
            "0: 5",
            "1: 5",
            "2: skip",
            "3: 8",
            "0: pass",
            "1: pass",
            "2: 9",  # allowed: the skip was not a pass
            "3: pass",  # 4 < 9; now 0, 1, 3 have passed in this trick
            "trick_end -> 2",
            "2: 7",
            "out 2 #1",
            "3: pass",  # 4 < 7
            "0: K",
            "out 0 #2",
            "1: pass",  # 6 < K; 3 passed in this trick and is not asked
            "trick_end -> 1",  # owner 0 out: next holder clockwise is 1
            "1: 6",
            "out 1 #3",
            "round_end 2 3 1 4",
        ],
    )


def test_equal_rank_skip_jumps_over_a_player_out_of_the_trick():
    """out_of_trick: the skipped player is the next one who would be asked (1 passed earlier)."""
    check(
        {"equal_rank": "skip", "passing": "out_of_trick"},
        ["5 Q", "6 K", "7 8", "7 A"],
        leader=0,
        script=["0: 5", "1: pass", "2: 7", "3: 7"],
        expected=[
            "0: 5",
            "1: pass",
            "2: 7",
            "3: 7",
            "0: skip",  # the next one asked after 3 (0 holds cards and has not passed)
            "2: 8",  # 1 is out of the trick; 2 beats the 7
            "out 2 #1",
            "3: A",
            "out 3 #2",
            "0: pass",  # asked (a skip is not a pass): Q < A
            "trick_end -> 0",  # owner 3 out: next holder clockwise is 0
            "0: Q",
            "out 0 #3",
            "round_end 3 4 1 2",
        ],
    )


def test_equal_rank_skip_may_return_an_earlier_pass_does_not_count():
    """may_return: 1 passed before 2's equal 5 was laid, so after 0's skip 1 is asked."""
    check(
        {"equal_rank": "skip"},
        ["5 9", "4 8", "5 K"],
        leader=0,
        script=["0: 5", "1: pass", "2: 5"],
        expected=[
            "0: 5",
            "1: pass",
            "2: 5",
            "0: skip",  # the next player who would be asked after 2
            "1: 8",  # not "passed since the top was laid": asked, beats the 5
            "2: K",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_equal_rank_skip_out_of_trick_an_earlier_pass_counts():
    """The same script under out_of_trick: 1's pass still counts, the skip ends the trick."""
    check(
        {"equal_rank": "skip", "passing": "out_of_trick"},
        ["5 9", "4 8", "5 K"],
        leader=0,
        script=["0: 5", "1: pass", "2: 5"],
        expected=[
            "0: 5",
            "1: pass",
            "2: 5",
            "0: skip",
            "trick_end -> 2",  # 1 passed in this trick, 0 skipped: 2 plays again
            "2: K",
            "out 2 #1",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_equal_rank_skip_out_of_trick_nobody_left_to_skip():
    """READINGS: with nobody left to ask after an equal play there is no skip; the trick ends.

    0 went out with the 5 and 1 passed (out of the trick): after 2's equal 5 nobody is left
    who could be asked, so no skip is recorded and 2 leads the next trick.
    """
    check(
        {"equal_rank": "skip", "passing": "out_of_trick"},
        ["5", "4 9", "5 K"],
        leader=0,
        script=["0: 5", "1: pass"],
        expected=[
            "0: 5",
            "out 0 #1",
            "1: pass",
            "2: 5",  # lowest: the equal 5
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_equal_rank_skip_may_return_the_passer_is_skipped():
    """The same script under may_return: 1 passed but is still in the trick, so 1 is skipped."""
    check(
        {"equal_rank": "skip"},
        ["5", "4 9", "5 K"],
        leader=0,
        script=["0: 5", "1: pass"],
        expected=[
            "0: 5",
            "out 0 #1",
            "1: pass",
            "2: 5",
            "1: skip",
            "trick_end -> 2",  # the skipped player was the only one left to answer
            "2: K",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )
