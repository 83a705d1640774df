"""``accumulation_burns`` (docs/rules.md): a run of one rank reaching 4 cards burns the pile;
passes do not break a run, another rank does; a burning play skips nobody. Hand-worked
scenarios (see :mod:`tests.reference.scenarios`).

Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out:
it leads all cards of its weakest rank under the order in force and follows with the
weakest legal play under the order in force (fewest cards on a tie), passing only when
nothing is legal.
"""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_allow_five_five_pass_five_five_burns_on_the_fourth_five():
    check(
        {"equal_rank": "allow", "accumulation_burns": True},
        ["5 5 K", "5 9", "3 4", "5 6"],
        leader=0,
        script=["0: 5"],
        expected=[
            "0: 5",  # the lead starts a run of 5s
            "1: 5",  # 2 cards
            "2: pass",  # a pass does not break the run
            "3: 5",  # 3 cards
            "0: 5",  # 4 cards: the pile burns at once
            "trick_end -> 0",
            "0: K",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 9",
            "out 1 #2",
            "2: pass",
            "3: pass",
            "trick_end -> 2",
            "2: 3",
            "3: 6",
            "out 3 #3",
            "round_end 1 2 4 3",
        ],
    )


def test_five_five_six_six_does_not_burn():
    check(
        {"equal_rank": "allow", "accumulation_burns": True},
        ["5 A", "5 7", "6 8", "6 9"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 5",
            "2: 6",  # another rank starts a new run
            "3: 6",  # a run of two 6s: no burn
            "0: A",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 7",
            "out 1 #2",
            "2: 8",
            "out 2 #3",
            "round_end 1 2 3 4",
        ],
    )


def test_a_burn_that_empties_the_hand_passes_the_lead_to_the_next_holder():
    check(
        {"equal_rank": "skip", "accumulation_burns": True},
        ["9 9 4", "9 9", "6 K"],
        leader=0,
        script=["0: 9 9"],
        expected=[
            "0: 9 9",
            "1: 9 9",  # an equal play bringing the run to 4: it burns, nobody is skipped
            "out 1 #1",
            "trick_end -> 2",
            "2: 6",
            "0: pass",
            "trick_end -> 2",
            "2: K",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )
