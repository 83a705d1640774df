"""``equal_rank = "allow"`` (docs/rules.md, ``equal_rank``): equal plays are legal and skip
nobody, so they may follow one another; each is a new top. Hand-worked scenarios (see
:mod:`tests.reference.scenarios`), the reasoning in comments.

Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out:
it leads all cards of its weakest rank under the order in force and follows with the
weakest legal play under the order in force (fewest cards on a tie), passing only when
nothing is legal.
"""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_allow_equal_plays_follow_one_another_without_a_skip():
    check(
        {"equal_rank": "allow"},
        ["9 K", "9 4", "9 5", "9 6"],
        leader=0,
        script=[],
        expected=[
            "0: 9",
            "1: 9",  # an equal play: legal, the weakest, and it skips nobody
            "2: 9",  # the rank to beat is still 9: another equal play
            "3: 9",
            "0: K",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 1",  # the top's owner is out: the next holder leads
            "1: 4",
            "out 1 #2",
            "2: 5",
            "out 2 #3",  # seat 3 alone holds cards: the round is over
            "round_end 1 2 3 4",
        ],
    )


def test_allow_equal_play_is_a_new_top_so_passers_are_asked_again():
    """may_return: a pass only counts since the top was laid; an equal play lays a new top."""
    check(
        {"equal_rank": "allow"},
        ["7 4", "5 9", "7 3"],
        leader=0,
        script=["0: 7", "1: pass"],
        expected=[
            "0: 7",
            "1: pass",
            "2: 7",  # equal play, no skip
            "0: pass",  # a 4 does not beat a 7
            "1: 9",  # asked again: his pass was on the first 7
            "2: pass",
            "0: pass",
            "trick_end -> 1",
            "1: 5",
            "out 1 #1",
            "2: pass",
            "0: pass",
            "trick_end -> 2",  # next holder after seat 1
            "2: 3",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_allow_threes_on_threes_skip_nobody():
    check(
        {"equal_rank": "allow"},
        ["3 9", "3 8", "4 K"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 3",  # threes on threes: an equal play like any other, no skip
            "2: 4",
            "0: 9",
            "out 0 #1",
            "1: pass",
            "2: K",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )
