"""Illegal scripted moves: refused at the right index, one line on stderr, nothing on stdout.

docs/formats.md §2: a scripted move by the wrong seat, or one the rules forbid, stops the
replay with exit code 2 and a message giving the move's index and the rule it breaks.
Moves before the illegal one are legal, so a half-printed replay would show up on stdout.
The kernel's scripted round (:mod:`tests.kernel.scripted`) refuses the same move,
at the same index, by its own legality check.
"""

from __future__ import annotations

import pytest

from simulator.apps.replay import GameError, parse_game, replay
from tests.reference.scenarios.notation import cli_replay, game, kernel_events

OUT_OF_TRICK = {"passing": "out_of_trick"}
SKIP = {"equal_rank": "skip"}

CASES = {
    # name: (rules, hands, leader, script, index of the bad move, words of the reason)
    "wrong_seat_first_move": ({}, ["3 5", "4 6", "7 8"], 0, ["1: 4"], 0, ["seat 0's turn"]),
    "wrong_seat_later": ({}, ["3 5", "4 6", "7 8"], 0, ["0: 3", "2: 7"], 1, ["seat 1's turn"]),
    "card_not_held": ({}, ["3 5", "4 6", "7 8"], 0, ["0: K"], 0, ["holds", "K"]),
    "two_cards_held_once": ({}, ["3 5", "4 6", "7 8"], 0, ["0: 5 5"], 0, ["holds 1 card"]),
    "not_higher": ({}, ["5 9", "4 6", "7 8"], 0, ["0: 5", "1: 4"], 1, ["not a higher rank"]),
    "equal_rank_off": ({}, ["5 9", "5 6", "7 8"], 0, ["0: 5", "1: 5"], 1, ["equal rank"]),
    "fewer_cards": ({}, ["9 9 3", "K 4", "5"], 0, ["0: 9 9", "1: K"], 1, ["fewer cards"]),
    "more_cards": ({}, ["9 3", "Q Q", "5"], 0, ["0: 9", "1: Q Q"], 1, ["more cards"]),
    "four_on_a_single_without_quad_burns": (
        {},
        ["9 3", "Q Q Q Q", "5"],
        0,
        ["0: 9", "1: Q Q Q Q"],
        1,
        ["more cards"],
    ),
    "larger_set_of_lower_rank": (
        {"larger_sets": "higher_rank"},
        ["7 3", "5 5 K", "9"],
        0,
        ["0: 7", "1: 5 5"],
        1,
        ["higher rank"],
    ),
    "pair_on_a_single_of_its_rank_higher_rank": (
        {"larger_sets": "higher_rank", "equal_rank": "skip"},
        ["7 3", "7 7 K", "9"],
        0,
        ["0: 7", "1: 7 7"],
        1,
        ["higher rank"],
    ),
    "threes_as_a_larger_set_are_plain": (
        {"larger_sets": "higher_rank", "transparent_threes": True},
        ["K 4", "3 3 A", "9"],
        0,
        ["0: K", "1: 3 3"],
        1,
        ["higher rank"],
    ),
    "threes_not_transparent": (
        {},
        ["K K 4", "3 3 A", "9"],
        0,
        ["0: K K", "1: 3 3"],
        1,
        ["not a higher rank"],
    ),
    "pass_when_leading": ({}, ["3 5", "4 6", "7 8"], 0, ["0: pass"], 0, ["leader may not pass"]),
    "pass_when_leading_after_trick_end": (
        {},
        ["3 5", "4 6", "7 8"],
        0,
        ["0: 3", "1: 4", "2: 7", "0: pass", "1: pass", "2: pass"],
        5,
        ["leader may not pass"],
    ),
    "move_after_round_over": (
        {},
        ["3", "4", "5"],
        0,
        ["0: 3", "1: 4", "2: 5"],
        2,
        ["round is over"],
    ),
    "seat_that_went_out": (
        {},
        ["3", "4 6", "5 7"],
        0,
        ["0: 3", "1: 4", "2: 5", "0: 6"],
        3,
        ["went out"],
    ),
    "play_after_passing_out_of_trick": (
        OUT_OF_TRICK,
        ["3 6 9", "7 K", "4 Q", "5 A"],
        0,
        ["0: 3", "1: pass", "2: 4", "3: 5", "0: 6", "1: 7"],
        5,
        ["out_of_trick"],
    ),
    "play_while_skipped": (
        SKIP,
        ["5 9", "5 K", "8 Q"],
        0,
        ["0: 5", "1: 5", "2: 8"],
        2,
        ["skipped"],
    ),
    "equal_two_after_two_ends_the_trick": (
        "regles-jeu",
        ["2 9", "2 5", "7 8"],
        0,
        ["0: 2", "1: 2"],
        1,
        ["seat 0's turn"],
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_illegal_scripted_move_is_refused_at_its_index(name):
    rules, hands, leader, script, index, words = CASES[name]
    result = cli_replay(game(rules, hands, leader, script))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert f"move {index} " in lines[0]
    for word in words:
        assert word in lines[0]
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("name", sorted(CASES))
def test_illegal_scripted_move_raises_game_error_in_the_library(name):
    rules, hands, leader, script, index, _ = CASES[name]
    parsed = parse_game(game(rules, hands, leader, script))
    with pytest.raises(GameError, match=f"^move {index} "):
        replay(parsed)


@pytest.mark.parametrize("name", sorted(CASES))
def test_illegal_scripted_move_is_refused_at_its_index_on_the_kernel(name):
    rules, hands, leader, script, index, _ = CASES[name]
    with pytest.raises(ValueError, match=f"^move {index} .* is illegal: ") as refused:
        kernel_events(game(rules, hands, leader, script))
    assert not isinstance(refused.value, GameError)  # the kernel's refusal, not the parser's


def test_scripted_card_matches_on_rank_whatever_its_suit():
    """``"7S"`` plays a 7 whatever the suit held; the output lists ranks."""
    data = {
        "rules": {},
        "hands": [["7H", "9C"], ["8D", "KS"], ["10H", "QC"]],
        "leader": 0,
        "moves": [{"seat": 0, "play": ["7S"]}, {"seat": 1, "play": ["8"]}],
    }
    result = cli_replay(data)
    assert result.exit_code == 0, result.stderr
    first = result.events()[:2]
    assert [e["event"] for e in first] == ["play", "play"]
    assert [[c.rstrip("CDHS") for c in e["cards"]] for e in first] == [["7"], ["8"]]
