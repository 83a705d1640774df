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
from simulator.runs.atlas.mix import mix_measures
from simulator.runs.atlas.play import (
    COLUMNS,
    DUEL,
    EDGE,
    MATCH,
    MIX,
    PAIR,
    PAIRS,
    ROBUST,
    TEST_STRATEGIES,
    TOP,
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


def paired(variant: Sequence[Batch], base: Sequence[Batch]) -> Measure:
    """RS(variant) − RS(base), cluster c with cluster c (the same deals when the table
    size is the same), over the clusters both have."""

    c = min(duel_sums(b).clusters for b in (variant, base))
    return relative_skill_difference(duel_sums(variant, c), duel_sums(base, c))


def edges(batches: Sequence[Batch]) -> dict[str, Measure]:
    """Δ per round of each pair on duplicate deals."""

    return {p: edge(joined(batches, f"{PAIR}:{p}:diff"), joined(batches, f"{PAIR}:{p}:rounds"))
            for p in PAIRS}  # fmt: skip


def precise(s: AtlasSettings, part: str, base: Played, played: Played, k: int) -> bool:
    """Whether the first ``k`` batches of one part of ``played`` reach its precision
    targets: RS and its paired difference with the first ``k`` of ``base`` for the
    duels, each Δ for the edges."""
    batches = played.parts[part][:k]
    if part == EDGE:
        return all(m.half_width <= s.edge_precision for m in edges(batches).values())
    if relative_skill(duel_sums(batches)).half_width > s.rs_precision:
        return False
    return played is base or paired(batches, base.parts[DUEL][:k]).half_width <= (
        s.rs_difference_precision
    )


def atlas_frame(every: Sequence[Played], base: Played, settings: AtlasSettings) -> pd.DataFrame:
    """Every rule set's rows (:data:`simulator.runs.atlas.play.COLUMNS`), with the Holm-adjusted
    p of the paired differences over the rule sets."""

    rows: list[dict[str, Any]] = []
    for played in every:
        rows += rule_set_rows(played, base, settings)
    frame = pd.DataFrame(rows, columns=[*COLUMNS, "p_value"])
    frame["p_holm"] = np.nan
    for measure in frame["measure"][frame["measure"].str.endswith("_vs_base")].unique():
        vs_base = frame["measure"] == measure  # each its own Holm family
        frame.loc[vs_base, "p_holm"] = holm(frame.loc[vs_base, "p_value"].to_numpy())
    return frame[list(COLUMNS)].astype(
        {"players": "int64", "rounds": "int64", "clusters": "int64", "capped": "bool"}
    )


def rule_set_rows(played: Played, base: Played, settings: AtlasSettings) -> list[dict[str, Any]]:
    """One rule set's measures as rows, each ``capped`` when its part hit its cap."""

    rule_set, duels = played.rule_set, played.parts[DUEL]
    sums = duel_sums(duels)
    c, rounds = sums.clusters, int(joined(duels, f"{DUEL}:{TOP}:rounds").sum())
    measures: list[tuple[str, Measure, int, int]] = [
        ("relative_skill", relative_skill(sums), rounds, c),
        ("relative_skill_linear", relative_skill(sums, top=ROBUST), rounds, c),
    ]
    if played is not base:
        diff = paired(duels, base.parts[DUEL])
        measures.append(("relative_skill_vs_base", diff, rounds, c))
    measures += [(f"mean_place_{x}", m, rounds, c) for x, m in mean_places(sums).items()]
    measures += edge_measures(played.parts[EDGE], played.parts[MATCH])
    measures += mix_rows(played, base)
    best = best_heuristic(duels[0])
    return [
        {"rule_set": rule_set.name, "change": rule_set.change, "players": rule_set.rules.players,
         "measure": name, "estimate": m.estimate, "low": m.low, "high": m.high,
         "p_value": m.p_value, "rounds": r, "clusters": k, "capped": played.capped[part_of(name)],
         "field": settings.field, "weights": weights_of(rule_set.rules, settings.field),
         "best_heuristic": best}
        for name, m, r, k in measures
    ]  # fmt: skip


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
