"""``DIR/atlas.html`` from a synthetic ``atlas.parquet`` frame (tests/reports/atlas_frame.py):
the page says which rules make the game more about skill or luck exactly where the paired
difference with the base supports it, flags capped rule sets, names the field's weights,
and sorts its table without fetching anything."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from reports.atlas import words as atlas_words
from reports.atlas.page import write_atlas_page
from tests.reports.atlas_frame import (
    BASE,
    LUCK_CLAIMS,
    NO_DIFFERENCE,
    RULE_SETS,
    SKILL_CLAIMS,
    SWAPPED,
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


def _sentences(html_text: str) -> list[str]:
    """The summary's claims, one a list item."""
    items = re.findall(r"<li>(.*?)</li>", section(html_text, "summary"), re.S)
    return [i for i in items if CLAIM in i]


def test_a_sentence_for_each_supported_difference_and_none_other(page):
    said = _sentences(page)
    assert len(said) == len(SKILL_CLAIMS) + len(LUCK_CLAIMS)
    for name in SKILL_CLAIMS:
        assert any(f"{name} {CLAIM} skill than {BASE}" in s for s in said), said
    for name in LUCK_CLAIMS:
        assert any(f"{name} {CLAIM} luck than {BASE}" in s for s in said), said
    for name in (*NO_DIFFERENCE, "french: 5 players"):
        assert not any(name in s for s in said), name
    # skill first, each with its interval and Holm-adjusted p
    assert "skill" in said[0] and "luck" in said[1]
    assert "rises by 0.060 [0.040, 0.080]" in said[0] and "Holm-adjusted p = 0.001" in said[0]
    assert "falls by 0.070 [0.050, 0.090]" in said[1] and "p &lt; 0.001" in said[1]


def test_the_rule_sets_without_a_difference_are_counted_not_described(page):
    summary = section(page, "summary")
    assert f"{len(NO_DIFFERENCE)} rule sets showed no difference from {BASE}" in summary
    assert "(the data hold no paired difference): french: 5 players;" in summary
    assert "near 0 the cards decide" in summary and "how strong champion" in summary


def test_no_claim_without_support(tmp_path):
    """A Holm p below 0.05 with an interval holding 0, and a clear interval with a Holm p
    above it, are no claim; with none left the page says so."""
    frame = atlas_frame()
    diff = frame["measure"] == atlas_words.RS_VS_BASE
    frame.loc[diff & frame["rule_set"].isin(SKILL_CLAIMS), ["low", "p_holm"]] = [-0.01, 0.01]
    frame.loc[diff & frame["rule_set"].isin(LUCK_CLAIMS), "p_holm"] = 0.06
    page = _page(frame, tmp_path)
    assert _sentences(page) == []
    summary = section(page, "summary")
    assert f"No rule set changes relative skill from {BASE}" in summary
    assert f"{len(NO_DIFFERENCE) + 2} rule sets showed no difference" in summary


def test_capped_rule_sets_are_flagged_with_the_parts_that_hit_their_cap(page):
    rs_capped = [n for n, v in RULE_SETS.items() if "RS" in v[4]]
    rows = re.findall(r'<tr class="flag"><td class="text">([^<]*)</td>', page)
    assert rows == rs_capped  # red: RS capped; the edges alone are named in the last cell
    for part, what in (("RS", "RS"), ("edges", "the edges (Δ, N95)")):
        which = ", ".join(n for n, v in RULE_SETS.items() if part in v[4])
        assert f"Capped</a> (wider intervals than asked for), {what}: {which}." in page
    last = dict(re.findall(r'<tr[^>]*><td class="text">([^<]*)</td>.*?<td class="text">'
                           r"([^<]*)</td></tr>", page))  # fmt: skip
    assert {n: last[n] for n in RULE_SETS} == {n: v[4] or "no" for n, v in RULE_SETS.items()}


def test_the_table_sorts_without_fetching_anything(page):
    table = section(page, "measures")
    assert '<table class="sortable">' in table and "table.sortable" in table
    heads = re.findall(r"<th[^>]*><button[^>]*>([^<]*)</button></th>", table)
    assert heads[:4] == ["rule set", atlas_words.label(atlas_words.RS),
                         atlas_words.label(atlas_words.RS_VS_BASE), "Holm-adjusted p"]  # fmt: skip
    assert "N95 top (champion ×4) vs best heuristic" in heads and "capped" in heads
    assert re.search(r'data-sort="0.46">0.460 \[0.445, 0.475\]</td>', table)
    assert "900 [600, ∞]" in table  # an open-ended N95
    assert not re.search(r'(src|href)="(?!data:|#)', page), "the page fetches nothing"


def test_the_field_its_weights_and_the_robustness_check(page):
    field = section(page, "field")
    assert "tuned for spade" in field and "tuned for french" in field
    words = section(page, "robustness")
    high, low = SWAPPED
    assert f"{high} above {low} with champion, below it with linear" in words
    assert words.count("above") == 1  # the pairs whose order by champion is unclear are left out


def test_the_figure_is_embedded_and_the_links_hold(page, tmp_path):
    assert embedded_figure(page, "atlas-rs") is not None
    assert broken_links(page) == []


def test_names_from_the_data_are_escaped(tmp_path):
    frame = atlas_frame()
    frame["rule_set"] = frame["rule_set"].replace(SKILL_CLAIMS[0], "<b>odd</b>")
    page = _page(frame, tmp_path)
    assert "<b>odd</b>" not in page and "&lt;b&gt;odd&lt;/b&gt;" in page


@pytest.mark.parametrize(
    "change, name, opening",
    [
        ("jack_back = true", "french: jack_back=true", "french: jack_back=true makes"),
        (
            "jack_back = true",
            "examples/rules/x.toml",
            "jack_back = true (examples/rules/x.toml) makes",
        ),
        ("dealer = president, exchange = [1]", "scum", "scum makes"),
    ],
)
def test_a_claim_names_the_change_where_it_adds_to_the_name(change, name, opening):
    found = atlas_words.Finding(name, change, 0.05, 0.02, 0.08, 0.01)
    assert found.supported
    assert atlas_words.claim(found, BASE, 2).startswith(f"{opening} the game more about skill")


def test_an_open_ended_rs_interval_is_drawn_and_said(tmp_path):
    """An RS interval open at one end (allowed by the contract) draws to the plot's edge,
    its row marked, and its cell shows ∞."""
    frame = atlas_frame()
    rs = (frame["measure"] == atlas_words.RS) & (frame["rule_set"] == "spade")
    frame.loc[rs, "high"] = float("inf")
    page = _page(frame, tmp_path)
    assert embedded_figure(page, "atlas-rs") is not None
    assert "0.380 [0.365, ∞]" in section(page, "measures")
