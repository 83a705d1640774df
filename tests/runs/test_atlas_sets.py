"""The atlas's rule sets: derived from the rule spec, legal, each named once; the
batches: the same deals for every test strategy and every rule set of one table size;
and the sizes: batches until the precision targets or the cap."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from simulator.rules.files import load_rules
from simulator.rules.options import BOOL_KEYS, CHOICES, KEYS, Rules, RulesError
from simulator.rules.presets import PRESET_NAMES, preset
from simulator.runs.atlas.batches import (
    BatchStore,
    duel_tables,
    estimate_minutes,
    pair_tables,
    skill_rows,
)
from simulator.runs.atlas.ladder import SEARCH_KNOB, kernel_name
from simulator.runs.atlas.play import AtlasSettings
from simulator.runs.atlas.rows import holm_by_measure
from simulator.runs.atlas.sets import (
    ARGUED,
    ARGUED_FILES,
    EXAMPLES,
    AtlasError,
    default_rule_sets,
    named_rule_sets,
    shown,
)
from simulator.runs.atlas.windows import is_mix_measure
from strategies.registry import get


def test_the_default_atlas_holds_the_presets_the_argued_options_and_the_table_sizes():
    sets = default_rule_sets("french")
    names = [s.name for s in sets]
    assert names[0] == "french" and len(set(names)) == len(names)
    # each boolean false in french; the suits' options (the lock, sequences) would give
    # french suits, another game: they are argued around uecda
    singles = [f"french: {key}=true" for key in ARGUED if key in BOOL_KEYS]
    files = [f"examples/rules/{name}" for name in ARGUED_FILES]
    sizes = [f"french: {n} players" for n in (3, 5, 6)]
    assert sorted(names) == sorted([*PRESET_NAMES, *singles, "french: exchange=[]", *files, *sizes])
    # the exchange's absence is french-no-exchange.toml's rules around french, measured once
    no_exchange = load_rules(EXAMPLES / "french-no-exchange.toml")
    assert [s.name for s in sets if s.rules == no_exchange] == ["french: exchange=[]"]
    assert {"suit_lock", "sequences"} <= set(ARGUED) - set(BOOL_KEYS)
    full = [s.name for s in default_rule_sets("french", every=True)]
    assert set(names) < set(full) and full[0] == "french"
    assert "french: suit_lock=suits" in full


def test_the_default_atlas_around_uecda_measures_daifugos_argued_rules_turned_off():
    sets = {s.name: s for s in default_rule_sets("uecda")}
    base = preset("uecda")
    assert sets["uecda: suit_lock=off"].rules == dataclasses.replace(base, suit_lock="off")
    # no sequences: the revolution by a sequence of five, which leans on them, goes too
    # (named in the rule set's words)
    off = sets["uecda: sequences=off"]
    assert off.rules == dataclasses.replace(base, sequences="off", sequence_revolution=0)
    assert off.change == "sequences = off, sequence_revolution = 0"
    assert "uecda: sequences=above_lowest" in sets and "uecda: revolution=false" in sets
    # the exchange's absence around uecda is uecda's own, not french-no-exchange.toml
    assert sets["uecda: exchange=[]"].rules == dataclasses.replace(base, exchange=())
    assert sets["uecda: exchange=[]"].change == "exchange = []"
    assert not any("french-no-exchange" in name for name in sets)
    with pytest.raises(RulesError):
        dataclasses.replace(base, sequences="off")


@pytest.mark.parametrize("base", ["french", "scum", "uecda"])
def test_the_full_atlas_changes_each_option_alone_to_each_legal_value(base):
    sets = default_rule_sets(base, every=True)
    names = [s.name for s in sets]
    assert len(set(names)) == len(names) and names[0] == base
    assert set(PRESET_NAMES) <= set(names)
    sizes = {3, 5, 6} - {preset(base).players}
    assert {f"{base}: {n} players" for n in sizes} <= set(names)
    # every table of examples/rules/, once: by its name, or the same rules already there
    tables = [load_rules(p) for p in EXAMPLES.glob("*.toml")]
    assert all(any(s.rules == t for s in sets) for t in tables)
    assert len({s.rules for s in sets}) == len(sets)
    rules = preset(base)
    singles = {s.rules for s in sets if s.name.startswith(f"{base}: ") and "players" not in s.name}
    expected = set()
    by_name = {s.name: s.rules for s in sets}
    for key in KEYS:  # every value of the spec's choices and booleans, one change at a time
        values = CHOICES.get(key, (False, True) if key in BOOL_KEYS else ())
        for value in values:
            if value != getattr(rules, key):
                try:
                    expected.add(dataclasses.replace(rules, **{key: value}))
                except RulesError:  # legal only with one option leaning on it at its default
                    found = by_name.get(f"{base}: {key}={shown(value)}")
                    if found is not None:
                        others = [k for k in KEYS if k != key and getattr(found, k) != getattr(rules, k)]  # fmt: skip
                        assert len(others) == 1
                        assert getattr(found, others[0]) == getattr(Rules(), others[0])
                        assert getattr(found, key) == value
                        expected.add(found)
    if rules.exchange:  # the exchange's absence, which the spec lists as no choice
        expected.add(dataclasses.replace(rules, exchange=()))
    assert singles == expected
    for rule_set in sets:
        changed = [k for k in KEYS if getattr(rule_set.rules, k) != getattr(rules, k)]
        assert (rule_set.change == "") == (not changed)
        assert all(k in rule_set.change for k in changed)


def test_an_illegal_single_change_is_left_out():
    # last_in_trick needs passing = out_of_trick: scum passes may_return, french does not
    assert preset("scum").passing == "may_return"
    names = {base: [s.name for s in default_rule_sets(base, every=True)]
             for base in ("scum", "french")}  # fmt: skip
    assert "scum: after_out_lead=last_in_trick" not in names["scum"]
    # the 3 of spades against the joker needs a joker: neither preset has one
    assert preset("french").jokers == preset("scum").jokers == 0
    assert not any("spade_three_return" in name for name in names["scum"] + names["french"])
    assert "french: after_out_lead=last_in_trick" in names["french"]


def test_named_rule_sets_put_the_base_first_and_refuse_the_unknown(tmp_path):
    example = str(EXAMPLES / "daifugo.toml")
    sets = named_rule_sets([example, "spade", "french"], "french")
    assert [s.name for s in sets] == ["french", example, "spade"]
    assert sets[1].rules.jack_back and sets[1].change.startswith("jokers = 2")
    with pytest.raises(AtlasError, match="neither a preset nor a rules file"):
        named_rule_sets(["nowhere"], "french")
    bad = tmp_path / "bad.toml"
    bad.write_text("players = 12\n")
    with pytest.raises(AtlasError, match="players = 12 is not allowed"):
        named_rule_sets([str(bad)], "french")


def test_a_batch_deals_the_same_to_every_test_strategy_and_rule_set():
    settings = AtlasSettings(batch_rounds=100)
    french, revolution = Rules(), Rules(revolution=True)
    duels = duel_tables(french, settings, 3)
    assert len({t.seed for t in duels}) == 1 and len({t.count for t in duels}) == 1
    assert [t.seed for t in duel_tables(revolution, settings, 3)] == [t.seed for t in duels]
    assert duel_tables(french, settings, 4)[0].seed != duels[0].seed
    assert all(t.lineup[1:] == ("linear",) * 3 for t in duels)
    pairs, matches = (
        pair_tables(french, settings, 3, "planner", kind) for kind in ("pair", "match")
    )
    top = kernel_name("champion_high")
    for tables in (pairs, matches):
        assert [t.lineup[:2] for t in tables] == [(top, "planner"), ("planner", "random")]
    assert len({t.seed for t in pairs + matches}) == 2  # duplicate deals, ordinary matches


@pytest.mark.parametrize("rules_name", ["spade", "scum", "french", "regles-jeu"])
def test_the_search_players_play_one_search_in_every_rule_set(rules_name):
    """Under spade, scum and french a named champion searches otherwise (the settings
    shipped for them); the atlas plays the declared search everywhere, so RS compares
    rules."""
    rules = preset(rules_name)
    for name in ("champion", "clairvoyant"):
        declared = get(name).kernel_vector[: len(get(name).params)]
        played = get(kernel_name(name), rules).kernel_vector[: len(declared)]
        assert played == get(kernel_name(name)).kernel_vector[: len(declared)]  # not the rules'
        assert (played == declared) == (name == "champion")  # the ceiling: the top level
        assert (get(name, rules).kernel_vector[: len(declared)] != declared) == (
            rules_name != "regles-jeu"
        )
    assert kernel_name("linear") == "linear" and kernel_name("heuristic", "planner") == "planner"


@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_the_knob_multiplies_the_search_parameters_by_the_level_and_the_scale(scale):
    spec = get("champion")
    declared = dict(zip((p.name for p in spec.params), spec.vector, strict=True))
    for label, factor in (("champion_low", 0.25), ("champion", 1.0), ("champion_high", 4.0),
                          ("clairvoyant", 4.0)):  # fmt: skip
        played = get(kernel_name(label, budget_scale=scale))
        values = dict(zip((p.name for p in played.params), played.vector, strict=True))
        for name, value in declared.items():
            knob = max(1, round(value * factor * scale))
            assert values[name] == (knob if name in SEARCH_KNOB else value), (label, name)
        assert played.name.startswith(label.split("_")[0])


def test_a_budget_scale_below_or_at_zero_is_refused():
    with pytest.raises(AtlasError, match="--budget-scale must be a number above 0, not 0"):
        AtlasSettings(budget_scale=0).check()


EDGE_ROWS = ("edge_", "n95_")
MATCH_ROWS = ("deal_r2", "president_stays", "exchange_effect")


@pytest.mark.parametrize(
    ("rs_target", "edge_target", "duels", "edges"),
    [(10.0, 10.0, 1, 1), (1e-6, 1e-6, 2, 3), (10.0, 1e-6, 1, 3), (1e-6, 10.0, 2, 1)],
)
def test_each_part_plays_until_its_own_precision_or_its_own_cap(rs_target, edge_target, duels,
                                                                edges):  # fmt: skip
    """The duels and the edges stop at their own precision or cap; the ordinary matches
    and the mixed tables, which have no target, play their batches whatever the others
    do, and are never capped."""
    sets = named_rule_sets(["french", str(EXAMPLES / "french-no-exchange.toml")], "french")
    settings = AtlasSettings(batch_rounds=40, min_batches=1, max_batches=2, max_edge_batches=3,
                             match_batches=2, mix_batches=1, rs_precision=rs_target,
                             rs_difference_precision=rs_target, edge_precision=edge_target)  # fmt: skip
    store, told = BatchStore(), []
    frame = skill_rows(sets, settings, lambda *step: told.append(step), store=store)
    counts = (("duel", duels), ("edge", edges), ("match", 2), ("mix", 1))
    # progress per batch: each step one batch further, the last all of them done
    played = 2 * (duels + edges + 2 + 1)
    assert [done for done, _, _ in told] == [*range(played), played]
    assert told[-1][:2] == (played, played) and all(d <= t for d, t, _ in told)
    assert told[0][2] == "1/2 french: duels, batch 1"
    assert set(store.batches) == {(s.name, part, b) for s in sets for part, count in counts
                                  for b in range(count)}  # fmt: skip
    mixed = frame["measure"].map(is_mix_measure)  # no target, never capped
    on_edges = frame["measure"].str.startswith(EDGE_ROWS) & ~mixed
    on_matches = frame["measure"].str.startswith(MATCH_ROWS) | mixed
    assert (frame.loc[~on_edges & ~on_matches, "capped"] == (duels == 2)).all()
    assert (frame.loc[on_edges, "capped"] == (edges == 3)).all()
    assert not frame.loc[on_matches, "capped"].any()
    rs = frame[frame["measure"] == "relative_skill"]
    assert (rs["clusters"] == duels * 2).all()  # two deal groups of 40 rounds a batch
    edge = frame[frame["measure"] == "edge_top_vs_heuristic"]
    assert (edge["clusters"] == edges * 2).all()
    # 4 ordinary matches of 10 rounds a batch and pair: N95's σ has a pair's, the deal both's
    for measure, pairs in (("n95_top_vs_heuristic", 1), ("deal_r2", 2)):
        assert (frame.loc[frame["measure"] == measure, "clusters"] == 2 * 4 * pairs).all()


def test_the_estimate_is_typical_batches_within_the_caps():
    sets = default_rule_sets("french")
    usual, most = estimate_minutes(sets, AtlasSettings(), 2)
    assert 0 < usual < most  # Δ typically stops at half its cap
    tiny = AtlasSettings(min_batches=1, max_batches=1, max_edge_batches=1, match_batches=1)
    assert estimate_minutes(sets, tiny, 2)[0] == estimate_minutes(sets, tiny, 2)[1]
    every = default_rule_sets("french", every=True)
    full = estimate_minutes(every, AtlasSettings(), 2)
    assert full[0] == pytest.approx(usual * len(every) / len(sets))  # the same rates a set
    quarter = estimate_minutes(sets, AtlasSettings(budget_scale=0.25), 2)
    assert quarter == pytest.approx((usual / 4, most / 4))  # the search seats' knobs


def test_holm_adjusts_each_vs_base_measure_over_the_rule_sets_apart():
    frame = pd.DataFrame({
        "measure": ["skill_gap_linear_vs_base"] * 2 + ["relative_skill_vs_base"] * 2
                   + ["relative_skill"],
        "p_value": [0.01, 0.04, 0.03, 0.005, 0.001],
    })  # fmt: skip
    adjusted = holm_by_measure(frame)["p_holm"].to_numpy()
    # two rule sets a family: × 2 then × 1, made non-decreasing; RS itself: no test
    assert np.allclose(adjusted[:4], [0.02, 0.04, 0.03, 0.01]) and np.isnan(adjusted[4])
