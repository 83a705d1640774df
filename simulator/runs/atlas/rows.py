"""The atlas's measures from its batches (the estimators: :mod:`simulator.runs.skill.duels`),
as the rows of ``atlas.parquet``, and the precision test that ends a rule set's batches.

Clusters: the deal groups of the duplicate tables (each batch's groups in turn, so the
variant's cluster c and the base's cluster c share their deals), and whole matches for
the ordinary matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from simulator.rules.options import Rules
from simulator.runs.atlas.ladder import (
    CEILINGS,
    GAP_RUNGS,
    HEURISTIC,
    ROBUST,
    SEARCH,
    SEARCH_RUNGS,
    TOP_RUNG,
    VERDICT_RUNGS,
)
from simulator.runs.atlas.mix import mix_measures
from simulator.runs.atlas.play import (
    COLUMNS,
    DUEL,
    EDGE,
    MATCH,
    MIX,
    PAIR,
    PAIRS,
    TEST_STRATEGIES,
    AtlasSettings,
    Batch,
    Played,
    best_heuristic,
    part_of,
)
from simulator.runs.skill.duels import (
    DuelSums,
    Measure,
    deal_r2_by_exchange,
    edge,
    exchange_effect,
    holm,
    long_run_sd,
    mean_places,
    n95,
    persistence,
    relative_skill,
    relative_skill_difference,
    relative_skill_gain,
    skill_gap,
    skill_gap_difference,
)
from strategies.shipped import weights_for

N95_DIRECT = 30  # under this many rounds, N95 is simulated directly from the matches


def joined(batches: Sequence[Batch], key: str) -> np.ndarray:
    """The batches' arrays of ``key``, one after the other."""
    return np.concatenate([b[key] for b in batches])


def duel_sums(batches: Sequence[Batch], clusters: int | None = None) -> DuelSums:
    """The test-seat sums of every test strategy (the first ``clusters`` deal groups), each
    with its own rounds (under a target a match lasts as long as the play makes it)."""
    cut = slice(0, clusters)
    places = {x: joined(batches, f"{DUEL}:{x}:places")[cut] for x in TEST_STRATEGIES}
    rounds = {x: joined(batches, f"{DUEL}:{x}:rounds")[cut] for x in TEST_STRATEGIES}
    return DuelSums(places, rounds)


def paired(variant: Played, base: Played, k: int | None = None) -> tuple[DuelSums, DuelSums]:
    """The duel sums of the variant and of the base (their first ``k`` batches), over the
    clusters both have: cluster c with cluster c (the same deals when the table size is
    the same)."""
    v, b = variant.parts[DUEL][:k], base.parts[DUEL][:k]
    c = min(duel_sums(x).clusters for x in (v, b))
    return duel_sums(v, c), duel_sums(b, c)


def rs_measures(sums: DuelSums) -> dict[str, Measure]:
    """RS at each rung that has its ceiling: ``relative_skill`` (champion at ×1, its name
    since the first atlas), ``relative_skill_<rung>`` for the others."""
    return {"relative_skill" + ("" if rung == SEARCH else f"_{rung}"):
            relative_skill(sums, top=rung, ceiling=ceiling)
            for rung, ceiling in CEILINGS.items()}  # fmt: skip


def edges(batches: Sequence[Batch]) -> dict[str, Measure]:
    """Δ per round of each pair on duplicate deals."""

    return {p: edge(joined(batches, f"{PAIR}:{p}:diff"), joined(batches, f"{PAIR}:{p}:rounds"))
            for p in PAIRS}  # fmt: skip


def shortfall(s: AtlasSettings, part: str, base: Played, played: Played, k: int) -> float:
    """How far the first ``k`` batches of one part of ``played`` are from its precision
    targets: the largest half-width / target (at most 1: every target met). The duels: RS
    at each search level to ``rs_precision``; the top rung's RS − RS(base) and
    skill_gap − skill_gap(base) (with the first ``k`` of ``base``) to
    ``rs_difference_precision``. The edges: each Δ to ``edge_precision``."""
    batches = played.parts[part][:k]
    if part == EDGE:
        return max(m.half_width / s.edge_precision for m in edges(batches).values())
    sums = duel_sums(batches)
    worst = max(relative_skill(sums, top=r, ceiling=CEILINGS[r]).half_width / s.rs_precision
                for r in SEARCH_RUNGS)  # fmt: skip
    if played is base:
        return worst
    v, b = paired(played, base, k)
    players = (played.rule_set.rules.players, base.rule_set.rules.players)
    top = (relative_skill_difference(v, b, TOP_RUNG, CEILINGS[TOP_RUNG]),
           skill_gap_difference(v, b, TOP_RUNG, players))  # fmt: skip
    return max(worst, *(m.half_width / s.rs_difference_precision for m in top))


def atlas_frame(every: Sequence[Played], base: Played, settings: AtlasSettings) -> pd.DataFrame:
    """Every rule set's rows (:data:`simulator.runs.atlas.play.COLUMNS`), with the Holm-adjusted
    p of the paired differences over the rule sets."""

    rows: list[dict[str, Any]] = []
    for played in every:
        rows += rule_set_rows(played, base, settings)
    frame = holm_by_measure(pd.DataFrame(rows, columns=[*COLUMNS, "p_value"]))
    return frame[list(COLUMNS)].astype(
        {"players": "int64", "rounds": "int64", "clusters": "int64", "capped": "bool"}
    )


def holm_by_measure(frame: pd.DataFrame) -> pd.DataFrame:
    """``p_holm``: the rows' ``p_value`` Holm-adjusted over the rule sets, each measure whose
    name ends ``_vs_base`` a family of its own (a verdict reads several of them, each of
    which must hold); NaN on every other row."""
    frame["p_holm"] = np.nan
    for measure in frame["measure"].unique():
        if measure.endswith("_vs_base"):
            rows_of = frame["measure"] == measure
            frame.loc[rows_of, "p_holm"] = holm(frame.loc[rows_of, "p_value"].to_numpy())
    return frame


def rule_set_rows(played: Played, base: Played, settings: AtlasSettings) -> list[dict[str, Any]]:
    """One rule set's measures as rows, each ``capped`` when its part hit its cap."""

    rule_set, duels = played.rule_set, played.parts[DUEL]
    sums, best = duel_sums(duels), best_heuristic(duels[0])
    c, rounds = sums.clusters, int(joined(duels, f"{DUEL}:{SEARCH}:rounds").sum())
    duel = [*rs_measures(sums).items(), *ladder_measures(sums, best, rule_set.rules.players)]
    if played is not base:
        duel += differences(played, base)
    duel += [(f"mean_place_{x}", m) for x, m in mean_places(sums).items()]
    measures = [(name, m, rounds, c) for name, m in duel]
    measures += edge_measures(played.parts[EDGE], played.parts[MATCH])
    measures += mix_rows(played, base)
    weights = weights_of(rule_set.rules, settings.field)  # once: the same on every row
    return [
        {"rule_set": rule_set.name, "change": rule_set.change, "players": rule_set.rules.players,
         "measure": name, "estimate": m.estimate, "low": m.low, "high": m.high,
         "p_value": m.p_value, "rounds": r, "clusters": k, "capped": played.capped[part_of(name)],
         "field": settings.field, "weights": weights,
         "best_heuristic": best}
        for name, m, r, k in measures
    ]  # fmt: skip


def ladder_measures(sums: DuelSums, best: str, players: int) -> list[tuple[str, Measure]]:
    """The skill gap of each rung over random (``heuristic``: the best heuristic ``best``)
    and the top's convergence: RS and the skill gap from ``champion`` to the top rung,
    paired within the rule set."""
    out = [(f"skill_gap_{rung}", skill_gap(sums, best if rung == HEURISTIC else rung, players))
           for rung in GAP_RUNGS]  # fmt: skip
    below = SEARCH_RUNGS[-2]  # champion, the declared search
    out.append(("top_convergence_rs", relative_skill_gain(
        sums, (TOP_RUNG, CEILINGS[TOP_RUNG]), (below, CEILINGS[below]))))  # fmt: skip
    out.append(("top_convergence_gap", skill_gap(sums, TOP_RUNG, players, floor=below)))
    return out


def differences(played: Played, base: Played) -> list[tuple[str, Measure]]:
    """The variant − base differences, paired by cluster: RS (``champion`` at ×1) and the
    skill gap of every rung of :data:`VERDICT_RUNGS` (each a Holm family of its own)."""
    v, b = paired(played, base)
    players = (played.rule_set.rules.players, base.rule_set.rules.players)
    out = [("relative_skill_vs_base", relative_skill_difference(v, b))]
    return out + [(f"skill_gap_{rung}_vs_base", skill_gap_difference(v, b, rung, players))
                  for rung in VERDICT_RUNGS]  # fmt: skip


def edge_measures(
    pairs: Sequence[Batch], matches: Sequence[Batch]
) -> list[tuple[str, Measure, int, int]]:
    """Each pair's Δ (from the batches of the pairs on duplicate deals) and N95 (with σ
    from those of the ordinary matches), then the match measures."""
    measures: list[tuple[str, Measure, int, int]] = []
    for pair, delta in edges(pairs).items():
        groups = joined(pairs, f"{PAIR}:{pair}:rounds")
        measures.append((f"edge_{pair}", delta, int(groups.sum()), len(groups)))
        sd, by_round, played = ordinary(matches, pair)
        measures.append((f"n95_{pair}", n95(delta, sd, by_round), int(played.sum()), len(played)))
    return measures + match_measures(matches)


def ordinary(batches: Sequence[Batch], pair: str) -> tuple[Measure, list[np.ndarray], np.ndarray]:
    """σ per round of a pair's ordinary matches, each match's per-round differences (for
    the direct N95) and each match's rounds."""
    diff, rounds = (joined(batches, f"{MATCH}:{pair}:{k}") for k in ("diff", "rounds"))
    ends = np.cumsum(rounds.astype(np.int64))[:-1]
    by_round = np.split(joined(batches, f"{MATCH}:{pair}:round_diff"), ends)
    return long_run_sd(diff, rounds), by_round, rounds


def match_measures(batches: Sequence[Batch]) -> list[tuple[str, Measure, int, int]]:
    """The deal's share (before and after the exchange), persistence and the exchange's
    effect, over both pairs' ordinary matches: each match a cluster, each seat of each
    line-up a player of its own."""

    parts: dict[str, list[np.ndarray]] = {k: [] for k in ("place", "prev", "strength",
                                                          "match", "label")}  # fmt: skip
    matches = 0
    for b in batches:
        for t, pair in enumerate(PAIRS):
            place = b[f"{MATCH}:{pair}:place"].astype(np.int64)
            parts["place"].append(place)
            parts["prev"].append(b[f"{MATCH}:{pair}:prev_place"].astype(np.int64))
            parts["strength"].append(b[f"{MATCH}:{pair}:strength"].astype(np.int64))
            parts["match"].append(b[f"{MATCH}:{pair}:match"] + matches)
            n = place.shape[1]
            parts["label"].append(np.broadcast_to(t * n + np.arange(n), place.shape))
            matches += len(b[f"{MATCH}:{pair}:rounds"])
    place, prev, strength, match, label = (np.concatenate(parts[k]) for k in parts)
    before, after = deal_r2_by_exchange(place, prev, strength, match)
    stays, baseline = persistence(prev, place, match, label)
    rounds = len(match)
    return [
        ("deal_r2", before, rounds, matches),
        ("deal_r2_after_exchange", after, rounds, matches),
        ("president_stays", stays, rounds, matches),
        ("president_stays_baseline", Measure(baseline, baseline, baseline), rounds, matches),
        ("exchange_effect", exchange_effect(prev, place, match, label), rounds, matches),
    ]


def mix_rows(played: Played, base: Played) -> list[tuple[str, Measure, int, int]]:
    """The mixed tables' rows (:func:`simulator.runs.atlas.mix.mix_measures`), the skill
    depth paired with the base's."""
    paired = None if played is base else (base.parts[MIX], base.rule_set.rules.players)
    return mix_measures(played.parts[MIX], played.rule_set.rules.players, paired)


def weights_of(rules: Rules, field: str) -> str:
    """Which weights the field played: ``linear``'s resolution for the rules (the set
    shipped for them, their preset's, or the hand-set defaults) with its short sha256;
    another field plays its declared defaults."""
    if field != ROBUST:
        return "defaults"
    weights = weights_for(rules)
    return f"{weights.source} ({weights.digest})"
