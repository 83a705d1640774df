"""``out_ends_trick`` (docs/rules.md): the play that empties a hand ends the trick at once;
the next holder leads, whatever ``after_out_lead`` says. Hand-worked scenarios (see
:mod:`tests.reference.scenarios`).

Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out:
it leads all cards of its weakest rank under the order in force and follows with the
weakest legal play under the order in force (fewest cards on a tie), passing only when
nothing is legal.
"""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_going_out_ends_the_trick_so_nobody_beats_the_last_card():
    check(
        {"out_ends_trick": True},
        ["7 Q", "9", "10 4"],
        leader=0,
        script=[],
        expected=[
            "0: 7",
            "1: 9",
            "out 1 #1",
            "trick_end -> 2",  # seat 2 is not asked to beat the 9: he leads
            "2: 4",
            "0: Q",
            "out 0 #2",  # one player left: the round ends, no trick end
            "round_end 2 1 3",
        ],
    )


def test_out_ends_trick_is_ended_at_once_so_last_in_trick_does_not_choose():
    check(
        {"preset": "french", "out_ends_trick": True, "after_out_lead": "last_in_trick"},
        ["5 9", "3 4", "6 K", "7 8"],
        leader=0,
        script=["0: 5", "1: pass", "2: 6", "3: pass"],
        expected=[
            "0: 5",
            "1: pass",
            "2: 6",
            "3: pass",
            "0: 9",
            "out 0 #1",
            "trick_end -> 1",  # seat 2 alone is in the trick, but it ended at once
            "1: 3",
            "2: K",
            "out 2 #2",
            "trick_end -> 3",
            "3: 7",
            "1: pass",
            "trick_end -> 3",
            "3: 8",
            "out 3 #3",
            "round_end 1 4 2 3",
        ],
    )
