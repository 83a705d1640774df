"""Round-level scenarios worked out by hand from docs/rules.md and docs/READINGS.md.

Going out, places, the leader after an owner went out, the end of a trick, the order of
events, the two passing rules and several table sizes (3 to 8 players). Every expected
event list below was derived by hand; the comment beside each line says why.
"""

from __future__ import annotations

import pytest

from tests.reference.scenarios.notation import check

DEFAULT: dict = {}  # every option at its docs/rules.md default
OUT_OF_TRICK = {"passing": "out_of_trick"}

# ---------------------------------------------------------------- going out and places


def test_going_out_takes_best_place_and_round_ends_with_one_holder():
    """Places are given in order of going out; the last holder takes the place left."""
    check(
        DEFAULT,
        ["3 5", "4 6", "7 8"],
        leader=0,
        script=[],
        expected=[
            "0: 3",  # lowest leads all cards of its weakest rank
            "1: 4",  # weakest single above 3
            "2: 7",  # weakest single above 4
            "0: pass",  # 5 does not beat 7
            "1: pass",  # 6 does not beat 7
            "trick_end -> 2",  # both others passed since the 7: its owner leads
            "2: 8",  # its last card
            "out 2 #1",  # first out: President
            "0: pass",  # 5 < 8; a combination that went out can still be beaten
            "1: pass",  # 6 < 8
            "trick_end -> 0",  # owner 2 is out: next clockwise holding cards is 0
            "0: 5",
            "out 0 #2",  # now only seat 1 holds cards
            "round_end 2 3 1",  # no trick end, no out event for the last player
        ],
    )


def test_leader_after_owner_out_skips_seats_that_are_out():
    """The owner went out and so did the seat left of him: the next holder clockwise leads."""
    check(
        DEFAULT,
        ["3 A", "4", "5 7", "6 8"],
        leader=0,
        script=["0: 3", "1: 4", "2: 5", "3: 6", "0: A"],
        expected=[
            "0: 3",
            "1: 4",
            "out 1 #1",  # 1's last card
            "2: 5",
            "3: 6",
            "0: A",
            "out 0 #2",  # 0's last card; 2 and 3 still hold cards
            "2: pass",  # seat 1 is out and never asked; 7 < A (lowest passes)
            "3: pass",  # 8 < A
            "trick_end -> 2",  # owner 0 out, seat 1 out: seat 2 is the next holder
            "2: 7",
            "out 2 #3",  # only seat 3 holds cards
            "round_end 2 1 3 4",
        ],
    )


def test_play_that_leaves_one_holder_ends_round_without_skip_or_trick_end():
    """Order of events: play, out, round_end; the skip the equal play would cause is not recorded."""
    check(
        {"equal_rank": "skip"},
        ["5", "5", "8"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "out 0 #1",  # 0's only card; 1 and 2 still hold cards
            "1: 5",  # lowest: the equal 5 is the weakest legal play
            "out 1 #2",  # only seat 2 holds cards: the round ends here, 2 is not skipped
            "round_end 1 2 3",
        ],
    )


def test_order_play_out_skip_trick_end_in_one_move():
    """An equal play with the last card: play, out, the skip, then the end of the trick.

    out_of_trick: 1 and 2 passed on the 5 and stay out of the trick. Seat 3 equals the 5
    with its last card; the next player who would be asked is 0 (1 and 2 passed), so 0 is
    skipped. Then every holder but the owner has passed or been skipped: the trick ends,
    and as its owner is out, the next holder clockwise from seat 3 (seat 0) leads.
    """
    check(
        {"equal_rank": "skip", "passing": "out_of_trick"},
        ["5 K", "4 6", "3 7", "5"],
        leader=0,
        script=["0: 5", "1: pass", "2: pass", "3: 5"],
        expected=[
            "0: 5",
            "1: pass",
            "2: pass",
            "3: 5",
            "out 3 #1",
            "0: skip",
            "trick_end -> 0",
            "0: K",  # lowest leads its only card
            "out 0 #2",
            "1: pass",  # nothing beats K (new trick: 1 is asked again)
            "2: pass",
            "trick_end -> 1",  # owner 0 out: next holder clockwise is 1
            "1: 4",  # weakest rank held
            "2: 7",  # 3 < 4, so the 7
            "1: pass",  # 6 < 7
            "trick_end -> 2",
            "2: 3",
            "out 2 #3",
            "round_end 2 4 3 1",
        ],
    )


def test_order_play_out_skip_then_trick_goes_on():
    """may_return: the equal play's owner goes out, the next seat is skipped, the trick goes on."""
    check(
        {"equal_rank": "skip"},
        ["5 9", "5", "7 8", "6 K"],
        leader=0,
        script=[],
        expected=[
            "0: 5",
            "1: 5",  # equal play, its last card
            "out 1 #1",
            "2: skip",  # the next player who would be asked
            "3: 6",  # the rank to beat is still 5
            "0: 9",
            "out 0 #2",
            "2: pass",  # 7, 8 < 9
            "3: K",
            "out 3 #3",
            "round_end 2 1 4 3",
        ],
    )


# ---------------------------------------------------------------- passing


def test_may_return_passer_plays_later_in_the_same_trick():
    """may_return: seat 1 passes on the 3 and then plays the 9 in the same trick."""
    check(
        DEFAULT,
        ["3 8", "5 9", "4 K", "6 7"],
        leader=0,
        script=["0: 3", "1: pass", "2: 4", "3: 6", "0: 8", "1: 9", "2: K"],
        expected=[
            "0: 3",
            "1: pass",  # gives up this turn only
            "2: 4",
            "3: 6",
            "0: 8",
            "out 0 #1",
            "1: 9",  # asked again and allowed to play
            "2: K",
            "out 2 #2",
            "3: pass",  # 7 < K
            "1: pass",  # 5 < K
            "trick_end -> 3",  # owner 2 out: next holder clockwise is 3
            "3: 7",
            "out 3 #3",
            "round_end 1 4 2 3",
        ],
    )


def test_may_return_passer_is_asked_again():
    """may_return: 0 passes on the 7 and is asked again after the 8 (and passes again)."""
    check(
        DEFAULT,
        ["3 6", "5 8", "4 7"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 5",
            "2: 7",
            "0: pass",  # 6 < 7
            "1: 8",
            "out 1 #1",
            "2: pass",  # 4 < 8
            "0: pass",  # asked again (may_return): 6 < 8
            "trick_end -> 2",  # owner 1 out: next holder clockwise is 2
            "2: 4",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_out_of_trick_passer_is_not_asked_again():
    """Same deal under out_of_trick: after 0's pass, 0 is not asked on the 8."""
    check(
        OUT_OF_TRICK,
        ["3 6", "5 8", "4 7"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 5",
            "2: 7",
            "0: pass",  # out of this trick
            "1: 8",
            "out 1 #1",
            "2: pass",  # 0 passed at some point, 2 now: the trick is over
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )


def test_out_of_trick_play_nobody_can_answer_ends_trick_at_once():
    """out_of_trick: 0 plays on the 5 of a seat that went out; 2 already passed: trick over.

    READINGS: the end of the trick is checked after every event, so a play on which nobody
    is left to answer ends the trick right after the play.
    """
    check(
        OUT_OF_TRICK,
        ["3 6 9", "5", "4 8"],
        leader=0,
        script=["0: 3", "1: 5", "2: pass", "0: 6"],
        expected=[
            "0: 3",
            "1: 5",
            "out 1 #1",
            "2: pass",  # out of the trick
            "0: 6",
            "trick_end -> 0",  # the only other holder (2) has passed in this trick
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_may_return_same_script_lets_the_passer_answer():
    """The previous script under may_return: 2 is asked again after the 6 and beats it."""
    check(
        DEFAULT,
        ["3 6 9", "5", "4 8"],
        leader=0,
        script=["0: 3", "1: 5", "2: pass", "0: 6"],
        expected=[
            "0: 3",
            "1: 5",
            "out 1 #1",
            "2: pass",
            "0: 6",
            "2: 8",  # lowest: 8 beats 6
            "0: 9",
            "out 0 #2",
            "round_end 2 1 3",
        ],
    )


def test_out_of_trick_five_players_whole_round():
    """out_of_trick, 5 players, all lowest: each trick asks every player at most once after a pass."""
    check(
        OUT_OF_TRICK,
        ["3 8", "4 4", "5 9", "6 7", "J Q"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 4",  # weakest single above 3 (a 4 split from the pair)
            "2: 5",
            "3: 6",
            "4: J",
            "0: pass",  # 8 < J
            "1: pass",
            "2: pass",  # 9 < J
            "3: pass",
            "trick_end -> 4",
            "4: Q",
            "out 4 #1",
            "0: pass",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 0",  # owner 4 out: next holder clockwise is 0
            "0: 8",
            "out 0 #2",
            "1: pass",  # 4 < 8: out of this trick
            "2: 9",
            "out 2 #3",
            "3: pass",  # 7 < 9; 1 passed already, so the trick is over
            "trick_end -> 3",  # owner 2 out: next holder clockwise is 3
            "3: 7",
            "out 3 #4",
            "round_end 2 5 3 4 1",
        ],
    )


# ---------------------------------------------------------------- table sizes


def test_three_players_lowest_places():
    """3 players: President, Neutral, Scum are places 1..3."""
    check(
        DEFAULT,
        ["4 K", "3 Q", "5 6"],
        leader=1,
        script=[],
        expected=[
            "1: 3",
            "2: 5",
            "0: K",  # 4 < 5, K is the only play
            "1: pass",  # Q < K
            "2: pass",  # 6 < K
            "trick_end -> 0",
            "0: 4",
            "out 0 #1",
            "1: Q",
            "out 1 #2",
            "round_end 1 2 3",
        ],
    )


def test_six_players_tricks_wrap_and_skip_out_seats():
    """6 players: out seats are never asked; the leader after an out owner is the next holder."""
    check(
        DEFAULT,
        ["3 9", "4", "5 5", "6 K", "2", "7 8"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 4",
            "out 1 #1",
            "2: 5",  # one 5 of the pair: same number of cards
            "3: 6",
            "4: 2",
            "out 4 #2",
            "5: pass",  # nothing beats a 2 without jokers
            "0: pass",
            "2: pass",  # seat 1 is out
            "3: pass",
            "trick_end -> 5",  # owner 4 out: next holder clockwise is 5
            "5: 7",
            "0: 9",
            "out 0 #3",
            "2: pass",  # 5 < 9
            "3: K",
            "out 3 #4",
            "5: pass",  # 8 < K
            "2: pass",  # asked again on the K (may_return)
            "trick_end -> 5",  # owner 3 out, seat 4 out: seat 5 leads
            "5: 8",
            "out 5 #5",
            "round_end 3 1 6 4 2 5",
        ],
    )


def test_seven_players_places():
    check(
        DEFAULT,
        ["A", "3 K", "4", "5", "6", "7", "8 2"],
        leader=1,
        script=[],
        expected=[
            "1: 3",
            "2: 4",
            "out 2 #1",
            "3: 5",
            "out 3 #2",
            "4: 6",
            "out 4 #3",
            "5: 7",
            "out 5 #4",
            "6: 8",  # weakest single above 7
            "0: A",
            "out 0 #5",
            "1: pass",  # K < A
            "6: 2",  # seats 2..5 are out
            "out 6 #6",  # only seat 1 holds cards
            "round_end 5 7 1 2 3 4 6",
        ],
    )


def test_eight_players_each_goes_out_in_turn():
    check(
        DEFAULT,
        ["3", "4", "5", "6", "7", "8", "9", "10"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "out 0 #1",
            "1: 4",
            "out 1 #2",
            "2: 5",
            "out 2 #3",
            "3: 6",
            "out 3 #4",
            "4: 7",
            "out 4 #5",
            "5: 8",
            "out 5 #6",
            "6: 9",
            "out 6 #7",
            "round_end 1 2 3 4 5 6 7 8",
        ],
    )


def test_eight_players_trick_wraps_to_the_first_holder():
    check(
        DEFAULT,
        ["3 10", "4 J", "5", "6", "7", "8", "9", "K"],
        leader=3,
        script=[],
        expected=[
            "3: 6",
            "out 3 #1",
            "4: 7",
            "out 4 #2",
            "5: 8",
            "out 5 #3",
            "6: 9",
            "out 6 #4",
            "7: K",
            "out 7 #5",
            "0: pass",  # 3, 10 < K
            "1: pass",  # 4, J < K
            "2: pass",  # 5 < K
            "trick_end -> 0",  # owner 7 out: next holder clockwise wraps to 0
            "0: 3",
            "1: 4",
            "2: 5",
            "out 2 #6",
            "0: 10",  # seats 3..7 are out
            "out 0 #7",
            "round_end 7 8 6 1 2 3 4 5",
        ],
    )


def test_preset_name_as_rules_french():
    """The french preset by name: equal skip and no finishing on a 2, together.

    0 leads 6; 1 equals it (weakest legal play for lowest) and skips 2; the rank to beat
    is still 6, so 0 beats it with its last card, the 9 (President). 1 goes out on a 2:
    with no_finish_on_two it takes the worst place still free (3rd of 3); 2 is left alone
    and takes the place left (2nd).
    """
    check(
        "french",
        ["6 9", "6 2", "7 8"],
        leader=0,
        script=[],
        expected=[
            "0: 6",
            "1: 6",
            "2: skip",
            "0: 9",
            "out 0 #1",
            "1: 2",
            "out 1 #3",
            "round_end 1 3 2",
        ],
    )


@pytest.mark.parametrize("name", ["spade", "scum"])
def test_strict_presets_play_the_round_like_the_defaults(name):
    """spade and scum change no round option but passing (may_return, the default)."""
    check(
        name,
        ["3 6", "5 8", "4 7"],
        leader=0,
        script=[],
        expected=[
            "0: 3",
            "1: 5",
            "2: 7",
            "0: pass",
            "1: 8",
            "out 1 #1",
            "2: pass",
            "0: pass",
            "trick_end -> 2",
            "2: 4",
            "out 2 #2",
            "round_end 3 1 2",
        ],
    )
