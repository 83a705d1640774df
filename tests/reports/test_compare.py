"""``president compare``: its numbers against plain pandas on each variant's rounds.parquet.

Four variants of 200 matches (5 rounds without a target; the spade preset plays each match
to its target): french, spade, scum and a rules file of french without the exchange.
With 200 matches every match is its own batch, so the paired intervals must equal a
delete-one-match jackknife recomputed here from the rows.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from reports.numbers import format_ci, format_column
from simulator.runs.compare.variants import variant_names
from tests.conftest import run_cli
from tests.reports.page_parts import broken_links, embedded_figure, section

MATCHES = 200
VARIANTS = ("french", "spade", "scum", "no-exchange")
FIGURES = ("persistence", "next_place", "differences", "strategies", "game_length")


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> tuple[Path, str]:
    root = tmp_path_factory.mktemp("compare")
    rules_file = root / "no-exchange.toml"
    rules_file.write_text('preset = "french"\nexchange = []\n')
    out = root / "out"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", "200")  # wide enough for the full table, [lo, hi] cells
        result = run_cli(
            "compare", "--rules", "french", "--rules", "spade", "--rules", "scum",
            "--rules", str(rules_file), "--matches", str(MATCHES), "--rounds-per-match", "5",
            "--seed", "5", "--out", str(out), "--quiet",
        )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    return out, result.stdout


@pytest.fixture(scope="module")
def numbers(compared) -> dict:
    out, _ = compared
    return json.loads((out / "compare.json").read_text())


@pytest.fixture(scope="module")
def frames(compared) -> dict[str, pd.DataFrame]:
    """Each variant's rows, with the player's place in the next round (NaN at a match's end)."""
    out, _ = compared
    frames = {}
    for name in VARIANTS:
        frame = pd.read_parquet(out / "runs" / name / "rounds.parquet")
        frame = frame.sort_values(["match", "seat", "round"]).reset_index(drop=True)
        nxt = frame.groupby(["match", "seat"])["place"].shift(-1)
        frames[name] = frame.assign(next_place=nxt, place=frame["place"].astype(float))
    return frames


# ---------------------------------------------------------------- measures, by hand


def stay(frame: pd.DataFrame, role: str) -> float:
    came = frame[frame["prev_role"] == role]
    return float((came["role"] == role).mean())


def next_place(frame: pd.DataFrame, role: str) -> float:
    return float(frame.loc[frame["prev_role"] == role, "place"].mean())


def correlation(frame: pd.DataFrame) -> float:
    pairs = frame.dropna(subset="next_place")
    return float(np.corrcoef(pairs["place"], pairs["next_place"])[0, 1])


def gini(frame: pd.DataFrame) -> float:
    """Mean over matches of the Gini of the players' summed place points (4 − place)."""
    totals = (4 - frame["place"]).groupby([frame["match"], frame["seat"]]).sum().unstack()
    values = []
    for row in totals.to_numpy():
        pairs = sum(abs(a - b) for a in row for b in row)
        values.append(pairs / (2 * len(row) * row.sum()))
    return float(np.mean(values))


HAND: dict[str, Callable[[pd.DataFrame], float]] = {
    "P(President → President)": lambda f: stay(f, "president"),
    "President tenure (rounds)": lambda f: 1 / (1 - stay(f, "president")),
    "P(Scum → Scum)": lambda f: stay(f, "scum"),
    "next place: Scum − President": lambda f: next_place(f, "scum") - next_place(f, "president"),
    "place correlation, round to next": correlation,
    "Gini of match place points": gini,
    "next place after president": lambda f: next_place(f, "president"),
    "next place after scum": lambda f: next_place(f, "scum"),
    "tricks per round": lambda f: float(f.loc[f["led"], "tricks"].mean()),
    "passes per round": lambda f: float(f.loc[f["led"], "passes"].mean()),
    "skips per round": lambda f: float(f.loc[f["led"], "skips"].mean()),
    "rounds per match": lambda f: float(f.groupby("match")["round"].max().add(1).mean()),
    "mean place: lowest": lambda f: float(f.loc[f["strategy"] == "lowest", "place"].mean()),
    "President rate: random": lambda f: float((f.loc[f["strategy"] == "random", "place"] == 1).mean()),
}  # fmt: skip


def row(records: list[dict], **keys) -> dict:
    found = [r for r in records if all(r[k] == v for k, v in keys.items())]
    assert len(found) == 1, keys
    return found[0]


# ---------------------------------------------------------------- tests


def test_estimates_equal_the_hand_computation(numbers, frames):
    assert numbers["variants"] == list(VARIANTS) and numbers["baseline"] == "french"
    assert numbers["matches"] == MATCHES and numbers["batches"] == MATCHES
    for name, frame in frames.items():
        assert frame["match"].nunique() == MATCHES
        for measure, hand in HAND.items():
            got = row(numbers["estimates"], variant=name, measure=measure)
            assert got["estimate"] == pytest.approx(hand(frame), rel=1e-9, abs=1e-12), (
                name,
                measure,
            )


def test_differences_are_paired_jackknife_by_match(numbers, frames):
    """Point: B − A. Interval: leave match m out of both variants, recompute, jackknife."""
    t = sps.t.ppf(0.975, MATCHES - 1)
    for measure in ("P(President → President)", "place correlation, round to next"):
        hand = HAND[measure]
        for name in ("spade", "no-exchange"):
            a, b = frames["french"], frames[name]
            reps = np.array(
                [hand(b[b["match"] != m]) - hand(a[a["match"] != m]) for m in range(MATCHES)]
            )
            se = np.sqrt((MATCHES - 1) / MATCHES * ((reps - reps.mean()) ** 2).sum())
            got = row(numbers["differences"], variant=name, measure=measure)
            assert got["estimate"] == pytest.approx(hand(b) - hand(a), rel=1e-9)
            assert got["se"] == pytest.approx(se, rel=1e-7)
            assert got["hi"] - got["lo"] == pytest.approx(2 * t * se, rel=2e-3)
            unpaired = [
                row(numbers["estimates"], variant=v, measure=measure)["se"] ** 2
                for v in ("french", name)
            ]
            assert got["variance_ratio"] == pytest.approx(se**2 / sum(unpaired), rel=1e-6)


def test_single_variant_interval_is_a_jackknife_by_match(numbers, frames):
    frame = frames["scum"]
    reps = np.array([gini(frame[frame["match"] != m]) for m in range(MATCHES)])
    se = np.sqrt((MATCHES - 1) / MATCHES * ((reps - reps.mean()) ** 2).sum())
    got = row(numbers["estimates"], variant="scum", measure="Gini of match place points")
    assert got["se"] == pytest.approx(se, rel=1e-7)


def test_variants_share_their_deals_and_matches(frames):
    """Common random numbers: match m of every variant has the same first dealer."""
    dealers = {
        name: f.loc[(f["round"] == 0) & f["dealt"]].sort_values("match")["seat"].to_numpy()
        for name, f in frames.items()
    }
    assert all(np.array_equal(d, dealers["french"]) for d in dealers.values())
    assert len(np.unique(dealers["french"])) == 4  # a random first dealer, shared
    lengths = frames["spade"].groupby("match")["round"].max() + 1
    assert lengths.min() > 1 and lengths.nunique() > 1  # the target decides the length


def test_ranking_follows_mean_place(numbers):
    for name in VARIANTS:
        ranked = [r for r in numbers["ranking"] if r["variant"] == name]
        assert [r["rank"] for r in ranked] == list(range(1, len(ranked) + 1))
        assert len(ranked) == 4  # the default line-up: four strategies
        estimates = [r["estimate"] for r in ranked]
        assert estimates == sorted(estimates)


def test_terminal_table_shows_every_variant_and_difference(compared, numbers):
    _, stdout = compared
    head = stdout.splitlines()[1]
    assert all(name in head for name in VARIANTS)
    assert "spade − french" in stdout and "no-exchange − french" in stdout
    line = next(x for x in stdout.splitlines() if x.strip().startswith("P(President → President)"))
    first = row(numbers["estimates"], variant="french", measure="P(President → President)")
    assert f"{first['estimate']:.3f} [" in line
    assert stdout.strip().splitlines()[-1].startswith(f"4 variants, {MATCHES} matches each")


@pytest.mark.parametrize("columns", [80, 120])
def test_the_terminal_table_of_4_variants_fits_the_terminal(
    compared, numbers, monkeypatch, columns
):
    """Full, it is about 140 columns: narrower, ± cells in blocks of variants that fit."""
    out, _ = compared
    monkeypatch.setenv("COLUMNS", str(columns))
    result = run_cli("compare", "--resume", str(out), "--quiet")
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert max(map(len, lines)) <= columns, result.stdout
    assert all(any(name in line for line in lines) for name in VARIANTS)
    line = next(x for x in lines if x.strip().startswith("P(President → President)"))
    first = row(numbers["estimates"], variant="french", measure="P(President → President)")
    assert f"{first['estimate']:.3f} ± " in line
    assert "x ± h: the 95 % interval" in result.stdout


def test_page_embeds_every_figure(compared):
    out, _ = compared
    page = (out / "compare.html").read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page and "<script" not in page
    for name in FIGURES:
        png = (out / "figures" / f"{name}.png").read_bytes()
        assert (out / "figures" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
        embedded = embedded_figure(page, name)
        assert embedded is not None, name
        wide, narrow = embedded
        assert wide == png and narrow.startswith(b"\x89PNG") and narrow != png
    assert "Does the exchange keep the President in power?" in page
    assert "jackknife" in page and "exchange = []" in page


def test_page_opens_with_what_the_comparison_says(compared, numbers):
    out, _ = compared
    page = (out / "compare.html").read_text(encoding="utf-8")
    assert re.search(r'<section id="(\w+)">', page).group(1) == "summary"
    said = section(page, "summary")
    for name in VARIANTS:
        stay = row(numbers["estimates"], variant=name, measure="P(President → President)")
        assert f"{name} {format_ci(stay['estimate'], stay['lo'], stay['hi'])} against" in said
    # no-exchange is french without the exchange: the paired difference, sign turned
    d = row(numbers["differences"], variant="no-exchange", measure="P(President → President)")
    assert "What the exchange is worth (french against no-exchange" in said
    assert format_ci(-d["estimate"], -d["hi"], -d["lo"]) in said
    assert broken_links(page) == []
    rules = section(page, "settings")
    assert "no-exchange = french with exchange changed" in rules
    header = re.search(r"<thead><tr>(.*?)</tr></thead>", rules.split("Rules:")[1]).group(1)
    assert re.findall(r"<th[^>]*>([^<]*)</th>", header) == [
        "option",
        *VARIANTS,
        "default",
        "meaning",
    ]  # one column per variant, none empty
    assert "next place after Vice-Scum" in page and "after vice_scum" not in page


def test_the_summary_compares_every_variant_none_left_out(compared, numbers):
    out, _ = compared
    said = section((out / "compare.html").read_text(encoding="utf-8"), "summary")
    changes = [d for d in numbers["differences"] if d["measure"] == "P(President → President)"]
    assert {d["variant"] for d in changes} == set(VARIANTS[1:])
    cells = format_column(*([d[k] for d in changes] for k in ("estimate", "lo", "hi")),
                          signed=True)  # fmt: skip
    for d, cell in zip(changes, cells, strict=True):
        assert f"{d['variant']} {html.escape(cell)}" in said, d["variant"]
    top = max(changes, key=lambda d: abs(d["estimate"]))  # the exchange-free one included
    assert f"largest under {top['variant']}:" in said


def test_variant_names_are_unique_and_folder_safe():
    assert variant_names(["french", "a/b/house.toml", "french", "x/house.toml"]) == [
        "french",
        "house",
        "french-2",
        "house-2",
    ]


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--rules", "french", "--rules", "nosuch", "--matches", "4"], "nosuch"),
        (["--rules", "french", "--matches", "4"], "at least two --rules (got 1)"),
        (["--rules", "french", "--rules", "scum", "--players", "9"], "players"),
        (["--rules", "french", "--rules", "scum", "--matches", "5", "--rounds", "9"], "not both"),
        (["--rules", "french", "--rules", "scum", "--strategies", "nosuch"], "nosuch"),
        (["--rules", "french", "--rules", "scum", "--rounds-per-match", "0"], "positive"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(tmp_path, args, fragment):
    result = run_cli("compare", *args, "--out", str(tmp_path / "out"))
    assert result.exit_code == 2, result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and fragment in lines[0], lines
    assert not (tmp_path / "out").exists()
