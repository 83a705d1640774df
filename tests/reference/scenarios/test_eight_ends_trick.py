"""``eight_ends_trick`` (docs/rules.md): 8s end the trick at once, led or not, going out or
not, whatever the order in force. Hand-worked scenarios (see :mod:`tests.reference.scenarios`).

Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out:
it leads all cards of its weakest rank under the order in force and follows with the
weakest legal play under the order in force (fewest cards on a tie), passing only when
nothing is legal.
"""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_eights_led_end_the_trick_and_their_player_leads_again():
    check(
        {"eight_ends_trick": True},
        ["8 8 5", "9 9 4", "6 K"],
        leader=0,
        script=["0: 8 8"],
        expected=[
            "0: 8 8",
            "trick_end -> 0",  # nobody may answer 8s, even when they lead
            "0: 5",
            "out 0 #1",
            "1: 9",  # the weakest single above 5 (breaking the pair)
            "2: K",
            "1: pass",
            "trick_end -> 2",
            "2: 6",
            "out 2 #2",
            "round_end 1 3 2",
        ],
    )


def test_going_out_on_an_eight_ends_the_trick_and_the_next_holder_leads():
    check(
        {"eight_ends_trick": True},
        ["5 J", "8", "7 9"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 8",
            "out 1 #1",
            "trick_end -> 2",  # ended at once; its player is out: the next holder leads
            "2: 7",
            "0: J",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_an_eight_ends_the_trick_during_a_revolution():
    check(
        {"eight_ends_trick": True, "revolution": True},
        ["4 4 4 4 9 K", "8 3", "10 5"],
        leader=0,
        script=["0: 4 4 4 4"],
        expected=[
            "0: 4 4 4 4",  # a revolution: 2 weakest, 3 strongest from the next play
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: K",  # the weakest of 9 and K in the reversed order
            "1: 8",  # beats K in the reversed order; weaker than the 3 there
            "trick_end -> 1",  # 8s end the trick whatever the order
            "1: 3",
            "out 1 #1",
            "2: pass",  # nothing beats the 3 in the reversed order
            "0: pass",
            "trick_end -> 2",
            "2: 10",  # weaker than 5 in the reversed order
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )
