"""Users' strategies from files: the worked examples run, faults stop the run in one line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from simulator.cli import main
from simulator.matchloop.api import KernelJob, trace_match
from simulator.reference.match import play_match
from simulator.rules.presets import preset
from strategies import registry
from tests.conftest import without_compile_notice

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
BIG = f"{ROOT}/examples/strategies/big_groups.py:big_groups"
CAUTIOUS = f"{ROOT}/examples/strategies/cautious.py:Cautious"
GREEDY = f"{HERE}/plugin_files/illegal.py:greedy"
HOARDER = f"{HERE}/plugin_files/hoarder.py:hoarder"
SPADES = f"{HERE}/plugin_files/spades.py:spades"
# Both numba strategies are loaded before any run, so their kernel ids (part of the key
# of the loop compiled around them) are the same whichever test runs first.
registry.get(BIG)
registry.get(GREEDY)


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    """Exit code, output and standard error, less the line that says a kernel compiles
    (given or not depending on the cache: tests/kernel/test_specialised_loop.py)."""
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    out = capsys.readouterr()
    err = "".join(f"{line}\n" for line in without_compile_notice(out.err))
    return code, out.out, err


def write(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(textwrap.dedent(body))
    return str(path)


def test_numba_example_plays_the_same_in_the_kernel_and_on_the_reference_engine() -> None:
    rules = preset("french")
    names = [BIG, "lowest", "rules-aware", "random"]
    job = KernelJob.build(rules, names, 4, 3, 200)
    for match in range(4):
        _, trace = trace_match(job, match)
        record = play_match(rules, [registry.make(s) for s in names], 4, match, rounds=3)
        moves = [
            (rr.seating.index(p) << 8) | (m.count << 4) | (0 if m.is_pass else m.rank)
            for rr in record.rounds
            for p, m in rr.moves
        ]
        assert [t for t in trace.tolist() if t >= 0] == moves


def test_illegal_move_in_the_kernel_is_found_and_named(capsys) -> None:
    code, _, err = run_cli(
        ["simulate", "--strategies", f"{GREEDY},lowest,lowest,lowest", "--rounds", "40"], capsys
    )
    assert code == 2
    assert err.count("\n") == 1
    assert f"strategy {GREEDY!r} made the illegal move 2 (rank 12, count 1)" in err
    assert "holding" in err and "allowed:" in err


def refused_under(tmp_path, capsys, rules: str, user: str) -> str:
    """The one line of standard error of 40 rounds of ``user`` against three ``lowest``
    under the rules file ``rules``, which must stop with exit code 2 and no output."""
    path = tmp_path / "rules.toml"
    path.write_text(rules)
    code, out, err = run_cli(
        ["simulate", "--rules", str(path), "--strategies", f"{user},lowest,lowest,lowest",
         "--rounds", "40"],
        capsys,
    )  # fmt: skip
    assert code == 2 and err.count("\n") == 1 and out == ""
    return err


@pytest.mark.slow  # a match loop of its own around the user's function (45 s on numba 0.59)
def test_a_bad_hand_over_in_the_kernel_stops_the_run_in_one_line(tmp_path, capsys) -> None:
    """Under ``seven_passes`` and ``ten_discards``, with no exchange, the only give-backs are
    the cards handed over after 7s and 10s: a user's numba function that hands over cards
    it does not hold is caught in the kernel, even when they would have been its last."""
    rules = "seven_passes = true\nten_discards = true\nexchange = []\n"
    err = refused_under(tmp_path, capsys, rules, HOARDER)
    assert f"strategy {HOARDER!r} gave back a card it does not hold: [13" in err


@pytest.mark.slow  # a suited match loop of its own around the user's function
def test_cards_a_numba_strategy_names_that_do_not_fit_stop_the_run_in_one_line(
    tmp_path, capsys
) -> None:
    """Under ``suit_lock`` a user's numba function that names the spades of its play's rank
    (``pick_cards``), held or not, is caught in the kernel and named on the reference
    engine, with the cards."""
    err = refused_under(tmp_path, capsys, 'suit_lock = "suits"\n', SPADES)
    assert f"strategy {SPADES!r} named cards that cannot be those of its play" in err
    assert "you do not hold the" in err and "cards 3" in err


def test_python_class_example_runs_on_the_reference_engine(capsys) -> None:
    code, out, err = run_cli(
        ["simulate", "--strategies", f"{CAUTIOUS},lowest,random,lowest", "--rounds", "30",
         "--engine", "python"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    assert "cautious.py:Cautious" in out
    code, _, err = run_cli(
        ["simulate", "--strategies", f"{CAUTIOUS},lowest,random,lowest", "--rounds", "30"], capsys
    )
    assert code == 2 and "--engine python" in err


def test_faulty_python_strategies_are_stopped_with_the_situation(tmp_path, capsys) -> None:
    path = write(
        tmp_path,
        "faulty",
        """
        class Raises:
            def choose(self, obs, rng):
                raise RuntimeError("oops")

            def give_back(self, hand, k, rng):
                return []

        class Hoards:
            def choose(self, obs, rng):
                return obs.legal[0]

            def give_back(self, hand, k, rng):
                return [13] * k
        """,
    )
    code, _, err = run_cli(
        ["simulate", "--strategies", f"{path}:Raises,lowest,lowest,lowest", "--rounds", "10",
         "--engine", "python"],
        capsys,
    )  # fmt: skip
    assert code == 2 and err.count("\n") == 1
    assert (
        f"strategy '{path}:Raises' raised RuntimeError at {path}, line 4, in choose: oops (seat"
        in err
    )
    code, _, err = run_cli(
        ["simulate", "--strategies", f"{path}:Hoards,lowest,lowest,lowest", "--rounds", "20",
         "--engine", "python"],
        capsys,
    )  # fmt: skip
    assert code == 2 and err.count("\n") == 1
    assert f"strategy '{path}:Hoards' gave back a card it does not hold: [13" in err
    assert "] (giving back" in err


def test_wrong_signature_and_missing_names_are_refused(tmp_path, capsys) -> None:
    path = write(
        tmp_path,
        "wrong",
        """
        from numba import njit

        @njit
        def two_args(pos, S):
            return 0, 0

        def plain(pos):
            return 0, 0
        """,
    )
    for spec, words in (
        (f"{path}:two_args", "two_args(pos, S) at"),
        (f"{path}:two_args", "the kernel calls name(pos, S, H, R, played, roles, rs, params)"),
        (f"{path}:plain", "must be a numba @njit function"),
        (f"{path}:absent", "defines no 'absent'"),
        (f"{tmp_path}/nofile.py:x", "no such file"),
    ):
        code, _, err = run_cli(["simulate", "--strategies", spec, "--rounds", "10"], capsys)
        assert code == 2 and words in err, err
        assert err.count("\n") == 1
