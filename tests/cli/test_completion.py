"""Shell completion (docs/cli.md, "Shell completion"): click is asked for the candidates.

Presets for ``--rules`` and ``rules show`` (and files: the shell completes a path the
presets do not match), strategy names for ``--strategies`` and ``--bots`` after the last
comma of a list, folders for ``--out``/``--resume``/``report DIR``, files for
``replay GAME.json``. One test goes through the real entry point with the environment
variable a shell sets, as the ``eval`` line of docs/cli.md does.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from click.shell_completion import ShellComplete

from simulator.cli import cli
from simulator.rules.presets import PRESET_NAMES
from strategies import registry
from tests.conftest import ROOT


def complete(args: list[str], incomplete: str) -> list[tuple[str, str]]:
    """(type, value) of every candidate click offers after ``president ARGS``."""
    shell = ShellComplete(cli, {}, "president", "_PRESIDENT_COMPLETE")
    return [(item.type, item.value) for item in shell.get_completions(args, incomplete)]


def plain(args: list[str], incomplete: str) -> list[str]:
    return [value for kind, value in complete(args, incomplete) if kind == "plain"]


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--rules"],
        ["compare", "--rules"],
        ["tournament", "--rules"],
        ["play", "--rules"],
        ["rules", "show"],
    ],
    ids=lambda a: " ".join(a),
)
def test_rules_complete_presets_and_files(args):
    assert plain(args, "") == list(PRESET_NAMES)
    assert plain(args, "s") == ["spade", "scum"]
    assert ("file", "examples/ru") in complete(args, "examples/ru")  # a path: the shell's


@pytest.mark.parametrize(
    "args",
    [["simulate", "--strategies"], ["compare", "--strategies"], ["tournament", "--strategies"],
     ["play", "--bots"]],
    ids=lambda a: " ".join(a),
)  # fmt: skip
def test_strategies_complete_after_the_last_comma(args):
    assert plain(args, "") == registry.names()
    assert plain(args, "r") == ["random", "rules-aware"]
    assert plain(args, "lowest,ra") == ["lowest,random"]
    assert plain(args, "lowest,random,") == [f"lowest,random,{n}" for n in registry.names()]


@pytest.mark.parametrize(
    ("args", "kind"),
    [
        (["simulate", "--out"], "dir"),
        (["simulate", "--resume"], "dir"),
        (["compare", "--out"], "dir"),
        (["compare", "--resume"], "dir"),
        (["tournament", "--out"], "dir"),
        (["report"], "dir"),
        (["replay"], "file"),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else a,
)
def test_paths_are_left_to_the_shell(args, kind):
    assert complete(args, "runs/fi") == [(kind, "runs/fi")]


def test_commands_and_options_complete():
    assert "tournament" in plain([], "t")
    assert "--workers" in plain(["simulate"], "--w")


def test_the_shell_protocol_through_the_entry_point():
    """What bash runs on TAB once the ``eval`` line of docs/cli.md is in its profile."""
    env = {
        **os.environ,
        "_PRESIDENT_COMPLETE": "bash_complete",
        "COMP_WORDS": "president simulate --rules sp",
        "COMP_CWORD": "3",
    }
    code = "import sys; from simulator.cli import main; sys.argv[0] = 'president'; main()"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
        timeout=60,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["file,sp", "plain,spade"]
