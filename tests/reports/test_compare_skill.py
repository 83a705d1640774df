"""``president compare --skill``: the atlas's measures for the compared rule sets, on the
page, in compare.json and on the terminal; without ``--skill`` no skill game is played."""

from __future__ import annotations

import html
import json
import re

import pandas as pd
import pytest

import simulator
from reports.atlas.words import label
from reports.compare.page import skill_section, skill_verdicts
from reports.compare.text import SKILL_TITLE
from simulator.runs.atlas import batches as atlas
from simulator.runs.atlas import run as atlas_run
from simulator.runs.atlas import verdicts
from simulator.runs.atlas.play import AtlasSettings
from simulator.runs.compare import variants
from tests.conftest import run_cli
from tests.reports.atlas_frame import atlas_frame
from tests.reports.page_parts import section

COMPARE = ("compare", "--rules", "french", "--rules", "scum", "--matches", "6",
           "--rounds-per-match", "3", "--quiet")  # fmt: skip


def test_without_skill_no_skill_game_is_played(tmp_path, monkeypatch):
    def refuse(*args: object, **kwargs: object) -> pd.DataFrame:
        raise AssertionError("compare without --skill played the atlas's games")

    for module in (atlas, atlas_run):  # imported first: one imported while patched keeps it
        monkeypatch.setattr(module, "skill_rows", refuse)
    result = run_cli(*COMPARE, "--out", str(tmp_path / "out"))
    assert result.exit_code == 0, result.stderr
    assert SKILL_TITLE.split(" (")[0] not in result.stdout
    page = (tmp_path / "out" / "compare.html").read_text("utf-8")
    assert section(page, "skill") == ""
    assert "skill" not in json.loads((tmp_path / "out" / "compare.json").read_text())


@pytest.fixture(scope="module")
def skilled(tmp_path_factory) -> tuple:
    """A tiny compare --skill: one batch of a few rounds per rule set."""
    out = tmp_path_factory.mktemp("skill") / "out"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(variants, "skill_settings",
                      lambda vs: AtlasSettings(seed=vs[0].config.seed, batch_rounds=24,
                                               min_batches=1, max_batches=1, max_edge_batches=1,
                                               match_batches=1, mix_batches=1))  # fmt: skip
        patch.setenv("COLUMNS", "200")
        result = run_cli(*COMPARE, "--skill", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    return out, result.stdout


def test_skill_rows_name_the_variants_with_the_first_as_base(skilled):
    out, _ = skilled
    rows = pd.DataFrame(json.loads((out / "compare.json").read_text())["skill"])
    assert list(dict.fromkeys(rows["rule_set"])) == ["french", "scum"]
    facts = rows.drop_duplicates("rule_set").set_index("rule_set")
    assert facts.at["french", "change"] == "" and facts.at["scum", "change"] != ""
    assert {"relative_skill", "relative_skill_vs_base"} <= set(rows["measure"])


def test_skill_section_on_the_page_and_the_terminal(skilled):
    out, stdout = skilled
    whole = (out / "compare.html").read_text("utf-8")
    page = section(whole, "skill")
    assert label("relative_skill") in page and "Holm-adjusted p" in page
    assert "capped (short of the precision)" in page and "tuned for scum" in page
    assert "verdict (docs/skill.md)" in page and '<table class="wraps">' in page
    assert "<th>french</th>" in page and "<th>scum</th>" in page
    rows = pd.DataFrame(json.loads((out / "compare.json").read_text())["skill"])
    (said,) = verdicts.verdicts(rows)["sentence"]  # scum against french, on the first screen
    assert html.escape(said) in section(whole, "summary")
    assert said in " ".join(stdout.split())
    assert SKILL_TITLE.split(" (")[0] in stdout
    assert label("relative_skill") in stdout
    assert max(len(line) for line in stdout.splitlines()) <= 200  # the terminal's COLUMNS


def test_the_api_measures_the_same_skill_as_the_command(skilled):
    out, _ = skilled
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(variants, "skill_settings",
                      lambda vs: AtlasSettings(seed=vs[0].config.seed, batch_rounds=24,
                                               min_batches=1, max_batches=1, max_edge_batches=1,
                                               match_batches=1, mix_batches=1))  # fmt: skip
        cmp = simulator.compare(["french", "scum"], matches=6, rounds_per_match=3, skill=True)
    rows = pd.DataFrame(json.loads((out / "compare.json").read_text())["skill"])
    assert cmp.skill is not None
    mine = cmp.skill[rows.columns].reset_index(drop=True)
    mine = mine.replace([float("inf"), float("-inf")], float("nan"))  # JSON: null, open-ended
    pd.testing.assert_frame_equal(mine, rows, check_dtype=False)
    assert SKILL_TITLE.split(" (")[0] in cmp.text(200)


def test_the_skill_verdict_leads_and_the_table_wraps():
    """On a synthetic atlas frame: the held verdicts first, then the others, each as the
    atlas says it; the "By rule set" table's cells wrap (it was cut off at 1,400 px)."""
    frame = atlas_frame()
    box = skill_verdicts(frame)
    said = verdicts.verdicts(frame)
    held = verdicts.held(said)
    items = re.findall(r"<li>(.*?)</li>", box, re.S)
    assert len(items) == len(said) and len(held) == 2
    assert [i.split(" makes")[0] for i in items[:2]] == held["rule_set"].tolist()
    table = skill_section(frame)
    assert '<table class="wraps">' in table and "verdict (docs/skill.md)" in table
    assert "depends on the level of play" in table
