"""``jack_back`` (docs/rules.md): real jacks reverse the order in force until the trick ends;
a second jack restores it; jack-back and revolution are independent switches. Hand-worked
scenarios (see :mod:`tests.reference.scenarios`).

Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out:
it leads all cards of its weakest rank under the order in force and follows with the
weakest legal play under the order in force (fewest cards on a tie), passing only when
nothing is legal.
"""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_a_second_jack_restores_the_order_and_skips_under_skip():
    check(
        {"jack_back": True, "equal_rank": "skip"},
        ["J 5", "J 6", "2 Q", "10 4"],
        leader=0,
        script=["0: J"],
        expected=[
            "0: J",  # jack-back: the order is reversed until the trick ends
            "1: J",  # equal play; in the reversed order the J is weaker than the 6
            "2: skip",  # real jacks again: the order is back to normal
            "3: pass",  # the 10 no longer beats the J
            "0: pass",
            "trick_end -> 1",
            "1: 6",
            "out 1 #1",
            "2: Q",
            "3: pass",
            "0: pass",
            "trick_end -> 2",
            "2: 2",
            "out 2 #2",
            "3: pass",
            "0: pass",
            "trick_end -> 3",
            "3: 4",
            "0: 5",
            "out 0 #3",
            "round_end 3 1 2 4",
        ],
    )


def test_a_jack_under_a_revolution_plays_the_trick_in_the_normal_order():
    """Two independent switches: the round's order (revolution) reversed once more."""
    check(
        {"jack_back": True, "revolution": True},
        ["5 5 5 5 J 3", "Q 4", "9 K"],
        leader=0,
        script=["0: 5 5 5 5"],
        expected=[
            "0: 5 5 5 5",  # revolution for the rest of the round
            "1: pass",
            "2: pass",
            "trick_end -> 0",
            "0: J",  # the weakest of J and 3 in the reversed order; jack-back on
            "1: Q",  # reversed twice: the normal order, Q beats J
            "2: K",
            "0: pass",  # the 3 is the weakest card in the normal order
            "1: pass",
            "trick_end -> 2",  # jack-back ends with the trick; the revolution stays
            "2: 9",
            "out 2 #1",
            "0: 3",  # the strongest rank in the reversed order
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )


def test_a_run_is_counted_apart_from_the_same_rank_earlier_in_the_trick():
    """7 7, J J, 7 7: four 7s lie in the trick but the run is two 7s (READINGS)."""
    check(
        {"jack_back": True, "accumulation_burns": True},
        ["7 7 Q", "J J 4", "7 7 5"],
        leader=0,
        script=[],
        expected=[
            "0: 7 7",
            "1: J J",  # jack-back on: 7 7 now beats the jacks
            "2: 7 7",  # a new run of 7s after the jacks: two cards, no burn
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 5",
            "out 2 #1",
            "0: Q",
            "out 0 #2",
            "round_end 2 3 1",
        ],
    )
