"""linear's shipped weights (strategies/shipped.py): which set the rules in force give,
that names and tuned files still win, that every shipped file is the one for its rules
(a later change to a preset or an example file is caught here), and that a run records
the set it played."""

from __future__ import annotations

import json
import tomllib
from dataclasses import replace
from importlib.resources import files
from pathlib import Path

import numpy as np
import pytest

from simulator.matchloop.api import KernelJob
from simulator.rules.files import load_rules
from simulator.rules.options import Rules
from simulator.rules.presets import PRESET_NAMES, preset
from strategies import shipped
from strategies.registry import get, linear_weights
from strategies.specs import CHAMPION_POLICY_SLOT, LINEAR_FEATURES_VERSION, StrategyError
from tests.conftest import ROOT, run_cli
from tests.runs.test_simulate import part_bytes

EXAMPLES = ROOT / "examples" / "rules"
SETS = {s.name: s for s in shipped.shipped()}
NAMES = [p.name for p in shipped.SPEC.params]


# the atlas's rule sets whose change the preset's set misreads (docs/strategies.md): the
# preset, a dash, the option changed
VARIANTS = {
    "french-two-ends-trick": ("french", {"two_ends_trick": True}),
    "french-eight-ends-trick": ("french", {"eight_ends_trick": True}),
    "french-3-players": ("french", {"players": 3}),
    "uecda-3-players": ("uecda", {"players": 3}),
}


def rules_of(name: str) -> Rules:
    """The rules a shipped set is named after: a preset, a file of examples/rules/, or a
    preset with one option changed (:data:`VARIANTS`)."""
    if name in PRESET_NAMES:
        return preset(name)
    if name in VARIANTS:
        base, options = VARIANTS[name]
        return preset(base).with_options(**options)
    return load_rules(EXAMPLES / f"{name}.toml")


def test_a_set_is_shipped_for_each_preset_each_example_table_and_the_variants() -> None:
    tables = [p.stem for p in EXAMPLES.glob("*.toml")]
    assert sorted(SETS) == sorted([*PRESET_NAMES, *tables, *VARIANTS])


@pytest.mark.parametrize("name", sorted(SETS))
def test_each_shipped_set_was_tuned_for_the_rules_it_is_named_after(name: str) -> None:
    assert SETS[name].rules == rules_of(name)
    # tuned, or the hand-set weights where the tune lost to them, which the file says
    tuning = tomllib.loads((files("strategies") / shipped.FOLDER / f"{name}.toml").read_text())
    hand_set = tuning["tuning"].get("source") == "hand-set"
    assert (SETS[name].values == shipped.DEFAULTS) == hand_set


@pytest.mark.parametrize("name", sorted(SETS))
def test_rules_equal_to_a_shipped_set_play_that_set(name: str) -> None:
    weights = shipped.weights_for(rules_of(name))
    tuned = weights.values != shipped.DEFAULTS
    assert (weights.values, weights.tuned_for, weights.exact) == (SETS[name].values, name, True)
    assert weights.source.startswith("shipped, tuned for" if tuned else "hand-set defaults")
    assert weights.source.endswith(f"shipped for {name}" if not tuned else f"tuned for {name}")


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_set_shipped_for_a_variant_keeps_the_presets_search_settings(name: str) -> None:
    # without its own entry in search-settings.toml, a variant's set would take the
    # search players off their preset's settings (french's fewer guesses) unnoticed
    base, _ = VARIANTS[name]
    settings = shipped.search_settings()
    assert settings.get(name, {}) == settings.get(base, {})
    assert shipped.search_for(rules_of(name)) == shipped.search_for(preset(base))


def test_a_variant_of_a_preset_plays_the_presets_set() -> None:
    variant = preset("scum").with_options(players=5, jokers=2)
    weights = shipped.weights_for(variant)
    assert (weights.values, weights.tuned_for, weights.exact) == (
        SETS["scum"].values,
        "scum",
        False,
    )
    assert "the preset these rules derive from" in weights.source


def test_rules_nearer_the_rule_books_defaults_than_any_preset_play_the_hand_set_weights() -> None:
    rules = Rules().with_options(jokers=2)
    assert shipped.derived_preset(rules) is None
    assert shipped.weights_for(rules) == shipped.Weights(shipped.DEFAULTS)


def test_without_rules_a_name_plays_the_declared_defaults() -> None:
    assert get("linear").vector == shipped.DEFAULTS


def test_the_names_values_win_over_the_shipped_weights() -> None:
    spec = get("linear:w_pass=1.5,w_jack=-2", preset("scum"))
    expected = dict(zip(NAMES, SETS["scum"].values, strict=True)) | {"w_pass": 1.5, "w_jack": -2}
    assert spec.vector == tuple(expected[n] for n in NAMES)
    assert linear_weights("linear:w_pass=1.5,w_jack=-2", preset("scum"))["source"] == (
        f"{shipped.weights_for(preset('scum')).source}, changed by the name "
        "'linear:w_pass=1.5,w_jack=-2'"
    )


def test_a_users_tuned_file_is_played_as_it_is(tmp_path: Path) -> None:
    values = [round(0.1 * i - 1, 3) for i in range(len(NAMES))]
    params = "\n".join(f"{n} = {v}" for n, v in zip(NAMES, values, strict=True))
    path = tmp_path / "tuned.toml"
    version = LINEAR_FEATURES_VERSION
    path.write_text(f'strategy = "linear"\nparams_version = {version}\n[params]\n{params}\n')
    assert get(str(path), preset("french")).vector == tuple(values)
    assert linear_weights(str(path), preset("french"))["source"] == f"the tuned file {path}"


def test_champion_searches_with_the_shipped_weights_of_the_rules() -> None:
    row = get("champion:budget=8", preset("spade")).kernel_vector
    size = len(NAMES)
    assert row[CHAMPION_POLICY_SLOT : CHAMPION_POLICY_SLOT + size] == SETS["spade"].values
    assert get("champion").kernel_vector[CHAMPION_POLICY_SLOT:][:size] == shipped.DEFAULTS


def test_the_kernel_job_row_holds_the_shipped_weights() -> None:
    rules = load_rules(EXAMPLES / "daifugo-without-suits.toml")
    job = KernelJob.build(rules, ["linear", "lowest", "linear", "lowest"], 0, 2, 10)
    assert np.array_equal(job.params[0, : len(NAMES)], SETS["daifugo-without-suits"].values)


def test_a_shipped_file_for_another_feature_version_is_refused_in_one_line() -> None:
    text = (files("strategies") / shipped.FOLDER / "french.toml").read_text("utf-8")
    with pytest.raises(StrategyError) as caught:
        shipped.read_set(
            "french",
            text.replace(f"params_version = {LINEAR_FEATURES_VERSION}", "params_version = 99"),
        )
    assert "\n" not in str(caught.value)
    assert f"version 99 of linear's parameters, not version {LINEAR_FEATURES_VERSION}" in str(
        caught.value
    )


def test_a_run_records_where_its_linear_weights_come_from_and_their_hash(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "simulate",
        "--quiet",
        "--rules",
        "spade",
        "--strategies",
        "linear,lowest,random,lowest",
    ]
    result = run_cli(*args, "--matches", "2", "--max-rounds", "4", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["linear_weights"] == {
        "linear": {
            "source": shipped.weights_for(preset("spade")).source,
            "sha256": shipped.digest(SETS["spade"].values),
        }
    }
    assert "spade" in summary["linear_weights"]["linear"]["source"]
    assert summary["search"] == {}  # no search player in the run
    assert shipped.digest(SETS["spade"].values) != shipped.digest(shipped.DEFAULTS)


def test_a_tournament_records_the_weights_its_strategies_play(tmp_path: Path) -> None:
    out = tmp_path / "t"
    args = ["tournament", "--rules", "scum", "--strategies", "linear,lowest,random"]
    more = ["--players", "3", "--matches", "3", "--rounds-per-match", "2", "--out", str(out)]
    result = run_cli(*args, *more)
    assert result.exit_code == 0, result.stderr
    settings = json.loads((out / "tournament.json").read_text())
    weights = shipped.weights_for(replace(preset("scum"), players=3))
    assert "scum" in weights.source  # the set of the preset these rules derive from
    assert settings["linear_weights"] == {
        "linear": {"source": weights.source, "sha256": shipped.digest(weights.values)}
    }
    assert settings["search"] == {}  # no search player at the table


def test_strategies_verbose_says_which_weights_linear_plays() -> None:
    result = run_cli("strategies", "-v", "--rules", str(EXAMPLES / "american.toml"))
    assert result.exit_code == 0, result.stderr
    american = shipped.weights_for(load_rules(EXAMPLES / "american.toml"))
    assert f"{american.source} (sha256 {american.digest})" in result.stdout
    assert american.tuned_for == "american"
    assert "shipped sets (the rules in force, else their preset, else the defaults): " in (
        result.stdout
    )


def test_strategies_verbose_takes_the_players_of_the_table() -> None:
    """The shipped sets are tuned for their rules' table size: at another size the
    preset's set is played, and -v says so."""
    result = run_cli("strategies", "-v", "--rules", "scum", "--players", "5")
    assert result.exit_code == 0, result.stderr
    five = shipped.weights_for(replace(preset("scum"), players=5))
    assert five.source != shipped.weights_for(preset("scum")).source
    assert f"--players 5: {five.source} (sha256 {five.digest})" in result.stdout
    refused = run_cli("strategies", "--players", "9")
    assert refused.exit_code == 2 and "players = 9 is not allowed" in refused.stderr


def test_every_engine_plays_the_shipped_weights_to_the_same_bytes(tmp_path: Path) -> None:
    args = [
        "--rules",
        str(EXAMPLES / "daifugo-without-suits.toml"),
        "--strategies",
        "linear,lowest,random,linear",
    ]
    args += ["--matches", "2", "--rounds-per-match", "2", "--seed", "7", "--quiet"]
    engines = {
        "numba": [],
        "dask": ["--engine", "dask", "--workers", "1"],
        "python": ["--engine", "python"],
    }
    for engine, extra in engines.items():
        result = run_cli("simulate", *args, *extra, "--out", str(tmp_path / engine))
        assert result.exit_code == 0, result.stderr
    assert (
        part_bytes(tmp_path / "numba")
        == part_bytes(tmp_path / "dask")
        == part_bytes(tmp_path / "python")
    )
