"""``DIR/atlas.html`` from a synthetic ``atlas.parquet`` frame (tests/reports/atlas_frame.py):
the first screen says the verdicts that hold first, then those that depend on the level
of play with each level's figure, and never a claim that one rung alone supports; then
the skill curve, where the ladder is not monotone, the luck measures, RS labelled as
failing the dose of luck, a sortable table of every measure and how the field enters
each measure."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pandas as pd
import pytest

from reports.atlas import words as atlas_words
from reports.atlas.page import write_atlas_page
from tests.reports.atlas_frame import (
    BASE,
    DEPENDS,
    LUCK_CLAIMS,
    NO_DIFFERENCE,
    NOT_MONOTONE,
    SKILL_CLAIMS,
    TIED,
    UNPAIRED,
    WEAK_FIELD,
    atlas_frame,
)
from tests.reports.page_parts import broken_links, embedded_figure, section

CLAIM = "makes the game more about"


def _page(frame: pd.DataFrame, tmp_path: Path) -> str:
    path = tmp_path / "atlas.html"
    write_atlas_page(frame, path)
    return path.read_text("utf-8")


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> str:
    return _page(atlas_frame(), tmp_path_factory.mktemp("atlas"))


def _items(html_text: str) -> list[str]:
    return re.findall(r"<li>(.*?)</li>", section(html_text, "summary"), re.S)


def test_held_claims_first_then_the_level_dependent_ones(page):
    items = _items(page)
    claims = [i for i in items if CLAIM in i]
    assert [c.split(" makes")[0] for c in claims] == [*SKILL_CLAIMS, *LUCK_CLAIMS]
    assert "more about skill than french at every level of play" in claims[0]
    depends = [k for k, i in enumerate(items) if "depends on the level of play" in i]
    assert len(depends) == len(DEPENDS) and min(depends) > items.index(claims[-1])
    for name in DEPENDS:  # each with its figure at every level
        said = next(i for i in items if f"For {name} against" in i)
        assert said.count("Holm p") == 5 and "with tuned linear" in said


def test_one_rung_alone_or_disagreeing_rungs_make_no_claim(page):
    claims = [i for i in _items(page) if CLAIM in i]
    for name in (*DEPENDS, *NO_DIFFERENCE, *UNPAIRED):
        assert not any(name in c for c in claims), name


def test_the_rest_is_counted_and_the_base_described(page):
    summary = section(page, "summary")
    assert f"1 rule set showed no difference from {BASE} at any level of play" in summary
    assert f"on the same deals (another number of players): {UNPAIRED[0]};" in summary
    assert "skill gap</a> of 0.700 [0.690, 0.710] (the places a round it gains" in summary
    assert "900 [600, ∞] rounds" in summary
    assert "relative skill" not in summary.lower()  # RS fails the dose of luck: no headline


@pytest.mark.parametrize(
    ("edge", "n95", "said"),
    [
        ((-0.05, -0.06, -0.04), (900.0, 600.0, math.inf),
         "and beats the best heuristic with 95 % confidence over 900 [600, ∞] rounds"),
        ((-0.05, -0.12, 0.02), (900.0, 60.0, math.inf),
         "Whether it beats the best heuristic is not known at this size"),
        ((0.05, 0.02, 0.08), (900.0, 600.0, 3000.0), "the best heuristic places better than it"),
        ((-0.05, -0.06, -0.04), (0.0, 0.0, math.inf),
         "over how many rounds (N95) its ordinary matches are too few to tell"),
    ],
)  # fmt: skip
def test_the_base_beats_the_best_heuristic_only_where_its_interval_says_so(
    tmp_path, edge, n95, said
):
    """A tiny atlas printed "beats the best heuristic with 95 % confidence over 0 [0, ∞]
    rounds": the claim is made only when Δ's interval lies below 0, with N95 when the
    ordinary matches gave a spread."""
    frame = atlas_frame()
    for measure, (est, low, high) in (("edge_top_vs_heuristic", edge), (atlas_words.TOP_N95, n95)):
        rows = (frame["rule_set"] == BASE) & (frame["measure"] == measure)
        frame.loc[rows, ["estimate", "low", "high"]] = est, low, high
    summary = re.sub(r"<[^>]+>", "", section(_page(frame, tmp_path), "summary"))
    assert said in summary
    assert ("beats the best heuristic with" in summary) == said.startswith("and beats")


def test_no_verdict_that_holds_is_said_so(tmp_path):
    frame = atlas_frame()
    held = frame["rule_set"].isin(SKILL_CLAIMS + LUCK_CLAIMS)
    frame.loc[held & (frame["measure"] == "skill_gap_champion_vs_base"), "p_holm"] = 0.2
    page = _page(frame, tmp_path)
    items = _items(page)
    said = [i for i in items if CLAIM in i]
    assert said == [f"No rule set makes the game more about skill or more about luck than "
                    f"{BASE} at every level of play."]  # fmt: skip
    assert sum("depends on the level of play" in i for i in items) == len(DEPENDS) + 2
    assert "atlas-verdicts" in page  # the depending ones are drawn
    frame = frame[~frame["rule_set"].isin([*SKILL_CLAIMS, *LUCK_CLAIMS, *DEPENDS])]
    page = _page(frame, tmp_path)  # over the page before: its figure goes too
    assert "atlas-verdicts" not in page  # no verdict at all: no empty frame drawn
    assert not list((tmp_path / "figures").glob("atlas-verdicts.*"))


def test_an_atlas_without_the_mixed_tables_still_gives_verdicts(tmp_path):
    page = _page(atlas_frame(depth=False), tmp_path)
    claims = [i for i in _items(page) if CLAIM in i]
    assert len(claims) == len(SKILL_CLAIMS + LUCK_CLAIMS)
    assert "skill depth" not in claims[0]


def test_where_the_ladder_is_not_monotone(page):
    words = section(page, "ladder")
    ((name, (upper, _)),) = NOT_MONOTONE.items()
    assert f"{name}: {upper} places worse than the best heuristic" in words
    ((name, (upper, _)),) = TIED.items()
    assert "Not told apart" in words and f"{name}: {upper} and champion ×¼" in words
    assert words.count("places worse than") == 1


def test_rs_is_a_curve_labelled_as_failing_the_dose_of_luck(page):
    rs = section(page, "rs")
    assert embedded_figure(page, "atlas-rs") is not None
    assert "fails the dose of luck" in rs and "does not see luck nobody can exploit" in rs
    assert "Kendall&#x27;s τ = 0.81" in rs and "no verdict of this page rests on RS" in rs
    assert "Kendall" not in section(page, "summary")


def test_the_luck_measures_and_the_field(page):
    luck = section(page, "luck")
    assert "N95 top vs best heuristic" in luck and "N95 champion_high vs champion" in luck
    assert '<table class="wraps">' in luck
    field = section(page, "field")
    assert "skill depth and the ratings" in field and "does not sit at them" in field
    assert f"{WEAK_FIELD}: planner beats the field (linear) by 0.49 places" in field
    assert field.count("beats the field") == 1
    assert "tuned for spade" in field and "tuned for french" in field


def test_the_table_sorts_wraps_and_fetches_nothing(page):
    table = section(page, "measures")
    assert '<table class="sortable wraps">' in table and "table.sortable" in table
    heads = re.findall(r"<th[^>]*><button[^>]*>([^<]*)</button></th>", table)
    assert heads[:3] == ["rule set", "verdict", "mean place: random"]
    paired = "skill gap: champion − base (paired)"
    assert heads[heads.index(paired) + 1] == "Holm-adjusted p"
    assert "N95 top vs best heuristic" in heads and "capped" in heads
    assert "900 [600, ∞]" in table  # an open-ended N95
    assert not re.search(r'(src|href)="(?!data:|#)', page), "the page fetches nothing"


def test_capped_rule_sets_are_flagged(page):
    rows = re.findall(r'<tr class="flag"><td class="text">([^<]*)</td>', page)
    assert rows == ["spade"]
    assert "the duels (mean places, skill gaps, RS): spade." in section(page, "summary")


def test_the_figures_are_embedded_and_the_links_hold(page):
    for name in ("atlas-verdicts", "atlas-skill-curve", "atlas-rs"):
        assert embedded_figure(page, name) is not None, name
    assert broken_links(page) == []


def test_names_from_the_data_are_escaped(tmp_path):
    frame = atlas_frame()
    frame["rule_set"] = frame["rule_set"].replace(SKILL_CLAIMS[0], "<b>odd</b>")
    page = _page(frame, tmp_path)
    assert "<b>odd</b>" not in page and "&lt;b&gt;odd&lt;/b&gt;" in page


@pytest.mark.parametrize(
    "measure, shown",
    [
        ("skill_gap_champion_low_vs_base", "skill gap: champion_low − base (paired)"),
        ("edge_champion_vs_champion_low", "Δ champion − champion_low"),
        ("n95_top_vs_heuristic", "N95 top vs best heuristic"),
        ("rating_lowest", "rating: lowest"),
        ("mean_place_rules-aware", "mean place: rules-aware"),
    ],
)
def test_measure_labels(measure, shown):
    assert atlas_words.label(measure) == shown
