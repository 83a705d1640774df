"""``president play`` under the rules that read suits: the person chooses the cards he lays.

Cards typed with their suits (``9S``) are the ones laid; without suits the rules'
default cards are (the lowest suits the rules allow). A named card not held, suits
named for some cards only, and a named play the lock forbids are refused in one line
with the rule's words, and the match goes on.
"""

from __future__ import annotations

import pytest

from simulator.apps.play.input import SUITED_PROMPT, MoveError, parse_move
from simulator.apps.play.session import SUITS_HELP
from simulator.reference.moves import Named, Run
from simulator.reference.round import Move
from simulator.rules.cards import parse_suited_card
from tests.cli.test_play import play

PROMPT = SUITED_PROMPT + " "

RULES = 'preset = "french"\njokers = 1\nsuit_lock = "suits"\nspade_three_return = true\n'
HAND = "Your hand: 3S 4C 4H 5C 6D 7C 7D 8S 9H 9S 10C 10D JC KS AC 2C 2D 2S"


@pytest.fixture
def rules_file(tmp_path):
    path = tmp_path / "locks.toml"
    path.write_text(RULES)
    return str(path)


def test_named_suits_are_laid_and_the_lock_is_kept(rules_file) -> None:
    keys = ["?", "9S", "7H", "7D 7", "10D", "2S", "2", "3S", "p"]
    result = play("--rules", rules_file, "--players", "3", "--seed", "2", "--rounds", "1",
                  keys=keys)  # fmt: skip
    assert result.exit_code == 0 and result.stderr == ""
    out = result.stdout
    assert f"{HAND}\n{PROMPT}?\n" in out
    assert "\n".join(SUITS_HELP) + f"\n{PROMPT}9S\n" in out  # the help says how to name suits
    assert all(len(line) <= 80 for line in SUITS_HELP)
    assert "  P0 (you): 9S\n  P1 (lowest): 9D\n" in out  # his 9 of spades, not the 9 of hearts
    assert f"{PROMPT}7H\n  ! you do not hold 7H (type ? for the legal moves)\n" in out
    assert f"{PROMPT}7D 7\n  ! name the suit of every card of a play or of none (7D 7)\n" in out
    # 10D on 9D locks the trick to diamonds: a 2 of spades is refused, a 2 is the 2D
    assert "Top: single A, laid by P2 (lowest); the trick is locked to diamonds\n" in out
    locked = "  ! the trick is locked to diamonds (suit_lock) (type ? for the legal moves)\n"
    assert f"{PROMPT}2S\n{locked}{PROMPT}2\n" in out
    assert "  P0 (you): 2D\n  P1 (lowest): JK\n" in out
    assert f"{PROMPT}3S\n{locked}{PROMPT}p\n" in out  # the 3 of spades is not a diamond


def test_parse_move_names_cards_only_under_suits() -> None:
    sevens = Move(4, 2)
    assert parse_move("7h 7s") == sevens  # suitless rules: suits are dropped
    assert parse_move("7h 7s", suited=True) == Named(sevens, (parse_suited_card("7H"), 19))
    assert parse_move("7 7", suited=True) == sevens  # the rules' default cards
    assert parse_move("JK", suited=True) == Move(13, 1)  # a joker has no suit to name
    with pytest.raises(MoveError, match="name the suit of every card"):
        parse_move("7H 7", suited=True)


def test_a_sequence_is_typed_as_its_cards_in_rank_order():
    """Under ``sequences``: the cards in rank order, a joker where it stands in."""
    named = (parse_suited_card("4S"), parse_suited_card("6S"))
    assert parse_move("4s jk 6s", suited=True) == Named(Run(1, 3, 3), named)
    with pytest.raises(MoveError, match="or a sequence: 3 or more cards of one suit"):
        parse_move("4s 6s 5s", suited=True)
    with pytest.raises(MoveError, match="a combination is cards of one rank"):
        parse_move("4 5 6")  # without suits there is no sequence
