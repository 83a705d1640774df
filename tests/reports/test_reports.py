"""The report's numbers against straightforward pandas computations on the same rows.

Run ``scored``: 200 real matches × 5 rounds (``scum`` preset: points, no target) with
two strategies; run ``target``: 40 real matches of the ``spade`` preset (target 11).
With 200 matches every match is its own batch, so the intervals must equal the
cluster-robust (by match) interval computed here by hand.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from reports import build, data, estimates, markov
from reports.chunk_sums import NEEDED_COLUMNS, Tallies, declared
from reports.results import RunResults, analyse
from simulator.rules.presets import preset
from simulator.rules.roles import ROLE_NAMES
from simulator.stats import t_quantile
from tests.reports.report_runs import reference_frame, synthetic_frame, write_run

NAMES = ["lowest", "random", "random", "lowest"]


@pytest.fixture(scope="session")
def scored_frame() -> pd.DataFrame:
    return reference_frame(preset("scum"), NAMES, 7, 200, 5)


@pytest.fixture(scope="session")
def scored_run(tmp_path_factory, scored_frame) -> Path:
    return write_run(tmp_path_factory.mktemp("scored"), scored_frame, preset("scum"), NAMES, 7, 1)


@pytest.fixture(scope="session")
def scored_results(scored_run) -> tuple[Tallies, RunResults]:
    run = data.open_run(scored_run)
    tallies = build.collect(run)
    return tallies, analyse(tallies, run)


@pytest.fixture(scope="session")
def target_frame() -> pd.DataFrame:
    return reference_frame(preset("spade"), NAMES, 3, 40, None)


@pytest.fixture(scope="session")
def target_run(tmp_path_factory, target_frame) -> Path:
    return write_run(tmp_path_factory.mktemp("target"), target_frame, preset("spade"), NAMES, 3, 1)


def clustered(
    frame: pd.DataFrame, y: pd.Series, n: pd.Series, share: bool = False
) -> tuple[float, float, float]:
    """Σy/Σn and its CR1 interval with the match as cluster, written out plainly.

    ``share``: a proportion, whose interval is :func:`score_interval`.
    """
    sums = pd.DataFrame({"y": y, "n": n, "match": frame["match"]}).groupby("match").sum()
    r = sums["y"].sum() / sums["n"].sum()
    g = len(sums)
    se = np.sqrt(g / (g - 1) * ((sums["y"] - r * sums["n"]) ** 2).sum()) / sums["n"].sum()
    half = sps.t.ppf(0.975, g - 1) * se
    if share:
        df = satterthwaite_df(sums["y"] - r * sums["n"])
        return r, *score_interval(r, se, df, sums["n"].sum())
    return r, r - half, r + half


def satterthwaite_df(residuals: pd.Series) -> int:
    """The degrees of freedom of a rate's interval, from its clusters' residuals
    e = y − r·n: 2·(Σe²)² over G/(G − 1)·Σ(e² − mean e²)², rounded down, within 1 and
    G − 1 (G − 1 when no residual varies)."""
    e2 = residuals.to_numpy() ** 2
    g = len(e2)
    spread = g / (g - 1) * ((e2 - e2.mean()) ** 2).sum()
    if spread <= 1e-12 * e2.sum() ** 2:
        return g - 1
    return int(min(max(np.floor(2 * e2.sum() ** 2 / spread), 1), g - 1))


def score_interval(r: float, se: float, df: int, n: float) -> tuple[float, float]:
    """Wilson's interval with t(df)² for z² on n_eff = r(1 − r)/se² (n at 0 or 1)."""
    n_eff = n if r in (0.0, 1.0) else r * (1 - r) / se**2
    t = sps.t.ppf(0.975, df)
    centre = (r + t * t / (2 * n_eff)) / (1 + t * t / n_eff)
    spread = t / (1 + t * t / n_eff) * np.sqrt(r * (1 - r) / n_eff + t * t / (4 * n_eff**2))
    return centre - spread, centre + spread


def pick(frame: pd.DataFrame, **keys) -> pd.Series:
    """The one row of ``frame`` matching ``keys``."""
    mask = np.ones(len(frame), dtype=bool)
    for key, value in keys.items():
        mask &= frame[key].to_numpy() == value
    assert mask.sum() == 1, keys
    return frame[mask].iloc[0]


def assert_ci(row: pd.Series, expected: tuple[float, float, float]) -> None:
    assert row["estimate"] == pytest.approx(expected[0], rel=1e-9)
    assert row["lo"] == pytest.approx(expected[1], rel=1e-4)
    assert row["hi"] == pytest.approx(expected[2], rel=1e-4)


def test_t_quantile_matches_scipy():
    df = np.array([3, 4, 10, 50, 255])
    assert np.allclose(t_quantile(df), sps.t.ppf(0.975, df), rtol=1e-12)
    assert np.isnan(t_quantile(0))


@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.99])
def test_t_quantile_without_scipy_is_scipys_at_every_df(level):
    """The series (whole df below 1000), Fisher's expansion (above) and the fallback
    (fractional df) all agree with scipy; NaN below one degree of freedom."""
    df = np.array([*range(1, 1100, 7), 999, 1000, 1e4, 1e6, 1e9, 1.5, 7.25, 0.5, -1])
    expected = np.where(df >= 1, sps.t.ppf(0.5 + level / 2, np.maximum(df, 1)), np.nan)
    assert np.allclose(t_quantile(df, level), expected, rtol=1e-12, equal_nan=True)
    assert t_quantile(np.array([[9, 9], [0, 9]])).shape == (2, 2)


def test_rates_per_strategy_and_seat(scored_frame, scored_results):
    _, res = scored_results
    f = scored_frame
    one = pd.Series(1.0, index=f.index)
    for by in ("strategy", "seat"):
        rates = getattr(res, f"rates_{by}")
        for value in f[by].unique():
            mine = (f[by] == value).astype(float)
            cases = {
                "mean place": f["place"] * mine,
                "President rate": (f["place"] == 1) * mine,
                "Scum rate": (f["place"] == 4) * mine,
                "points per round": f["points"] * mine,
            }
            for measure, y in cases.items():
                row = pick(rates, **{by: value, "measure": measure})
                share = measure.endswith("rate")
                assert_ci(row, clustered(f, y.astype(float), one * mine, share))


def test_mean_place_by_whether_the_player_dealt(scored_frame, scored_results):
    _, res = scored_results
    f = scored_frame
    assert (f.groupby(["match", "round"])["dealt"].sum() == 1).all()  # one dealer a round
    for strategy in f["strategy"].unique():
        for dealt in (True, False):
            mine = ((f["strategy"] == strategy) & (f["dealt"] == dealt)).astype(float)
            row = pick(res.dealt, strategy=strategy, dealt=dealt)
            assert_ci(row, clustered(f, f["place"] * mine, mine))


def test_place_distribution(scored_frame, scored_results):
    _, res = scored_results
    f = scored_frame
    dist = res.places_strategy
    expected = pd.crosstab(f["strategy"], f["place"], normalize="index")
    for strategy in expected.index:
        mine = (f["strategy"] == strategy).astype(float)
        for place in expected.columns:
            row = pick(dist, strategy=strategy, place=place)
            assert row["estimate"] == pytest.approx(expected.loc[strategy, place])
            y = ((f["place"] == place) * mine).astype(float)
            assert_ci(row, clustered(f, y, mine, share=True))


def previous_roles(f: pd.DataFrame) -> pd.Series:
    """Each player's role in the previous round of the match, rebuilt by shifting."""
    ordered = f.sort_values(["match", "seat", "round"])
    prev = ordered.groupby(["match", "seat"])["role"].shift(1).astype(object)
    return prev.reindex(f.index)


def test_transition_matrix_counts_and_probabilities(scored_frame, scored_results):
    _, res = scored_results
    f = scored_frame.assign(before=previous_roles(scored_frame))
    later = f[f["before"].notna()]
    assert (later["before"] == later["prev_role"].astype(object)).all()
    matrix = res.transitions
    for strategy, rows in [("all", later), *later.groupby("strategy", observed=True)]:
        counts = pd.crosstab(rows["before"], rows["role"].astype(object))
        probs = counts.div(counts.sum(axis=1), axis=0)
        for a in counts.index:
            for b in counts.columns:
                row = pick(matrix, strategy=strategy, prev_role=a, role=b)
                assert row["count"] == counts.loc[a, b]
                assert row["estimate"] == pytest.approx(probs.loc[a, b])


@pytest.mark.parametrize("strategy", ["all", "lowest", "random"])
def test_chain_summary_against_matrix_power(scored_frame, scored_results, strategy):
    _, res = scored_results
    later = scored_frame[scored_frame["prev_role"] != ""]
    if strategy != "all":
        later = later[later["strategy"] == strategy]
    counts = pd.crosstab(later["prev_role"].astype(object), later["role"].astype(object))
    c = counts.reindex(
        index=ROLE_NAMES[:2] + ROLE_NAMES[3:], columns=ROLE_NAMES[:2] + ROLE_NAMES[3:]
    )
    p = c.fillna(0).to_numpy(float)
    p = p / p.sum(axis=1, keepdims=True)
    pi = np.linalg.matrix_power(p, 500)[0]
    slem = np.sort(np.abs(np.linalg.eigvals(p)))[-2]
    chain = res.chain
    for role, share in zip(c.index, pi, strict=True):
        row = pick(chain, strategy=strategy, measure=f"stationary {role}")
        assert row["estimate"] == pytest.approx(share, abs=1e-9)
        assert row["lo"] - 1e-9 <= share <= row["hi"] + 1e-9
    tenure = pick(chain, strategy=strategy, measure="President tenure")
    assert tenure["estimate"] == pytest.approx(1 / (1 - p[0, 0]))
    assert tenure["lo"] < tenure["estimate"] < tenure["hi"]
    assert pick(chain, strategy=strategy, measure="SLEM")["estimate"] == pytest.approx(slem)


def test_pooled_chain_is_doubly_stochastic(scored_results):
    """Every round hands out each role once, so the pooled chain's stationary law is uniform."""
    _, res = scored_results
    chain = res.chain
    shares = chain[(chain["strategy"] == "all") & chain["measure"].str.startswith("stationary")]
    assert np.allclose(shares["estimate"], 0.25)


def test_next_place_by_role(scored_frame, scored_results):
    _, res = scored_results
    f = scored_frame
    later = (f["prev_role"] != "").astype(float)
    for role in ROLE_NAMES:
        mine = later * (f["prev_role"] == role)
        if mine.sum() == 0:
            continue
        row = pick(res.next_place, strategy="all", prev_role=role)
        assert_ci(row, clustered(f, f["place"] * mine, mine))


def test_role_value_by_hand(scored_frame, scored_results):
    _, res = scored_results
    sums: dict[tuple[str, str, int], list[int]] = {}
    for (_, _), rows in scored_frame.groupby(["match", "seat"]):
        rows = rows.sort_values("round")
        pts, roles = rows["points"].tolist(), rows["role"].tolist()
        strategy = rows["strategy"].iloc[0]
        for t in range(len(rows)):
            for h in (1, 3):
                if t + h < len(rows):
                    for key in ((strategy, roles[t], h), ("all", roles[t], h)):
                        sums.setdefault(key, [0, 0])
                        sums[key][0] += sum(pts[t + 1 : t + h + 1])
                        sums[key][1] += 1
    value = res.role_value
    for (strategy, role, h), (total, count) in sums.items():
        row = pick(value, strategy=strategy, role=role, horizon=h, measure="points")
        assert row["estimate"] == pytest.approx(total / count)
        assert row["n"] == count
    assert set(value["horizon"]) == {1, 3, 4}  # 5-round matches: at most 4 rounds ahead


def test_game_length_and_lead_effect(scored_frame, scored_results):
    _, res = scored_results
    f = scored_frame
    rounds = f.drop_duplicates(["match", "round"])
    for measure in ("tricks", "plays", "passes", "skips"):
        row = pick(res.game_length, measure=measure)
        assert row["estimate"] == pytest.approx(rounds[measure].mean())
        assert row["n"] == len(rounds)
    first = f["round"] == 0
    for (is_first, led), rows in f.groupby([first, f["led"]]):
        row = pick(res.leads, first_round=is_first, led=led, measure="mean place")
        assert row["estimate"] == pytest.approx(rows["place"].mean())


def test_convergence_ends_at_the_overall_estimate(scored_frame, scored_results):
    _, res = scored_results
    conv = res.convergence
    for strategy, rows in scored_frame.groupby("strategy", observed=True):
        mine = conv[(conv["strategy"] == strategy) & (conv["measure"] == "President rate")]
        assert mine["rounds"].iloc[-1] == scored_frame["match"].nunique() * 5
        assert mine["estimate"].iloc[-1] == pytest.approx((rows["place"] == 1).mean())
        first = rows[rows["match"] == 0]
        assert mine["estimate"].iloc[0] == pytest.approx((first["place"] == 1).mean())


def test_match_results_under_a_target(target_frame, target_run):
    f = target_frame
    tallies = build.collect(data.open_run(target_run))
    g = estimates.batch_count(tallies.places)
    last = f[f["round"] == f.groupby("match")["round"].transform("max")]
    winners = last.loc[last.groupby("match")["total"].idxmax()]
    assert winners["won_match"].all() and f["won_match"].sum() == f["match"].nunique()
    wins = estimates.match_results(tallies.strategy_matches, g, "strategy")
    for strategy in NAMES[:2]:  # two seats each: a match counts once, won by either seat
        won = (winners["strategy"] == strategy).sum()
        assert pick(wins, strategy=strategy)["estimate"] == pytest.approx(
            won / f["match"].nunique()
        )
    length = pick(estimates.match_length(tallies.matches, g), measure="rounds per match")
    assert length["estimate"] == pytest.approx(f.groupby("match")["round"].max().add(1).mean())


def test_batches_of_many_matches(tmp_path):
    """With more matches than batches, intervals are batch means over consecutive matches."""
    rules = preset("scum")
    frame = synthetic_frame(1000, 3, NAMES, 5, rules)
    run = data.open_run(write_run(tmp_path, frame, rules, NAMES, 5, 1))
    tallies = build.collect(run)
    g = estimates.batch_count(tallies.places)
    assert run.batch_size == 4 and g == 250
    rates = estimates.player_rates(tallies.places, g, 4, "strategy")
    row = pick(rates, strategy="random", measure="mean place")
    mine = frame.assign(
        y=frame["place"].where(frame["strategy"] == "random", 0).astype(float),
        n=(frame["strategy"] == "random").astype(float),
        batch=frame["match"] // 4,
    )
    sums = mine.groupby("batch")[["y", "n"]].sum()
    r = sums["y"].sum() / sums["n"].sum()
    se = np.sqrt(g / (g - 1) * ((sums["y"] - r * sums["n"]) ** 2).sum()) / sums["n"].sum()
    half = sps.t.ppf(0.975, g - 1) * se
    assert_ci(row, (r, r - half, r + half))
    assert row["lo"] < 2.5 < row["hi"]  # synthetic places are uniform


def test_three_players_have_three_roles(tmp_path):
    rules = preset("scum").with_options(players=3)
    names = ["lowest", "random", "lowest"]
    frame = synthetic_frame(50, 4, names, 2, rules)
    tallies = build.collect(data.open_run(write_run(tmp_path, frame, rules, names, 2, 1)))
    chain = markov.chain_summary(tallies.transitions)
    shares = chain[chain["measure"].str.startswith("stationary") & (chain["strategy"] == "all")]
    assert list(shares["measure"]) == [
        "stationary president",
        "stationary neutral",
        "stationary scum",
    ]
    assert shares["estimate"].sum() == pytest.approx(1.0)


def test_parts_and_small_chunks_give_the_same_tallies(
    tmp_path, monkeypatch, scored_frame, scored_results
):
    """Streaming is exact: parts (named out of order) and matches cut across chunks."""
    tallies, _ = scored_results
    root = write_run(tmp_path / "parts", scored_frame, preset("scum"), NAMES, 7, 3)
    parts = sorted((root / "rounds.parquet").iterdir())
    for k, part in enumerate(parts):
        part.rename(part.with_name(f"{'zyx'[k]}.parquet"))
    monkeypatch.setattr(data, "CHUNK_ROWS", 333)  # cuts matches of 20 rows
    again = build.collect(data.open_run(root))
    for name in declared():
        whole = getattr(tallies, name)
        if whole is None:  # a tally of duplicate runs only
            assert getattr(again, name) is None
        else:
            pd.testing.assert_frame_equal(getattr(again, name), whole, check_dtype=False)


def test_each_tally_reads_only_the_columns_it_declares(scored_run):
    """The report reads only the columns the tallies declare (NEEDED_COLUMNS): a chunk cut
    down to one tally's declared columns (with the chunks' own) gives it the same sums."""
    run = data.open_run(scored_run)
    chunk = next(data.iter_chunks(run, NEEDED_COLUMNS))
    for name, made in declared().items():
        cut = chunk[list(dict.fromkeys([*data.CHUNK_COLUMNS, *made.reads, "batch"]))]
        pd.testing.assert_frame_equal(made.of(cut, run), made.of(chunk, run), obj=name)


def test_rows_out_of_match_order_are_refused(tmp_path, scored_frame, monkeypatch):
    shuffled = scored_frame.sample(frac=1.0, random_state=0)
    root = write_run(tmp_path, shuffled, preset("scum"), NAMES, 7, 1)
    monkeypatch.setattr(data, "CHUNK_ROWS", 100)
    with pytest.raises(data.ReportError, match="not ordered by match"):
        build.collect(data.open_run(root))
