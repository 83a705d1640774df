"""The oracle's fifteen hand-worked games of the second catalogue (``catalogue2.json``).

They were worked out by hand from the rule book alone (docs/rules.md, docs/READINGS.md),
by the engineer who extended the oracle (tests/reference/oracle.py) without reading the
engine; each game gives its events. Every game runs through the library, ``president
replay`` and the kernel's scripted round.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.reference.scenarios.notation import cli_replay, kernel_events, library_events

ORACLE_GAMES = json.loads((Path(__file__).parent / "catalogue2.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("scenario", ORACLE_GAMES, ids=[g["name"] for g in ORACLE_GAMES])
def test_hand_worked_game_of_the_oracle(scenario):
    data = {k: scenario[k] for k in ("rules", "hands", "leader", "strategies", "moves")}
    assert library_events(data) == scenario["expected"], scenario["description"]
    result = cli_replay(data)
    assert result.exit_code == 0, result.stderr
    assert result.events() == scenario["expected"]
    assert kernel_events(data) == scenario["expected"], "the kernel disagrees"
