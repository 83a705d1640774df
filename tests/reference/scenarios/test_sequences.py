"""Sequences (docs/rules.md, ``sequences``, ``sequence_revolution``,
``eights_in_sequences``): three or more cards of one suit in a row, jokers standing in.
Hand-worked scenarios on the reference engine and ``president replay`` (see
:mod:`tests.reference.scenarios`), and on the kernel by its own ``step``.

Every seat plays ``lowest`` once the script runs out: it never leads a sequence, and on
one it lays the legal sequence of the weakest weakest card.
"""

from __future__ import annotations

import pytest

from simulator.apps.replay import GameError, parse_game, replay
from tests.reference.scenarios.notation import check, cli_replay, game

SEQ = {"jokers": 1, "sequences": "above_highest"}


def test_a_sequence_is_beaten_by_a_sequence_as_long_above_its_highest_card():
    check(
        SEQ,
        ["4D 5D 6D KS", "7C 8C 9C 3H", "10H JH JK 4C", "6S 7S 8S KD"],
        0,
        ["0: 4D 5D 6D"],
        [
            "0: 4D 5D 6D",
            "1: 7C 8C 9C",  # 7 is above 6
            "2: 10H JH JK",  # the joker is the queen: 9 10 J would not be above 9
            "3: pass",  # 6 7 8 is not above the queen
            "0: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 4C",
            "out 2 #1",
            "3: 6S",
            "0: KS",
            "out 0 #2",
            "1: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 3H",
            "out 1 #3",
            "round_end 2 3 1 4",
        ],
    )


@pytest.mark.parametrize(
    ("rule", "answers"),
    [
        ("above_highest", ["1: pass", "2: 8H 9H 10H"]),  # 5 6 7: 5 is not above 6
        ("above_lowest", ["1: 5S 6S 7S", "2: 8H 9H 10H"]),  # 5 is above 4, 8 above 5
    ],
)
def test_above_lowest_is_the_looser_bar(rule, answers):
    tail = ["3: pass", "0: pass", "1: pass"]  # seat 1 is asked again on the new top
    check(
        {"sequences": rule},
        ["4D 5D 6D 9C", "5S 6S 7S 3H", "8H 9H 10H 4C", "KD KS 3D"],
        0,
        ["0: 4D 5D 6D"],
        ["0: 4D 5D 6D", *answers, *tail, "trick_end -> 2", *AFTER_TEN],
    )


AFTER_TEN = [  # seat 2 leads with 4C alone left; the rest by lowest
    "2: 4C",
    "out 2 #1",
    "3: KD",
    "0: pass",
    "1: pass",
    "trick_end -> 3",
    "3: 3D",
    "0: 9C",
    "out 0 #2",
    "1: pass",
    "3: KS",
    "out 3 #3",
    "round_end 2 4 1 3",
]


def test_a_set_does_not_beat_a_sequence_nor_a_sequence_a_set():
    data = game(SEQ, ["4D 5D 6D 9C", "KS KH KD 3H", "7H 8H 9H 4C", "2S 3D"], 0,
                ["0: 4D 5D 6D", "1: KS KH KD"])  # fmt: skip
    result = cli_replay(data)
    assert result.exit_code == 2
    assert result.stderr.strip() == (
        "error: move 1 (seat 1 plays KS KH KD) is illegal: only a sequence of 3 cards beats "
        "the sequence 4 5 6 on the table"
    )
    data = game(SEQ, ["4D 9C", "3S 4S 5S", "7H 8H 9H 4C", "2S 3D"], 0, ["0: 4D", "1: 3S 4S 5S"])
    result = cli_replay(data)
    assert result.stderr.strip() == (
        "error: move 1 (seat 1 plays 3S 4S 5S) is illegal: a sequence beats only a sequence "
        "(not the single 4 on the table)"
    )


@pytest.mark.parametrize(
    ("rules", "script", "reason"),
    [
        ({"sequences": "off"}, ["0: 4D 5D 6D"], 'a play is 1 to 4 cards of one rank (sequences = "off")'),
        (SEQ, ["0: 4D JK 6D"], "you hold the 5D: a joker stands in only for a card you lack"),
        (SEQ, ["0: 4D 5D 6D", "1: 7H 8H 9H 10H"], "a sequence beats only a sequence as long (3 cards) as the sequence 4 5 6 on the table"),
        (SEQ, ["0: 4D 5D 6D", "1: 7S 8S 9S"], "seat 1 cannot make the 7S 8S 9S (a sequence is 3 or more cards of one suit in a row, 3 … 2, with at least one card that is not a joker; a joker stands in for a card he lacks)"),
        (SEQ, ["0: 4D 5D 6D", "1: 7H JK 9H"], "you hold the 8H: a joker stands in only for a card you lack"),
    ],
)  # fmt: skip
def test_refused_sequences_say_why(rules, script, reason):
    data = game({**SEQ, **rules}, ["4D 5D 6D JK", "7H 8H 9H 10H", "3C", "3D"], 0, script)
    result = cli_replay(data)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.strip().endswith(f"is illegal: {reason}")


@pytest.mark.parametrize(
    "written",
    [["4D", "6D", "5D"], ["4D", "5D"], ["4D", "5H", "6D"], ["4D", "5D", "6"], ["JK", "JK", "3S"]],
)
def test_what_is_not_a_sequence_is_refused_when_read(written):
    data = game(SEQ, ["4D 5D 6D", "7H", "3C"], 0)
    data["moves"] = [{"seat": 0, "play": written}]
    with pytest.raises(GameError, match=r"^move 0 is not a valid move: .*a sequence: 3 or more"):
        parse_game(data)


def test_a_joker_at_either_end_stands_where_it_is_written():
    """``6S 7S JK`` is 6 7 8 and ``JK 6S 7S`` is 5 6 7: only the first beats 3 4 5."""
    hands = ["3H 4H 5H 9C", "6S 7S JK 3C", "KD", "KC"]
    events = replay(parse_game(game(SEQ, hands, 0, ["0: 3H 4H 5H", "1: 6S 7S JK"])))
    assert events[1].to_json()["cards"] == ["6S", "7S", "JK"]
    result = cli_replay(game(SEQ, hands, 0, ["0: 3H 4H 5H", "1: JK 6S 7S"]))
    assert result.stderr.strip() == (
        "error: move 1 (seat 1 plays JK 6S 7S) is illegal: its weakest card is not above the "
        "strongest card of the sequence 3 4 5 on the table"
    )


@pytest.mark.parametrize(("eights", "ends"), [("end_trick", True), ("plain", False)])
def test_an_eight_in_a_sequence_ends_the_trick_unless_plain(eights, ends):
    rules = {**SEQ, "eight_ends_trick": True, "eights_in_sequences": eights}
    head = ["0: 4D 5D 6D", "1: 7C 8C 9C"]
    if ends:  # seat 1 leads the next trick at once
        rest = ["trick_end -> 1", "1: 3H", "out 1 #1", "2: 4C", "3: 6S", "0: 9D", "out 0 #2",
                "2: 10H", "3: pass", "trick_end -> 2", "2: 5C", "3: 8S", "out 3 #3",
                "round_end 2 1 4 3"]  # fmt: skip
    else:  # the 8 is a plain card: 10 J Q of hearts answers
        rest = ["2: 10H JH QH", "3: pass", "0: pass", "1: pass", "trick_end -> 2", "2: 4C",
                "3: 6S", "0: 9D", "out 0 #1", "1: pass", "2: pass", "3: pass", "trick_end -> 1",
                "1: 3H", "out 1 #2", "2: 5C", "out 2 #3", "round_end 1 2 3 4"]  # fmt: skip
    check(
        rules,
        ["4D 5D 6D 9D", "7C 8C 9C 3H", "10H JH QH 4C 5C", "6S 8S"],
        0,
        ["0: 4D 5D 6D"],
        head + rest,
    )


def test_a_sequence_of_four_turns_the_order_under_sequence_revolution():
    """After 6 7 8 9 of clubs the order is reversed: seat 1's 4 beats the 5, 3 beats 4."""
    check(
        {"sequences": "above_highest", "sequence_revolution": 4},
        ["6C 7C 8C 9C 5D", "4S", "3H KH", "2D"],
        0,
        ["0: 6C 7C 8C 9C"],
        [
            "0: 6C 7C 8C 9C",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 0",
            "0: 5D",
            "out 0 #1",
            "1: 4S",
            "out 1 #2",
            "2: 3H",
            "3: pass",  # the 2 is the weakest card now
            "trick_end -> 2",
            "2: KH",
            "out 2 #3",
            "round_end 1 2 3 4",
        ],
    )


def test_two_sequences_of_one_suit_lock_the_trick_to_it():
    """Hearts on hearts: 9 10 J of spades may not answer, 10 J Q of hearts may."""
    check(
        {"sequences": "above_highest", "suit_lock": "suits"},
        ["3H 4H 5H QC", "6H 7H 8H 3D", "9S 10S JS 4C", "10H JH QH 5C"],
        0,
        ["0: 3H 4H 5H"],
        [
            "0: 3H 4H 5H",
            "1: 6H 7H 8H",
            "2: pass",
            "3: 10H JH QH",
            "0: pass",
            "1: pass",
            "2: pass",
            "trick_end -> 3",
            "3: 5C",
            "out 3 #1",
            "0: QC",
            "out 0 #2",
            "1: pass",
            "2: pass",
            "trick_end -> 1",
            "1: 3D",
            "out 1 #3",
            "round_end 2 3 4 1",
        ],
    )


def test_going_out_on_a_sequence_with_a_two_takes_the_worst_place():
    check(
        {"sequences": "above_highest", "no_finish_on_two": True},
        ["KD AD 2D", "4S 5S", "3H 8H", "6C 7C"],
        0,
        ["0: KD AD 2D"],
        [
            "0: KD AD 2D",
            "out 0 #4",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 4S",
            "2: 8H",
            "3: pass",
            "1: pass",
            "trick_end -> 2",
            "2: 3H",
            "out 2 #1",
            "3: 6C",
            "1: pass",
            "trick_end -> 3",
            "3: 7C",
            "out 3 #2",
            "round_end 4 3 1 2",
        ],
    )


def test_a_jack_in_a_sequence_does_not_turn_the_order():
    """Under jack_back, 9 10 J is no play of jacks: Q K A still beats it."""
    check(
        {"sequences": "above_highest", "jack_back": True},
        ["9D 10D JD 5S", "QC KC AC 4S", "3H 6H", "7C 8C"],
        0,
        ["0: 9D 10D JD"],
        [
            "0: 9D 10D JD",
            "1: QC KC AC",
            "2: pass",
            "3: pass",
            "0: pass",
            "trick_end -> 1",
            "1: 4S",
            "out 1 #1",
            "2: 6H",
            "3: 7C",
            "0: pass",
            "2: pass",
            "trick_end -> 3",
            "3: 8C",
            "out 3 #2",
            "0: pass",
            "2: pass",
            "trick_end -> 0",
            "0: 5S",
            "out 0 #3",
            "round_end 3 1 4 2",
        ],
    )


def test_after_a_revolution_the_weakest_card_of_a_sequence_is_its_highest():
    """Reversed order: 6 7 8 (weakest card the 8) and 5 6 7 (the 7) both beat 9 10 J
    (strongest card the 9); ``lowest`` lays the one of the weakest weakest card."""
    check(
        {"sequences": "above_highest", "revolution": True},
        ["4C 4D 4H 4S 9D 10D JD", "5C 6C 7C 6S 7S 8S 3S", "QH", "KH"],
        0,
        ["0: 4C 4D 4H 4S", "1: pass", "2: pass", "3: pass", "0: 9D 10D JD"],
        [
            "0: 4C 4D 4H 4S",
            "1: pass",
            "2: pass",
            "3: pass",
            "trick_end -> 0",
            "0: 9D 10D JD",
            "out 0 #1",
            "1: 6S 7S 8S",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 7C",  # reversed: the 7 is his weakest card
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 6C",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 5C",
            "2: pass",
            "3: pass",
            "trick_end -> 1",
            "1: 3S",
            "out 1 #2",
            "2: pass",
            "3: pass",
            "trick_end -> 2",
            "2: QH",
            "out 2 #3",
            "round_end 1 2 3 4",
        ],
    )
