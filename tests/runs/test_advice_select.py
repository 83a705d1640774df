"""How ``president advise`` learns and chooses its tips, on scripted data and worths.

* A tree's cut sits just below a value the table shows: the owner's cards split from
  "you lead" (20) read "you answer a play" and "you lead", not "17 or more".
* Candidates that make the same play in the same decisions are one, in the fewest
  words; a condition that changes nothing is left out.
* Selection tries a tip of a later round before the earlier tips too, and the proof
  measures each tip against the other tips: a tip that only keeps an earlier one from
  spoiling a move is chosen and shown with what it saves. (Worths are scripted here:
  the kernel's measure is checked in tests/cli/test_advise.py.)
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator.rules.presets import preset
from simulator.runs.advice import run
from simulator.runs.advice.learn import Condition, Grown, Tip, distinct
from simulator.runs.advice.measure import Worth
from simulator.runs.advice.mine import VIEW_COLUMNS
from simulator.runs.advice.words import condition_words
from strategies.advice import NOBODY, PLAYS

PLAY = {name: i for i, (name, _) in enumerate(PLAYS, start=1)}
PLACE = {name: i for i, name in enumerate(VIEW_COLUMNS, start=1)}


def test_a_cut_sits_below_a_value_the_table_shows() -> None:
    """Champion makes the play exactly when it leads (the owner's cards read 20): the two
    halves are "you answer a play" (0 to 19) and "you lead" (20 on)."""
    owner = np.array([3, 5, 9, 14, NOBODY, NOBODY, NOBODY, NOBODY] * 10, dtype=float)
    x = np.zeros((len(owner), len(VIEW_COLUMNS)))
    x[:, PLACE["owner"] - 1] = owner
    y = owner == NOBODY
    grown = Grown(x, y, ~y, np.array(["weakest"] * len(y)), least=5)
    halves = grown._halves(np.ones(len(y), dtype=bool), [PLACE["owner"] - 1], 0)
    (below, _), (above, _) = halves
    assert (below.lowest, below.highest, above.lowest) == (0.0, NOBODY - 1, NOBODY)
    assert condition_words(below) == "you answer a play"
    assert condition_words(above) == "you lead"


def test_the_same_tip_in_other_words_is_measured_once() -> None:
    """Leading said as "you lead" and as "the trick is of no cards" makes the same play in
    the same decisions: one is kept. "You hold 13 cards or fewer" holds in every decision
    here, so it is left out of the sentence."""
    frame = pd.DataFrame({name: [0.0] * 4 for name in VIEW_COLUMNS})
    frame["leading"] = [1.0, 1.0, 0.0, 0.0]
    frame["size"] = [0.0, 0.0, 1.0, 2.0]
    frame["cards"] = [5.0, 9.0, 7.0, 3.0]
    for name, _ in PLAYS:
        frame[f"{name}_count"] = 1
    second = PLAY["second"]
    by_lead = Tip(second, (Condition(PLACE["leading"], 1, 99),), 4, 3, 1, "weakest")
    by_size = Tip(second, (Condition(PLACE["size"], 0, 0),), 4, 3, 1, "weakest")
    wordy = Tip(second, (Condition(PLACE["cards"], 0, 13), Condition(PLACE["leading"], 1, 99)),
                4, 3, 1, "weakest")  # fmt: skip
    other_play = Tip(PLAY["lone"], (Condition(PLACE["leading"], 1, 99),), 4, 3, 1, "weakest")
    kept = distinct([wordy, by_lead, by_size, other_play], frame)
    assert [t.key for t in kept] == ["second_leading1-99", "lone_leading1-99"]


REVOLT = Tip(PLAY["revolt"], (), 1, 1, 0, "second")
NEXT = Tip(PLAY["second"], (Condition(PLACE["leading"], 1, 99),), 1, 1, 0, "weakest")


def scripted(tips: list[Tip]) -> float:
    """Places a round against the simple player (negative: better): leading the next
    weakest gains 0.10; playing a four first gains 0.05 more, and nothing without it (the
    simple player revolts anyway, unless "lead the next weakest" comes first)."""
    value = 0.0
    if NEXT in tips:
        value -= 0.10
        if REVOLT in tips and tips.index(REVOLT) < tips.index(NEXT):
            value -= 0.05
    return value


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> run.Folder:
    def measure(_folder, _table, tips, before=None):
        value = scripted(tips) - scripted(before or [])
        return lambda: Worth(value, value - 0.01, value + 0.01, 100, 1000, 0.1)

    monkeypatch.setattr(run, "_measure", measure)
    made = run.Folder(tmp_path / "advice", run.Advice(preset("french")))
    made.open()
    made.state["worths"]["2/champion"] = asdict(Worth(-0.3, -0.31, -0.29, 100, 1000, 0.5))
    return made


def quiet(_: str) -> None:
    """No progress."""


def test_a_tip_placed_first_is_chosen_and_shown_with_what_it_saves(folder) -> None:
    first = run.select(folder, [NEXT, REVOLT], quiet, [])
    assert first == [NEXT]  # alone, the four gains nothing
    second = run.select(folder, [REVOLT], quiet, first)
    assert second == [REVOLT, NEXT]  # after "lead the next weakest" it would never apply
    shown, worths = run.prove(folder, second, quiet)
    assert shown == [REVOLT, NEXT]
    assert worths[REVOLT.key].estimate == pytest.approx(-0.05)  # against NEXT alone
    assert worths[NEXT.key].estimate == pytest.approx(-0.15)  # against REVOLT alone
    assert worths["together"].estimate == pytest.approx(-0.15)


def test_a_tip_whose_interval_holds_0_is_left_out_and_the_rest_measured_again(folder) -> None:
    shown, worths = run.prove(folder, [NEXT, REVOLT], quiet)
    assert shown == [NEXT]  # after NEXT the four never applies: it gains 0
    assert worths[NEXT.key].estimate == pytest.approx(-0.10)
