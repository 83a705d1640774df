"""Rule sets side by side: the same strategies and deals under several rules, paired by match.

``president compare`` plays every variant with the same seed, so match m of every variant
starts from the same shuffles (the kernel's deal streams are keyed by seed, match and
round): common random numbers. Each variant's run is read once into per-batch sums
(:func:`tally_chunk`; batches of consecutive matches, the same batches in every variant),
and every measure is a smooth function of those sums (:data:`MEASURES`).

Intervals: delete-one-batch jackknife. For a measure θ = f(T), T the run's totals, the
replicates θ₍b₎ = f(T − t_b) leave out batch b; Var(θ) = (G − 1)/G · Σ_b (θ₍b₎ − θ̄)² and
the 95 % interval is θ ± t(0.975, G − 1)·√Var. Batches of matches are the clusters (rounds
of a match are correlated; matches are independent), and the jackknife handles ratios,
differences of ratios, the President's tenure, a correlation and a Gini alike. A difference
between two variants is paired: its replicates are θᴮ₍b₎ − θᴬ₍b₎, both variants without
the same batch b — the same deals — so what the deals share cancels in its variance.
For a plain ratio the jackknife variance equals, to first order, the CR1 variance that
``president report`` uses.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from reports.data import ReportError, iter_chunks, open_run
from simulator.rules.roles import ROLE_NAMES, role_of
from simulator.runs.compare.variants import RUNS_DIR
from simulator.runs.progress import Steps
from simulator.stats import jackknife_interval

if TYPE_CHECKING:
    from simulator.runs.compare.variants import Variant

LENGTHS = ("tricks", "plays", "passes", "skips")  # per-round counts (same on every row)
# the columns tally_chunk reads (the chunks' own columns come with them: reports.data)
COLUMNS = ("round", "seat", "place", "led", *LENGTHS)
STAY_ROLES = ("president", "scum")  # roles whose persistence P(role → same role) is shown

PERSISTENCE = "persistence"
INEQUALITY = "inequality"
LENGTH = "game length"
STRATEGIES = "strategies"
GROUPS = (PERSISTENCE, INEQUALITY, LENGTH, STRATEGIES)


# ---------------------------------------------------------------- per-batch sums


def tally_chunk(chunk: pd.DataFrame, players: int, strategies: Sequence[str]) -> pd.DataFrame:
    """Sums by batch (one row per batch, one column per sum) of a chunk of whole matches.

    Columns: ``from:R`` rows whose previous role was R, ``next:R`` the sum of their
    places, ``stay:R`` those still R; per round (from the leader's row, one a round)
    ``rounds`` and the ``LENGTHS``; per strategy S ``rows:S``, ``place:S``,
    ``president:S``; for consecutive rounds of a player ``pairs`` and the sums ``x``,
    ``y``, ``xx``, ``yy``, ``xy`` of (place, next place); per match ``matches`` and
    ``gini`` (the Gini of the players' place points within the match, summed).
    """
    batches, index = np.unique(chunk["batch"].to_numpy(), return_inverse=True)
    place = chunk["place"].to_numpy(np.float64)
    led = chunk["led"].to_numpy(bool)
    cols: dict[str, np.ndarray] = {}
    for r in ROLE_NAMES:
        came = _is(chunk["prev_role"], r)
        cols[f"from:{r}"] = came
        cols[f"next:{r}"] = place * came
        if r in STAY_ROLES:
            cols[f"stay:{r}"] = came & _is(chunk["role"], r)
    cols["rounds"] = led
    for measure in LENGTHS:
        cols[measure] = chunk[measure].to_numpy(np.float64) * led
    for s in strategies:
        mine = _is(chunk["strategy"], s)
        cols[f"rows:{s}"] = mine
        cols[f"place:{s}"] = place * mine
        cols[f"president:{s}"] = mine & (place == 1)
    rows = _sums(cols, index, batches)
    pairs = _consecutive(chunk, index, batches)
    return pd.concat([rows, pairs, _match_gini(chunk, players)], axis=1).fillna(0.0)


def _sums(cols: dict[str, np.ndarray], index: np.ndarray, batches: np.ndarray) -> pd.DataFrame:
    """Each column summed by batch (``index``: each value's position in ``batches``), one
    row per batch, floats (``np.bincount`` of no value counts in integers). By bincount:
    building a frame of the values to group them took longer than the sums (the pairs of
    consecutive rounds, 6 December 2026)."""
    n = len(batches)
    sums = {k: np.bincount(index, weights=v, minlength=n).astype(np.float64, copy=False)
            for k, v in cols.items()}  # fmt: skip
    return pd.DataFrame(sums, index=batches)


def _is(column: pd.Series, value: str) -> np.ndarray:
    """``column == value`` on a categorical by its codes (comparing strings is slow)."""
    categories = list(column.cat.categories)
    code = categories.index(value) if value in categories else -2
    return column.cat.codes.to_numpy() == code


def _consecutive(chunk: pd.DataFrame, index: np.ndarray, batches: np.ndarray) -> pd.DataFrame:
    """Sums of (place x, next round's place y) over consecutive rounds of a player, by
    batch (``index``: each row's position in ``batches``)."""
    order = np.lexsort(
        (chunk["round"].to_numpy(), chunk["seat"].to_numpy(), chunk["match"].to_numpy())
    )
    match = chunk["match"].to_numpy()[order]
    seat = chunk["seat"].to_numpy()[order]
    rnd = chunk["round"].to_numpy()[order]
    place = chunk["place"].to_numpy(np.float64)[order]
    ok = (match[1:] == match[:-1]) & (seat[1:] == seat[:-1]) & (rnd[1:] == rnd[:-1] + 1)
    x, y = place[:-1][ok], place[1:][ok]
    cols = {"pairs": np.ones(len(x)), "x": x, "y": y, "xx": x * x, "yy": y * y, "xy": x * y}
    return _sums(cols, index[order][1:][ok], batches)


def _match_gini(chunk: pd.DataFrame, players: int) -> pd.DataFrame:
    """Per match, the Gini coefficient of the players' place points (n − place, summed).

    Place points exist under every rule set (points do not: the french preset scores
    none), so this measures how unequal a match's outcomes are: 0 when every player
    collected the same, larger when the same players keep the top places.
    """
    matches, index = np.unique(chunk["match"].to_numpy(), return_inverse=True)
    points = (players - chunk["place"].to_numpy(np.float64)).astype(np.float64)
    cell = index * players + chunk["seat"].to_numpy(np.int64)
    x = np.bincount(cell, weights=points, minlength=len(matches) * players)
    x = x.reshape(len(matches), players)
    gaps = np.abs(x[:, :, None] - x[:, None, :]).sum(axis=(1, 2))
    gini = gaps / (2 * players * x.sum(axis=1))
    batch = np.zeros(len(matches), dtype=np.int64)
    batch[index] = chunk["batch"].to_numpy()
    frame = pd.DataFrame({"matches": np.ones(len(matches)), "gini": gini})
    return frame.groupby(batch).sum()


@dataclass(frozen=True)
class VariantSums:
    """One variant's run, read: its ``summary.json`` and its sums by batch
    (:func:`tally_chunk`'s columns, one row per batch)."""

    summary: dict[str, Any]
    sums: pd.DataFrame


def collect(path: str | Path) -> VariantSums:
    """One streaming pass over a run: its summary and its sums by batch."""
    run = open_run(path)
    strategies = list(dict.fromkeys(run.summary["strategies"]))
    parts = [tally_chunk(chunk, run.players, strategies) for chunk in iter_chunks(run, COLUMNS)]
    sums = pd.concat(parts).fillna(0.0).groupby(level=0).sum().sort_index()
    return VariantSums(run.summary, sums)


# ---------------------------------------------------------------- measures


@dataclass(frozen=True)
class Measure:
    """A quantity computed from a run's totals; ``value`` maps a frame whose rows are
    totals (the whole run, then each leave-one-batch-out replicate) to one value a row."""

    group: str
    name: str
    value: Callable[[pd.DataFrame], np.ndarray]


def _ratio(num: str, den: str) -> Callable[[pd.DataFrame], np.ndarray]:
    def value(t: pd.DataFrame) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            return (t[num] / t[den]).to_numpy()

    return value


def _tenure(t: pd.DataFrame) -> np.ndarray:
    """Expected consecutive rounds as President, the first included: 1 / (1 − P(P→P))."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return (1 / (1 - t["stay:president"] / t["from:president"])).to_numpy()


def _spread(t: pd.DataFrame) -> np.ndarray:
    """Mean next place of the Scum minus that of the President: how much the role decides."""
    with np.errstate(divide="ignore", invalid="ignore"):
        scum = t["next:scum"] / t["from:scum"]
        president = t["next:president"] / t["from:president"]
        return (scum - president).to_numpy()


def _correlation(t: pd.DataFrame) -> np.ndarray:
    """Pearson correlation of a player's place with his place in the next round."""
    n = t["pairs"]
    with np.errstate(divide="ignore", invalid="ignore"):
        cov = t["xy"] / n - t["x"] * t["y"] / n**2
        vx = t["xx"] / n - (t["x"] / n) ** 2
        vy = t["yy"] / n - (t["y"] / n) ** 2
        return (cov / np.sqrt(vx * vy)).to_numpy()


def _no_memory(lineup: Sequence[str]) -> Callable[[pd.DataFrame], np.ndarray]:
    """P(President → President) without memory: Σπᵢ²/Σπᵢ over the seats' players, πᵢ the
    President rate of seat i's strategy (a mixed field's baseline; 1/n only when all
    players are alike)."""

    def value(t: pd.DataFrame) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            pi = np.stack([(t[f"president:{s}"] / t[f"rows:{s}"]).to_numpy() for s in lineup])
            return (pi**2).sum(axis=0) / pi.sum(axis=0)

    return value


def measures(players: int, strategies: Sequence[str], lineup: Sequence[str]) -> list[Measure]:
    """Every measure of the comparison, in display order (``lineup``: seat by seat)."""
    out = [
        Measure(
            PERSISTENCE, "P(President → President)", _ratio("stay:president", "from:president")
        ),
        Measure(PERSISTENCE, "P(President → President) without memory", _no_memory(lineup)),
        Measure(PERSISTENCE, "President tenure (rounds)", _tenure),
        Measure(PERSISTENCE, "P(Scum → Scum)", _ratio("stay:scum", "from:scum")),
        Measure(INEQUALITY, "next place: Scum − President", _spread),
        Measure(INEQUALITY, "place correlation, round to next", _correlation),
        Measure(INEQUALITY, "Gini of match place points", _ratio("gini", "matches")),
    ]
    present = {role_of(p, players) for p in range(1, players + 1)}
    out += [
        Measure(INEQUALITY, f"next place after {r}", _ratio(f"next:{r}", f"from:{r}"))
        for r in ROLE_NAMES
        if r in present
    ]
    out += [Measure(LENGTH, f"{m} per round", _ratio(m, "rounds")) for m in LENGTHS]
    out.append(Measure(LENGTH, "rounds per match", _ratio("rounds", "matches")))
    for s in strategies:
        out.append(Measure(STRATEGIES, f"mean place: {s}", _ratio(f"place:{s}", f"rows:{s}")))
        out.append(
            Measure(STRATEGIES, f"President rate: {s}", _ratio(f"president:{s}", f"rows:{s}"))
        )
    return out


# ---------------------------------------------------------------- paired jackknife


@dataclass(frozen=True)
class Comparison:
    """Every estimate of a comparison (long frames with estimate, lo, hi, se)."""

    names: tuple[str, ...]
    summaries: tuple[dict[str, Any], ...]
    estimates: pd.DataFrame  # variant, group, measure, estimate, lo, hi, se
    differences: pd.DataFrame  # variant − baseline, + the variance ratio paired / unpaired
    ranking: pd.DataFrame  # variant, strategy, mean place, rank (1 = best)
    batches: int  # G: the number of batches of matches (the jackknife's clusters)

    @property
    def baseline(self) -> str:
        """The first variant: every difference is taken against it."""
        return self.names[0]


def replicates(sums: pd.DataFrame, items: Sequence[Measure]) -> np.ndarray:
    """``[measure, 1 + G]``: each measure on the whole run, then without each batch."""
    return stacked_replicates([sums], items)[:, 0]


def stacked_replicates(runs: Sequence[pd.DataFrame], items: Sequence[Measure]) -> np.ndarray:
    """``[measure, run, 1 + G]`` for several runs of G batches each (the same columns),
    every measure evaluated once on all the runs' totals and leave-one-out totals."""
    frames = []
    for sums in runs:
        total = sums.sum()
        frames += [total.to_frame().T, total - sums]
    reps = pd.concat(frames, ignore_index=True)
    return np.vstack([m.value(reps) for m in items]).reshape(len(items), len(runs), -1)


def jackknife(reps: np.ndarray) -> pd.DataFrame:
    """Estimate, interval and standard error from ``[k, 1 + G]`` replicates (see module),
    by :func:`simulator.stats.jackknife_interval`."""
    est, lo, hi, se = jackknife_interval(reps[:, 0], reps[:, 1:])
    return pd.DataFrame({"estimate": est, "lo": lo, "hi": hi, "se": se})


def compare_runs(
    paths: Sequence[str | Path],
    names: Sequence[str],
    progress: Callable[[int, int, str], None] | None = None,
) -> Comparison:
    """Read each variant's run and estimate every measure, and every difference to the first.

    The runs must have the same players, strategies and number of matches, so that batch
    b holds the same matches — the same deals — in every variant. ``progress(done, total,
    name)``, when given, is called before each variant's run is read.
    """
    if len(paths) < 2 or len(paths) != len(names):
        raise ReportError("a comparison needs at least two runs, one name each")
    read = []
    for done, (name, path) in enumerate(zip(names, paths, strict=True)):
        if progress:
            progress(done, len(paths), name)
        read.append(collect(path))
    summaries = tuple(r.summary for r in read)
    first = summaries[0]
    for name, summary in zip(names, summaries, strict=True):
        for key in ("matches", "strategies"):
            if summary.get(key) != first.get(key):
                raise ReportError(
                    f"variant {name} has {key} = {summary.get(key)}, the first has "
                    f"{first.get(key)}: a paired comparison needs the same"
                )
        if summary["rules"]["players"] != first["rules"]["players"]:
            raise ReportError(f"variant {name} has another number of players than the first")
    players = int(first["rules"]["players"])
    strategies = list(dict.fromkeys(first["strategies"]))
    items = measures(players, strategies, first["strategies"])
    batches = sorted(set().union(*(set(r.sums.index) for r in read)))
    columns = sorted(set().union(*(set(r.sums.columns) for r in read)))
    reps = [
        replicates(r.sums.reindex(index=batches, columns=columns, fill_value=0.0), items)
        for r in read
    ]
    labels = pd.DataFrame({"group": [m.group for m in items], "measure": [m.name for m in items]})
    est = pd.concat(
        [
            pd.concat([labels, jackknife(r)], axis=1).assign(variant=name)
            for name, r in zip(names, reps, strict=True)
        ],
        ignore_index=True,
    )
    diffs = []
    for name, r in zip(names[1:], reps[1:], strict=True):
        paired = jackknife(r - reps[0])
        unpaired = jackknife(r)["se"] ** 2 + jackknife(reps[0])["se"] ** 2
        with np.errstate(divide="ignore", invalid="ignore"):
            gain = paired["se"] ** 2 / unpaired
        diffs.append(
            pd.concat([labels, paired], axis=1).assign(
                variant=name, baseline=names[0], variance_ratio=gain
            )
        )
    return Comparison(
        names=tuple(names),
        summaries=summaries,
        estimates=est,
        differences=pd.concat(diffs, ignore_index=True),
        ranking=ranking(est, names, strategies),
        batches=len(batches),
    )


def ranking(
    estimates: pd.DataFrame, names: Sequence[str], strategies: Sequence[str]
) -> pd.DataFrame:
    """The strategies ranked by mean place (1 = best) in each variant, variants in order."""
    rows = estimates[estimates["measure"].isin([f"mean place: {s}" for s in strategies])]
    out = rows.assign(strategy=rows["measure"].str.removeprefix("mean place: "))[
        ["variant", "strategy", "estimate", "lo", "hi"]
    ]
    out = out.assign(
        rank=out.groupby("variant")["estimate"].rank(method="min").astype(int),
        order=out["variant"].map({name: i for i, name in enumerate(names)}),
    )
    return (
        out.sort_values(["order", "rank"], kind="stable")
        .drop(columns="order")
        .reset_index(drop=True)
    )


def read_comparison(root: Path, variants: Sequence[Variant], status: Steps) -> Comparison:
    """The comparison of the compare in ``root`` (each variant's run in ``root/runs/NAME``),
    the variant being read told to ``status``: what ``president compare`` prints and the
    Python API's ``compare`` returns."""

    def progress(done: int, total: int, name: str) -> None:
        status.step(done, total, "compare", f"reading variant {done + 1}/{total} {name}")

    paths = [root / RUNS_DIR / v.name for v in variants]
    return compare_runs(paths, [v.name for v in variants], progress)
