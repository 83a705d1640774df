"""Several options at once, where no single one is the subject: a preset's rules
together. Hand-worked scenarios (see :mod:`tests.reference.scenarios`)."""

from __future__ import annotations

from tests.reference.scenarios.notation import check


def test_regles_jeu_last_two_ends_trick_and_takes_the_worst_place():
    check(
        "regles-jeu",
        ["5 2", "6 9", "7 8"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 6",
            "2: 7",
            "0: 2",
            "out 0 #3",  # no_finish_on_two: the worst place
            "trick_end -> 1",  # two_ends_trick; owner out: next holder clockwise
            "1: 9",
            "out 1 #1",
            "round_end 3 1 2",
        ],
    )
