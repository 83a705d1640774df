"""A synthetic ``atlas.parquet`` frame with the contract's columns (docs/formats.md), for
the atlas page's tests: the numbers are chosen, not simulated, so each test knows which
rule sets the page may describe."""

from __future__ import annotations

import math

import pandas as pd

from simulator.runs.atlas.ladder import GAP_RUNGS, VERDICT_RUNGS
from simulator.runs.atlas.play import EDGE, MATCH, part_of

BASE = "french"
STRATEGIES = ("random", "lowest", "planner", "linear", "champion_low", "champion",
              "champion_high", "clairvoyant")  # fmt: skip
# rule set -> (change, players, RS, paired difference (estimate, low, high, p_holm), the
# parts capped: "RS" (the duels' rows), "edges" (the edge tables' rows), both or "")
RULE_SETS = {
    BASE: ("", 4, 0.40, (0.0, 0.0, 0.0, 1.0), ""),
    "french: jack_back=true": ("jack_back = true", 4, 0.46, (0.06, 0.04, 0.08, 0.001), ""),
    "french: revolution=false": (
        "revolution = false",
        4,
        0.33,
        (-0.07, -0.09, -0.05, 0.0004),
        "",
    ),
    "french: exchange=[]": ("exchange = []", 4, 0.41, (0.01, -0.01, 0.03, 0.40), ""),
    # the raw interval leaves out 0 but Holm's p does not: no claim
    "french: eight_stops=false": (
        "eight_stops = false",
        4,
        0.43,
        (0.03, 0.005, 0.055, 0.08),
        "",
    ),
    "spade": (
        "dealer = president, exchange = [1]",
        4,
        0.38,
        (-0.02, -0.05, 0.01, 0.30),
        "RS, edges",
    ),
    "french: 5 players": ("players = 5", 5, 0.35, None, "edges"),
}
# linear keeps champion's order (0.8 RS) but for jack-back, which falls below no exchange
# (0.328) and 8s (0.344): only the first pair's order by champion is clear
LINEAR = {"french: jack_back=true": 0.325}
SWAPPED = ("french: jack_back=true", "french: exchange=[]")
SKILL_CLAIMS = ("french: jack_back=true",)
LUCK_CLAIMS = ("french: revolution=false",)
NO_DIFFERENCE = ("french: exchange=[]", "french: eight_stops=false", "spade")


def _row(rule_set: str, measure: str, est: float, lo: float, hi: float, **extra) -> dict:
    change, players, _, _, parts = RULE_SETS[rule_set]
    part = part_of(measure)
    capped = part != MATCH and ("edges" if part == EDGE else "RS") in parts
    return {
        "rule_set": rule_set, "change": change, "players": players, "measure": measure,
        "estimate": est, "low": lo, "high": hi, "p_holm": extra.get("p_holm", math.nan),
        "rounds": 40_000 if capped else 20_000, "clusters": 2_000, "capped": capped,
        "field": "linear", "weights": f"tuned for {rule_set.split(':')[0]}",
        "best_heuristic": "planner",
    }  # fmt: skip


def atlas_frame() -> pd.DataFrame:
    """Every measure of the contract for each rule set of :data:`RULE_SETS`."""
    rows = []
    for k, (name, (_, _, rs, diff, _)) in enumerate(RULE_SETS.items()):
        rows.append(_row(name, "relative_skill", rs, rs - 0.015, rs + 0.015))
        if diff is not None:
            rows.append(_row(name, "relative_skill_vs_base", *diff[:3], p_holm=diff[3]))
        lin = LINEAR.get(name, rs * 0.8)
        rows.append(_row(name, "relative_skill_linear", lin, lin - 0.02, lin + 0.02))
        for level, factor in (("champion_low", 0.9), ("champion_high", 1.05)):
            at = rs * factor
            rows.append(_row(name, f"relative_skill_{level}", at, at - 0.015, at + 0.015))
        for j, rung in enumerate(GAP_RUNGS):  # the ladder climbs: 0.1 a rung
            gap = 0.1 * (j + 1)
            rows.append(_row(name, f"skill_gap_{rung}", gap, gap - 0.01, gap + 0.01))
        if diff is not None:  # the skill gaps agree with RS at every rung
            for rung in VERDICT_RUNGS:
                rows.append(_row(name, f"skill_gap_{rung}_vs_base", *diff[:3], p_holm=diff[3]))
        rows.append(_row(name, "top_convergence_rs", 0.02, 0.005, 0.035))
        rows.append(_row(name, "top_convergence_gap", 0.03, 0.02, 0.04))
        for j, s in enumerate(STRATEGIES):
            place = 3.0 - 0.3 * j
            rows.append(_row(name, f"mean_place_{s}", place, place - 0.01, place + 0.01))
        rows += [
            _row(name, "edge_top_vs_heuristic", -0.05, -0.06, -0.04),
            _row(name, "edge_heuristic_vs_random", -0.4, -0.41, -0.39),
            _row(name, "n95_top_vs_heuristic", 900.0 + 10 * k, 600.0, math.inf),
            _row(name, "n95_heuristic_vs_random", 12.0, 10.0, 14.0),
            _row(name, "deal_r2", 0.5, 0.49, 0.51),
            _row(name, "deal_r2_after_exchange", 0.3, 0.29, 0.31),
            _row(name, "president_stays", 0.45, 0.44, 0.46),
            _row(name, "president_stays_baseline", 0.25, 0.25, 0.25),
            _row(name, "exchange_effect", 0.2, 0.18, 0.22),
        ]
    frame = pd.DataFrame(rows)
    return frame.astype({"players": "int64", "rounds": "int64", "clusters": "int64"})
