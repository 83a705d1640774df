"""How much each lever narrows the interval of a difference of mean places.

``python benchmarks/variance_levers.py [--rounds N] [--lineup A,B,A,B] [--rules french]``

For the difference of mean place between the line-up's first strategy (A) and its
second (B), it plays N rounds of plain matches and N rounds of duplicate deals (same
rules, line-up and match length) on the kernel, and measures the variance of the
estimator at equal rounds:

* **luck adjustment alone**: plain matches, the difference before and after removing
  the luck of the dealt hands (β fitted on the run's rows; :class:`simulator.stats.LuckAdjustment`);
* **duplicate deals alone**: plain against duplicate deals at the same number of rounds,
  and, inside the duplicate run, its group clusters against match clusters (what the
  report shows);
* **both**: plain against duplicate deals with the luck adjustment.

Every variance is the CR1 variance of the estimator's per-cluster contributions (its
influence: clusters are matches, or duplicate groups), and every ratio comes with a
95 % interval: a ratio of two sums over the same clusters gets the CR1 ratio interval;
a ratio between the two independent runs gets a delta-method interval on the log scale
from each variance's own standard error (the spread of the squared contributions).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simulator.matchloop.api import run_matches, set_threads  # noqa: E402
from simulator.matchloop.matches import OUT_MATCH, SEAT_PLACE, SEAT_STRENGTH, seats  # noqa: E402
from simulator.rules.presets import preset  # noqa: E402
from simulator.runs.job import SimConfig, make_config  # noqa: E402
from simulator.runs.tally import luck  # noqa: E402
from simulator.stats import LuckAdjustment, luck_sums, ratio_from_sums, t_quantile  # noqa: E402


def cluster_sums(config: SimConfig, unit: int) -> dict[str, np.ndarray]:
    """Per cluster (``unit`` consecutive matches) and strategy A, B: places, rounds, luck."""
    rows = run_matches(config.kernel_job(), 0, config.matches)
    n = config.rules.players
    codes = config.strategy_codes(rows[:, OUT_MATCH])
    cluster = rows[:, OUT_MATCH].astype(np.int64) // unit
    place = seats(rows, SEAT_PLACE, n).astype(float)
    x = luck(seats(rows, SEAT_STRENGTH, n)).astype(float)
    out = {}
    for label, values in (("y", place), ("m", np.ones_like(place)), ("x", x)):
        out[label] = np.stack(
            [np.bincount(cluster, (values * (codes == s)).sum(axis=1)) for s in (0, 1)], axis=1
        )
    out["fit"] = np.stack([np.bincount(cluster, (x * v).sum(axis=1)) for v in (place, x)], axis=1)
    out["rounds"] = np.array(len(rows))
    return out


def influences(sums: dict[str, np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Per cluster, the contribution to (A − B) plain and luck-adjusted (β of the run)."""
    y, m, x = sums["y"], sums["m"], sums["x"]
    total_m = m.sum(axis=0)
    r, q = y.sum(axis=0) / total_m, x.sum(axis=0) / total_m
    beta = float(LuckAdjustment(luck_sums(y, m, x), sums["fit"]).beta)
    plain = (y - r * m) / total_m
    adjusted = plain - beta * (x - q * m) / total_m
    return plain[:, 0] - plain[:, 1], adjusted[:, 0] - adjusted[:, 1]


def variance(psi: np.ndarray, rounds: int) -> tuple[float, float]:
    """(variance × rounds, its relative standard error) from per-cluster contributions."""
    g = len(psi)
    sq = psi**2
    v = g / (g - 1) * sq.sum()
    return float(v * rounds), float(np.sqrt(g) * sq.std(ddof=1) / sq.sum())


def within(y: np.ndarray, m: np.ndarray) -> tuple[float, float, float]:
    """Σy/Σm over the same clusters (squared contributions), with its CR1 ratio interval."""
    est, lo, hi, _ = ratio_from_sums(len(y), y.sum(), m.sum(), (y * y).sum(), (y * m).sum(),
                                     (m * m).sum())  # fmt: skip
    return float(est), float(lo), float(hi)


def between(first: tuple[float, float], second: tuple[float, float]) -> tuple[float, float, float]:
    """first / second of two independent variance estimates, log-scale interval."""
    ratio = first[0] / second[0]
    half = float(t_quantile(1e9)) * np.hypot(first[1], second[1])
    return ratio, ratio * np.exp(-half), ratio * np.exp(half)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1_000_000)
    parser.add_argument("--lineup", default="rules-aware,lowest,rules-aware,lowest")
    parser.add_argument("--rules", default="french")
    parser.add_argument("--rounds-per-match", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    set_threads(2)
    lineup = args.lineup.split(",")
    rules = preset(args.rules).with_options(players=len(lineup))
    k = args.rounds_per_match
    plain_config = make_config(rules, lineup, args.seed, None, args.rounds, k)
    dup_config = make_config(rules, lineup, args.seed + 1, None, args.rounds, k, duplicate=True)
    plain = cluster_sums(plain_config, 1)
    dup = cluster_sums(dup_config, dup_config.group)
    dup_matches = cluster_sums(dup_config, 1)
    p_plain, p_luck = influences(plain)
    d_plain, d_luck = influences(dup)
    m_plain, _ = influences(dup_matches)
    a, b = plain_config.names[:2]
    print(f"{args.rules}, line-up {args.lineup}, {args.rounds:,} rounds per design, "
          f"{k}-round matches; duplicate groups of {dup_config.group}")  # fmt: skip
    diff = plain["y"].sum(0) / plain["m"].sum(0)
    print(f"mean place {a} − {b}: {diff[0] - diff[1]:+.4f} (plain run)")
    rows = {
        "luck adjustment alone (plain run, same clusters)": within(p_plain**2, p_luck**2),
        "duplicate deals alone (plain run / duplicate run)": between(
            variance(p_plain, int(plain["rounds"])), variance(d_plain, int(dup["rounds"]))
        ),
        "duplicate deals alone (in the duplicate run: matches / groups as clusters)": within(
            np.bincount(np.arange(len(m_plain)) // dup_config.group, m_plain**2), d_plain**2
        ),
        "both (plain run / duplicate run adjusted)": between(
            variance(p_plain, int(plain["rounds"])), variance(d_luck, int(dup["rounds"]))
        ),
        "luck adjustment on top of duplicate deals (same clusters)": within(d_plain**2, d_luck**2),
    }
    print("variance ratio (variance before / after; above 1: the lever narrows the interval)")
    for label, (est, lo, hi) in rows.items():
        print(f"  {est:6.3f} [{lo:.3f}, {hi:.3f}]  {label}")


if __name__ == "__main__":
    main()
