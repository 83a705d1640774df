"""``after_out_lead = "last_in_trick"`` (docs/rules.md, ``after_out_lead``): while the top's
owner is out, the one player left in the trick leads without being asked; refused with
``passing = "may_return"``. Hand-worked scenarios (see :mod:`tests.reference.scenarios`).

Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out:
it leads all cards of its weakest rank under the order in force and follows with the
weakest legal play under the order in force (fewest cards on a tie), passing only when
nothing is legal.
"""

from __future__ import annotations

from tests.reference.scenarios.notation import check, cli_replay, game


def test_last_in_trick_after_passes_leads_without_answering():
    """docs/rules.md's example (``after_out_lead``): A goes out with a K, B C D pass, E alone leads."""
    check(
        {"preset": "french", "after_out_lead": "last_in_trick"},
        ["K", "3 3", "4 6", "4 7", "5 A"],
        leader=0,
        script=[],
        expected=[
            "0: K",
            "out 0 #1",  # four players are still in the trick
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 4",  # seat 4 is the last one in it: he is not asked
            "4: 5",
            "1: pass",
            "2: 6",
            "3: 7",
            "4: A",
            "out 4 #2",  # seats 2 and 3 are still in the trick
            "2: pass",
            "trick_end -> 3",
            "3: 4",
            "out 3 #3",
            "1: pass",  # a single 3 does not beat the 4; a pair never goes on a single
            "trick_end -> 2",
            "2: 4",
            "out 2 #4",
            "round_end 1 5 4 3 2",
        ],
    )


def test_last_in_trick_right_after_the_out_play():
    """The oracle author's extra case B: the play that empties the hand leaves one player in the trick."""
    check(
        {"preset": "french", "after_out_lead": "last_in_trick"},
        ["5 10", "3 4", "9 K", "7 8"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: pass",
            "2: 9",
            "3: pass",
            "0: 10",
            "out 0 #1",
            "trick_end -> 2",  # seats 1 and 3 passed: seat 2 leads without answering
            "2: K",
            "out 2 #2",
            "3: pass",
            "trick_end -> 1",
            "1: 3",
            "3: 7",
            "1: pass",
            "trick_end -> 3",
            "3: 8",
            "out 3 #3",
            "round_end 1 4 2 3",
        ],
    )


def test_last_in_trick_with_may_return_is_a_rules_error():
    data = game({"after_out_lead": "last_in_trick"}, ["5", "6", "7"], 0)
    result = cli_replay(data)
    assert result.exit_code == 2
    assert result.stdout == ""
    (line,) = result.stderr.strip().splitlines()
    assert "after_out_lead" in line and "passing" in line and "may_return" in line
