"""The atlas's fourth part, MIX: tables that mix the rungs of the ladder, for the
ladder-wide rating, the skill depth and the neighbouring rungs' edges and N95.

**The tables.** The rungs (:data:`RUNGS`, weakest first) sit at tables of n consecutive
rungs, n the rule set's players: a window slides over the seven rungs (for four
players {0–3}, {1–4}, {2–5}, {3–6}), so every rung meets its neighbours and the windows
chain the whole ladder together. Each window plays on duplicate deals (its seat
rotations share the deals, as the duel tables do) and every window plays the same deals
(one seed per batch, the same for every rule set): deal group c of every window is one
cluster. The same windows also play ordinary matches (roles carried from round to
round), for the σ of the neighbours' N95; match m of every window shares its deals, so
match m is one cluster.

**What a batch keeps** (per window s): each round's finishing order of line-up slots
(slot j is rung s + j), its deal group, and the rounds per deal group; for the ordinary
matches, each round's places by seat (seat j is rung s + j) and its match.

**The measures** (:func:`mix_measures`): the Plackett–Luce rating of every rung from the
finishing orders, ``random`` = 0 (:mod:`simulator.runs.skill.rating`), the skill depth
rating(top) − rating(random) and its paired difference with the base, the top rung's
gain over ``champion``, and for each pair of neighbouring rungs A (the stronger) and B
the edge Δ = Σ(place_A − place_B)/Σ rounds over the windows holding both (on the
duplicate deals) and N95 with σ from the ordinary matches (:mod:`simulator.runs.skill.duels`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from simulator.rules.options import Rules
from simulator.runs.atlas.play import (
    MATCH,
    MIX,
    AtlasSettings,
    Batch,
    Table,
    best_heuristic,
    rung_player,
)
from simulator.runs.atlas.windows import NEIGHBOURS, RUNGS, windows
from simulator.runs.skill.duels import edge, long_run_sd, n95
from simulator.runs.skill.measure import Measure
from simulator.runs.skill.rating import Choices, choices, paired_spread, ratings
from simulator.runs.tune.play import stream_seed

PURPOSE = {MIX: 13, MATCH: 14}  # stream_seed purposes, apart from play.PURPOSE's
PLAY_KEYS = {MIX: ("order", "cluster", "rounds"), MATCH: ("place", "match", "rounds")}
Play = Callable[[Rules, list[Table]], list[Batch]]


def mix_tables(rules: Rules, settings: AtlasSettings, batch: int, best: str,
               groups: int, matches: int) -> list[Table]:  # fmt: skip
    """The windows of a batch on duplicate deals (``groups`` deal groups), then in ordinary
    matches (``matches``), every window on the same deals."""
    n, tables = rules.players, []
    for kind, count in ((MIX, groups), (MATCH, matches)):
        seed = stream_seed(settings.seed, PURPOSE[kind], batch)
        for s in windows(n):
            lineup = tuple(rung_player(r, settings, best) for r in RUNGS[s : s + n])
            tables.append(Table(kind, lineup, seed, count, settings.max_rounds, settings.doses))
    return tables


def play_mix(rules: Rules, settings: AtlasSettings, batch: int, duels: Batch,
             size: tuple[int, int], play: Play) -> Batch:  # fmt: skip
    """A batch of the mixed tables, keyed ``mix:S:KEY`` and ``mixmatch:S:KEY`` for the window
    starting at rung S (only what the measures read); ``duels``: the rule set's first
    duels, which name its best heuristic; ``size``: deal groups and ordinary matches."""
    tables = mix_tables(rules, settings, batch, best_heuristic(duels), *size)
    starts = windows(rules.players) * 2  # mix_tables' order: the duplicate tables first
    out: Batch = {}
    for table, start, sums in zip(tables, starts, play(rules, tables), strict=True):
        prefix = "mix" if table.kind == MIX else "mixmatch"
        out |= {f"{prefix}:{start}:{k}": sums[k] for k in PLAY_KEYS[table.kind]}
    return out


def orders(batches: Sequence[Batch], players: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Every duplicate round's finishing order of rung indices, its cluster (deal group
    over the batches), and the clusters."""
    parts, where, offset = [], [], 0
    for b in batches:
        for s in windows(players):
            parts.append(b[f"mix:{s}:order"].astype(np.int64) + s)
            where.append(b[f"mix:{s}:cluster"].astype(np.int64) + offset)
        offset += len(b[f"mix:{windows(players)[0]}:rounds"])
    return np.concatenate(parts), np.concatenate(where), offset


def rating_data(batches: Sequence[Batch], players: int, clusters: int | None = None) -> Choices:
    """The choices of the finishing orders, in the first ``clusters`` clusters."""
    order, cluster, total = orders(batches, players)
    keep = cluster < (total if clusters is None else clusters)
    return choices(order[keep], cluster[keep], len(RUNGS), min(total, clusters or total))


def neighbour_sums(
    batches: Sequence[Batch], players: int, a: int, b: int
) -> tuple[np.ndarray, np.ndarray]:
    """Σ(place_A − place_B) and the rounds per deal group, over the windows holding both
    rungs ``a`` and ``b``."""
    order, cluster, total = orders(batches, players)
    holds = (order == a).any(1) & (order == b).any(1)
    diff = np.argmax(order == a, axis=1) - np.argmax(order == b, axis=1)
    return (np.bincount(cluster[holds], diff[holds], minlength=total),
            np.bincount(cluster[holds], minlength=total).astype(np.float64))  # fmt: skip


def match_diffs(
    batches: Sequence[Batch], players: int, a: int, b: int
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Per ordinary match index, Σ(place_A − place_B) and the rounds over the windows
    holding both; and each window's match's per-round differences (the direct N95)."""
    sums: list[np.ndarray] = []
    rounds: list[np.ndarray] = []
    by_round: list[np.ndarray] = []
    for batch in batches:
        diff_b, rounds_b = 0.0, 0.0
        for s in (s for s in windows(players) if s <= b and a < s + players):
            place = batch[f"mixmatch:{s}:place"].astype(np.int64)
            match = batch[f"mixmatch:{s}:match"].astype(np.int64)
            count = len(batch[f"mixmatch:{s}:rounds"])
            diff = (place[:, a - s] - place[:, b - s]).astype(np.float64)
            diff_b = diff_b + np.bincount(match, diff, minlength=count)
            rounds_b = rounds_b + batch[f"mixmatch:{s}:rounds"]
            by_round += np.split(diff, np.cumsum(np.bincount(match, minlength=count))[:-1])
        sums.append(diff_b)
        rounds.append(rounds_b)
    return np.concatenate(sums), np.concatenate(rounds), by_round


def mix_measures(batches: Sequence[Batch], players: int,
                 base: tuple[Sequence[Batch], int] | None) -> list[tuple[str, Measure, int, int]]:  # fmt: skip
    """The rows of the mixed tables (module docstring): each ``(name, measure, rounds,
    clusters)``; ``base``: the base's batches and players, for the paired skill depth."""
    if not batches:
        return []
    data = rating_data(batches, players)
    fitted, rounds, c = ratings(data), int(data.counts.sum() / (players - 1)), data.clusters
    top = len(RUNGS) - 1
    rows = [(f"rating_{r}", fitted.rating(i), rounds, c) for i, r in enumerate(RUNGS)]
    rows += [("skill_depth", fitted.spread(top, 0), rounds, c),
             ("rating_gain_top", fitted.spread(top, top - 1), rounds, c)]  # fmt: skip
    if base is not None:
        c_both = min(c, orders(base[0], base[1])[2])
        paired = paired_spread(rating_data(batches, players, c_both),
                               rating_data(base[0], base[1], c_both), top, 0)  # fmt: skip
        rows.append(("skill_depth_vs_base", paired, rounds, c_both))
    for a_name, b_name in NEIGHBOURS:
        a, b = RUNGS.index(a_name), RUNGS.index(b_name)
        diff, played = neighbour_sums(batches, players, a, b)
        delta = edge(diff, played)
        rows.append((f"edge_{a_name}_vs_{b_name}", delta, int(played.sum()), len(played)))
        m_diff, m_rounds, by_round = match_diffs(batches, players, a, b)
        sd = long_run_sd(m_diff, m_rounds)
        rows.append((f"n95_{a_name}_vs_{b_name}", n95(delta, sd, by_round),
                     int(m_rounds.sum()), len(m_rounds)))  # fmt: skip
    return rows
