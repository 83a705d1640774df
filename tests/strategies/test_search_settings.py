"""The search settings shipped per rule set (strategies/search-settings.toml, read by
strategies/shipped.py): which rules give which, that a name's own values still win, that
a bad file is refused in one line, and that runs and ``strategies -v`` say what was
played."""

from __future__ import annotations

from dataclasses import replace

import pytest

from simulator.rules.presets import preset
from strategies import shipped
from strategies.registry import get, search_played
from strategies.specs import CHAMPION_PARAMS, StrategyError
from tests.conftest import run_cli

NAMES = [p.name for p in CHAMPION_PARAMS]
DECLARED = {p.name: float(p.default) for p in CHAMPION_PARAMS}


def played(name: str, rules_name: str, players: int | None = None) -> dict[str, float]:
    """The search parameters ``name`` plays under a preset (at ``players``)."""
    rules = preset(rules_name)
    rules = replace(rules, players=players) if players else rules
    return dict(zip(NAMES, get(name, rules).kernel_vector[: len(NAMES)], strict=True))


@pytest.mark.parametrize("name", ["champion", "clairvoyant"])
@pytest.mark.parametrize("rules_name", ["french", "spade", "scum"])
def test_the_search_players_play_the_settings_shipped_for_the_rules(name, rules_name) -> None:
    settings = shipped.search_settings()[rules_name]
    assert settings and all(settings[k] != DECLARED[k] for k in settings)
    assert played(name, rules_name) == {**DECLARED, **settings}
    # a table of another size derives from the preset: its settings too
    assert played(name, rules_name, players=5) == {**DECLARED, **settings}


def test_regles_jeu_keeps_the_declared_search_and_a_names_own_values_win() -> None:
    assert "regles-jeu" not in shipped.search_settings()
    assert played("champion", "regles-jeu") == DECLARED
    assert played("champion:budget=10,plies=3", "scum")["budget"] == 10
    assert played("champion:budget=10,plies=3", "scum")["plies"] == 3
    assert (
        played("champion:budget=10", "scum")["guesses"]
        == shipped.search_settings()["scum"]["guesses"]
    )


def test_a_run_records_the_search_played_and_where_it_comes_from() -> None:
    spade = preset("spade")
    found = search_played(["champion", "clairvoyant:budget=10", "linear", "montecarlo"], spade)
    assert sorted(found) == ["champion", "clairvoyant:budget=10"]
    assert found["champion"] == {
        "source": "shipped for spade",
        "values": played("champion", "spade"),
    }
    assert found["clairvoyant:budget=10"]["source"] == (
        "shipped for spade, changed by the name 'clairvoyant:budget=10'"
    )
    assert (
        search_played(["champion"], preset("regles-jeu"))["champion"]["source"]
        == "declared defaults"
    )


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[nowhere]\nbudget = 9", "[nowhere] is not a shipped set (allowed: "),
        (
            "[spade]\ndepth = 9",
            "[spade] depth is not a number of a search parameter (allowed: budget",
        ),
        ('[spade]\nbudget = "many"', "[spade] budget is not a number of a search parameter"),
        ("[spade]\nbudget = true", "[spade] budget is not a number of a search parameter"),
        ("[spade\n", "is not readable TOML"),
    ],
)
def test_a_bad_settings_file_is_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(StrategyError) as caught:
        shipped.read_search(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_strategies_verbose_says_which_search_the_rules_give() -> None:
    result = run_cli("strategies", "-v", "--rules", "spade")
    assert result.exit_code == 0, result.stderr
    line = "    search under --rules spade: guesses=24, budget=96, plies=1000 (shipped for spade)"
    assert result.stdout.count(line) == 2  # champion and clairvoyant
    declared = run_cli("strategies", "-v", "--rules", "regles-jeu")
    assert declared.stdout.count("    search under --rules regles-jeu: the defaults above") == 2
