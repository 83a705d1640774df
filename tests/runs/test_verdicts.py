"""The verdicts of the atlas (simulator/runs/atlas/verdicts.py): a claim holds only where
every rung from tuned linear up and the ladder-wide rating agree in sign, each with a
Holm-adjusted p below 0.05; it is withheld when the rungs disagree or one rung alone
supports it; an atlas without the mixed tables is judged on the rungs."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from simulator.runs.atlas import verdicts as v
from tests.reports.atlas_frame import (
    BASE,
    DEPENDS,
    LUCK_CLAIMS,
    NO_DIFFERENCE,
    SKILL_CLAIMS,
    UNPAIRED,
    atlas_frame,
)


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return v.verdicts(atlas_frame()).set_index("rule_set")


def test_each_rule_set_gets_the_verdict_its_rungs_support(table):
    expected = {n: v.SKILL for n in SKILL_CLAIMS} | {n: v.LUCK for n in LUCK_CLAIMS}
    expected |= {n: v.DEPENDS for n in DEPENDS} | {n: v.NONE for n in NO_DIFFERENCE}
    expected |= {n: v.UNPAIRED for n in UNPAIRED}
    assert table["verdict"].to_dict() == expected  # the base gets no row
    assert BASE not in table.index


def test_a_claim_is_withheld_when_the_rungs_disagree(table):
    """eight_stops: linear finds more skill and champion more luck, both significant."""
    row = table.loc["french: eight_stops=false"]
    assert row["linear_estimate"] > 0 and row["champion_estimate"] < 0
    assert max(row["linear_p_holm"], row["champion_p_holm"]) < v.ALPHA
    assert row["verdict"] == v.DEPENDS
    said = row["sentence"]
    assert "depends on the level of play" in said and "makes the game" not in said
    assert "with tuned linear it rises by 0.030 [0.020, 0.040] (Holm p = 0.001)" in said
    assert "with champion it falls by 0.030 [0.020, 0.040]" in said
    assert "with champion at ¼ of its search no difference" in said


def test_one_rung_alone_never_makes_a_claim(table):
    row = table.loc["spade"]
    assert row["champion_p_holm"] < v.ALPHA and row["verdict"] == v.DEPENDS


def _one(differences: dict[str, tuple[float, float]]) -> str:
    """The verdict of a variant whose levels have these (estimate, p_holm)."""
    return v.verdict({k: (e, e - 0.01, e + 0.01, p) for k, (e, p) in differences.items()})


@pytest.mark.parametrize(
    "depth, expected",
    [((0.02, 0.01), v.SKILL), ((0.02, 0.2), v.DEPENDS), ((-0.02, 0.01), v.DEPENDS)],
)
def test_the_ladder_wide_rating_must_agree_too(depth, expected):
    rungs = {r: (0.02, 0.001) for r in v.VERDICT_RUNGS}
    assert _one(rungs) == v.SKILL
    assert _one(rungs | {v.DEPTH: depth}) == expected


def test_a_level_not_measured_never_helps_a_claim_hold():
    rungs = {r: (-0.02, 0.001) for r in v.VERDICT_RUNGS}
    assert _one(rungs | {"champion_high": (math.nan, math.nan)}) == v.DEPENDS
    assert _one({r: (0.02, 0.3) for r in v.VERDICT_RUNGS}) == v.NONE


def test_an_atlas_without_the_mixed_tables_is_judged_on_the_rungs():
    table = v.verdicts(atlas_frame(depth=False)).set_index("rule_set")
    assert not any(c.startswith(v.DEPTH) for c in table.columns)
    assert table.loc[SKILL_CLAIMS[0], "verdict"] == v.SKILL
    assert table.loc[LUCK_CLAIMS[0], "verdict"] == v.LUCK
    assert "rating" not in table.loc[SKILL_CLAIMS[0], "sentence"]


def test_held_claims_come_skill_first_and_say_every_level(table):
    held = v.held(table.reset_index())
    assert held["rule_set"].tolist() == [*SKILL_CLAIMS, *LUCK_CLAIMS]
    first = held["sentence"].iloc[0]
    assert first.startswith(f"french: jack_back=true makes the game more about skill than {BASE}")
    assert "at every level of play: the skill gap rises by 0.030 [0.020, 0.040] with " in first
    assert "(each Holm p ≤ 0.001)" in first
    for words in v.LEVELS.values():
        assert words in first
    assert v.held(table.reset_index().iloc[0:0]).empty


def test_a_rule_set_without_paired_rows_is_not_compared(table):
    assert table.loc[UNPAIRED[0], "sentence"] == (
        f"players = 5 ({UNPAIRED[0]}) was not compared with {BASE} on the same deals."
    )
    assert math.isnan(table.loc[UNPAIRED[0], "champion_estimate"])
