"""The atlas's rule sets: derived from the rule spec, legal, each named once; the
batches: the same deals for every test strategy and every rule set of one table size;
and the sizes: batches until the precision targets or the cap."""

from __future__ import annotations

import dataclasses

import pytest

from simulator.rules.options import BOOL_KEYS, CHOICES, KEYS, Rules, RulesError
from simulator.rules.presets import PRESET_NAMES, preset
from simulator.runs.atlas.batches import BatchStore, duel_tables, pair_tables, skill_rows
from simulator.runs.atlas.play import AtlasSettings, declared_search
from simulator.runs.atlas.sets import (
    EXAMPLES,
    AtlasError,
    default_rule_sets,
    named_rule_sets,
)
from simulator.runs.atlas.windows import is_mix_measure
from strategies.registry import get


@pytest.mark.parametrize("base", ["french", "scum"])
def test_the_default_atlas_changes_each_option_alone_to_each_legal_value(base):
    sets = default_rule_sets(base)
    names = [s.name for s in sets]
    assert len(set(names)) == len(names) and names[0] == base
    assert set(PRESET_NAMES) <= set(names)
    assert {f"{base}: {n} players" for n in (3, 5, 6)} <= set(names)
    assert {f"examples/rules/{p.name}" for p in EXAMPLES.glob("*.toml")} <= set(names)
    rules = preset(base)
    singles = {s.rules for s in sets if s.name.startswith(f"{base}: ") and "players" not in s.name}
    expected = set()
    for key in KEYS:  # every value of the spec's choices and booleans, one change at a time
        values = CHOICES.get(key, (False, True) if key in BOOL_KEYS else ())
        for value in values:
            if value != getattr(rules, key):
                try:
                    expected.add(dataclasses.replace(rules, **{key: value}))
                except RulesError:
                    continue
    assert singles == expected
    for rule_set in sets:
        changed = [k for k in KEYS if getattr(rule_set.rules, k) != getattr(rules, k)]
        assert (rule_set.change == "") == (not changed)
        assert all(k in rule_set.change for k in changed)


def test_an_illegal_single_change_is_left_out():
    # last_in_trick needs passing = out_of_trick: scum passes may_return, french does not
    assert preset("scum").passing == "may_return"
    assert "scum: after_out_lead=last_in_trick" not in [s.name for s in default_rule_sets("scum")]
    assert "french: after_out_lead=last_in_trick" in [s.name for s in default_rule_sets("french")]


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
    for tables in (pairs, matches):
        assert [t.lineup[:2] for t in tables] == [("champion", "planner"), ("planner", "random")]
    assert len({t.seed for t in pairs + matches}) == 2  # duplicate deals, ordinary matches


@pytest.mark.parametrize("rules_name", ["spade", "scum", "french", "regles-jeu"])
def test_the_search_players_play_one_search_in_every_rule_set(rules_name):
    """Under spade, scum and french a named champion searches otherwise (the settings
    shipped for them); the atlas plays the declared search everywhere, so RS compares
    rules."""
    rules = preset(rules_name)
    for name in ("champion", "clairvoyant"):
        declared = get(name).kernel_vector[: len(get(name).params)]
        played = get(declared_search(name), rules).kernel_vector[: len(declared)]
        assert played == declared
        assert (get(name, rules).kernel_vector[: len(declared)] != declared) == (
            rules_name != "regles-jeu"
        )
    assert declared_search("linear") == "linear"


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
    store = BatchStore()
    frame = skill_rows(sets, settings, store=store)
    counts = (("duel", duels), ("edge", edges), ("match", 2), ("mix", 1))
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
    edge = frame[frame["measure"] == "edge_champion_vs_heuristic"]
    assert (edge["clusters"] == edges * 2).all()
    # 4 ordinary matches of 10 rounds a batch and pair: N95's σ has a pair's, the deal both's
    for measure, pairs in (("n95_champion_vs_heuristic", 1), ("deal_r2", 2)):
        assert (frame.loc[frame["measure"] == measure, "clusters"] == 2 * 4 * pairs).all()
