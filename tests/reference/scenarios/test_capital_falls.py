"""``capital_falls`` (docs/rules.md): when a player other than the previous round's
President takes first place, a President still holding cards is out at once with the worst
free place, his cards gone from the round. Hand-worked scenarios (see
:mod:`tests.reference.scenarios`), then whole matches on both engines.

Unless a scenario says otherwise every seat plays ``lowest`` once the script runs out.
The roles are the previous round's, by seat (4 players: no neutral).
"""

from __future__ import annotations

import pytest

from simulator.apps.replay import GameError, parse_game
from simulator.reference.match import play_match
from simulator.reference.round import Round
from simulator.rules.options import Rules
from strategies import registry
from tests.reference.scenarios.notation import check, game

FALLS = {"capital_falls": True}
SEAT_3_PRESIDES = ["scum", "vice_scum", "vice_president", "president"]
HANDS = ["4", "5 9", "6 K", "A 2"]


def test_another_player_out_first_sends_the_president_to_last_place():
    check(
        FALLS,
        HANDS,
        leader=0,
        script=[],
        roles=SEAT_3_PRESIDES,
        expected=[
            "0: 4",
            "out 0 #1",
            "falls 3 #4",  # he holds A 2, which are never played
            "1: 5",
            "2: 6",
            "1: 9",  # seats 3 and 0 hold nothing: seat 1 is asked next
            "out 1 #2",
            "round_end 1 2 3 4",
        ],
    )


def test_without_the_option_the_same_round_keeps_the_president_in():
    expected = ["0: 4", "out 0 #1", "1: 5", "2: 6", "3: A", "1: pass", "2: pass",
                "trick_end -> 3", "3: 2", "out 3 #2", "1: pass", "2: pass", "trick_end -> 1",
                "1: 9", "out 1 #3", "round_end 1 3 4 2"]  # fmt: skip
    check({}, HANDS, leader=0, script=[], roles=SEAT_3_PRESIDES, expected=expected)
    # and with the option, but no President (a match's first round): the same round
    check(FALLS, HANDS, leader=0, script=[], expected=expected)


def test_a_president_who_goes_out_first_keeps_his_title():
    check(
        FALLS,
        HANDS,
        leader=0,
        script=[],
        roles=["president", "vice_president", "vice_scum", "scum"],
        expected=[
            "0: 4",
            "out 0 #1",
            "1: 5",
            "2: 6",
            "3: A",
            "1: pass",
            "2: pass",
            "trick_end -> 3",
            "3: 2",
            "out 3 #2",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 9",
            "out 1 #3",
            "round_end 1 3 4 2",
        ],
    )


def test_going_out_on_twos_takes_last_place_not_first_so_the_capital_stands():
    check(
        {**FALLS, "no_finish_on_two": True},
        ["2", "5 9", "6 K", "7 A"],
        leader=0,
        script=[],
        roles=SEAT_3_PRESIDES,
        expected=[
            "0: 2",
            "out 0 #4",  # the worst place: first place is still free
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 5",
            "2: 6",
            "3: 7",
            "1: 9",
            "out 1 #1",
            "falls 3 #3",  # the worst place still free
            "round_end 4 1 2 3",  # seat 2, the one left holding cards, is 2nd
        ],
    )


def test_a_fall_that_leaves_one_player_holding_cards_ends_the_round():
    check(
        FALLS,
        ["4", "5 9", "6 K"],
        leader=0,
        script=[],
        roles=["scum", "neutral", "president"],
        expected=["0: 4", "out 0 #1", "falls 2 #3", "round_end 1 2 3"],
    )


def test_a_president_left_alone_with_cards_takes_the_place_left_without_falling():
    check(
        {**FALLS, "no_finish_on_two": True},
        ["2", "5", "6 K"],
        leader=0,
        script=[],
        roles=["scum", "neutral", "president"],
        expected=[
            "0: 2",
            "out 0 #3",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 5",
            "out 1 #1",
            "round_end 3 1 2",
        ],
    )


def test_the_fallen_presidents_cards_count_as_played_and_he_is_never_asked():
    parsed = parse_game(game(FALLS, HANDS, roles=SEAT_3_PRESIDES))
    rnd = Round(parsed.rules, parsed.hands, parsed.leader, parsed.roles)
    rnd.apply(rnd.observation().legal[0])  # seat 0 leads his 4 and goes out
    seen = rnd.observation()
    assert seen.seat == 1
    assert seen.cards_left == (0, 2, 2, 0)
    assert seen.played == (0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0)  # the 4, then A and 2


@pytest.mark.parametrize(
    "roles",
    [["president", "president", "scum", "vice_scum"], ["president", "scum"], "president",
     ["president", "neutral", "vice_scum", "scum"]],
)  # fmt: skip
def test_roles_that_no_round_could_leave_are_refused_in_one_line(roles):
    with pytest.raises(GameError, match=r'^game: "roles" must name one role per seat'):
        parse_game(game(FALLS, HANDS, roles=roles))


@pytest.mark.parametrize("players", [3, 4, 6])
def test_in_a_match_a_president_not_first_is_last(players):
    """Whole matches of ``random`` players: each round's previous President either
    finishes first or last, and some fall (the rule acts, not just holds vacuously)."""
    rules = Rules(players=players, capital_falls=True)
    falls = 0
    for match in range(6):
        names = ["random"] * players
        record = play_match(rules, [registry.make(s, rules) for s in names], 5, match, rounds=6)
        for before, now in zip(record.rounds, record.rounds[1:], strict=False):
            president = before.places.index(1)
            assert now.places[president] in (1, players)
            falls += now.places[president] == players
    assert falls > 0
