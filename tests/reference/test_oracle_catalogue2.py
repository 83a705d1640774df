"""Differential tests of the second catalogue: the reference engine against the oracle.

``tests/reference/test_oracle_diff.py`` runs each new option value alone; here they are combined
with the presets they are played with, all together, and in random combinations of
every option of both catalogues — with the same three kinds of game per case (all
``lowest``, random legal prefixes, one illegal scripted move of each kind).
"""

from __future__ import annotations

import random

import pytest

import tests.reference.test_oracle_diff as diff
from tests.reference.oracle import ROUND_DEFAULTS

CATALOGUE_2 = {
    "eight_ends_trick": True,
    "jack_back": True,
    "accumulation_burns": True,
    "out_ends_trick": True,
    "after_out_lead": "last_in_trick",
}


def _random_combos(count: int, seed: int) -> list[tuple[str, dict]]:
    """Every option of both catalogues at a random value; the new ones on more often."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        rules = {key: rng.choice(values) for key, values in diff.OPTION_VALUES.items()}
        for key, value in CATALOGUE_2.items():
            if rng.random() < 0.5:
                rules[key] = value
        out.append((f"combo2-{i}", diff.playable(rules)))
    return out


CONFIGS: list[tuple[str, dict]] = [
    ("french+last_in_trick", {"preset": "french", "after_out_lead": "last_in_trick"}),
    ("french+accumulation", {"preset": "french", "accumulation_burns": True}),
    ("regles-jeu+eight+jack", {"preset": "regles-jeu", "eight_ends_trick": True,
                               "jack_back": True}),
    ("scum+allow+out_ends", {"preset": "scum", "equal_rank": "allow", "out_ends_trick": True}),
    ("jack+revolution", {"jack_back": True, "revolution": True}),
    ("accumulation+threes+any", {"accumulation_burns": True, "transparent_threes": True,
                                 "larger_sets": "any"}),
    ("accumulation+allow+threes", {"accumulation_burns": True, "equal_rank": "allow",
                                   "transparent_threes": True}),
    ("last_in_trick+skip+out_ends", {"preset": "french", "after_out_lead": "last_in_trick",
                                     "out_ends_trick": True}),
    ("catalogue2_skip", {"preset": "french", **CATALOGUE_2}),
    ("catalogue2_allow", {"preset": "french", "equal_rank": "allow", **CATALOGUE_2}),
    ("everything", {**{k: v[-1] for k, v in diff.OPTION_VALUES.items()}, "equal_rank": "skip"}),
    *_random_combos(8, seed=20260413),
]  # fmt: skip

CASES = [
    pytest.param(name, rules, n, seed, id=f"{name}-n{n}-s{seed}")
    for name, rules in CONFIGS
    for n in diff.PLAYERS
    for seed in range(diff.SEEDS_PER_CASE)
]


@pytest.mark.parametrize(("name", "rules", "n", "seed"), CASES)
def test_engine_matches_oracle(name, rules, n, seed):
    diff.test_engine_matches_oracle(name, rules, n, seed)


def test_every_option_of_both_catalogues_is_differential_tested():
    assert set(diff.OPTION_VALUES) == set(ROUND_DEFAULTS)
    for key, value in CATALOGUE_2.items():
        assert any(rules.get(key) == value for _, rules in CONFIGS), key
    assert any(rules.get("equal_rank") == "allow" for _, rules in CONFIGS)
