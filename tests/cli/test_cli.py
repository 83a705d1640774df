"""The command line: help on everything, replay output, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import click
import pytest

from simulator.cli import COMMANDS as LAZY_COMMANDS
from simulator.cli import cli
from tests.conftest import ROOT, run_cli
from tests.reference.scenarios.notation import cli_replay, game


def _command_paths(group: click.Group, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command and group below ``group``, as argument paths (the group itself first)."""
    paths = [prefix]
    ctx = click.Context(group)
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if isinstance(command, click.Group):
            paths += _command_paths(command, (*prefix, name))
        else:
            paths.append((*prefix, name))
    return paths


COMMANDS = _command_paths(cli)


def test_the_cli_has_the_documented_commands():
    assert {("replay",), ("rules",), ("rules", "list"), ("rules", "show")} <= set(COMMANDS)


@pytest.mark.parametrize("path", COMMANDS, ids=lambda p: " ".join(p) or "president")
def test_every_command_and_group_has_help(path):
    result = run_cli(*path, "--help")
    assert result.exit_code == 0, result.stderr
    assert "Usage:" in result.stdout
    assert result.stderr == ""
    command: click.Command = cli
    for name in path:
        command = command.get_command(click.Context(command), name)  # type: ignore[attr-defined]
    assert (command.help or "").strip(), f"{' '.join(path)} has no help text"


def test_the_listed_help_of_each_command_is_its_own():
    """``president --help`` lists the commands from a table, so as not to import them:
    each line must be the command's own."""
    ctx = click.Context(cli)
    for name, (_, line) in LAZY_COMMANDS.items():
        assert line == cli.get_command(ctx, name).get_short_help_str(limit=1000), name


@pytest.mark.parametrize("args", [["--help"], ["rules", "list"]])
def test_light_commands_import_no_heavy_library(args):
    """Help and the rules listing start in a fraction of a second: they import neither the
    kernel (numba) nor the data and figure libraries."""
    heavy = ("numba", "pandas", "matplotlib", "pyarrow", "scipy")
    assert _loaded_after(args, heavy, must_succeed=False) == "[]"


def test_simulate_without_a_folder_imports_no_data_library():
    """A run that prints its summary loads numba but neither scipy's linear algebra and
    special functions, pandas, pyarrow nor matplotlib: they were most of its start-up.
    numba's probes are refused only during its first load, so scipy.linalg imports later."""
    args = ["simulate", "--rounds", "20", "--strategies", "lowest,random,lowest,random"]
    heavy = ("scipy.linalg", "scipy.special", "cffi", "pandas", "pyarrow", "matplotlib")
    assert _loaded_after(args, heavy, then="import scipy.linalg\n") == "[]"


def _loaded_after(
    args: list[str], heavy: tuple[str, ...], must_succeed: bool = True, then: str = ""
) -> str:
    """In a fresh interpreter, run ``president ARGS`` and print which modules named (or
    under) ``heavy`` it loaded; ``then`` runs after the listing (it must still work)."""
    check = "    assert not exc.code, exc.code\n" if must_succeed else "    pass\n"
    probe = (
        "import sys\n"
        "from simulator.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit as exc:\n"
        f"{check}"
        f"heavy = {heavy!r}\n"
        "loaded = sorted(m for m in sys.modules if m.startswith(heavy))\n"
        f"{then}"
        "print(loaded)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=600
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()[-1]


def test_python_dash_m_runs_the_cli():
    out = subprocess.run(
        [sys.executable, "-m", "simulator", "rules", "list"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr
    assert "french" in out.stdout


def test_version_option():
    result = run_cli("--version")
    assert result.exit_code == 0
    assert "president" in result.stdout


def test_unknown_command_is_one_line_and_exit_code_2():
    result = run_cli("no-such-command")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith("error: ")


def test_replay_prints_one_json_object_per_line():
    result = cli_replay(game({}, ["3 5", "4 6", "7 8"], 0))
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(json.loads(line)["event"] for line in lines)
    assert json.loads(lines[-1])["event"] == "round_end"
    assert result.stdout.endswith("\n")


def test_replay_default_strategies_are_lowest():
    """No ``strategies`` key: every seat plays lowest (docs/formats.md §2)."""
    data = game({}, ["3 5", "4 6", "7 8"], 0)
    assert "strategies" not in data
    with_lowest = cli_replay({**data, "strategies": ["lowest"] * 3})
    assert cli_replay(data).events() == with_lowest.events()


def test_replay_random_is_repeatable_with_a_seed():
    data = game(
        {"equal_rank": "skip"},
        ["3 4 5 6 7 8 9", "3 4 5 6 7 8 9", "10 J Q K A 2 2"],
        0,
        strategies=["random", "random", "lowest"],
    )
    first = cli_replay(data, "--seed", "7")
    second = cli_replay(data, "--seed", "7")
    assert first.exit_code == 0, first.stderr
    assert first.stdout == second.stdout
    assert first.events()[-1]["event"] == "round_end"
    assert sorted(first.events()[-1]["places"]) == [1, 2, 3]
    # no card is played more often than it was dealt
    dealt = Counter(c for h in data["hands"] for c in h)
    played = Counter(c for e in first.events() if e["event"] == "play" for c in e["cards"])
    assert all(played[c] <= dealt[c] for c in played)


def test_replay_seed_must_be_an_integer():
    data = game({}, ["3 5", "4 6", "7 8"], 0)
    result = cli_replay(data, "--seed", "abc")
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
