"""Progress on standard error: drawn in place on a terminal, never with --quiet or off one.

The lines themselves are checked on a fake terminal stream; the commands are checked
through the real entry point with standard error taken for a terminal
(``simulator.runs.progress.on_terminal``), where tournament, report and compare must
say where they are, and say nothing with ``--quiet``.
"""

from __future__ import annotations

import io

import pytest

from simulator.cli import simulate
from simulator.runs import progress
from simulator.runs.progress import CLEAR_TO_END, ProgressBar, StatusLine, StepProgress
from simulator.runs.tournament.tables import TournamentConfig, run_tournament
from tests.cli.test_bad_input import assert_refused
from tests.conftest import run_cli

SMALL = ["--players", "3", "--matches", "6", "--rounds-per-match", "2"]


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    """A terminal wide enough for every line (lines are cut to its width)."""
    monkeypatch.setenv("COLUMNS", "200")


def test_a_status_line_is_redrawn_in_place_and_erased():
    out = io.StringIO()
    line = StatusLine(enabled=True, stream=out)
    line.show("table 1/3")
    line.show("table 2/3")
    line.close()
    assert out.getvalue() == (f"\rtable 1/3{CLEAR_TO_END}\rtable 2/3{CLEAR_TO_END}\r{CLEAR_TO_END}")


def test_a_line_is_cut_to_the_terminal_width(monkeypatch):
    """A wrapped line could not be redrawn in place."""
    monkeypatch.setenv("COLUMNS", "20")
    out = io.StringIO()
    StatusLine(enabled=True, stream=out).show("table 1/3  [####    ]  lowest, random")
    assert out.getvalue() == f"\rtable 1/3  [####   {CLEAR_TO_END}"  # 19 of 20 columns


def test_a_disabled_status_line_writes_nothing():
    out = io.StringIO()
    line = StatusLine(enabled=False, stream=out)
    line.show("table 1/3")
    line.close()
    assert out.getvalue() == ""


def test_the_rounds_bar_waits_a_second_then_names_its_label():
    out = io.StringIO()
    bar = ProgressBar(enabled=True, label="variant 2/3 scum", stream=out)
    bar(1000, 4000, 0.5)
    assert out.getvalue() == ""  # short runs stay quiet
    bar(1000, 4000, 2.0)
    bar.close()
    text = out.getvalue()
    assert text.startswith("\rvariant 2/3 scum  [#######")
    assert " 25.0%" in text and "500 rounds/s" in text and "6 s left" in text
    assert text.endswith("\n")  # the last state stays on screen


def test_steps_show_the_share_done_and_the_time_left(monkeypatch):
    clock = iter([0.0, 30.0])
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    out = io.StringIO()
    steps = StepProgress(enabled=True, stream=out)
    steps.step(1, 4, "table 2/4", "lowest, random")
    expected = f"\rtable 2/4  [{'#' * 7:<30}]  25.0%  1 min 30 s left  lowest, random"
    assert out.getvalue() == expected + CLEAR_TO_END


def drawn_lines(text: str) -> list[str]:
    """What a terminal shows of a status stream: each redraw, each line of its own."""
    return [
        part.replace(CLEAR_TO_END, "") for line in text.split("\n") for part in line.split("\r")
    ]


@pytest.mark.parametrize("columns", [80, 120])
def test_the_progress_lines_fit_the_terminal_uncut(monkeypatch, columns):
    """They were cut at the width (``…1,362,185 round``): now the bar narrows and the
    rounds give way first, so the time left always shows."""
    monkeypatch.setenv("COLUMNS", str(columns))
    out = io.StringIO()
    bar = ProgressBar(enabled=True, label="variant 4/4 regles-jeu", stream=out)
    bar(1_362_185, 10_000_000, 7.0)
    bar.close()
    steps = StepProgress(enabled=True, stream=out)
    steps.step(0, 70, "table 1/70", "lowest, random, keep-sets, control")
    steps.step(12, 70, "table 13/70", "lowest, random, keep-sets, control")
    steps.close()
    lines = [line for line in drawn_lines(out.getvalue()) if line]
    assert max(map(len, lines)) < columns, lines
    assert lines[0].startswith("variant 4/4 regles-jeu  [##") and lines[0].endswith(" 44 s left")
    assert "13.6%" in lines[0] and "194,598 rounds/s" in lines[0]  # kept at 80 columns
    assert lines[-1].startswith("table 13/70  [#") and " 17.1%  " in lines[-1]


def test_a_notice_starts_on_its_own_line_and_its_seconds_count_as_time_left(monkeypatch):
    clock = iter([0.0, 10.0, 10.0, 10.0, 70.0, 70.0])
    monkeypatch.setattr(progress.time, "perf_counter", lambda: next(clock))
    out = io.StringIO()
    steps = StepProgress(enabled=True, stream=out)
    steps.step(1, 3, "table 2/3", "lowest, montecarlo")  # 10 s a table: 20 s left
    steps.notice("compiling the kernel for lowest, montecarlo — once, about 35 s", 35)
    steps.step(2, 3, "table 3/3", "random, montecarlo")  # the compile took 35 of 60 s
    shown = out.getvalue()
    notice = f"\r{CLEAR_TO_END}compiling the kernel for lowest, montecarlo — once, about 35 s\n"
    before, after = shown.split(notice)
    assert "  20 s left  lowest, montecarlo" in before
    assert after.startswith("\rtable 2/3  [") and "  55 s left  lowest, montecarlo" in after
    assert "  18 s left  random, montecarlo" in after  # (70 - 35) / 2 s a table: the compile aside


@pytest.fixture(scope="module")
def compiled_tables():
    """The tables of the tournaments below played once before, so that their kernels are
    compiled: a real compile notice would stand in the output these tests read (when
    run alone on a cold cache; in the whole suite earlier tests compile them first)."""
    for strategies in ("lowest,random,control,planner", "lowest,random"):
        assert run_cli("tournament", "--strategies", strategies, *SMALL).exit_code == 0


def test_tournament_prints_a_compile_notice_on_its_own_line(terminal, monkeypatch,
                                                            compiled_tables):  # fmt: skip
    """It ran into the status line (``… montecarlocompiling the kernel …``)."""
    from simulator import notices
    from simulator.runs.tournament import tables as runs_tournament

    play = runs_tournament.play_table

    def compiling_first(rules, config, lineup, names, engine="numba"):
        if lineup == ("lowest", "random", "control"):
            notices.notice("compiling the kernel for lowest, random, control — about 20 s", 20)
        return play(rules, config, lineup, names, engine)

    monkeypatch.setattr(runs_tournament, "play_table", compiling_first)
    result = run_cli("tournament", "--strategies", "lowest,random,control,planner", *SMALL)
    assert result.exit_code == 0, result.stderr
    before, after = result.stderr.split("compiling the kernel for lowest, random, control")
    assert before.endswith(f"lowest, random, control{CLEAR_TO_END}\r{CLEAR_TO_END}")
    assert after.startswith(" — about 20 s\n\rtable 1/4  [")
    assert "at least 20 s left  lowest, random, control" in after


def test_run_tournament_reports_each_table_before_playing_it():
    from simulator.rules.presets import preset

    seen = []
    rules = preset("scum").with_options(players=3)
    config = TournamentConfig(("lowest", "random", "control"), matches=3, rounds_per_match=2)
    run_tournament(rules, config, progress=lambda *args: seen.append(args))
    assert seen == [(0, 1, ("lowest", "random", "control"))]
    seen.clear()
    four = TournamentConfig(("lowest", "random", "control", "planner"), 3, 2)
    run_tournament(rules, four, progress=lambda *args: seen.append(args))
    assert [(done, total) for done, total, _ in seen] == [(0, 4), (1, 4), (2, 4), (3, 4)]
    assert seen[1][2] == ("lowest", "random", "planner")


@pytest.fixture
def terminal(monkeypatch):
    """Standard error taken for a terminal by every command that shows progress (the
    modules are imported first: one imported while patched would keep the patch)."""
    for module in (progress, simulate):
        monkeypatch.setattr(module, "on_terminal", lambda: True)


def test_tournament_shows_the_table_being_played(terminal, compiled_tables):
    result = run_cli("tournament", "--strategies", "lowest,random,control,planner", *SMALL)
    assert result.exit_code == 0, result.stderr
    assert "\rtable 1/4  [" in result.stderr
    assert "  lowest, random, control\x1b[K" in result.stderr
    assert "\rtable 4/4  [" in result.stderr
    assert "  random, control, planner\x1b[K" in result.stderr
    assert result.stderr.endswith(f"\r{CLEAR_TO_END}")  # erased before the ranking prints
    quiet = run_cli("tournament", "--strategies", "lowest,random", *SMALL, "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_tournament_off_a_terminal_is_silent():
    result = run_cli("tournament", "--strategies", "lowest,random", *SMALL)
    assert result.exit_code == 0 and result.stderr == ""


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("progress") / "run"
    result = run_cli("simulate", "--matches", "30", "--rounds-per-match", "3", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    return out


def test_report_shows_the_matches_read(terminal, small_run):
    result = run_cli("report", str(small_run))
    assert result.exit_code == 0, result.stderr
    assert "\rreport  [" in result.stderr
    assert f"  reading {small_run}\x1b[K" in result.stderr
    assert "100.0%  read 30 matches; estimating, drawing the figures" in result.stderr
    quiet = run_cli("report", str(small_run), "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_compare_names_the_variant_it_reads(terminal, tmp_path):
    args = ["compare", "--rules", "french", "--rules", "scum", "--matches", "20"]
    result = run_cli(*args, "--rounds-per-match", "2")
    assert result.exit_code == 0, result.stderr
    assert "0.0%  reading variant 1/2 french" in result.stderr
    assert "50.0%  0 s left  reading variant 2/2 scum" in result.stderr
    quiet = run_cli(*args, "--rounds-per-match", "2", "--quiet")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_workers_must_be_positive_everywhere():
    for command in ("simulate", "compare", "tournament"):
        assert_refused(run_cli(command, "--workers", "0"), "--workers must be at least 1, not 0")
