"""Tournaments: which strategies play best, compared fairly, with honest intervals.

Fairness comes from two devices. **Tables**: with more strategies than seats, every
combination of ``players`` strategies gets its own table; with fewer, the list is
repeated around the table. **Duplicate deals** (:mod:`simulator.matchloop.seating`):
each table plays its matches in groups — the distinct rotations of its line-up — that
share the same deals in a fixed frame of the hands, so every strategy holds every hand
from every seat.

**Clusters.** Every table uses the same seed, so deal group g has the same deals at
every table: the tables' groups g are not independent of one another. Every interval
therefore treats the deal group g — across all tables — as one cluster (G groups, t
with G − 1 degrees of freedom; :mod:`simulator.runs.standings`). Pairwise differences
compare two strategies where both sat at the same table (same deals, same opponents).

Match wins: the player with the best total under the rules' points wins the match (a
tie shares the win); rules without points score ``n - place`` per round (Borda). A
strategy holding several seats of a match wins it when any of its players does.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Protocol

import numpy as np
import pandas as pd

from simulator.errors import PresidentError
from simulator.matchloop.api import KernelJob, run_matches, set_threads
from simulator.matchloop.matches import (
    OUT_MATCH,
    SEAT_PLACE,
    SEAT_POINTS,
    SEAT_STRENGTH,
    seats,
)
from simulator.matchloop.seating import deal_source, group_size, lineup_slot
from simulator.reference.match import MAX_ROUNDS
from simulator.rules.options import Rules
from simulator.runs.job import DEFAULT_ROUNDS_PER_MATCH, SimConfig
from simulator.runs.local import python_engine
from simulator.runs.standings import (
    DECILES,
    ClusterSums,
    Standings,
    decile_edges,
    decile_of,
    standings_of,
)
from simulator.runs.tally import AT, FIT, cell_sums, luck
from simulator.stats import LEVEL
from strategies import registry

CLUSTERS = "deal groups (group g has the same deals at every table: one cluster across all tables)"


class TournamentError(PresidentError):
    """A tournament that cannot be run as asked."""


@dataclass(frozen=True)
class TournamentConfig:
    """What a tournament plays: the strategies, the tables' matches, the seed."""

    strategies: tuple[str, ...]
    matches: int = 400  # per table, rounded up to whole duplicate groups
    rounds_per_match: int = DEFAULT_ROUNDS_PER_MATCH  # without a target
    max_rounds: int = MAX_ROUNDS  # cut of a match under a target
    seed: int = 0


def tables(names: Sequence[str], players: int) -> list[tuple[str, ...]]:
    """The line-ups: every combination of ``players`` strategies, or the list repeated."""
    if len(names) >= players:
        return list(itertools.combinations(names, players))
    return [tuple(names[i % len(names)] for i in range(players))]


@dataclass
class TableRows:
    """One table's rounds, reduced to what the standings need (one row per round)."""

    lineup: tuple[str, ...]
    group: np.ndarray  # deal group of each round's match: the cluster
    codes: np.ndarray  # [round, player]: index of the player's strategy
    place: np.ndarray  # [round, player]
    strength: np.ndarray  # [round, player]: dealt-hand strength
    win: np.ndarray  # [round, player]: share of the match won, on a match's last round
    last: np.ndarray  # [round]: the match's last round


def table_rows(
    rules: Rules, config: TournamentConfig, lineup: Sequence[str], engine: str = "numba"
) -> np.ndarray:
    """The rows of one table's matches on duplicate deals, whole groups, from the kernel
    (``numba``) or the reference engine (``python``: the same rows, and plain-Python
    strategies play)."""
    group = group_size(lineup, True)
    matches = -(-config.matches // group) * group
    rounds_per_match = None if rules.target else config.rounds_per_match
    if engine == "python":
        job = SimConfig(rules, tuple(lineup), config.seed, matches, None, rounds_per_match,
                        config.max_rounds, duplicate=True)  # fmt: skip
        return python_engine(job, 1)(0, matches)
    kernel = KernelJob.build(
        rules, list(lineup), config.seed, rounds_per_match, config.max_rounds, duplicate=True
    )
    return run_matches(kernel, 0, matches)


def play_table(
    rules: Rules,
    config: TournamentConfig,
    lineup: Sequence[str],
    names: Sequence[str],
    engine: str = "numba",
) -> TableRows:
    """Play one table's matches on duplicate deals: whole groups, deal groups 0, 1, …"""
    n = rules.players
    group = group_size(lineup, True)
    rows = table_rows(rules, config, lineup, engine)
    match = rows[:, OUT_MATCH].astype(np.int64)
    slots = lineup_slot(np.arange(n)[None, :], match[:, None], n, group)
    codes = np.array([list(names).index(s) for s in lineup])[slots]
    place = seats(rows, SEAT_PLACE, n).astype(np.int64)
    points = seats(rows, SEAT_POINTS, n).astype(np.float64)
    if not points.any():
        points = (n - place).astype(np.float64)
    total = pd.DataFrame(points).groupby(match).cumsum().to_numpy()
    last = np.r_[match[1:] != match[:-1], True]
    best = total == total.max(axis=1, keepdims=True)
    win = np.where(last[:, None], best / best.sum(axis=1, keepdims=True), 0.0)
    strength = seats(rows, SEAT_STRENGTH, n).astype(np.int64)
    return TableRows(tuple(lineup), deal_source(match, group), codes, place, strength, win, last)


def cluster_sums(tables_rows: Sequence[TableRows], names: Sequence[str]) -> ClusterSums:
    """Sum every table by deal group g (the cluster: group g has the same deals at every
    table) and strategy, for the standings."""
    k = len(names)
    groups = max(int(t.group.max()) + 1 for t in tables_rows)
    all_strength = np.concatenate([t.strength.ravel() for t in tables_rows])
    edges = decile_edges(all_strength)
    shape = (groups, k)
    out = {f: np.zeros(shape) for f in ("rounds", "places", "president", "scum", "wins", "luck")}
    out["matches"] = np.zeros(shape)
    pair = {f: np.zeros((groups, k, k)) for f in ("rounds_with", "places_with", "luck_with")}
    dec = {f: np.zeros((groups, k, DECILES)) for f in ("decile_rounds", "decile_places")}
    n = tables_rows[0].place.shape[1]
    fit = np.zeros((groups, 3))
    for t in tables_rows:
        g = np.repeat(t.group, n)
        s = t.codes.ravel()
        cell = g * k + s
        size = groups * k
        every = cell_sums(cell, t.place.ravel(), luck(t.strength).ravel(), n, size)
        every = every.reshape(groups, k, -1)
        table = {f: every[:, :, AT[f]] for f in ("rounds", "places", "president", "scum", "luck")}
        table["wins"] = np.bincount(cell, t.win.ravel(), minlength=size).reshape(shape)
        fit += every[:, :, [AT[f] for f in FIT]].sum(axis=1)
        table["matches"] = _matches_per_strategy(t, groups, k)
        for f in out:
            out[f] += table[f]
        seated = np.zeros(k, bool)
        seated[np.unique(t.codes)] = True
        for f, src in (("rounds_with", "rounds"), ("places_with", "places"), ("luck_with", "luck")):
            pair[f] += table[src][:, :, None] * seated[None, None, :]
        d = decile_of(t.strength.ravel(), edges)
        dcell = cell * DECILES + d
        for f, v in (("decile_rounds", None), ("decile_places", t.place.ravel())):
            dec[f] += np.bincount(dcell, v, size * DECILES).reshape(groups, k, DECILES)
    return ClusterSums(list(names), **out, **pair, **dec, edges=edges, fit=fit)


def _matches_per_strategy(t: TableRows, groups: int, k: int) -> np.ndarray:
    """Per deal group and strategy, the matches the strategy played (once per match,
    however many seats it held): the denominator of its match win rate."""
    ends = np.flatnonzero(t.last)
    present = np.zeros((len(ends), k))
    present[np.arange(len(ends))[:, None], t.codes[ends]] = 1
    out = np.zeros((groups, k))
    np.add.at(out, t.group[ends], present)
    return out


def strategy_names(config: TournamentConfig) -> list[str]:
    """The tournament's strategies, each once, in order: at least two, all registered."""
    names = list(dict.fromkeys(config.strategies))
    if len(names) < 2:
        raise TournamentError("a tournament needs at least 2 different strategies")
    for name in names:
        registry.get(name)
    return names


class TableStore(Protocol):
    """Where a tournament keeps its finished tables, so that a stopped one goes on
    (:class:`simulator.runs.tournament.folder.TournamentFolder`)."""

    def played(self) -> dict[int, TableRows]:
        """The tables already played, by index in :func:`tables` order."""
        ...

    def keep(self, index: int, rows: TableRows) -> None:
        """Keep table ``index``, just played."""
        ...


def run_tournament(
    rules: Rules,
    config: TournamentConfig,
    workers: int = 1,
    progress: Callable[[int, int, tuple[str, ...]], None] | None = None,
    store: TableStore | None = None,
    engine: str = "numba",
) -> Standings:
    """Play every table on ``engine`` (``numba`` or ``python``: the same standings); the
    ranking, the pairwise table and the hand-strength deciles.

    ``progress(done, total, lineup)``, when given, is called before each table with the
    number of tables finished, their total and the line-up about to play. With a
    ``store``, the tables it holds are not played again, and each table played is kept
    there: the standings depend only on the tables' rows, wherever they come from.
    """
    names = strategy_names(config)
    set_threads(workers)
    lineups = tables(names, rules.players)
    played = store.played() if store else {}
    for index, lineup in enumerate(lineups):
        if index in played:
            continue
        if progress:
            progress(len(played), len(lineups), lineup)
        played[index] = play_table(rules, config, lineup, names, engine)
        if store:
            store.keep(index, played[index])
    return standings_of(cluster_sums([played[i] for i in range(len(lineups))], names), CLUSTERS)


def results(rules: Rules, config: TournamentConfig, standings: Standings) -> dict[str, str]:
    """The result files of ``--out DIR``, by name, as text: the three tables and the
    settings."""
    settings = {
        "rules": rules.to_dict(),
        **asdict(config),
        "level": LEVEL,
        "clusters": standings.clusters,
        "cluster": "deal group, across all tables",
        "linear_weights": registry.weights_played(strategy_names(config), rules),
        "search": registry.search_played(strategy_names(config), rules),
    }
    return {
        "ranking.csv": standings.ranking.to_csv(index=False),
        "pairwise.csv": standings.pairwise.to_csv(index=False),
        "deciles.csv": standings.deciles.to_csv(index=False),
        "tournament.json": json.dumps(settings, indent=2, default=str) + "\n",
    }
