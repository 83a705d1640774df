"""The worked replay examples of the rule book give exactly their expected events."""

from __future__ import annotations

import json

import pytest

from tests.conftest import EXAMPLES, run_cli

GAMES = sorted(p for p in EXAMPLES.glob("*.json") if (p.with_suffix(".jsonl")).exists())
ILLEGAL = {
    "illegal_not_higher_n4.json": (13, "not a higher rank"),
    "illegal_after_pass_out_of_trick_n4.json": (39, "out_of_trick"),
    "illegal_wrong_seat_n6.json": (33, "seat 3's turn"),
    "illegal_jack_back_n4.json": (6, "jack-back"),
}


@pytest.mark.parametrize("game", GAMES, ids=lambda p: p.stem)
def test_example_replays_exactly(game):
    expected = [json.loads(line) for line in game.with_suffix(".jsonl").read_text().splitlines()]
    result = run_cli("replay", str(game))
    assert result.exit_code == 0, result.stderr
    assert result.events() == expected


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_example_refused_at_its_index(name):
    index, why = ILLEGAL[name]
    result = run_cli("replay", str(EXAMPLES / name))
    assert result.exit_code == 2
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert f"move {index} " in lines[0]
    assert why in lines[0]
