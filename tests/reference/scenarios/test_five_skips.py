"""``five_skips`` (docs/rules.md): a play of 5s skips as many players as it holds 5s, each
the next one who would be asked; back around to its player, the trick is his.
Hand-worked scenarios (see :mod:`tests.reference.scenarios`).

Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out.
"""

from __future__ import annotations

from simulator.apps.replay import parse_game
from simulator.reference.round import Round
from tests.reference.scenarios.notation import check, game

SKIPS = {"five_skips": True}


def test_two_fives_skip_the_next_two_players():
    check(
        SKIPS,
        ["5 5 9", "6 K", "7 Q", "8 J", "10 A"],
        leader=0,
        script=["0: 5 5"],
        expected=[
            "0: 5 5",
            "1: skip",
            "2: skip",
            "3: pass",
            "4: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #1",
            "1: K",
            "2: pass",
            "3: pass",
            "4: A",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 4",
            "4: 10",
            "out 4 #2",
            "1: pass",
            "2: Q",
            "3: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 7",
            "out 2 #3",
            "3: 8",
            "1: pass",
            "trick_end -> 3",
            "3: J",
            "out 3 #4",
            "round_end 1 5 3 4 2",
        ],
    )


def test_skips_that_come_back_around_give_the_trick_to_the_player():
    check(
        SKIPS,
        ["5 5 5 5 9", "6", "7", "8"],
        leader=0,
        script=["0: 5 5 5 5"],
        expected=[
            "0: 5 5 5 5",
            "1: skip",
            "2: skip",
            "3: skip",  # the fourth 5 would come back to seat 0: nobody more
            "trick_end -> 0",
            "0: 9",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 6",
            "out 1 #2",
            "2: 7",
            "out 2 #3",
            "round_end 1 2 3 4",
        ],
    )


def test_a_player_out_of_the_trick_is_not_asked_so_not_skipped():
    check(
        {**SKIPS, "passing": "out_of_trick"},
        ["4 4 9", "3 K", "5 5 J", "6 Q"],
        leader=0,
        script=["0: 4 4", "1: pass", "2: 5 5"],
        expected=[
            "0: 4 4",
            "1: pass",
            "2: 5 5",
            "3: skip",
            "0: skip",  # seat 1 left the trick: the second skip is seat 0's
            "trick_end -> 2",
            "2: J",
            "out 2 #1",
            "3: Q",
            "0: pass",
            "1: K",
            "3: pass",
            "trick_end -> 1",  # seat 0 passed earlier in this trick: not asked
            "1: 3",
            "out 1 #2",
            "3: 6",
            "out 3 #3",
            "round_end 4 2 1 3",
        ],
    )


def test_an_equal_play_of_fives_skips_one_player_per_five():
    check(
        {**SKIPS, "equal_rank": "skip"},
        ["4 4 5 5 9", "5 5 K", "7 7 Q", "8 J A"],
        leader=0,
        script=["0: 4 4"],
        expected=[
            "0: 4 4",
            "1: 5 5",
            "2: skip",
            "3: skip",
            "0: 5 5",  # an equal play: two 5s, two skips (equal_rank alone: one)
            "1: skip",
            "2: skip",
            "3: pass",
            "trick_end -> 0",
            "0: 9",
            "out 0 #1",
            "1: K",
            "out 1 #2",
            "2: pass",
            "3: A",
            "2: pass",
            "trick_end -> 3",
            "3: 8",
            "2: Q",
            "3: pass",
            "trick_end -> 2",
            "2: 7 7",
            "out 2 #3",
            "round_end 1 2 3 4",
        ],
    )


def test_without_the_option_fives_skip_nobody():
    check(
        {},
        ["5 5 9", "6 6 K", "7 Q", "8 J"],
        leader=0,
        script=["0: 5 5", "1: 6 6", "2: pass", "3: pass", "0: pass"],
        expected=[
            "0: 5 5",
            "1: 6 6",
            "2: pass",
            "3: pass",
            "0: pass",
            "trick_end -> 1",
            "1: K",
            "out 1 #1",
            "2: pass",
            "3: pass",
            "0: pass",
            "trick_end -> 2",
            "2: 7",
            "3: 8",
            "0: 9",
            "out 0 #2",
            "2: Q",
            "out 2 #3",
            "round_end 2 1 3 4",
        ],
    )


def test_the_observation_names_every_seat_skipped_and_the_rule():
    parsed = parse_game(game(SKIPS, ["5 5 9", "6 K", "7 Q", "8 J", "10 A"]))
    rnd = Round(parsed.rules, parsed.hands, parsed.leader)
    rnd.apply(next(m for m in rnd.observation().legal if m.count == 2))
    seen = rnd.observation()
    assert (seen.seat, seen.skipped_seats, seen.skipped, seen.skipped_by) == (
        3, (1, 2), 1, "five_skips",
    )  # fmt: skip
    assert seen.passed == (False, True, True, False, False)
