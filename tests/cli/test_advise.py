"""``president advise``: tips in words, each measured, reproducible and resumable.

* A small run prints its tips in words (no name of the code in them), writes the page,
  the tips file (a strategy any command plays) and examples that ``president replay``
  plays to the position; the same command again carries on from the folder and prints
  the same, and another folder with the same seed finds the same tips.
* A measure is checked where its answer is known: the simple player against itself
  gains exactly nothing, and a tip that passes whenever it may loses places.
* ``president play``'s ``h`` says what champion would play and which tip applies, and
  changes nothing in the match.
* Bad input is one line and exit code 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simulator.apps.replay import load_game, replay
from simulator.rules.presets import preset
from simulator.runs.advice.learn import Condition, Tip, tips_file
from simulator.runs.advice.measure import BASELINE, Table
from simulator.runs.advice.mine import VIEW_COLUMNS
from simulator.runs.advice.words import PHRASES, condition_words, tip_words
from strategies import registry
from strategies.advice import PLAYS, VIEW
from tests.cli.test_bad_input import assert_refused
from tests.cli.test_play import GAME, PROMPT, ROUND_1, play
from tests.conftest import run_cli, without_compile_notice

# the search tier's one-decision entry point calls champion, which the atlas's test
# (early) compiles: beside it, the two compiles had overlapped (56 s for this one)
pytestmark = pytest.mark.late

SMALL = ("--mined", "12", "--matches", "400", "--champion-matches", "40", "--workers", "1")


@pytest.fixture(scope="module")
def advised(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("advice") / "out"
    result = run_cli("advise", "--rules", "french", *SMALL, "--out", str(out))
    assert result.exit_code == 0, result.stderr
    return out, result


def test_it_prints_tips_and_writes_its_files(advised) -> None:
    out, result = advised
    text = result.stdout
    assert text.startswith("Tips for french")
    assert "champion gains" in text and "of it." in text
    for name in ("advice.html", "tips.toml", "state.json"):
        assert (out / name).is_file()
    spec = registry.get(str(out / "tips.toml"))
    assert spec.name == "advised"
    assert "<h1>How to play: french</h1>" in (out / "advice.html").read_text(encoding="utf-8")


def test_the_same_command_resumes_and_another_folder_finds_the_same(advised, tmp_path) -> None:
    out, first = advised
    parts = {p: p.stat().st_mtime_ns for p in (out / "decisions").iterdir()}
    again = run_cli("advise", "--rules", "french", *SMALL, "--out", str(out))
    assert again.exit_code == 0 and again.stdout == first.stdout
    assert without_compile_notice(again.stderr) == []  # nothing mined or measured again
    assert {p: p.stat().st_mtime_ns for p in (out / "decisions").iterdir()} == parts
    other = tmp_path / "other"
    fresh = run_cli("advise", "--rules", "french", *SMALL, "--out", str(other), "--quiet")
    assert fresh.stdout == first.stdout.replace(str(out), str(other))
    assert (other / "tips.toml").read_text() == (out / "tips.toml").read_text()


def test_each_example_replays_to_its_position(advised) -> None:
    out, _ = advised
    for path in sorted((out / "examples").glob("tip-*.json")):
        game = load_game(str(path))
        events = replay(game)
        assert len(events) > len(json.loads(path.read_text())["moves"])


def test_words_name_no_code() -> None:
    """Every thing a tip reads has words, and none of them is a name of the code."""
    assert set(PHRASES) == {name for name, _ in VIEW}
    code_names = [*VIEW_COLUMNS, *(name for name, _ in PLAYS)]
    for place, name in enumerate(VIEW_COLUMNS, start=1):
        for lo, hi in ((0, 0), (1, 1), (0, 3), (2, 5), (4, 99), (12, 99), (0, 99)):
            words = condition_words(Condition(place, lo, hi))
            assert "_" not in words and words, (name, lo, hi)
            assert not any(f" {c} " in f" {words} " for c in code_names if "_" in c)
    tip = Tip(1, (Condition(VIEW_COLUMNS.index("cheapest") + 1, 12, 99),), 1, 1, 0, "weakest")
    assert tip_words(tip) == "When your weakest cards that can go are an A or stronger, pass."


def test_a_measure_where_the_answer_is_known(tmp_path) -> None:
    """The simple player against itself gains exactly 0; passing whenever it may (a tip
    that always applies when answering) loses places, its interval clear of 0."""
    rules = preset("french")
    table = Table(rules, "rules-aware", 4, 10, 1)
    same = table.worth(BASELINE, 400)
    assert (same.estimate, same.low, same.high, same.changed) == (0.0, 0.0, 0.0, 0.0)
    always_pass = Tip(1, (), 1, 1, 0, "")
    worse = table.worth(tips_file([always_pass], rules, tmp_path / "pass.toml", {}), 400)
    assert worse.low > 0.3


def test_bad_input_is_one_line(tmp_path) -> None:
    assert_refused(run_cli("advise", "--mined", "0", "--out", str(tmp_path / "a")), "--mined")
    assert_refused(run_cli("advise", "--rules", "nosuch", "--out", str(tmp_path / "b")), "nosuch")
    taken = tmp_path / "c"
    taken.mkdir()
    (taken / "state.json").write_text('{"key": {"format": "other"}, "worths": {}}')
    assert_refused(run_cli("advise", *SMALL, "--out", str(taken)), "another question")
    (taken / "state.json").write_text("{not json")
    assert_refused(run_cli("advise", *SMALL, "--out", str(taken)), "state.json")


def test_a_hint_says_what_champion_would_play_and_changes_nothing(advised) -> None:
    out, _ = advised
    plain = play(*GAME, "--rounds", "1", keys=ROUND_1)
    tips = ("--tips", str(out / "tips.toml"))
    hinted = play(*GAME, "--rounds", "1", *tips, keys=["h", *ROUND_1])
    assert hinted.exit_code == 0, hinted.stderr
    lines = hinted.stdout.split("\n")
    at = lines.index(PROMPT + "h")
    said = lines[at + 1 : at + 3]
    assert said[0].startswith("  champion would play: ")
    assert said[1] == "  no tip applies here" or said[1].startswith("  tip 1 applies: When ")
    assert "\n".join(lines[:at] + lines[at + 3 :]) == plain.stdout
    assert_refused(play(*GAME, "--tips", str(out / "nothing.toml"), keys=[]), "--tips")
