"""The strategy report: ``president tournament --report`` and a section of ``president report``.

Both show the same three things (:mod:`simulator.runs.standings`): the ranking with
plain and luck-adjusted intervals, every pair's difference once as a heatmap with
Holm-adjusted stars, and each strategy's mean place by decile of its dealt-hand
strength — where a strategy gains over another, with weak hands or strong ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from reports import html, strategy_figures
from reports.figures import render
from reports.stats import format_ci
from simulator.rules.options import Rules
from simulator.runs.standings import (
    DECILES,
    ClusterSums,
    Standings,
    decile_edges,
    decile_of,
    standings_of,
    stars,
)

PAGE_FILE = "tournament.html"
FIGURES_DIR = "figures"
RUN_CLUSTERS = "batches of whole matches (whole duplicate groups under duplicate deals)"


def strategy_standings(
    standings: pd.DataFrame, strategy_matches: pd.DataFrame, strength: pd.DataFrame
) -> Standings:
    """The standings of one run from its tallies (:mod:`reports.tally`): the clusters are
    the batches, and every strategy sat at the one table."""
    names = list(dict.fromkeys(standings["strategy"]))
    batches = np.sort(standings["batch"].unique())

    def grid(frame: pd.DataFrame, column: str) -> np.ndarray:
        wide = frame.pivot_table(index="batch", columns="strategy", values=column, aggfunc="sum")
        return wide.reindex(index=batches, columns=names, fill_value=0).fillna(0).to_numpy(float)

    rounds, places, luck = (grid(standings, c) for c in ("rows", "place", "luck"))
    values = strength.groupby("hand_strength")["rows"].sum()
    edges = decile_edges(values.index.to_numpy(), values.to_numpy())
    banded = strength.assign(decile=decile_of(strength["hand_strength"].to_numpy(), edges))
    by_band = banded.groupby(["batch", "strategy", "decile"])[["rows", "places"]].sum()
    full = pd.MultiIndex.from_product([batches, names, range(DECILES)])
    by_band = by_band.reindex(full, fill_value=0)
    shape = (len(batches), len(names), DECILES)
    with_all = np.ones((1, 1, len(names)))
    sums = ClusterSums(
        names=names,
        rounds=rounds,
        places=places,
        president=grid(standings, "president"),
        scum=grid(standings, "scum"),
        wins=grid(strategy_matches, "won"),
        matches=grid(strategy_matches, "matches"),
        luck=luck,
        rounds_with=rounds[:, :, None] * with_all,
        places_with=places[:, :, None] * with_all,
        luck_with=luck[:, :, None] * with_all,
        decile_rounds=by_band["rows"].to_numpy(float).reshape(shape),
        decile_places=by_band["places"].to_numpy(float).reshape(shape),
        edges=edges,
        fit=standings[["xy", "xx", "yy"]].sum().to_numpy(float),
    )
    return standings_of(sums, RUN_CLUSTERS)


def standing_figures(st: Standings) -> dict[str, tuple[Figure, str]]:
    """The three figures, by file name, with their captions."""
    order = list(st.ranking["strategy"])
    return {
        "strategy_ranking": (
            strategy_figures.ranking(st.ranking),
            "Mean place per strategy, plain and luck-adjusted, 95 % intervals",
        ),
        "strategy_pairs": (
            strategy_figures.pairwise_heatmap(st.pairwise, order),
            "Each pair once: mean place of the row minus the column, Holm-adjusted stars",
        ),
        "strategy_deciles": (
            strategy_figures.deciles(st.deciles),
            "Mean place by decile of dealt-hand strength, 95 % intervals",
        ),
    }


def _ci(row: Any, column: str) -> str:
    return format_ci(row[column], row[f"{column}_lo"], row[f"{column}_hi"])


def strategy_section(st: Standings, figs: dict[str, str], wins: bool) -> str:
    """The section's HTML: tables, figures and the words that say what they mean."""
    measures = [("mean_place", "mean place"), ("adjusted", "luck-adjusted mean place"),
                ("president", "President rate"), ("scum", "Scum rate")]  # fmt: skip
    if wins:
        measures.append(("match_wins", "match win rate"))
    ranking = pd.DataFrame(
        {"strategy": st.ranking["strategy"], "seat-rounds": st.ranking["rounds"]}
        | {title: [_ci(r, c) for _, r in st.ranking.iterrows()] for c, title in measures}
    )
    pairs = pd.DataFrame(
        {
            "better-ranked": st.pairwise["a"],
            "other": st.pairwise["b"],
            "difference": [_ci(r, "diff") + stars(r.p_holm) for _, r in st.pairwise.iterrows()],
            "Holm p": [f"{p:.2g}" for p in st.pairwise["p_holm"]],
            "luck-adjusted": [
                _ci(r, "adjusted") + stars(r.adjusted_p_holm) for _, r in st.pairwise.iterrows()
            ],
        }
    )
    return (
        html.paragraph(_method(st))
        + html.table(ranking, "Ranking (best first)")
        + figs["strategy_ranking"]
        + html.table(pairs, "Pairwise: mean place of the better-ranked minus the other")
        + figs["strategy_pairs"]
        + html.paragraph(
            "Deciles: every dealt hand (its base hand, before the exchange) falls in a decile "
            "of the strength of all dealt hands; the vertical gap between two strategies' "
            "curves at a decile is what one gains over the other with hands that strong.",
            note=True,
        )
        + figs["strategy_deciles"]
    )


def _method(st: Standings) -> str:
    """What the intervals of the section mean, in words."""
    r2 = st.r_squared
    text = (
        f"Every interval is a 95 % interval whose clusters — the independent units — are "
        f"{st.cluster_label}: G = {st.clusters}, Student's t with G − 1 degrees of freedom. "
        "Luck-adjusted: the mean place with the luck of the dealt cards removed, place − "
        "β × (dealt-hand strength − the table's mean), β fitted on the same clusters and "
        "refitted without each one (jackknife), so its uncertainty is in the interval"
    )
    if r2 is not None and np.isfinite(r2):
        text += f"; the dealt hand explains R² = {r2:.3f} of the place variance"
    if st.luck_balanced:
        text += (
            ". Here duplicate deals give every strategy every dealt hand equally often in "
            "each cluster, so this luck cancels already and the adjusted values equal the plain"
        )
    return (
        text + ". Pairwise differences compare two strategies where both sat at the same "
        "table; stars use Holm's adjustment over all the pairs (* p < 0.05, ** p < 0.01)."
    )


def write_tournament_page(out: Path, rules: Rules, config: Any, st: Standings) -> Path:
    """Write ``OUT/tournament.html`` (self-contained) and its figures in ``OUT/figures/``."""
    figures_dir = out / FIGURES_DIR
    figures_dir.mkdir(parents=True, exist_ok=True)
    embedded = {}
    for name, (fig, caption) in standing_figures(st).items():
        png = render(fig, "png")
        (figures_dir / f"{name}.png").write_bytes(png)
        (figures_dir / f"{name}.svg").write_bytes(render(fig, "svg"))
        embedded[name] = html.figure(name, png, caption)
    settings = pd.DataFrame(
        [
            ("strategies", ", ".join(config.strategies)),
            ("players", str(rules.players)),
            ("matches per table", str(config.matches)),
            ("rounds per match", "target" if rules.target else str(config.rounds_per_match)),
            ("seed", str(config.seed)),
        ],
        columns=["setting", "value"],
    )
    rule_rows = pd.DataFrame(
        [(k, json.dumps(v) if isinstance(v, (list, dict)) else str(v))
         for k, v in rules.to_dict().items()],
        columns=["rule", "value"],
    )  # fmt: skip
    page = html.page(
        "Président strategy report",
        [
            (
                "settings",
                "Tournament settings",
                html.table(settings) + html.table(rule_rows, "Rules"),
            ),
            ("strategies", "Strategies", strategy_section(st, embedded, bool(rules.target))),
        ],
    )
    path = out / PAGE_FILE
    path.write_text(page, encoding="utf-8")
    return path
