"""Tournaments: which strategies play best, compared fairly, with honest intervals.

Fairness comes from two devices. **Tables**: with more strategies than seats, every
combination of ``players`` strategies gets its own table; with fewer, the list is
repeated around the table. **Duplicate deals**: each table plays its matches in groups
of ``players`` that share the same deal sequences while the strategies turn one seat
per match (``KernelJob.build(..., duplicate=True)``), so every strategy holds every
hand from every seat; and every table uses the same seed, so tables share deals too.

Rounds of a match are correlated, and so are the matches of a duplicate group (same
deals), so every interval treats a *group* as the unit: per group and strategy the
sum of places ``y`` over its ``m`` rounds; the ratio estimate ``Σy/Σm`` has the
cluster-robust variance ``G/(G-1)·Σ(y - p·m)²/(Σm)²`` with Student's t on ``G - 1``
degrees of freedom (``G`` groups). Pairwise differences are taken within groups where
both strategies sat at the same table (same deals), one difference per group.

Match wins: the player with the best total under the rules' points wins the match (a
tie shares the win); rules without points score ``n - place`` per round (Borda).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simulator.matchloop.api import KernelJob, run_matches, set_threads
from simulator.matchloop.matches import OUT_MATCH, OUT_PLACE, OUT_POINTS
from simulator.matchloop.seating import deal_source, player_in_slot
from simulator.reference.match import MAX_ROUNDS
from simulator.rules.options import Rules
from simulator.runs.job import DEFAULT_ROUNDS_PER_MATCH
from simulator.stats import LEVEL, mean_interval, ratio_interval, two_sided_p
from strategies import registry


class TournamentError(ValueError):
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
class _Sums:
    """Per duplicate group (rows) and strategy (columns): what the estimates need."""

    rounds: np.ndarray
    places: np.ndarray
    president: np.ndarray
    scum: np.ndarray
    wins: np.ndarray
    matches: np.ndarray


def _table_sums(
    rows: np.ndarray, lineup: Sequence[str], index: dict[str, int], n: int, rules: Rules
) -> _Sums:
    """Sum one table's rows by duplicate group and strategy."""
    k = len(index)
    match = rows[:, OUT_MATCH].astype(np.int64)
    group = deal_source(match, n)
    groups = int(group.max()) + 1
    out = _Sums(*(np.zeros((groups, k)) for _ in range(6)))
    place = rows[:, OUT_PLACE : OUT_PLACE + n].astype(np.int64)
    points = rows[:, OUT_POINTS : OUT_POINTS + n].astype(np.float64)
    if not points.any():
        points = (n - place).astype(np.float64)
    last = np.r_[match[1:] != match[:-1], True]
    total = pd.DataFrame(points).groupby(match).cumsum().to_numpy()
    for seat, name in enumerate(lineup):
        s = index[name]
        player = player_in_slot(seat, match, n, n)  # who holds this strategy in match m
        mine = place[np.arange(len(rows)), player]
        np.add.at(out.rounds[:, s], group, 1)
        np.add.at(out.places[:, s], group, mine)
        np.add.at(out.president[:, s], group, mine == 1)
        np.add.at(out.scum[:, s], group, mine == n)
        final = total[last]
        best = final.max(axis=1)
        share = (final[np.arange(len(final)), player[last]] == best) / (final == best[:, None]).sum(
            axis=1
        )
        np.add.at(out.wins[:, s], group[last], share)
        np.add.at(out.matches[:, s], group[last], 1)
    return out


def ranking(sums: _Sums, names: Sequence[str]) -> pd.DataFrame:
    """One row per strategy, best mean place first, each estimate with its interval."""
    rows = []
    for s, name in enumerate(names):
        row: dict[str, object] = {"strategy": name, "rounds": int(sums.rounds[:, s].sum())}
        for label, y, m in (
            ("mean_place", sums.places, sums.rounds),
            ("president", sums.president, sums.rounds),
            ("scum", sums.scum, sums.rounds),
            ("match_wins", sums.wins, sums.matches),
        ):
            est, lo, hi, _ = ratio_interval(y[:, s], m[:, s])
            row[label], row[f"{label}_lo"], row[f"{label}_hi"] = est, lo, hi
        rows.append(row)
    return pd.DataFrame(rows).sort_values("mean_place", ignore_index=True)


def pairwise(sums: _Sums, names: Sequence[str]) -> pd.DataFrame:
    """Mean place of A minus mean place of B over the groups where both played, with its
    95 % interval and two-sided p-value (negative: A places better)."""
    rows = []
    for a, b in itertools.permutations(range(len(names)), 2):
        both = (sums.rounds[:, a] > 0) & (sums.rounds[:, b] > 0)
        d = (
            sums.places[both, a] / sums.rounds[both, a]
            - sums.places[both, b] / sums.rounds[both, b]
        )
        mean, lo, hi, se = mean_interval(d)
        rows.append(
            {
                "a": names[a],
                "b": names[b],
                "groups": len(d),
                "diff": mean,
                "diff_lo": lo,
                "diff_hi": hi,
                "p_value": two_sided_p(mean, se, len(d)),
            }
        )
    return pd.DataFrame(rows)


def run_tournament(
    rules: Rules, config: TournamentConfig, workers: int = 1
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Play every table; the ranking and the pairwise tables."""
    names = list(dict.fromkeys(config.strategies))
    if len(names) < 2:
        raise TournamentError("a tournament needs at least 2 different strategies")
    for name in names:
        registry.get(name)
    n = rules.players
    matches = -(-config.matches // n) * n
    set_threads(workers)
    index = {name: i for i, name in enumerate(names)}
    parts = []
    for lineup in tables(names, n):
        job = KernelJob.build(
            rules,
            list(lineup),
            config.seed,
            None if rules.target else config.rounds_per_match,
            config.max_rounds,
            duplicate=True,
        )
        parts.append(_table_sums(run_matches(job, 0, matches), lineup, index, n, rules))
    sums = _Sums(*(np.concatenate([getattr(p, f) for p in parts]) for f in _Sums.__annotations__))
    return ranking(sums, names), pairwise(sums, names)


def format_ranking(table: pd.DataFrame) -> str:
    """The ranking as aligned text, each estimate with its 95 % interval."""
    width = max(10, *(len(s) for s in table["strategy"]))
    head = f"{'strategy':<{width}} {'rounds':>9}  {'mean place':^21}  {'President':^21}  "
    head += f"{'Scum':^21}  {'match wins':^21}"
    lines = [head]
    for _, r in table.iterrows():
        cells = [
            f"{r[c]:.3f} [{r[c + '_lo']:.3f}, {r[c + '_hi']:.3f}]"
            for c in ("mean_place", "president", "scum", "match_wins")
        ]
        lines.append(f"{r['strategy']:<{width}} {r['rounds']:>9,}  " + "  ".join(cells))
    return "\n".join(lines)


def format_pairwise(table: pd.DataFrame, order: Sequence[str]) -> str:
    """Mean place difference row minus column (negative: the row places better)."""
    width = max(10, *(len(s) for s in order))
    lines = [" " * width + "".join(f"{b[:16]:>18}" for b in order)]
    diff = {(r.a, r.b): r for r in table.itertuples()}
    for a in order:
        cells = []
        for b in order:
            if a == b:
                cells.append(f"{'—':>18}")
                continue
            r = diff[(a, b)]
            mark = "**" if r.p_value < 0.01 else "* " if r.p_value < 0.05 else "  "
            cells.append(f"{r.diff:+8.3f}±{(r.diff_hi - r.diff):.3f}{mark}")
        lines.append(f"{a:<{width}}" + "".join(f"{c:>18}" for c in cells))
    lines.append("row minus column, mean place; ± 95 % interval; * p < 0.05, ** p < 0.01")
    return "\n".join(lines)


def save(
    out: Path, rules: Rules, config: TournamentConfig, rank: pd.DataFrame, pairs: pd.DataFrame
) -> None:
    """Write ``ranking.csv``, ``pairwise.csv`` and ``tournament.json`` (the settings)."""
    out.mkdir(parents=True, exist_ok=True)
    rank.to_csv(out / "ranking.csv", index=False)
    pairs.to_csv(out / "pairwise.csv", index=False)
    settings = {"rules": rules.to_dict(), **asdict(config), "level": LEVEL}
    (out / "tournament.json").write_text(json.dumps(settings, indent=2, default=str) + "\n")
