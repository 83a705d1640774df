"""What the commands say: unknown strategies named, the quick start's next steps, the
seat-rounds column, ``rules show --explain``, the kernel ids of ``strategies -v``,
``--workers`` defaulting to the machine's cores, and a tournament that fits 100 columns.
"""

from __future__ import annotations

import dataclasses
import itertools
import re
import tomllib

import click
import pandas as pd
import pytest

from reports.strategy.text import format_pairwise, format_ranking, number
from simulator.cli import cli, hints
from simulator.rules.files import load_rules, rules_from_mapping
from simulator.rules.options import Rules, option_meanings
from simulator.rules.presets import PRESET_NAMES
from simulator.runs.engines import machine_cores
from strategies import registry, specs
from tests.cli.test_bad_input import assert_refused
from tests.cli.test_dead_ends import commands_in
from tests.conftest import run_cli

SIZES = ["--matches", "8", "--rounds-per-match", "2", "--quiet"]
REPORTED = ["--matches", "30", "--rounds-per-match", "3", "--quiet"]  # enough for a report


@pytest.mark.parametrize(
    "command",
    [["simulate"], ["compare", "--rules", "french", "--rules", "scum"], ["tournament"]],
    ids=lambda c: c[0],
)
def test_a_misspelt_strategy_is_named(command):
    line = assert_refused(run_cli(*command, "--strategies", "lowest,randon", *SIZES), "'randon'")
    assert "unknown strategy" in line and "allowed: lowest, random" in line
    assert "2 strategies" not in line


def test_the_quick_start_ends_with_what_to_run_next(tmp_path, monkeypatch):
    """Every command it names runs (with small sizes: the defaults take minutes)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "400")  # the temporary path unwrapped: lines read whole
    out = tmp_path / "first"
    result = run_cli("simulate", *REPORTED, "--out", str(out))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    closing = next(i for i, line in enumerate(lines) if " rounds in " in line)
    assert lines[closing].endswith(f"; data in {out}")
    shown = "\n".join(lines[closing + 1 :])
    hints = unwrapped(shown)
    assert hints.startswith("\nNext:\n")
    assert f"    president report {out}\n" in hints
    commands = commands_in(hints)
    assert [c[0] for c in commands] == ["report", "compare", "tournament"]
    for args in commands:
        extra = [] if args[0] == "report" else SIZES
        ran = run_cli(*args, *extra)
        assert ran.exit_code == 0, (args, ran.stderr)
    assert (out / "report.html").exists()
    as_typed = shown.replace(str(out), "runs/first")  # as the README's quick start names it
    assert max(map(len, as_typed.splitlines())) <= 100


def unwrapped(text: str) -> str:
    """Commands continued over lines with a backslash, each back on one line."""
    return re.sub(r" \\\n +", " ", text)


def test_without_out_the_next_step_keeps_the_rounds():
    result = run_cli("simulate", *SIZES)
    assert result.exit_code == 0
    assert "    president simulate --out runs/mine --report\n" not in result.stdout
    keep = (
        "    president simulate --matches 8 --rounds-per-match 2 --quiet --out runs/mine --report\n"
    )
    assert keep in unwrapped(result.stdout)


def test_the_next_steps_repeat_the_runs_options(tmp_path, monkeypatch):
    """Run with options: every suggested command carries those its command has, fits 80
    columns (wrapped with a backslash) and runs as printed."""
    monkeypatch.chdir(tmp_path)
    table = ["--rules", "scum", "--players", "3", "--strategies", "lowest,random,lowest"]
    sizes = ["--matches", "30", "--rounds-per-match", "3", "--seed", "2"]
    result = run_cli("simulate", *table, *sizes, "--engine", "python", "--quiet")
    assert result.exit_code == 0, result.stderr
    hints = result.stdout.split("\nNext:\n", 1)[1]
    assert max(map(len, hints.splitlines())) <= 80
    commands = {c[0]: c for c in commands_in(unwrapped(hints))}
    assert list(commands) == ["simulate", "compare", "tournament"]
    kept = " ".join(commands["simulate"])
    assert kept == " ".join(["simulate", *table, *sizes, "--engine python --quiet"]) + (
        " --out runs/mine --report"
    )
    compare = " ".join(commands["compare"])
    assert compare.startswith("compare --rules scum --rules french " + " ".join(table[2:]))
    assert " ".join(sizes) in compare
    tournament = " ".join(commands["tournament"])
    assert tournament.startswith("tournament --strategies lowest,random --rules scum --players 3")
    assert "--rounds-per-match 3 --seed 2" in tournament
    for args in commands.values():
        extra = ["--matches", "8"] if args[0] == "tournament" else []
        assert run_cli(*args, *extra).exit_code == 0, args
    assert (tmp_path / "runs" / "mine" / "report.html").exists()
    assert (tmp_path / "runs" / "compare" / "compare.html").exists()


def test_the_options_carried_are_those_simulate_shares_with_each_command():
    """hints.SHARED, written out to keep pandas out of a run's start, is click's own:
    the same parameter, the same option, every value simulate accepts accepted."""
    ctx = click.Context(cli)
    simulate = {p.name: p for p in cli.get_command(ctx, "simulate").params}
    for name, own in (("compare", set()), ("tournament", {"matches", "strategy_list"})):
        target = {p.name: p for p in cli.get_command(ctx, name).params}
        shared = set(simulate) & set(target) - hints.NOT_CARRIED - own
        assert set(hints.SHARED[name]) == shared, name
        for key in shared:
            assert target[key].opts == simulate[key].opts, (name, key)
            choices = set(getattr(simulate[key].type, "choices", ()))
            assert choices <= set(getattr(target[key].type, "choices", choices)), (name, key)


def test_with_report_the_next_step_opens_it(tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")  # the temporary path unwrapped: lines read whole
    out = tmp_path / "run"
    result = run_cli("simulate", *REPORTED, "--out", str(out), "--report")
    assert result.exit_code == 0, result.stderr
    assert f"  read the report: open {out / 'report.html'} in a browser\n" in result.stdout
    assert "president report" not in result.stdout


def test_the_table_counts_seat_rounds():
    """4 players, lowest/random seat by seat: each strategy holds 2 seats of each round."""
    result = run_cli("simulate", *SIZES, "--strategies", "lowest,random,lowest,random")
    lines = result.stdout.splitlines()
    assert lines[0].split()[:2] == ["strategy", "seat-rounds"]
    rows = {line.split()[0]: line.split()[1] for line in lines[1:3]}
    assert rows == {"lowest": "32", "random": "32"}  # 8 matches x 2 rounds x 2 seats
    assert "16 rounds in 8 matches" in result.stdout


@pytest.mark.parametrize("spec", PRESET_NAMES)
def test_rules_show_explain_comments_every_key_and_reads_back(spec, tmp_path):
    result = run_cli("rules", "show", spec, "--explain")
    assert result.exit_code == 0
    text = result.stdout
    rules = load_rules(spec)
    data = tomllib.loads(text)
    assert rules_from_mapping(data) == rules  # the comments are TOML comments
    blocks = text.split("\n\n")[1:]
    assert [b.splitlines()[-1].split(" = ")[0] for b in blocks] == list(rules.to_dict())
    defaults = Rules().to_dict()
    for block in blocks:
        *comment, setting = block.splitlines()
        key = setting.split(" = ")[0]
        said = " ".join(line.removeprefix("# ") for line in comment)
        assert said.startswith(option_meanings()[key])
        assert ("(default: " in said) == (rules.to_dict()[key] != defaults[key]), key
        assert all(len(line) <= 100 for line in comment)
    plain = run_cli("rules", "show", spec).stdout
    assert [line for line in text.splitlines() if line and not line.startswith("#")] == [
        line for line in plain.splitlines() if not line.startswith("#")
    ]


def test_every_option_has_a_meaning_from_its_docstring():
    meanings = option_meanings()
    assert list(meanings) == [f.name for f in dataclasses.fields(Rules)]
    assert meanings["players"] == "Number of players, 3 to 8."
    assert "``" not in "".join(meanings.values())


def test_strategies_verbose_lists_the_kernel_ids_it_refers_to():
    result = run_cli("strategies", "-v")
    lines = result.stdout.splitlines()
    ids = next(line for line in lines if "kernel ids" in line)
    assert ids.startswith("    kernel ids for rollout and prior: 0 lowest, 1 random, ")
    listed = dict(re.findall(r"(\d+) ([\w-]+)", ids.split(": ", 1)[1]))
    for kernel_id, name in listed.items():
        assert registry.get(name).kernel_id == int(kernel_id)
    assert "montecarlo" not in listed.values()
    assert len(listed) == len(registry.names()) - len(specs.SEARCH_IDS)
    assert lines.index(ids) > next(i for i, line in enumerate(lines) if "prior (default" in line)


@pytest.mark.parametrize("command", ["simulate", "compare", "tournament"])
def test_workers_default_to_the_machines_cores(command):
    cmd = cli.get_command(None, command)  # type: ignore[arg-type]
    args = ["--rules", "french", "--rules", "scum"] if command == "compare" else []
    ctx = cmd.make_context(command, args)
    assert ctx.params["workers"] == machine_cores() >= 1
    shown = " ".join(run_cli(command, "--help").stdout.split())
    assert f"[default: (the machine's cores, {machine_cores()})]" in shown


# ---------------------------------------------------------------- the tournament's tables

NAMES = ["rules-aware", "control", "planner", "lowest", "keep-sets", "shed-max", "random",
         "montecarlo", "linear"]  # fmt: skip  # every registered strategy: the default tournament


def ranking_frame() -> pd.DataFrame:
    rows = []
    for i, name in enumerate(NAMES):
        row = {"strategy": name, "rounds": 1_234_560}
        for j, col in enumerate(("mean_place", "adjusted", "president", "scum", "match_wins")):
            est = 1.5 + 0.25 * i if j < 2 else 0.1 * (i + j)
            row |= {col: est, f"{col}_lo": est - 0.0123, f"{col}_hi": est + 0.0123}
        rows.append(row)
    return pd.DataFrame(rows)


def pairwise_frame(both_ways: bool) -> pd.DataFrame:
    rows = []
    pairs = itertools.permutations(NAMES, 2) if both_ways else itertools.combinations(NAMES, 2)
    for a, b in pairs:
        d = 0.25 * (NAMES.index(a) - NAMES.index(b))
        if {a, b} == {"lowest", "keep-sets"}:
            d = 0.00004 if a == "lowest" else -0.00004  # rounds to zero: never "-0.000"
        p = 0.003 if abs(d) > 0.1 else 0.8
        rows.append({"a": a, "b": b, "clusters": 100, "diff": d, "diff_lo": d - 0.0002,
                     "diff_hi": d + 0.0002, "p_value": p / 2, "p_holm": p})  # fmt: skip
    return pd.DataFrame(rows)


@pytest.mark.parametrize("columns", [80, 120])
def test_the_tournament_tables_of_8_strategies_fit_the_terminal(columns):
    ranking = format_ranking(ranking_frame(), 100, columns)
    text = ranking + "\n\n" + format_pairwise(pairwise_frame(True), NAMES, columns)
    assert max(len(line) for line in text.splitlines()) <= columns, text
    assert not re.search(r"-0\.0+(?![0-9])", text)  # never a signed zero
    assert "1.500 ± 0.012" in text
    assert all(title in text for title in ("President", "Scum", "match wins"))


def test_an_asymmetric_interval_of_the_ranking_is_not_shown_as_plus_minus():
    """A score interval of a rate near 0 is asymmetric: ± would misstate it."""
    frame = ranking_frame()
    frame.loc[0, ["president", "president_lo", "president_hi"]] = (0.0088, 0.0070, 0.0120)
    text = format_ranking(frame, 100, 200)
    assert re.search(r"0\.0088\d* \[0\.0070\d*, 0\.0120\d*\]", text), text
    assert not re.search(r"0\.0088\d* ±", text)


def test_a_luck_adjusted_column_that_copies_the_plain_one_is_left_out():
    balanced = format_ranking(ranking_frame(), 100, 200, luck_balanced=True)
    header = balanced.splitlines()[0]
    assert "mean place" in header and "luck-adjusted" not in header
    assert "1.500 ± 0.012" in balanced.splitlines()[1]
    assert balanced.count("already balance the luck of the deal") == 1
    shown = format_ranking(ranking_frame(), 100, 200).splitlines()[0]
    assert "luck-adjusted" in shown


@pytest.mark.parametrize("both_ways", [True, False], ids=["both-orientations", "each-once"])
def test_each_pair_is_listed_once_better_ranked_first_sorted(both_ways):
    text = format_pairwise(pairwise_frame(both_ways), NAMES, 80)
    rows = [line for line in text.splitlines() if " − " in line]
    assert len(rows) == len(NAMES) * (len(NAMES) - 1) // 2  # each pair once
    pairs = [tuple(part.split()[0] for part in line.split(" − ")) for line in rows]
    assert all(NAMES.index(a) < NAMES.index(b) for a, b in pairs)
    diffs = [float(line.split(" − ")[1].split()[1]) for line in rows]
    assert diffs == sorted(diffs)
    close = next(line for line in rows if "keep-sets" in line and "lowest" in line)
    assert "+0.00004 [-0.00016, +0.00024]" in close and close.endswith("p = 0.8000")
    far = rows[0]
    widest = f"{-0.25 * (len(NAMES) - 1):.3f}"  # the first name against the last
    assert far.startswith("  rules-aware ") and widest in far and far.endswith("**")


@pytest.mark.parametrize(
    ("value", "text"),
    [(-0.0004, "0.000"), (-0.0, "0.000"), (0.1234, "0.123"), (-1.2346, "-1.235"),
     (float("nan"), "n/a")],
)  # fmt: skip
def test_numbers_never_print_a_signed_zero(value, text):
    assert number(value) == text
    if text not in ("n/a",):
        assert number(value, sign=True) == (text if text.startswith("-") else "+" + text)


def test_a_tournament_of_one_strategy_names_one_that_works():
    line = assert_refused(run_cli("tournament", "--strategies", "lowest,lowest"), "at least 2")
    [command] = commands_in(line)
    assert command == ["tournament", "--strategies", "lowest,random"]
    assert run_cli(*command, *SIZES).exit_code == 0


def test_a_tournament_into_a_file_is_refused_before_it_plays(tmp_path):
    target = tmp_path / "file"
    target.write_text("mine")
    line = assert_refused(
        run_cli("tournament", *SIZES, "--out", str(target)), "a file, not a folder"
    )
    assert line.endswith(f"e.g. --out {tmp_path / 'file-2'})")
    assert target.read_text() == "mine"
