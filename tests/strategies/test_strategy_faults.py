"""A failure inside a user's strategy, in every command that plays: one line on standard
error naming the file, the line, the function and what failed (exit code 2), never a
traceback; the finished parts of a run are kept and ``--resume`` goes on once it is fixed.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

import simulator.runs.job as job
from strategies import registry
from tests.cli.test_bad_input import GOOD_HANDS
from tests.conftest import _entry, run_cli, without_compile_notice
from tests.runs.test_resume import folder_bytes
from tests.strategies.test_plugins import HERE  # loads its files first: stable kernel ids

FAULTY = HERE / "plugin_files" / "faulty.py"
BOOM, TWO_ARGS, UNTYPED, RAISES = (
    f"{FAULTY}:{n}" for n in ("boom", "two_args", "untyped", "Raises")
)
registry.get(BOOM)  # its kernel id, part of the key of the loop compiled around it


def line_of(text: str) -> int:
    """The line of ``faulty.py`` that holds ``text``."""
    lines = FAULTY.read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


# kind: (strategy, engine, words the one line must hold)
KINDS = {
    "numba-raises": (
        BOOM, "numba",
        [str(FAULTY), f"line {line_of('raise ValueError')}", "in boom", "ValueError",
         "no move for you", "seat"],
    ),
    "python-raises": (
        RAISES, "python",
        [str(FAULTY), f"line {line_of('raise RuntimeError')}", "in choose", "RuntimeError",
         "nothing to play", "seat"],
    ),
    "wrong-signature": (
        TWO_ARGS, "numba",
        [str(FAULTY), f"line {line_of('def two_args')}", "two_args(pos, S)",
         "name(pos, S, H, R, played, roles, rs, params)"],
    ),
    "typing-error": (
        UNTYPED, "numba",
        [str(FAULTY), f"line {line_of('rank = ')}", "in untyped", "No implementation of function"],
    ),
}  # fmt: skip
SIZE = ["--matches", "2", "--rounds-per-match", "2"]


def command(name: str, strategy: str, engine: str, tmp_path: Path) -> list[str]:
    """The arguments of a tiny run of ``name`` where ``strategy`` plays."""
    if name == "play":
        return ["play", "--players", "3", "--bots", strategy, "--seat", "0", "--rounds", "1"]
    if name == "replay":
        game = tmp_path / "game.json"
        hands = {"hands": GOOD_HANDS, "leader": 0, "rules": {}}
        game.write_text(json.dumps({**hands, "strategies": [strategy, "lowest", "lowest"]}))
        return ["replay", str(game)]
    seats = f"{strategy},lowest,{strategy},lowest"
    runs = {
        "simulate": ["simulate", "--strategies", seats, *SIZE],
        "compare": ["compare", "--rules", "french", "--rules", "french", "--strategies", seats,
                    *SIZE],
        "tournament": ["tournament", "--strategies", f"{strategy},lowest", *SIZE],
    }  # fmt: skip
    return [*runs[name], "--engine", engine, "--quiet"]


def error_line(args: list[str]) -> tuple[int, str]:
    """Exit code and standard error, less the line that says a kernel compiles (given or
    not depending on the cache); the person in ``play`` passes."""
    result = CliRunner().invoke(_entry, args, input="p\n" * 40, catch_exceptions=False)
    err = without_compile_notice(result.stderr)
    return result.exit_code, "\n".join(err)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["simulate", "compare", "tournament", "play", "replay"])
def test_a_failing_strategy_is_one_line_naming_where(tmp_path, name, kind) -> None:
    strategy, engine, words = KINDS[kind]
    code, err = error_line(command(name, strategy, engine, tmp_path))
    assert code == 2, err
    assert err.count("\n") == 0 and err.startswith("error: "), err
    assert "Traceback" not in err
    for word in words:
        assert word in err, f"{word!r} not in {err!r}"


# ---------------------------------------------------------------- the finished parts are kept

FLAKY = """
    from pathlib import Path

    BROKEN = Path(__file__).with_suffix(".broken")  # removed: the strategy is fixed


    class Flaky:
        made = 0

        def __init__(self):
            Flaky.made += 1  # one per match on the reference engine

        def choose(self, obs, rng):
            if Flaky.made > {after} and BROKEN.exists():
                raise KeyError("lost its cards")
            return obs.legal[0]

        def give_back(self, hand, k, rng):
            return [r for r in range(len(hand)) for _ in range(hand[r])][:k]
"""


def flaky(tmp_path: Path, after: int) -> str:
    """A strategy that raises from its match ``after`` on, until its ``.broken`` is removed."""
    path = tmp_path / "flaky.py"
    path.write_text(textwrap.dedent(FLAKY.format(after=after)))
    path.with_suffix(".broken").touch()
    return f"{path}:Flaky"


@pytest.fixture
def small_parts(monkeypatch):
    monkeypatch.setattr(job, "PART_ROUNDS", 20)  # 10 matches of 2 rounds per part


def test_simulate_keeps_the_finished_parts_and_resume_finishes(tmp_path, small_parts) -> None:
    strategy = flaky(tmp_path, after=24)  # raises in match 24: the third part
    args = ["--strategies", f"{strategy},lowest,lowest", "--players", "3", "--matches", "40",
            "--rounds-per-match", "2", "--engine", "python", "--quiet"]  # fmt: skip
    out = tmp_path / "out"
    code, err = error_line(["simulate", *args, "--out", str(out)])
    assert code == 2 and err.count("\n") == 0, err
    assert "match 24" in err and "KeyError" in err and f"--resume {out}" in err
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(manifest["parts"]) == 2 and not (out / "summary.json").exists()
    Path(strategy.partition(":")[0]).with_suffix(".broken").unlink()
    assert run_cli("simulate", "--resume", str(out), "--engine", "python", "--quiet").exit_code == 0
    whole = tmp_path / "whole"
    assert run_cli("simulate", *args, "--out", str(whole)).exit_code == 0
    assert folder_bytes(out) == folder_bytes(whole)


def test_compare_keeps_the_finished_runs_and_resume_finishes(tmp_path, small_parts) -> None:
    strategy = flaky(tmp_path, after=15)  # the second variant's match 5
    out = tmp_path / "out"
    args = ["compare", "--rules", "french", "--rules", "examples/rules/french-no-exchange.toml", "--players", "3", "--strategies",
            f"{strategy},lowest,lowest", "--matches", "10", "--rounds-per-match", "2",
            "--engine", "python", "--quiet", "--out", str(out)]  # fmt: skip
    code, err = error_line(args)
    assert code == 2 and err.count("\n") == 0, err
    assert (
        "variant french-no-exchange: match 5" in err and f"president compare --resume {out}" in err
    )
    assert (out / "runs" / "french" / "summary.json").exists()
    assert not (out / "runs" / "french-no-exchange" / "summary.json").exists()
    Path(strategy.partition(":")[0]).with_suffix(".broken").unlink()
    result = run_cli("compare", "--resume", str(out), "--engine", "python", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert json.loads((out / "manifest.json").read_text())["complete"]
