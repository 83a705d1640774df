"""Bad input: exit code 2, one line on stderr naming the problem and what is allowed.

docs/formats.md §1: an unknown key, a wrong type or an out-of-range value is refused with a
message that names the key and the allowed values (exit code 2), never ignored. Game
files (§2) are refused the same way. Nothing may reach standard output, and no traceback.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli
from tests.reference.scenarios.notation import cli_replay

GOOD_HANDS = [["3", "5"], ["4", "6"], ["7", "8"]]


def assert_refused(result, *words: str) -> str:
    """Exit code 2, nothing on stdout, one ``error:`` line on stderr holding ``words``."""
    assert result.exit_code == 2, (result.stdout, result.stderr)
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("error: ")
    for word in words:
        assert word in line, f"{word!r} not in {line!r}"
    return line


# ---------------------------------------------------------------- rules files

BAD_RULES = {
    # name: (TOML text, words the message must hold: the key and the allowed values)
    "unknown_key": ("playerz = 4\n", ["playerz", "allowed", "players", "passing"]),
    "players_string": ('players = "4"\n', ["players", "allowed", "3 to 8"]),
    "players_2": ("players = 2\n", ["players", "allowed", "3 to 8"]),
    "players_9": ("players = 9\n", ["players", "allowed", "3 to 8"]),
    "players_float": ("players = 4.0\n", ["players", "allowed", "3 to 8"]),
    "reseat_int": ("reseat = 1\n", ["reseat", "allowed", "true", "false"]),
    "revolution_string": ('revolution = "yes"\n', ["revolution", "allowed", "true, false"]),
    "jokers_3": ("jokers = 3\n", ["jokers", "allowed", "0", "1", "2"]),
    "exchange_7": ("exchange = [7]\n", ["exchange", "allowed"]),
    "exchange_not_a_list": ("exchange = 2\n", ["exchange", "allowed"]),
    "passing_x": ('passing = "x"\n', ["passing", "allowed", "may_return", "out_of_trick"]),
    "equal_rank_on": ('equal_rank = "on"\n', ["equal_rank", "allowed", "off", "skip"]),
    "larger_sets_bool": ("larger_sets = true\n", ["larger_sets", "allowed", "higher_rank", "any"]),
    "dealer_x": ('dealer = "left"\n', ["dealer", "allowed", "scum", "president", "rotate"]),
    "opener_x": ('opener = "dealer"\n', ["opener", "allowed", "left_of_dealer"]),
    "target_negative": ("target = -1\n", ["target", "allowed"]),
    "target_without_points": ("target = 11\n", ["target = 11", "allowed", "points"]),
    "exchange_negative": ("exchange = [-1]\n", ["exchange", "allowed"]),
    "exchange_too_long": ("exchange = [1, 1, 1, 1, 1]\n", ["exchange", "allowed"]),
    "points_unknown_subkey": ("points = { middle = [1] }\n", ["points.middle", "allowed"]),
    "points_not_ints": ('points = { top = ["2"] }\n', ["points.top", "allowed"]),
    "suit_lock_x": ('suit_lock = "shibari"\n', ["suit_lock", "allowed", "'off', 'suits'"]),
    "spade_three_return_int": ("spade_three_return = 1\n", ["spade_three_return", "true"]),
    "spade_three_return_without_jokers": (
        "spade_three_return = true\n",
        ["spade_three_return", "jokers = 0", "jokers = 1 or 2"],
    ),
    "sequences_x": (
        'sequences = "kaidan"\n',
        ["sequences", "'off', 'above_highest', 'above_lowest'"],
    ),
    "sequence_revolution_2": (
        'sequences = "above_highest"\nsequence_revolution = 2\n',
        ["sequence_revolution = 2", "allowed: 0, 4, 5"],
    ),
    "sequence_revolution_without_sequences": (
        "sequence_revolution = 5\n",
        ["sequence_revolution = 5", 'sequences = "off"', "sequence_revolution = 0"],
    ),
    "eights_plain_without_eights": (
        'sequences = "above_lowest"\neights_in_sequences = "plain"\n',
        ["eights_in_sequences", "eight_ends_trick", "allowed"],
    ),
    "unknown_preset": ('preset = "belote"\n', ["belote", "allowed", "french", "scum"]),
    "preset_not_a_string": ("preset = 3\n", ["preset", "allowed", "french"]),
    "misspelt_key": ("jak_back = true\n", ["'jak_back', did you mean 'jack_back'?", "allowed"]),
    "misspelt_preset_key": ('prest = "french"\n', ["'prest', did you mean 'preset'?"]),
    "misspelt_points_subkey": (
        "points = { tpo = [1] }\n",
        ["points.tpo, did you mean 'points.top'?", "allowed"],
    ),
    "misspelt_preset": ('preset = "frnch"\n', ["'frnch', did you mean 'french'?", "allowed"]),
    "invalid_toml": ("players = = 4\n", ["not valid TOML"]),
    "invalid_toml_unclosed": ('passing = "may_return\n', ["not valid TOML"]),
}


@pytest.mark.parametrize("name", sorted(BAD_RULES))
def test_bad_rules_file_is_refused(name, tmp_path):
    text, words = BAD_RULES[name]
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    assert_refused(run_cli("rules", "show", str(path)), *words)


def test_missing_rules_file_is_refused(tmp_path):
    missing = tmp_path / "nowhere.toml"
    assert_refused(run_cli("rules", "show", str(missing)), "nowhere.toml", "allowed", "french")


def test_unknown_preset_name_is_refused():
    line = assert_refused(run_cli("rules", "show", "belote"), "belote", "allowed", "french")
    assert "did you mean" not in line  # nothing close to it


def test_misspelt_preset_name_gets_a_suggestion():
    assert_refused(run_cli("rules", "show", "regle-jeu"), "did you mean 'regles-jeu'?", "allowed")


def test_misspelt_strategy_name_gets_a_suggestion():
    result = run_cli("simulate", "--strategies", "lowest,randon,keep-sets,rules_aware")
    assert_refused(result, "'randon', did you mean 'random'?", "allowed: lowest")
    result = run_cli("simulate", "--strategies", "lowest,random,keep-sets,rules_aware")
    assert_refused(result, "'rules_aware', did you mean 'rules-aware'?")


# ---------------------------------------------------------------- game files


def game_with(**changes) -> dict:
    data = {"rules": {}, "hands": GOOD_HANDS, "leader": 0}
    data.update(changes)
    return data


BAD_GAMES = {
    # name: (game dict, words the message must hold)
    "bad_card_name": (game_with(hands=[["3", "X"], ["4"], ["7"]]), ["'X'", "3 4 5"]),
    "card_one": (game_with(hands=[["1"], ["4"], ["7"]]), ["'1'", "JK"]),
    "bad_suit": (game_with(hands=[["7Z"], ["4"], ["7"]]), ["'7Z'", "C D H S"]),
    "card_not_a_string": (game_with(hands=[[7], ["4"], ["7"]]), ["7", "not a string"]),
    "five_sevens": (
        game_with(hands=[["7", "7", "7"], ["7", "7"], ["8"]]),
        ["5 cards of rank 7", "at most 4"],
    ),
    "suitless_card_under_suit_rules": (
        game_with(rules={"suit_lock": "suits"}, hands=[["3C", "5"], ["4D"], ["7H"]]),
        ["'5' has no suit", "read suits", "C D H S"],
    ),
    "card_twice_under_suit_rules": (
        game_with(rules={"suit_lock": "suits"}, hands=[["3C"], ["3C"], ["7H"]]),
        ["3C twice"],
    ),
    "three_jokers": (
        game_with(rules={"jokers": 2}, hands=[["JK", "JK"], ["JK"], ["8"]]),
        ["3 cards of rank JK", "at most 2"],
    ),
    "jokers_without_jokers_rule": (
        game_with(hands=[["JK"], ["4"], ["8"]]),
        ["hold 1 joker but", "jokers = 0", "at most 0"],
    ),
    "empty_hand": (game_with(hands=[["3"], [], ["8"]]), ["seat 1", "empty"]),
    "two_hands": (game_with(hands=[["3"], ["4"]]), ["2 hands", "3 to 8"]),
    "nine_hands": (game_with(hands=[[c] for c in "3456789JQ"]), ["9 hands", "3 to 8"]),
    "hands_not_lists": (game_with(hands="3 4 5"), ["hands", "list"]),
    "too_few_strategies": (
        game_with(strategies=["lowest", "lowest"]),
        ["2 strategies", "3 seats", "one per seat"],
    ),
    "too_many_strategies": (
        game_with(strategies=["lowest"] * 4),
        ["4 strategies", "3 seats", "one per seat"],
    ),
    "unknown_strategy": (
        game_with(strategies=["lowest", "best", "lowest"]),
        ["'best'", "allowed", "lowest", "random"],
    ),
    "strategy_without_reference_engine": (
        game_with(strategies=["montecarlo", "lowest", "lowest"]),
        ["'montecarlo'", "no reference-engine version", "allowed", "lowest", "rules-aware"],
    ),
    "leader_out_of_range": (game_with(leader=3), ["leader 3", "0 to 2"]),
    "leader_negative": (game_with(leader=-1), ["leader -1", "0 to 2"]),
    "leader_not_an_int": (game_with(leader="0"), ["leader '0'", "0 to 2"]),
    "missing_leader": ({"rules": {}, "hands": GOOD_HANDS}, ["leader", "required"]),
    "unknown_top_level_key": (
        game_with(dealer=0),
        ["'dealer'", "allowed", "rules", "hands", "leader", "strategies", "moves"],
    ),
    "unknown_rules_preset": (game_with(rules="belote"), ["'belote'", "allowed", "french"]),
    "rules_object_bad_value": (
        game_with(rules={"passing": "x"}),
        ["passing", "allowed", "may_return", "out_of_trick"],
    ),
    "rules_object_unknown_key": (game_with(rules={"burn": True}), ["'burn'", "allowed"]),
    "move_two_ranks": (
        game_with(moves=[{"seat": 0, "play": ["3", "5"]}]),
        ["move 0", "3 5", "1 to 4 cards of one rank, or a sequence"],
    ),
    "move_five_cards": (
        game_with(
            hands=[["7", "7", "7", "7", "8"], ["4"], ["9"]],
            moves=[{"seat": 0, "play": ["7", "7", "7", "7", "7"]}],
        ),
        ["move 0", "1 to 4 cards"],
    ),
    "move_bad_card": (
        game_with(moves=[{"seat": 0, "play": ["3"]}, {"seat": 1, "play": ["Y"]}]),
        ["move 1", "'Y'"],
    ),
    "move_seat_out_of_range": (
        game_with(moves=[{"seat": 5, "play": ["3"]}]),
        ["move 0", "seat 5", "0 to 2"],
    ),
    "move_unknown_key": (
        game_with(moves=[{"seat": 0, "cards": ["3"]}]),
        ["move 0", "'cards'", "seat, play, pass"],
    ),
    "move_play_and_pass": (
        game_with(moves=[{"seat": 0, "play": ["3"], "pass": True}]),
        ["move 0", "either"],
    ),
    "move_empty_play": (game_with(moves=[{"seat": 0, "play": []}]), ["move 0", "non-empty"]),
    "moves_not_a_list": (game_with(moves={"seat": 0}), ["moves", "list"]),
    "not_an_object": ([1, 2, 3], ["JSON object"]),
}


@pytest.mark.parametrize("name", sorted(BAD_GAMES))
def test_bad_game_file_is_refused(name):
    data, words = BAD_GAMES[name]
    assert_refused(cli_replay(data), *words)


def test_invalid_json_game_file_is_refused(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{"rules": "french", "hands": [', encoding="utf-8")
    assert_refused(run_cli("replay", str(path)), "broken.json", "not valid JSON")


def test_missing_game_file_is_refused(tmp_path):
    assert_refused(run_cli("replay", str(tmp_path / "absent.json")), "absent.json")


def test_game_file_that_is_a_directory_is_refused(tmp_path):
    result = run_cli("replay", str(tmp_path))
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1


def test_every_good_variant_of_the_bad_games_is_accepted():
    """The bad games differ from a good one only by the fault: the good one replays."""
    result = cli_replay(game_with())
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout.splitlines()[-1])["event"] == "round_end"


# ---------------------------------------------------------------- one base, one translation


def test_every_error_a_user_can_cause_derives_from_the_one_base():
    from reports.data import ReportError
    from simulator.apps.play.input import MoveError
    from simulator.apps.replay import GameError
    from simulator.cli.common import UserError
    from simulator.errors import PresidentError
    from simulator.rules.cards import CardError
    from simulator.rules.options import RulesError
    from simulator.runs.job import SimulationError
    from simulator.runs.summary import SummaryError
    from simulator.runs.tournament.tables import TournamentError
    from strategies.specs import StrategyError

    layers = (RulesError, CardError, StrategyError, SimulationError, TournamentError,
              SummaryError, ReportError, GameError, MoveError, UserError)  # fmt: skip
    assert [cls for cls in layers if not issubclass(cls, PresidentError)] == []


def test_a_user_error_no_command_catches_still_ends_in_one_line(monkeypatch):
    """main translates every PresidentError, whichever layer raised it."""
    import simulator.cli.simulate as simulate
    from simulator.runs.summary import SummaryError

    def refuse(*args, **kwargs):
        raise SummaryError("summary.json lacks rules.players (allowed: 3 to 8)")

    monkeypatch.setattr(simulate, "run", refuse)
    result = run_cli("simulate", "--rounds", "10", "--quiet")
    assert_refused(result, "summary.json lacks rules.players", "allowed")


def test_a_job_refused_before_playing_claims_no_finished_parts(tmp_path):
    out = tmp_path / "run"
    line = assert_refused(
        run_cli("simulate", "--strategies", "nosuch", "--out", str(out)), "nosuch", "allowed"
    )
    assert "kept" not in line and not out.exists()
