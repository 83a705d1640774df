"""Rules: the presets are the table of docs/rules.md, rules files and ``rules show`` round-trip.

The expected values below are copied by hand from docs/rules.md ("Presets" and the list of
defaults under it), key by key, not from the code.
"""

from __future__ import annotations

import dataclasses

import pytest

from simulator.rules.files import load_rules
from simulator.rules.options import Points, Rules
from simulator.rules.presets import preset
from tests.conftest import run_cli

DEFAULTS = {
    "players": 4,
    "jokers": 0,
    "dealer": "scum",
    "reseat": False,
    "equal_rank": "off",
    "larger_sets": "off",
    "transparent_threes": False,
    "two_ends_trick": False,
    "quad_burns": False,
    "revolution": False,
    "passing": "may_return",
    "no_finish_on_two": False,
    "exchange": [2, 1],
    "opener": "scum",
    "points": {"top": [], "bottom": []},
    "target": 0,
    # second catalogue: no preset turns them on
    "eight_ends_trick": False,
    "jack_back": False,
    "accumulation_burns": False,
    "out_ends_trick": False,
    "after_out_lead": "next_holder",
    "clubs_three_opens": "off",
    "opening_three": "clubs",
    # third catalogue (Daifugo, written out in docs/rules.md): no preset turns them on
    "five_skips": False,
    "capital_falls": False,
    "seven_passes": False,
    "ten_discards": False,
    "suit_lock": "off",
    "spade_three_return": False,
    "sequences": "off",
    "sequence_revolution": 0,
    "eights_in_sequences": "end_trick",
}

PRESET_TABLE = {
    "french": {
        "passing": "out_of_trick",
        "equal_rank": "skip",
        "no_finish_on_two": True,
        "exchange": [2, 1],
        "opener": "scum",
        "dealer": "scum",
        "target": 0,  # no scoring target
    },
    "regles-jeu": {
        "passing": "may_return",
        "equal_rank": "skip",
        "two_ends_trick": True,
        "no_finish_on_two": True,
        "exchange": [2, 1],
        "opener": "scum",
        "quad_burns": False,  # its optional burn is a variation, off in the preset
    },
    "spade": {
        "passing": "may_return",
        "equal_rank": "off",  # strict beating
        "larger_sets": "off",
        "exchange": [1],
        "dealer": "scum",
        "reseat": True,
        "opener": "president",
        "points": {"top": [2, 1], "bottom": []},
        "target": 11,
    },
    "scum": {
        "passing": "may_return",
        "equal_rank": "off",  # strict beating; the variations are options, off here
        "larger_sets": "off",
        "revolution": False,
        "jokers": 0,
        "transparent_threes": False,
        "exchange": [1],
        "dealer": "president",
        "opener": "left_of_dealer",
        "points": {"top": [2, 1], "bottom": [-1, -2]},
    },
    "uecda": {  # docs/rules.md, "Presets": the tournament's server
        "players": 5,
        "jokers": 1,
        "passing": "out_of_trick",
        "exchange": [2, 1],
        "clubs_three_opens": "every_round",
        "opening_three": "diamonds",
        "revolution": True,
        "sequence_revolution": 5,
        "eight_ends_trick": True,
        "suit_lock": "suits",
        "spade_three_return": True,
        "sequences": "above_highest",
        "points": {"top": [5, 4, 3, 2, 1], "bottom": []},
    },
}


def test_defaults_are_the_rule_book_defaults():
    assert Rules().to_dict() == DEFAULTS


def test_every_option_of_the_rule_book_is_a_field():
    assert [f.name for f in dataclasses.fields(Rules)] == list(DEFAULTS)


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_preset_is_the_rule_book_row_exactly(name):
    assert preset(name).to_dict() == {**DEFAULTS, **PRESET_TABLE[name]}


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_load_rules_by_preset_name(name):
    assert load_rules(name) == preset(name)


def test_rules_list_names_every_preset_with_a_description():
    result = run_cli("rules", "list")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == len(PRESET_TABLE)
    by_name = {line.split()[0]: line.split(None, 1)[1] for line in lines}
    assert set(by_name) == set(PRESET_TABLE)
    for description in by_name.values():
        assert len(description.strip()) > 10


@pytest.mark.parametrize("name", sorted(PRESET_TABLE))
def test_rules_show_preset_reads_back_to_the_same_rules(name, tmp_path):
    result = run_cli("rules", "show", name)
    assert result.exit_code == 0, result.stderr
    path = tmp_path / "shown.toml"
    path.write_text(result.stdout, encoding="utf-8")
    assert load_rules(path) == preset(name)
    # and the shown file is itself accepted by `rules show`
    again = run_cli("rules", "show", str(path))
    assert again.exit_code == 0, again.stderr
    assert load_rules(_write(tmp_path / "again.toml", again.stdout)) == preset(name)


def _write(path, text):
    path.write_text(text, encoding="utf-8")
    return path


def test_rules_show_lists_every_key(tmp_path):
    result = run_cli("rules", "show", "scum")
    keys = {
        line.split("=")[0].strip()
        for line in result.stdout.splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert keys == set(DEFAULTS)


def test_rules_file_with_preset_and_overrides(tmp_path):
    path = _write(
        tmp_path / "r.toml",
        'preset = "french"\nplayers = 5\nquad_burns = true\nexchange = [1]\n',
    )
    rules = load_rules(path)
    expected = {
        **DEFAULTS,
        **PRESET_TABLE["french"],
        "players": 5,
        "quad_burns": True,
        "exchange": [1],
    }
    assert rules.to_dict() == expected


def test_rules_file_without_preset_starts_from_the_defaults(tmp_path):
    path = _write(tmp_path / "r.toml", 'equal_rank = "skip"\njokers = 2\n')
    assert load_rules(path).to_dict() == {**DEFAULTS, "equal_rank": "skip", "jokers": 2}


def test_empty_rules_file_is_the_defaults(tmp_path):
    assert load_rules(_write(tmp_path / "r.toml", "")) == Rules()


def test_rules_show_of_a_file_with_overrides_reads_back(tmp_path):
    path = _write(
        tmp_path / "r.toml",
        'preset = "scum"\nplayers = 6\nrevolution = true\nlarger_sets = "any"\n'
        "points = { bottom = [-3] }\ntarget = 20\n",
    )
    result = run_cli("rules", "show", str(path))
    assert result.exit_code == 0, result.stderr
    shown = _write(tmp_path / "shown.toml", result.stdout)
    assert load_rules(shown) == load_rules(path)
    assert load_rules(shown).to_dict() == {
        **DEFAULTS,
        **PRESET_TABLE["scum"],
        "players": 6,
        "revolution": True,
        "larger_sets": "any",
        "points": {"top": [2, 1], "bottom": [-3]},
        "target": 20,
    }


def test_points_partial_override_keeps_the_other_list_of_the_preset(tmp_path):
    path = _write(tmp_path / "r.toml", 'preset = "scum"\n[points]\nbottom = [-1]\n')
    assert load_rules(path).points == Points(top=(2, 1), bottom=(-1,))
    path = _write(tmp_path / "r2.toml", 'preset = "scum"\npoints = { top = [3] }\n')
    assert load_rules(path).points == Points(top=(3,), bottom=(-1, -2))


def test_points_partial_override_from_the_defaults(tmp_path):
    path = _write(tmp_path / "r.toml", "points = { top = [5, 3, 1] }\n")
    assert load_rules(path).points == Points(top=(5, 3, 1), bottom=())


def test_with_options_changes_only_what_it_names():
    rules = preset("spade").with_options(players=7, passing="out_of_trick")
    assert rules.to_dict() == {
        **DEFAULTS,
        **PRESET_TABLE["spade"],
        "players": 7,
        "passing": "out_of_trick",
    }


def test_game_file_rules_object_overrides_a_preset():
    """A game file's ``rules`` object takes ``preset`` and overrides like a rules file."""
    from simulator.apps.replay import parse_game

    parsed = parse_game(
        {
            "rules": {"preset": "regles-jeu", "quad_burns": True, "players": 8},
            "hands": [["3"], ["4"], ["5"]],
            "leader": 0,
        }
    )
    # the number of hands sets players (it overrides a players key in the rules)
    assert parsed.rules.to_dict() == {
        **DEFAULTS,
        **PRESET_TABLE["regles-jeu"],
        "quad_burns": True,
        "players": 3,
    }


# ---------------------------------------------------------------- points by place


@pytest.mark.parametrize(
    ("top", "bottom", "players", "expected"),
    [
        # scum preset, 4 players: +2 +1 for the first two, bottom[-2] = -1 to the
        # second-to-last, bottom[-1] = -2 to the last
        ((2, 1), (-1, -2), 4, [2, 1, -1, -2]),
        # 5 players: the middle place scores 0
        ((2, 1), (-1, -2), 5, [2, 1, 0, -1, -2]),
        # 3 players: the 2nd place is both top[1] = +1 and second-to-last = -1
        ((2, 1), (-1, -2), 3, [2, 0, -2]),
        # spade: top only
        ((2, 1), (), 6, [2, 1, 0, 0, 0, 0]),
        # nothing
        ((), (), 4, [0, 0, 0, 0]),
        # lists longer than half the table overlap everywhere
        ((3, 2, 1), (-1, -2, -3), 3, [3 - 1, 2 - 2, 1 - 3]),
    ],
)
def test_points_for_place(top, bottom, players, expected):
    points = Points(top=top, bottom=bottom)
    assert [points.for_place(p, players) for p in range(1, players + 1)] == expected
