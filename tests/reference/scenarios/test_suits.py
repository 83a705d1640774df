"""The rules that read suits (docs/rules.md, "Cards with suits"): ``spade_three_return``
(the 3 of spades beats a lone joker and ends the trick) and ``suit_lock`` (two plays in a
row of the same suits lock the trick to them). Hand-worked scenarios, checked on the
reference engine, ``president replay`` and the kernel (see :mod:`tests.reference.scenarios`).

Every seat plays ``lowest`` once the script runs out: the weakest legal play, whose cards
are the ones a rule imposes, else the lowest suits (clubs, diamonds, hearts, spades).
"""

from __future__ import annotations

import re

import pytest

from simulator.apps.replay import GameError, parse_game, replay
from tests.reference.scenarios.notation import check, cli_replay, game

SPADE = {"jokers": 1, "spade_three_return": True}
LOCK = {"suit_lock": "suits"}


def test_the_three_of_spades_beats_the_lone_joker_and_ends_the_trick():
    check(
        SPADE,
        ["JK 5H", "3S 3C 9D", "4C 8H", "6D 7S"],
        0,
        ["0: JK"],
        [
            "0: JK",
            "1: 3S",  # the only play on a lone joker: the 3 of spades, not the 3 of clubs
            "trick_end -> 1",
            "1: 3C",
            "2: 4C",
            "3: 6D",
            "0: pass",
            "1: 9D",
            "out 1 #1",
            "2: pass",
            "3: pass",
            "0: pass",
            "trick_end -> 2",
            "2: 8H",
            "out 2 #2",
            "3: pass",
            "0: pass",
            "trick_end -> 3",
            "3: 7S",
            "out 3 #3",
            "round_end 4 1 2 3",
        ],
    )


@pytest.mark.parametrize("threes", [False, True])
def test_no_other_three_beats_the_lone_joker(threes):
    """Without the 3 of spades, seat 1 passes on the joker, transparent threes or not."""
    check(
        {**SPADE, "transparent_threes": threes},
        ["JK", "3C 3H", "4C", "6D"],
        0,
        [],
        [
            "0: JK",
            "out 0 #1",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 3C 3H",
            "out 1 #2",
            "2: pass",
            "3: pass",
            "trick_end -> 2",
            "2: 4C",
            "out 2 #3",
            "round_end 1 2 3 4",
        ],
    )


def test_a_pair_of_jokers_is_not_a_lone_joker():
    check(
        {**SPADE, "jokers": 2},
        ["JK JK 5H", "3S 9D", "4C", "6D"],
        0,
        ["0: JK JK"],
        [
            "0: JK JK",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 0",
            "0: 5H",
            "out 0 #1",
            "1: 9D",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 3S",
            "out 1 #2",
            "2: 4C",
            "out 2 #3",
            "round_end 1 2 3 4",
        ],
    )


def test_the_lock_holds_past_the_joker_and_keeps_the_three_of_spades_out():
    """5♥ then 8♥ lock the trick to hearts; the joker follows the lock, and the 3 of
    spades, not a heart, may not be laid on it."""
    check(
        {**SPADE, **LOCK},
        ["5H 9C", "8H", "JK 4D", "3S 7C"],
        0,
        [],
        [
            "0: 5H",
            "1: 8H",
            "out 1 #1",
            "2: JK",
            "3: pass",
            "0: pass",
            "trick_end -> 2",
            "2: 4D",
            "out 2 #2",
            "3: 7C",
            "0: 9C",
            "out 0 #3",
            "round_end 3 1 2 4",
        ],
    )


def test_two_hearts_in_a_row_lock_the_trick_to_hearts():
    """Seat 2 would lay the 9 of spades; under the lock only its 10 of hearts may go. In
    the next trick the 9 and the queen of spades lock it to spades: the king of clubs
    waits for the trick after."""
    check(
        LOCK,
        ["5H QS", "8H KC", "9S 10H", "4C 6D"],
        0,
        [],
        [
            "0: 5H",
            "1: 8H",
            "2: 10H",
            "3: pass",
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 9S",
            "out 2 #1",
            "3: pass",
            "0: QS",  # a spade on a spade: locked again, to spades
            "out 0 #2",
            "1: pass",
            "3: pass",
            "trick_end -> 1",
            "1: KC",
            "out 1 #3",
            "round_end 2 3 1 4",
        ],
    )


PAIRS = ["5C 5H 9D", "7C 7H 7S", "8D 8S JC", "6C 6H"]


def test_a_pair_takes_its_lowest_suits_and_may_lock_with_them():
    """Seat 1's pair of 7s is its clubs and hearts, the suits of the 5s: locked, and seat
    2's pair of 8s (diamonds, spades) may not answer."""
    check(
        LOCK,
        PAIRS,
        0,
        [],
        [
            "0: 5C 5H",
            "1: 7C 7H",
            "2: pass",
            "3: pass",
            "0: pass",
            "trick_end -> 1",
            "1: 7S",
            "out 1 #1",
            "2: 8D",
            "3: pass",
            "0: 9D",  # a diamond on a diamond: locked to diamonds
            "out 0 #2",
            "2: pass",  # the jack of clubs may not answer
            "3: pass",
            "trick_end -> 2",
            "2: 8S",
            "3: pass",
            "trick_end -> 2",
            "2: JC",
            "out 2 #3",
            "round_end 2 1 3 4",
        ],
    )


def test_a_play_that_names_other_suits_locks_nothing():
    check(
        LOCK,
        PAIRS,
        0,
        ["0: 5C 5H", "1: 7H 7S"],
        [
            "0: 5C 5H",
            "1: 7H 7S",
            "2: 8D 8S",
            "3: pass",
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: JC",
            "out 2 #1",
            "3: pass",
            "0: pass",
            "1: pass",
            "trick_end -> 3",
            "3: 6C 6H",
            "out 3 #2",
            "0: pass",
            "1: pass",
            "trick_end -> 0",
            "0: 9D",
            "out 0 #3",
            "round_end 3 4 1 2",
        ],
    )


LOCKABLE = ["5H 5S 9D", "7C 7H 7S KD", "8C 8D JC", "6C 6H 4D"]


@pytest.mark.parametrize(
    ("knows", "expected"),
    [
        (
            167,  # with the bit of the locks: its 7s of hearts and spades lock the trick
            ["0: 5H 5S", "1: 7H 7S", "2: pass", "3: pass", "0: pass", "trick_end -> 1",
             "1: 7C", "2: 8C", "3: pass", "0: pass", "1: pass", "trick_end -> 2",
             "2: 8D", "3: pass", "0: 9D", "out 0 #1", "1: KD", "out 1 #2", "2: pass",
             "3: pass", "trick_end -> 2", "2: JC", "out 2 #3", "round_end 1 2 3 4"],
        ),
        (
            39,  # without it: the lowest suits, clubs and hearts, and the 8s answer
            ["0: 5H 5S", "1: 7C 7H", "2: 8C 8D", "3: pass", "0: pass", "1: pass",
             "trick_end -> 2", "2: JC", "out 2 #1", "3: pass", "0: pass", "1: KD", "3: pass",
             "0: pass", "trick_end -> 1", "1: 7S", "out 1 #2", "3: pass", "0: 9D",
             "out 0 #3", "round_end 3 2 1 4"],
        ),
    ],
)  # fmt: skip
def test_rules_aware_chooses_the_suits_that_lock_when_it_knows_locks(knows, expected):
    """Seat 1 (``rules-aware``) answers the 5s of hearts and spades with a pair of its three
    7s: the cards it chose are laid, on the reference engine and in the kernel alike."""
    strategies = ["lowest", f"rules-aware:knows={knows}", "lowest", "lowest"]
    check(LOCK, LOCKABLE, 0, ["0: 5H 5S"], expected, strategies)


@pytest.mark.parametrize(
    ("script", "reason"),
    [
        (["0: 5C 5H", "1: 7C 7H", "2: 8D 8S"], "locked to clubs and hearts (suit_lock)"),
        (["0: 5C 5H", "1: 7C 7D"], "you do not hold the 7D"),
    ],
)  # fmt: skip
def test_a_play_the_suits_do_not_allow_is_refused_in_one_line(script, reason):
    data = game(LOCK, PAIRS, 0, script)
    with pytest.raises(GameError, match=re.escape(reason)) as caught:
        replay(parse_game(data))
    assert f"move {len(script) - 1} " in str(caught.value)
    result = cli_replay(data)
    assert result.exit_code == 2 and result.stdout == ""
    assert reason in result.stderr and len(result.stderr.strip().splitlines()) == 1


def test_the_spade_return_is_refused_without_the_three_of_spades():
    data = game(SPADE, ["JK 5H", "3C 9D", "4C", "6D"], 0, ["0: JK", "1: 3C"])
    with pytest.raises(GameError, match="only the 3 of spades beats the lone joker"):
        replay(parse_game(data))


def test_hands_must_name_their_suits_under_these_rules():
    data = game(LOCK, ["5H 9", "8H", "4D", "3S"], 0)
    with pytest.raises(GameError, match="card '9' has no suit, and these rules read suits"):
        parse_game(data)
    data = game(LOCK, ["5H 9C", "9C", "4D", "3S"], 0)
    with pytest.raises(GameError, match="the hands hold the 9C twice"):
        parse_game(data)
