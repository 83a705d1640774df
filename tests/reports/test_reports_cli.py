"""``president report DIR``: the rendered report, its figures, and refused directories."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reports import build, data
from reports.numbers import format_ci
from reports.results import analyse
from reports.strategy.page import clipped
from simulator.rules.presets import preset
from tests.conftest import run_cli
from tests.reports.page_parts import broken_links, embedded_figure, section
from tests.reports.report_runs import reference_frame, write_run
from tests.reports.test_reports import satterthwaite_df, score_interval

NAMES = ["lowest", "random", "random", "lowest"]
ALWAYS = (
    "place_distribution",
    "rates",
    "transitions",
    "role_value",
    "seat_effects",
    "game_length",
    "convergence",
)


@pytest.fixture(scope="module")
def target_run(tmp_path_factory) -> tuple[Path, pd.DataFrame]:
    """A small run under a scoring target (spade preset), so every section has content."""
    frame = reference_frame(preset("spade"), NAMES, 11, 60, None)
    root = write_run(tmp_path_factory.mktemp("run"), frame, preset("spade"), NAMES, 11, 2)
    return root, frame


@pytest.fixture(scope="module")
def rendered(target_run) -> str:
    root, _ = target_run
    result = run_cli("report", str(root))
    assert result.exit_code == 0, result.stderr
    assert result.stdout.strip() == str(root / "report.html")
    return (root / "report.html").read_text(encoding="utf-8")


def test_every_figure_is_embedded_and_written(target_run, rendered):
    root, _ = target_run
    for name in (*ALWAYS, "match_length"):
        png = (root / "figures" / f"{name}.png").read_bytes()
        assert png.startswith(b"\x89PNG")
        assert (root / "figures" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
        embedded = embedded_figure(rendered, name)
        assert embedded is not None, name
        wide, narrow = embedded
        assert wide == png and narrow.startswith(b"\x89PNG") and narrow != png


def test_report_is_self_contained_and_responsive(rendered):
    assert 'name="viewport"' in rendered and "overflow-x: auto" in rendered
    assert "http://" not in rendered and "https://" not in rendered
    assert "<script" not in rendered


def test_report_shows_settings_and_hand_computed_rates(target_run, rendered):
    root, frame = target_run
    summary = json.loads((root / "summary.json").read_text())
    facts = section(rendered, "settings")
    assert f'<td class="text">{summary["seed"]}</td>' in facts
    assert f'<td class="text">{summary["version"]}</td>' in facts
    assert "seat 0 lowest, seat 1 random, seat 2 random, seat 3 lowest" in facts
    assert "<h3>Rules: spade</h3>" in facts
    for raw in ("null", "None", "False", "True", "{&quot;"):  # summary.json's spelling
        assert raw not in facts, raw
    g = frame["match"].nunique()
    for strategy, rows in frame.groupby("strategy", observed=True):
        per_match = (
            rows.assign(y=(rows["place"] == 1).astype(float), n=1.0)
            .groupby("match")[["y", "n"]]
            .sum()
        )
        r = per_match["y"].sum() / per_match["n"].sum()
        se = (
            np.sqrt(g / (g - 1) * ((per_match["y"] - r * per_match["n"]) ** 2).sum())
            / per_match["n"].sum()
        )
        df = satterthwaite_df(per_match["y"] - r * per_match["n"])  # a proportion:
        lo, hi = score_interval(r, se, df, per_match["n"].sum())  # t on its variance's df
        assert format_ci(r, lo, hi) in rendered, strategy
        # per match, not per seat: a strategy holding two seats plays each match once
        wins = rows[rows["won_match"]]["match"].nunique() / rows["match"].nunique()
        assert f"{wins:.3f} [" in rendered


def test_report_shows_the_mean_place_by_whether_the_player_dealt(target_run, rendered):
    """The table under the seats, with what the gap mixes under spade's dealer rule."""
    _, frame = target_run
    seats = section(rendered, "seats")
    assert "Mean place by whether the player dealt" in seats
    assert "last round&#x27;s Scum deals, so the gap mixes dealing with holding that role" in seats
    assert "<th>strategy</th><th>did not deal</th><th>dealt</th>" in seats
    for strategy, rows in frame.groupby("strategy", observed=True):
        cells = re.search(
            rf"<tr><td>{strategy}</td><td>([\d.]+) \[[^<]*</td><td>([\d.]+) \[", seats
        )
        for shown, dealt in zip(cells.groups(), (False, True), strict=True):
            by_hand = rows[rows["dealt"] == dealt]["place"].mean()
            assert float(shown) == pytest.approx(
                by_hand, abs=0.51 * 10 ** -len(shown.split(".")[1])
            )


def test_report_without_target_says_so(tmp_path):
    frame = reference_frame(preset("french"), NAMES, 1, 8, 3)
    root = write_run(tmp_path, frame, preset("french"), NAMES, 1, 1)
    build.write_report(root)
    page = (root / "report.html").read_text(encoding="utf-8")
    assert "No scoring target" in page and "fig-match_length" not in page
    for name in ALWAYS:
        assert f'id="fig-{name}"' in page
        assert (root / "figures" / f"{name}.svg").exists()


def assert_refused(path: Path, fragment: str) -> None:
    result = run_cli("report", str(path))
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and fragment in lines[0], lines


def test_refuses_a_directory_without_rounds(tmp_path):
    assert_refused(tmp_path, "no rounds.parquet")
    assert_refused(tmp_path / "absent", "not a directory")


def test_refuses_unreadable_parquet(tmp_path, target_run):
    root, _ = target_run
    (tmp_path / "rounds.parquet").write_bytes(b"this is not parquet at all" * 10)
    (tmp_path / "summary.json").write_text((root / "summary.json").read_text())
    assert_refused(tmp_path, "cannot read")


def test_refuses_missing_columns(tmp_path, target_run):
    root, frame = target_run
    frame.drop(columns=["prev_role", "led"]).to_parquet(tmp_path / "rounds.parquet")
    (tmp_path / "summary.json").write_text((root / "summary.json").read_text())
    assert_refused(tmp_path, "lacks the columns prev_role, led")


def test_refuses_foreign_summary(tmp_path, target_run):
    _, frame = target_run
    frame.to_parquet(tmp_path / "rounds.parquet")
    assert_refused(tmp_path, "no summary.json")
    (tmp_path / "summary.json").write_text("{not json")
    assert_refused(tmp_path, "cannot read")
    (tmp_path / "summary.json").write_text(json.dumps({"rules": {}}))
    assert_refused(tmp_path, "lacks rules.players")


def test_refuses_a_summary_that_disagrees_with_the_rows(tmp_path, target_run):
    root, frame = target_run
    frame.to_parquet(tmp_path / "rounds.parquet")
    summary = json.loads((root / "summary.json").read_text())
    summary["rules"]["players"] = 5
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    assert_refused(tmp_path, "says 5 players but the rows hold places up to 4")


def test_refuses_unknown_roles(tmp_path, target_run):
    root, frame = target_run
    frame.assign(role=frame["role"].astype(str).replace("scum", "trou")).to_parquet(
        tmp_path / "rounds.parquet"
    )
    (tmp_path / "summary.json").write_text((root / "summary.json").read_text())
    assert_refused(tmp_path, "unknown role values: trou")


def test_help():
    result = run_cli("report", "--help")
    assert result.exit_code == 0 and "report.html" in result.stdout


def test_report_opens_with_what_the_run_says(target_run, rendered):
    """The first section states the winner and its margin, the President's persistence
    against the no-memory baseline, the exchange and how to measure it, with the numbers
    of the tables below."""
    root, _ = target_run
    assert re.search(r"<section id=\"(\w+)\">", rendered).group(1) == "summary"
    said = section(rendered, "summary")
    run = data.open_run(root)
    t = build.collect(run)
    results = analyse(t, run)
    st = clipped(results.standings)
    best, second = st.ranking.iloc[0], st.ranking.iloc[1]
    pair = st.pairwise.iloc[0]
    assert f"<strong>{best['strategy']}</strong> places best" in said
    for text in (
        format_ci(best["mean_place"], best["mean_place_lo"], best["mean_place_hi"]),
        format_ci(second["mean_place"], second["mean_place_lo"], second["mean_place_hi"]),
        format_ci(-pair["diff"], -pair["diff_hi"], -pair["diff_lo"]),
        format_ci(best["match_wins"], best["match_wins_lo"], best["match_wins_hi"]),
    ):
        assert text in said, text
    pooled = results.persistence.set_index("strategy").loc["all"]
    assert format_ci(pooled["estimate"], pooled["lo"], pooled["hi"]) in said
    assert f"against {pooled['baseline']:.3f}" in said and 'href="#g-no-memory"' in said
    assert "the Scum gives his best card to the President" in said  # spade: exchange [1]
    assert "<code>preset = &quot;spade&quot;</code>" in said and "exchange = []" in said
    assert broken_links(rendered) == []


def test_rules_without_points_or_target_show_neither(tmp_path):
    frame = reference_frame(preset("french"), NAMES, 1, 8, 3)
    root = write_run(tmp_path, frame, preset("french"), NAMES, 1, 1)
    page = build.write_report(root).read_text(encoding="utf-8")
    assert "points per round" not in page and "decided share" not in page
    assert "every match lasts 3 rounds" in page and "(None)" not in page
    assert "vice_scum" not in page and "Vice-Scum" in page  # roles as people read them
    assert "Value of each role over the next 1, 2 rounds" in page  # as far as matches go


def test_refuses_matches_of_one_round(tmp_path):
    """Without a round that follows another there is no role memory to report: one line
    naming what works, not a traceback."""
    frame = reference_frame(preset("french"), NAMES, 1, 6, 1)
    assert_refused(
        write_run(tmp_path, frame, preset("french"), NAMES, 1, 1), "--rounds-per-match 2"
    )
