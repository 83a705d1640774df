"""What the pages say, without a browser: the rules in words, the summary's findings, the
glossary and the phone layout's markup."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from reports import headline, html, settings
from reports.estimates import POOLED
from reports.glossary import TERMS, glossary, term
from reports.strategy import words as standing_words
from reports.strategy.page import clipped
from simulator.rules.options import Rules, option_meanings
from simulator.rules.presets import PRESETS, preset
from simulator.runs.standings import Standings


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_preset_is_named(name):
    assert settings.rule_set_name(preset(name).to_dict()) == name


def test_changed_rules_name_their_preset_and_changes():
    rules = preset("french").with_options(exchange=(), players=5).to_dict()
    assert settings.rule_set(rules) == ("french", ["exchange"])  # players is not a rule set
    assert settings.rule_set_name(rules) == "french with exchange changed"


def test_a_run_written_before_an_option_existed_takes_its_default():
    rules = preset("spade").to_dict()
    del rules["jokers"]
    assert settings.resolved(rules) == preset("spade").to_dict()
    assert settings.rule_set_name(rules) == "spade"


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("reseat", True, "yes"),
        ("quad_burns", False, "no"),
        ("exchange", [], "none"),
        ("exchange", [2, 1], "2, 1"),
        ("points", {"top": [], "bottom": []}, "none"),
        ("points", {"top": [2, 1], "bottom": [-1, -2]}, "top 2, 1; bottom -1, -2"),
        ("target", 0, "none"),
        ("target", 11, "11"),
        ("passing", "out_of_trick", "out_of_trick"),
    ],
)
def test_values_in_words(key, value, words):
    assert settings.in_words(key, value) == words


def test_rules_table_means_every_option_and_highlights_only_changes():
    rules = preset("spade").to_dict()
    table = settings.rules_table({"spade": rules})
    rows = re.findall(r"<tr( class=\"changed\")?><td[^>]*><code>(\w+)</code>", table)
    assert [key for _, key in rows] == list(Rules().to_dict())
    changed = {key for mark, key in rows if mark}
    assert changed == {k for k, v in rules.items() if v != Rules().to_dict()[k]}
    for meaning in option_meanings().values():
        assert html.text(meaning) in table
    for raw in ("null", "False", "True", "{&quot;top&quot;", "[]"):
        assert raw not in table, raw
    assert "<strong>11</strong>" in table  # the changed value, emphasised
    assert 'data-label="default"' in table  # a phone's card names each cell


def test_markup_survives_a_dataframe_and_text_is_escaped():
    frame = pd.DataFrame({"a": [html.code("k"), "<b>"], "b": ["x", html.Markup("<i>y</i>")]})
    out = html.table(frame)
    assert "<code>k</code>" in out and "&lt;b&gt;" in out and "<i>y</i>" in out


def test_glossary_links_reach_their_entries():
    page = html.page("t", [("s", "S", html.paragraph(term("slem"))), ("g", "G", glossary(TERMS))])
    targets = set(re.findall(r'id="([^"]+)"', page))
    assert all(a in targets for a in re.findall(r'href="#([^"]+)"', page))
    assert 'href="#g-slem"' in page and "second-largest eigenvalue" in page


def _next_place(rows: dict[str, float]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"strategy": POOLED, "prev_role": r, "estimate": e, "lo": e - 0.01, "hi": e + 0.01}
         for r, e in rows.items()]
    )  # fmt: skip


def _transitions(counts: dict[tuple[str, str], int]) -> pd.DataFrame:
    return pd.DataFrame(
        [{"strategy": s, "prev_role": r, "role": "president", "count": n}
         for (s, r), n in counts.items()]
    )  # fmt: skip


def test_a_surprising_order_of_next_places_is_explained():
    nxt = _next_place({"president": 1.99, "vice_president": 2.24, "vice_scum": 2.96, "scum": 2.81})
    moves = _transitions({("lowest", "vice_scum"): 13, ("random", "vice_scum"): 87,
                          ("lowest", "scum"): 29, ("random", "scum"): 71})  # fmt: skip
    text = html.text(headline.surprise(nxt, moves))
    assert "better after Scum" in text and "than after Vice-Scum" in text
    assert "holds 29% of the Scum rounds but 13% of the Vice-Scum rounds" in text


def test_no_surprise_when_the_roles_are_in_order_or_overlap():
    ordered = _next_place({"president": 1.9, "vice_president": 2.2, "scum": 3.0})
    assert headline.surprise(ordered, _transitions({})) is None
    overlapping = _next_place({"president": 2.0, "scum": 1.995})
    assert headline.surprise(overlapping, _transitions({})) is None


def test_share_intervals_are_clipped_on_the_strategy_pages():
    ranking = pd.DataFrame(
        {"strategy": ["a"], "rounds": [10]}
        | {f"{c}{s}": [v] for c in ("mean_place", "adjusted", "president", "scum", "match_wins")
           for s, v in (("", 0.0), ("_lo", -0.01), ("_hi", 1.01))}
    )  # fmt: skip
    st = clipped(Standings(ranking, pd.DataFrame(), pd.DataFrame(), 5, "x", True, None))
    row = st.ranking.iloc[0]
    for column in ("president", "scum", "match_wins"):
        assert row[f"{column}_lo"] == 0.0 and row[f"{column}_hi"] == 1.0
    assert row["mean_place_lo"] == -0.01  # not a proportion: as computed


def _standings(plain: tuple[float, float, float]) -> Standings:
    """Two strategies, ``a`` first; ``plain``: a's mean place minus b's with its interval."""
    columns = ("mean_place", "adjusted", "president", "scum", "match_wins")
    ranking = pd.DataFrame(
        {"strategy": ["a", "b"], "rounds": [10, 10]}
        | {f"{c}{s}": [2.0 + d, 3.0 + d] for c in columns
           for s, d in (("", 0.0), ("_lo", -0.1), ("_hi", 0.1))}
    )  # fmt: skip
    diff, lo, hi = plain
    pairs = pd.DataFrame({"a": ["a"], "b": ["b"], "diff": [diff], "diff_lo": [lo], "diff_hi": [hi]})
    return Standings(ranking, pairs, pd.DataFrame(), 5, "x", False, None)


@pytest.mark.parametrize(
    ("plain", "said"),
    [
        ((-1.0, -1.1, -0.9), "1.00 [0.90, 1.10] places better</strong>"),  # half 0.10
        ((0.0, -0.1, 0.1), "may be chance (its interval holds 0)"),
        ((0.5, 0.4, 0.6), "ranks first once the luck of the cards is taken out"),
    ],
)
def test_the_winner_is_said_as_the_numbers_allow(plain, said):
    assert said in html.text(standing_words.winner(_standings(plain), target=False))
