"""The skill measures of the atlas (:mod:`simulator.runs.skill.duels`) on synthetic data with
known answers, and the coverage of their intervals.

**The data.** Outcomes are drawn around chosen values, with what makes the real ones
hard: the test strategies play the same deals (a deal term shared by every strategy of a
cluster), and each strategy's luck carries over from round to round within a cluster
(an AR(1) path, ρ = 0.6, as a role carries into the next round's exchange), so rounds are
not independent and only clusters are. The truths are exact: G per strategy, RS from the
G's, Δ, and σ² = Var(match sum)/rounds from the AR(1)'s autocovariances.

**Coverage** (:mod:`tests.coverage`: 3,000 runs, band 93–97 %, ±5 standard errors of a
true 95 %): RS, RS(variant) − RS(base), the skill gap's variant − base and N95. Each test also runs a wrong estimator on
the same runs and requires it to fail the band: RS with every round taken as a cluster
(74 %), the difference without the pairing (the variants taken as independent: 100 %,
the interval twice as wide; likewise the skill gap's), N95 with σ the per-round spread (the carry-over ignored:
77 %). A band that these pass would not be a check.

One small kernel run ties the round-level measures to ``rounds.parquet`` and
``summary.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator.runs.skill.deal import deal_r2_by_exchange, previous_places
from simulator.runs.skill.duels import (
    DuelSums,
    Measure,
    deal_r2,
    edge,
    edge_interval,
    exchange_effect,
    holm,
    long_run_sd,
    mean_places,
    n95,
    persistence,
    relative_skill,
    relative_skill_difference,
    relative_skill_difference_interval,
    relative_skill_interval,
    skill_gap,
    skill_gap_difference,
    skill_gap_difference_interval,
)
from simulator.runs.skill.measure import cluster_ratio
from simulator.runs.skill.rounds import Z95, _chains, direct_n95, long_run_sd_interval, n95_bounds
from simulator.runs.tally import luck
from tests.conftest import ROOT, run_cli
from tests.coverage import HIGH, LOW, RUNS, check, coverage
from tests.docs_code import run_python_blocks

RHO = 0.6  # carry-over of a strategy's luck from one round to the next, within a cluster
TESTS = ("random", "champion", "clairvoyant")
G_BASE = {"random": 3.0, "champion": 2.2, "clairvoyant": 1.9}
G_VARIANT = {"random": 3.0, "champion": 2.3, "clairvoyant": 1.85}


def rs_of(g: dict[str, float]) -> float:
    return (g["random"] - g["champion"]) / (g["random"] - g["clairvoyant"])


def ar1(rng: np.random.Generator, shape: tuple[int, ...], sd: float) -> np.ndarray:
    """Stationary AR(1) paths along the last axis (innovations of ``sd``)."""
    out = np.empty(shape)
    out[..., 0] = rng.normal(0, sd / np.sqrt(1 - RHO**2), shape[:-1])
    eps = rng.normal(0, sd, shape)
    for t in range(1, shape[-1]):
        out[..., t] = RHO * out[..., t - 1] + eps[..., t]
    return out


def long_run_var(sd: float, white: float, rounds: int) -> float:
    """Var(match sum)/rounds of AR(1)(sd) + white noise over ``rounds`` rounds."""
    k = np.arange(1, rounds)
    gamma0 = sd**2 / (1 - RHO**2)
    return (gamma0 * (rounds + 2 * ((rounds - k) * RHO**k).sum()) + rounds * white**2) / rounds


def duels(
    rng: np.random.Generator, runs: int, clusters: int, rounds: int = 8, variant: bool = True
) -> tuple[dict, dict]:
    """Per-round places ``[runs, clusters, rounds]`` of each test strategy in a base and
    (if ``variant``) a variant played on the same deals: a shared deal term, and each
    strategy's carry-over path in the variant 0.8-correlated with the base's (the same
    cards, other rules)."""
    shape = (runs, clusters, rounds)
    deal = rng.normal(0, 1.0, shape)
    base, other = {}, {}
    for s in TESTS:
        own = ar1(rng, shape, 0.6)
        base[s] = G_BASE[s] + deal + own
        if variant:
            other[s] = G_VARIANT[s] + deal + 0.8 * own + 0.6 * ar1(rng, shape, 0.6)
    return base, other


def sums(rounds: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    return tuple(rounds[s].sum(-1) for s in TESTS)


def recovered(m: Measure, truth: float, width: float) -> bool:
    """Within two half-widths (about four standard errors: one run, no luck needed; the
    coverage tests check the intervals), and the interval narrower than ``width``."""
    return abs(m.estimate - truth) < m.high - m.low < width


def test_mean_places_and_relative_skill_are_recovered() -> None:
    base, _ = duels(np.random.default_rng(1), 1, 4000, variant=False)
    d = DuelSums({s: v[0].sum(-1) for s, v in base.items()}, np.full(4000, 8.0))
    for s, g in mean_places(d).items():
        assert recovered(g, G_BASE[s], 0.05)
    rs = relative_skill(d)
    assert recovered(rs, rs_of(G_BASE), 0.04)
    assert rs.p_value < 1e-10  # champion beats random by far


def test_relative_skill_with_rounds_of_their_own() -> None:
    """Under a target each test strategy's matches last as long as its play makes them:
    RS is then the ratio of the differences of the G's, each over its own rounds. With
    common rounds it is exactly the ratio of the cluster-summed differences."""
    rng = np.random.default_rng(11)
    base, _ = duels(rng, 1, 4000, rounds=12, variant=False)
    lengths = {s: rng.integers(6, 13, 4000) for s in TESTS}
    cut = {s: np.where(np.arange(12) < lengths[s][:, None], base[s][0], 0.0) for s in TESTS}
    d = DuelSums({s: cut[s].sum(-1) for s in TESTS}, {s: lengths[s].astype(float) for s in TESTS})
    for s, g in mean_places(d).items():
        assert recovered(g, G_BASE[s], 0.05)
    assert recovered(relative_skill(d), rs_of(G_BASE), 0.05)
    same = DuelSums({s: base[s][0].sum(-1) for s in TESTS}, np.full(4000, 12.0))
    y = [same.places[s] for s in TESTS]
    ratio = cluster_ratio(y[0] - y[1], y[0] - y[2])
    assert np.allclose([*Measure.of(ratio, 4000).__dict__.values()],
                       [*relative_skill(same).__dict__.values()], rtol=1e-12)  # fmt: skip


def test_relative_skill_coverage_and_clusters_matter() -> None:
    """Common rounds, and each strategy's own (6 to 12 of the 12 rounds of a cluster)."""
    rng = np.random.default_rng(2)
    base, _ = duels(rng, RUNS, 40, rounds=12, variant=False)
    lengths = [rng.integers(6, 13, (RUNS, 40)).astype(float) for _ in TESTS]
    own = [np.where(np.arange(12) < m[..., None], base[s], 0.0).sum(-1)
           for m, s in zip(lengths, TESTS, strict=True)]  # fmt: skip
    intervals = [relative_skill_interval(sums(base)), relative_skill_interval(own, lengths)]
    check(["RS, 40 duplicate clusters", "RS, 40 clusters, rounds of their own"],
          np.array([coverage(lo, hi, rs_of(G_BASE)) for _, lo, hi, _ in intervals]))  # fmt: skip
    by_round = relative_skill_interval([base[s].reshape(RUNS, -1) for s in TESTS])
    assert coverage(*by_round[1:3], rs_of(G_BASE)) < LOW  # rounds taken as independent


def test_relative_skill_difference_coverage_and_pairing_matters() -> None:
    base, variant = duels(np.random.default_rng(3), RUNS, 40)
    truth = rs_of(G_VARIANT) - rs_of(G_BASE)
    est, lo, hi, se = relative_skill_difference_interval(sums(variant), sums(base))
    a, b = relative_skill_interval(sums(variant)), relative_skill_interval(sums(base))
    half = (hi - lo) / 2 * np.hypot(a[3], b[3]) / se  # the same t, unpaired variance
    check(["RS(variant) − RS(base), 40 paired clusters"], np.array([coverage(lo, hi, truth)]))
    assert coverage(est - half, est + half, truth) > HIGH  # unpaired: needlessly wide
    assert np.median(half / ((hi - lo) / 2)) > 1.3


def test_relative_skill_difference_pairs_the_clusters() -> None:
    base, variant = duels(np.random.default_rng(4), 1, 3000)
    b, v = (
        DuelSums({s: r[s][0].sum(-1) for s in TESTS}, np.full(3000, 8.0)) for r in (base, variant)
    )
    diff = relative_skill_difference(v, b)
    assert recovered(diff, rs_of(G_VARIANT) - rs_of(G_BASE), 0.06) and diff.p_value < 0.05
    assert diff.estimate == pytest.approx(relative_skill(v).estimate - relative_skill(b).estimate)
    short = DuelSums({s: x[:-1] for s, x in v.places.items()}, v.rounds[:-1])
    with pytest.raises(ValueError, match="same clusters"):
        relative_skill_difference(short, b)


def gap_of(g: dict[str, float], players: int = 4) -> float:
    return 2 * (g["random"] - g["champion"]) / (players - 1)


def test_the_skill_gap_is_recovered_and_paired_by_cluster() -> None:
    base, variant = duels(np.random.default_rng(5), 1, 3000)
    b, v = (
        DuelSums({s: r[s][0].sum(-1) for s in TESTS}, np.full(3000, 8.0)) for r in (base, variant)
    )
    gap = skill_gap(b, "champion", 4)
    assert recovered(gap, gap_of(G_BASE), 0.05) and gap.p_value < 1e-10
    assert skill_gap(b, "champion", 6).estimate == pytest.approx(gap.estimate * 3 / 5)
    diff = skill_gap_difference(v, b, "champion", (4, 4))
    assert recovered(diff, gap_of(G_VARIANT) - gap_of(G_BASE), 0.05) and diff.p_value < 0.05
    assert diff.estimate == pytest.approx(skill_gap(v, "champion", 4).estimate - gap.estimate)
    with pytest.raises(ValueError, match="same clusters"):
        short = DuelSums({s: x[:-1] for s, x in v.places.items()}, v.rounds[:-1])
        skill_gap_difference(short, b, "champion", (4, 4))


def test_skill_gap_difference_coverage_and_pairing_matters() -> None:
    base, variant = duels(np.random.default_rng(6), RUNS, 40)
    pair = ("random", "champion")
    vy, by = ([r[s].sum(-1) for s in pair] for r in (variant, base))
    truth = gap_of(G_VARIANT) - gap_of(G_BASE)
    est, lo, hi, se = skill_gap_difference_interval(vy, by, 8.0, 8.0, (4, 4))
    check(["skill gap(variant) − skill gap(base), 40 paired clusters"],
          np.array([coverage(lo, hi, truth)]))  # fmt: skip
    unpaired = np.hypot(*(np.std(y[0] - y[1], axis=-1, ddof=1) for y in (vy, by))) / np.sqrt(40)
    half = (hi - lo) / 2 * (2 / 3 * unpaired / 8) / se  # the same t, unpaired variance
    assert coverage(est - half, est + half, truth) > HIGH  # unpaired: needlessly wide


def test_holm_against_a_hand_worked_example() -> None:
    """p = 0.01, 0.04, 0.03, 0.005: sorted, × 4, 3, 2, 1 → 0.02, 0.03, 0.06, 0.04, made
    non-decreasing → 0.02, 0.03, 0.06, 0.06; back in the order given."""
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert holm([0.5, 0.6]) == pytest.approx([1.0, 1.0])  # capped at 1


# Δ and σ: duplicate clusters of 10 rounds (the same deals damp the spread) and ordinary
# matches of 10 rounds, per-round difference = Δ + AR(1) + white noise.
DELTA, SD, WHITE, ROUNDS = -0.3, 0.5, 1.0, 10


def differences(rng: np.random.Generator, runs: int, clusters: int, matches: int) -> tuple:
    dup = DELTA + ar1(rng, (runs, clusters, ROUNDS), 0.7 * SD)
    dup += rng.normal(0, 0.7 * WHITE, dup.shape)
    ordinary = DELTA + ar1(rng, (runs, matches, ROUNDS), SD)
    ordinary += rng.normal(0, WHITE, ordinary.shape)
    return dup, ordinary


def test_edge_sd_and_n95_are_recovered() -> None:
    dup, ordinary = differences(np.random.default_rng(5), 1, 3000, 3000)
    sigma = np.sqrt(long_run_var(SD, WHITE, ROUNDS))
    delta = edge(dup[0].sum(-1), np.full(3000, float(ROUNDS)))
    sd = long_run_sd(ordinary[0].sum(-1), np.full(3000, float(ROUNDS)))
    assert recovered(delta, DELTA, 0.05) and delta.p_value < 1e-10
    assert recovered(sd, sigma, 0.1)
    assert sd.estimate > 1.2 * ordinary[0].std()  # the carry-over is inside σ
    rounds = n95(delta, sd)
    assert recovered(rounds, (Z95 * sigma / DELTA) ** 2, 20)
    assert rounds.estimate == pytest.approx((Z95 * sd.estimate / delta.estimate) ** 2)


def test_the_long_run_sd_of_two_matches_has_an_estimate_and_no_interval() -> None:
    """A tiny atlas plays two ordinary matches: σ is estimated, its leave-one-out (one
    match each) has no spread, so no interval, and nothing divides by zero."""
    sd = long_run_sd(np.array([3.0, -1.0]), np.array([10.0, 10.0]))
    assert np.isfinite(sd.estimate) and sd.estimate > 0
    assert np.isnan(sd.low) and np.isnan(sd.high)


def test_n95_coverage_and_the_carry_over_matters() -> None:
    dup, ordinary = differences(np.random.default_rng(6), RUNS, 40, 60)
    truth = (Z95 * np.sqrt(long_run_var(SD, WHITE, ROUNDS)) / DELTA) ** 2
    e = edge_interval(dup.sum(-1), np.full(dup.shape[:2], float(ROUNDS)))
    s = long_run_sd_interval(ordinary.sum(-1), np.full(ordinary.shape[:2], float(ROUNDS)))
    _, lo, hi = n95_bounds(e[0], (e[2] - e[1]) / 2, s[0], (s[2] - s[1]) / 2)
    check(["N95, 40 duplicate clusters, 60 matches"], np.array([coverage(lo, hi, truth)]))
    per_round = ordinary.reshape(RUNS, -1).std(-1, ddof=1)  # rounds as if independent
    _, lo, hi = n95_bounds(e[0], (e[2] - e[1]) / 2, per_round, 0.0)
    assert coverage(lo, hi, truth) < LOW


def test_n95_is_open_ended_when_the_edge_may_be_zero() -> None:
    rounds = n95(Measure(-0.02, -0.05, 0.01), Measure(1.5, 1.4, 1.6))
    assert rounds.high == np.inf and rounds.low > 0
    assert rounds.estimate == pytest.approx((Z95 * 1.5 / 0.02) ** 2)


def test_a_small_n95_is_counted_directly() -> None:
    """Independent rounds with Δ = −0.5 and spread 1.3: A leads after N rounds with
    probability Φ(√N·0.5/1.3), first ≥ 0.95 at N = ⌈(1.645·1.3/0.5)²⌉ = 19."""
    rng = np.random.default_rng(7)
    by_round = rng.normal(-0.5, 1.3, (6000, 10))
    delta = edge(by_round.sum(1), np.full(6000, 10.0))
    sd = long_run_sd(by_round.sum(1), np.full(6000, 10.0))
    rounds = n95(delta, sd, by_round)
    assert rounds == direct_n95(by_round, better=-1)
    assert rounds.low <= 19 <= rounds.high and abs(rounds.estimate - 19) <= 1
    assert direct_n95(-by_round, better=1) == rounds  # B the better one: mirrored
    assert direct_n95(list(by_round), better=-1) == rounds  # one array per match
    cuts = np.cumsum(rng.integers(5, 16, 6000))  # matches of 5 to 15 rounds (a target)
    ragged = np.split(by_round.ravel(), cuts[cuts < by_round.size])
    assert abs(direct_n95(ragged, better=-1).estimate - 19) <= 1
    few = by_round[:11]  # one sequence of 60 rounds and a part: nothing to count on
    assert n95(delta, sd, few) == n95(delta, sd) and n95(delta, sd).estimate < 30
    with pytest.raises(ValueError, match="two runs"):
        direct_n95(few, better=-1)


def test_runs_of_whole_matches_for_a_direct_count() -> None:
    """Matches of 3, 4, 10, 2 and 9 rounds: runs of 7 rounds start at rounds 0, 7, 17; of
    12, at 0 only (the last 11 rounds are not enough); equal matches: every k-th."""
    ragged = [np.zeros(k) for k in (3, 4, 10, 2, 9)]
    assert list(_chains(ragged, 7)) == [0, 7, 17] and list(_chains(ragged, 12)) == [0]
    even = np.zeros((7, 10))
    assert list(_chains(even, 10)) == [0, 10, 20, 30, 40, 50, 60]
    assert list(_chains(even, 11)) == [0, 20, 40] and list(_chains(even, 60)) == [0]


def rounds_of(rng: np.random.Generator, matches: int, skill: np.ndarray, stay: float) -> tuple:
    """``[matches · 10, n]`` places: each round keeps the last round's order with
    probability ``stay``, else draws a new one (Plackett–Luce on the players' ``skill``)."""
    n = len(skill)
    place = np.empty((matches * 10, n), dtype=np.int64)
    for r in range(len(place)):
        if r % 10 and rng.random() < stay:
            place[r] = place[r - 1]
        else:
            order = np.argsort(-(skill + rng.gumbel(size=n)))
            place[r, order] = np.arange(1, n + 1)
    return place, np.arange(len(place)) // 10


def test_persistence_and_its_no_memory_baseline() -> None:
    rng = np.random.default_rng(8)
    place, match = rounds_of(rng, 1500, np.zeros(4), stay=0.2)
    stays, baseline = persistence(previous_places(place, match), place, match)
    assert recovered(stays, 0.2 + 0.8 / 4, 0.05) and baseline == pytest.approx(0.25, abs=0.01)
    skill = np.log([0.4, 0.3, 0.2, 0.1])  # President with these probabilities, no memory
    place, match = rounds_of(rng, 1500, skill, stay=0.0)
    stays, baseline = persistence(previous_places(place, match), place, match)
    assert baseline == pytest.approx(0.3, abs=0.01) and recovered(stays, 0.3, 0.05)


def test_exchange_effect_is_the_roles_carry_over_not_skill() -> None:
    """Kept order with probability q: the previous Scum is last again, the President first
    again, so after Scum a player is q·(n − 1) places worse than after President, whatever
    his skill; without memory the effect is 0 although the skills differ."""
    rng = np.random.default_rng(9)
    skill = np.array([1.0, 0.3, 0.0, -1.0])
    place, match = rounds_of(rng, 1500, skill, stay=0.1)
    effect = exchange_effect(previous_places(place, match), place, match)
    assert recovered(effect, 0.1 * 3, 0.3) and effect.p_value < 0.01
    place, match = rounds_of(rng, 1500, skill, stay=0.0)
    prev = previous_places(place, match)
    effect = exchange_effect(prev, place, match)
    assert recovered(effect, 0.0, 0.3)
    pooled = place[prev == 4].mean() - place[prev == 1].mean()  # skill not cancelled
    assert pooled > effect.high + 0.3
    same = exchange_effect(prev, place, match, np.tile([0, 1, 2, 3], (len(place), 1)))
    assert same == effect  # labels by column: the default


def test_deal_r2_is_the_squared_within_round_correlation() -> None:
    rng = np.random.default_rng(10)
    strength = rng.integers(-60, 60, (5000, 4))
    noisy = strength + rng.normal(0, 40, strength.shape)
    place = np.argsort(np.argsort(-noisy, axis=1), axis=1) + 1  # the stronger, the better
    match = np.arange(5000) // 10
    x, y = luck(strength).ravel(), (place - 2.5).ravel()
    share = deal_r2(place, strength, match)
    assert share.estimate == pytest.approx(np.corrcoef(x, y)[0, 1] ** 2)
    assert 0.2 < share.low < share.estimate < share.high < 0.8
    place[np.arange(5000) % 10 > 0] = np.array([rng.permutation(4) + 1 for _ in range(4500)])
    before, after = deal_r2_by_exchange(place, previous_places(place, match), strength, match)
    assert before.low > 0.2 and after.low == 0.0 and after.high < 0.01


def test_half_width_is_infinite_without_a_bounded_interval() -> None:
    assert Measure(1.0, 0.5, 2.0).half_width == 0.75
    assert Measure(1.0, 0.5, np.inf).half_width == np.inf
    assert Measure(1.0, np.nan, np.nan).half_width == np.inf  # no interval: not precise


def test_on_a_run_of_the_kernel(tmp_path: Path) -> None:
    """On ``rounds.parquet``: the previous places are the ``prev_role`` column, the deal's
    R² over every round is ``luck_r_squared`` of ``summary.json``, and persistence is the
    plain share that pandas counts."""
    out = tmp_path / "run"
    args = ("--matches", "200", "--rounds-per-match", "5", "--seed", "3", "--out", str(out))
    assert run_cli("simulate", "--quiet", *args).exit_code == 0
    rows = pd.read_parquet(out / "rounds.parquet").sort_values(["match", "round", "seat"])
    summary = json.loads((out / "summary.json").read_text())
    place = rows["place"].to_numpy().reshape(-1, 4)
    match = rows["match"].to_numpy()[::4]
    prev = previous_places(place, match)
    prev_role = rows["prev_role"].astype(str).to_numpy().reshape(-1, 4)
    assert ((prev_role == "president") == (prev == 1)).all() and (
        (prev_role == "") == (prev == 0)
    ).all()
    strength = rows["hand_strength"].to_numpy().reshape(-1, 4)
    assert deal_r2(place, strength, match).estimate == pytest.approx(summary["luck_r_squared"])
    stays, _ = persistence(prev, place, match)
    after = rows[rows["prev_role"] == "president"]
    assert stays.estimate == pytest.approx((after["role"] == "president").mean())


def test_the_example_of_docs_skill_runs(tmp_path: Path) -> None:
    """docs/skill.md's example runs as written, and its intervals hold the truths it
    names: RS = 0.8/1.1, N95 = (1.645 · (6/√10) / 0.1)²."""
    found = run_python_blocks(ROOT / "docs" / "skill.md", tmp_path)
    rs, rounds = found["rs"], found["rounds"]
    assert isinstance(rs, Measure) and rs.low < 0.8 / 1.1 < rs.high
    assert (
        isinstance(rounds, Measure)
        and rounds.low < (Z95 * 6 / np.sqrt(10) / 0.1) ** 2 < rounds.high
    )
