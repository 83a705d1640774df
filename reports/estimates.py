"""Estimates with 95 % intervals from the combined tallies (sums by batch → rates).

Every function here is pure: tally frame(s) → a long DataFrame with ``estimate``,
``lo``, ``hi``, ``se`` and ``n`` (the denominator: rows, rounds or matches). ``groups``
is the number of non-empty batches of matches (see :mod:`reports.batch_intervals`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from reports.batch_intervals import cumulative_ratio_ci, ratio_ci
from simulator.rules.roles import ROLE_NAMES
from simulator.stats import ratio_from_sums, t_quantile

POOLED = "all"  # the strategy label of estimates over every player


def batch_count(places: pd.DataFrame) -> int:
    """The number of non-empty batches of matches in a run (G)."""
    return int(places["batch"].nunique())


def ratio(
    frame: pd.DataFrame, by: list[str], num: str, den: str, groups: int, share: bool = False
) -> pd.DataFrame:
    """Σnum / Σden per group of ``by`` (non-empty), with its interval.

    ``share``: the ratio is a proportion, so its interval is the rates' score interval.
    """
    sums = frame.groupby([*by, "batch"], sort=True)[[num, den]].sum()
    y, n = sums[num].astype(float), sums[den].astype(float)
    return ratio_ci(y, n, groups, rate=share).reset_index()


def share(
    frame: pd.DataFrame, by: list[str], category: str, weight: str, groups: int
) -> pd.DataFrame:
    """The share of each ``category`` value within each group of ``by``, with intervals.

    Batches where a group occurs but a category does not count as zeros, as they must.
    """
    num = frame.groupby([*by, "batch", category], sort=True)[weight].sum()
    wide = num.unstack(category, fill_value=0)
    den = wide.sum(axis=1)
    long = wide.stack(future_stack=True)
    long = long.reorder_levels([*by, category, "batch"]).sort_index()
    den_long = den.reindex(long.index.droplevel(category)).to_numpy()
    den_series = pd.Series(den_long, index=long.index, dtype=float)
    return ratio_ci(long.astype(float), den_series, groups, rate=True).reset_index()


def with_pooled(frame: pd.DataFrame) -> pd.DataFrame:
    """The tally plus a copy of every row under the strategy ``all``."""
    return pd.concat([frame, frame.assign(strategy=POOLED)], ignore_index=True)


def place_distribution(
    places: pd.DataFrame, groups: int, by: str | list[str] = "strategy"
) -> pd.DataFrame:
    """P(place = p) per strategy, per seat, or per (seat, strategy)."""
    return share(places, _keys(by), "place", "rows", groups)


def _keys(by: str | list[str]) -> list[str]:
    return [by] if isinstance(by, str) else list(by)


def player_rates(
    places: pd.DataFrame, groups: int, players: int, by: str | list[str] = "strategy"
) -> pd.DataFrame:
    """Mean place, President rate, Scum rate and mean points per round, per ``by`` (a
    column or several: per (seat, strategy) when strategies turn seats).

    Long format: one row per (group, measure).
    """
    frame = places.assign(
        place_sum=places["place"] * places["rows"],
        president=np.where(places["place"] == 1, places["rows"], 0),
        scum=np.where(places["place"] == players, places["rows"], 0),
    )
    parts = []
    for measure, column, is_share in (
        ("mean place", "place_sum", False),
        ("President rate", "president", True),
        ("Scum rate", "scum", True),
        ("points per round", "points", False),
    ):
        part = ratio(frame, _keys(by), column, "rows", groups, is_share)
        parts.append(part.assign(measure=measure))
    return pd.concat(parts, ignore_index=True)


def transition_matrix(transitions: pd.DataFrame, groups: int) -> pd.DataFrame:
    """P(role next round | role now) per strategy and pooled, with counts and intervals.

    ``prev_role`` is the role now, ``role`` the role next round; ``count`` is the number
    of such transitions observed.
    """
    frame = with_pooled(transitions)
    out = share(frame, ["strategy", "prev_role"], "role", "rows", groups).rename(
        columns={"n": "from_count"}
    )
    counts = frame.groupby(["strategy", "prev_role", "role"])["rows"].sum().rename("count")
    out = out.merge(counts.reset_index(), on=["strategy", "prev_role", "role"], how="left")
    out["count"] = out["count"].fillna(0).astype(np.int64)
    return _role_order(out, ["prev_role", "role"])


def next_place(transitions: pd.DataFrame, groups: int) -> pd.DataFrame:
    """Expected place next round given the role now, per strategy and pooled."""
    out = ratio(with_pooled(transitions), ["strategy", "prev_role"], "place_sum", "rows", groups)
    return _role_order(out, ["prev_role"])


def role_value(forward: pd.DataFrame, groups: int) -> pd.DataFrame:
    """Expected points over the next h rounds, and mean place there, by role now."""
    frame = with_pooled(forward)
    frame = frame.assign(place_rows=frame["rows"] * frame["horizon"])
    points = ratio(frame, ["strategy", "role", "horizon"], "points", "rows", groups)
    places = ratio(frame, ["strategy", "role", "horizon"], "places", "place_rows", groups)
    out = pd.concat(
        [points.assign(measure="points"), places.assign(measure="mean place")],
        ignore_index=True,
    )
    return _role_order(out, ["role"])


def match_results(matches: pd.DataFrame, groups: int, by: str = "strategy") -> pd.DataFrame:
    """Match win rate: matches won / matches played, per seat (from
    :func:`reports.chunk_sums.tally_matches`) or per strategy (from
    :func:`reports.chunk_sums.tally_strategy_matches`: once per match, not per seat)."""
    return ratio(matches, [by], "won", "matches", groups, share=True)


def match_length(matches: pd.DataFrame, groups: int) -> pd.DataFrame:
    """Mean match length in rounds, and the share of matches that had a winner."""
    per_match = matches[matches["seat"] == matches["seat"].min()].assign(scope=POOLED)
    length = ratio(per_match, ["scope"], "rounds", "matches", groups)
    decided = ratio(per_match, ["scope"], "decided", "matches", groups, share=True)
    return pd.concat(
        [length.assign(measure="rounds per match"), decided.assign(measure="decided share")],
        ignore_index=True,
    )


def lead_effect(leads: pd.DataFrame, groups: int) -> pd.DataFrame:
    """Mean place and President rate of those who led the first trick, and the others."""
    parts = []
    for measure, column, is_share in (
        ("mean place", "place_sum", False),
        ("President rate", "president", True),
    ):
        part = ratio(leads, ["first_round", "led"], column, "rows", groups, is_share)
        parts.append(part.assign(measure=measure))
    return pd.concat(parts, ignore_index=True)


def game_length(length: pd.DataFrame, groups: int) -> pd.DataFrame:
    """Mean tricks, plays, passes and skips per round."""
    frame = length.assign(scope=POOLED)
    parts = [
        ratio(frame, ["scope"], measure, "rounds", groups).assign(measure=measure)
        for measure in ("tricks", "plays", "passes", "skips")
    ]
    return pd.concat(parts, ignore_index=True)


def convergence(places: pd.DataFrame, players: int) -> pd.DataFrame:
    """Running President rate and mean place per strategy against the rounds so far.

    Batches are consecutive matches, so the estimate after k batches is what a run of
    that many matches would have reported; ``rounds`` counts rounds (not rows).
    """
    frame = places.assign(
        place_sum=places["place"] * places["rows"],
        president=np.where(places["place"] == 1, places["rows"], 0),
    )
    per_batch = frame.groupby(["strategy", "batch"])[["rows", "place_sum", "president"]].sum()
    all_batches = np.sort(frame["batch"].unique())
    rounds = np.cumsum(frame.groupby("batch")["rows"].sum().reindex(all_batches)) // players
    parts = []
    for strategy, sums in per_batch.groupby(level="strategy"):
        sums = sums.droplevel("strategy").reindex(all_batches, fill_value=0)
        for measure, column in (("President rate", "president"), ("mean place", "place_sum")):
            y, n = sums[column].to_numpy(float), sums["rows"].to_numpy(float)
            part = cumulative_ratio_ci(y, n, rate=column == "president")
            part.insert(0, "rounds", rounds.to_numpy())
            parts.append(part.assign(strategy=strategy, measure=measure))
    return pd.concat(parts, ignore_index=True)


def duplicate_gain(moments: pd.DataFrame) -> pd.DataFrame:
    """What duplicate deals gain: each strategy's mean place and President rate, with the
    standard error of the paired design against the one independent deals would give,
    and their variance ratio with its 95 % interval.

    ``se_paired``: the CR1 error with every duplicate **group** as a cluster (its matches
    share deals, so only groups are independent). ``se_independent``: the CR1 error with
    every **match** as a cluster; it leaves out the covariance between the matches of a
    group — exactly what sharing deals creates — so it estimates the error of the same
    estimator had every match been dealt independently (each match, alone, is an
    ordinary match). ``variance_ratio`` = se_paired² / se_independent² (below 1:
    duplicate deals help) is a ratio of two sums over the batches of whole groups, so its
    interval is the CR1 ratio interval over the batches; ``equivalent_matches`` = how many
    independent matches would give the paired precision.
    """
    parts = []
    for measure, label in (("place", "mean place"), ("president", "President rate")):
        for strategy, by_batch in moments.groupby("strategy", sort=True):
            t = by_batch.sum(numeric_only=True)
            r = t[measure] / t["rows"]

            groups, matches = t["groups"], t["matches"]
            var_paired = groups / (groups - 1) * _residual_ss(t, "g_", measure, r) / t["rows"] ** 2
            var_ind = matches / (matches - 1) * _residual_ss(t, "", measure, r) / t["rows"] ** 2
            scale = (groups / (groups - 1)) / (matches / (matches - 1))
            a, b = (
                _residual_ss(by_batch, "g_", measure, r).to_numpy(),
                _residual_ss(by_batch, "", measure, r).to_numpy(),
            )
            sums = (len(a), a.sum(), b.sum(), (a * a).sum(), (a * b).sum(), (b * b).sum())
            ratio, lo, hi, _ = (scale * v for v in ratio_from_sums(*sums))
            parts.append(
                {
                    "strategy": strategy,
                    "measure": label,
                    "estimate": r,
                    "se_paired": np.sqrt(var_paired),
                    "se_independent": np.sqrt(var_ind),
                    "half_paired": np.sqrt(var_paired) * t_quantile(groups - 1),
                    "half_independent": np.sqrt(var_ind) * t_quantile(matches - 1),
                    "variance_ratio": ratio,
                    "variance_ratio_lo": lo,
                    "variance_ratio_hi": hi,
                    "equivalent_matches": matches / ratio,
                    "matches": matches,
                }
            )
    return pd.DataFrame(parts)


def _residual_ss(frame: pd.Series | pd.DataFrame, level: str, measure: str, r: float) -> Any:
    """Σ(y − r·m)² over the matches (``level = ""``) or groups (``"g_"``) from moment sums."""
    ss = (
        frame[f"{level}{measure}_sq"]
        - 2 * r * frame[f"{level}{measure}_rows"]
        + r * r * frame[f"{level}rows_sq"]
    )
    return np.maximum(ss, 0.0)


def persistence(transitions: pd.DataFrame, rates: pd.DataFrame, lineup: list[str]) -> pd.DataFrame:
    """P(President → President) per strategy, then pooled, each beside its no-memory
    baseline: a strategy's own President rate π_s, and for the pooled chain of a mixed
    field Σπᵢ²/Σπᵢ over the seats' players (not 1/n: players differ in skill, so the
    President is likelier to be a strong player, who is President more often anyway)."""
    matrix = transition_matrix(transitions, batch_count(transitions))
    stay = matrix[(matrix["prev_role"] == "president") & (matrix["role"] == "president")]
    pi = rates[rates["measure"] == "President rate"].set_index("strategy")["estimate"]
    seats = pi.reindex(lineup).to_numpy()
    baseline = {**pi.to_dict(), POOLED: float((seats**2).sum() / seats.sum())}
    out = stay.assign(baseline=stay["strategy"].map(baseline))
    order = {s: i for i, s in enumerate([*pi.index, POOLED])}
    return out.sort_values("strategy", key=lambda s: s.map(order)).reset_index(drop=True)


def _role_order(frame: pd.DataFrame, columns: list[str]) -> pd.DataFrame:
    """Roles sorted in rank order (President first) rather than alphabetically."""
    rank = {role: i for i, role in enumerate(ROLE_NAMES)}
    keys = [c for c in ("strategy", "measure", "horizon") if c in frame.columns] + columns
    ordered = frame.sort_values(keys, key=lambda s: _sort_key(s, columns, rank), kind="stable")
    return ordered.reset_index(drop=True)


def _sort_key(column: pd.Series, roles: list[str], rank: dict[str, int]) -> pd.Series:
    """Roles in rank order, the pooled strategy after the strategies, the rest as is."""
    if column.name in roles:
        return column.map(rank)
    if column.name == "strategy":
        return column.map(lambda v: (v == POOLED, v))
    return column
