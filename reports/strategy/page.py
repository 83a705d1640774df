"""The strategy report: ``president tournament --report`` and a section of ``president report``.

Both show the same three things (:mod:`simulator.runs.standings`): the ranking with
plain and luck-adjusted intervals, every pair's difference once as a heatmap with
Holm-adjusted stars, and each strategy's mean place by decile of its dealt-hand
strength — where a strategy gains over another, with weak hands or strong ones. The
tournament's page opens, like the run's, with what it says in plain words and the rules
in words; when a player of the line-up follows the tips of ``president advise`` (its
``tips.toml``), the page says them in words (:func:`tips_section`).
"""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from reports import html, numbers, settings
from reports.figures import Drawing, publish
from reports.glossary import glossary, term
from reports.strategy import figures as strategy_figures
from reports.strategy.words import winner
from simulator.rules.options import Rules
from simulator.runs.advice.learn import tips_of
from simulator.runs.advice.words import tip_words
from simulator.runs.claims import write_atomic
from simulator.runs.standings import (
    DECILES,
    ClusterSums,
    Standings,
    decile_edges,
    decile_of,
    standings_of,
    stars,
)
from strategies.registry import get

if TYPE_CHECKING:  # the tournament's job, read for its settings only
    from simulator.runs.tournament.tables import TournamentConfig

PAGE_FILE = "tournament.html"
FIGURES_DIR = "figures"
RUN_CLUSTERS = "batches of whole matches (whole duplicate groups under duplicate deals)"
SHARES = ("president", "scum", "match_wins")  # proportions: intervals clipped to [0, 1]
GLOSSARY = ("roles", "place", "rates", "seat-rounds", "interval", "luck", "holm", "deciles",
            "duplicate")  # fmt: skip


def strategy_standings(
    standings: pd.DataFrame, strategy_matches: pd.DataFrame, strength: pd.DataFrame
) -> Standings:
    """The standings of one run from its tallies (:mod:`reports.chunk_sums`): the clusters are
    the batches, and every strategy sat at the one table."""
    names = list(dict.fromkeys(standings["strategy"]))
    batches = np.sort(standings["batch"].unique())

    def grid(frame: pd.DataFrame, column: str) -> np.ndarray:
        wide = frame.pivot_table(index="batch", columns="strategy", values=column, aggfunc="sum")
        return wide.reindex(index=batches, columns=names, fill_value=0).fillna(0).to_numpy(float)

    rounds, places, luck = (grid(standings, c) for c in ("rounds", "places", "luck"))
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
        fit=standings.groupby("batch")[["xy", "xx", "yy"]].sum().reindex(batches).to_numpy(float),
    )
    return standings_of(sums, RUN_CLUSTERS)


def clipped(st: Standings) -> Standings:
    """The standings with the intervals of proportions (President, Scum, match-win rates)
    clipped to [0, 1], as every other page shows proportions."""
    ranking = st.ranking.copy()
    for column in SHARES:
        ranking[f"{column}_lo"] = ranking[f"{column}_lo"].clip(lower=0.0)
        ranking[f"{column}_hi"] = ranking[f"{column}_hi"].clip(upper=1.0)
    return dataclasses.replace(st, ranking=ranking)


def standing_figures(st: Standings) -> dict[str, tuple[Drawing, object]]:
    """The figures, by file name, each a drawing (wide or narrow) with its caption; the
    pairwise heatmap needs three strategies or more (one pair is the table's one row)."""
    order = list(st.ranking["strategy"])
    out: dict[str, tuple[Drawing, object]] = {
        "strategy_ranking": (
            partial(strategy_figures.ranking, st.ranking, adjusted=not st.luck_balanced),
            "Mean place per strategy"
            + ("" if st.luck_balanced else ", plain and luck-adjusted")
            + ", 95 % intervals",
        ),
    }
    if len(st.pairwise) > 1:
        out["strategy_pairs"] = (
            partial(strategy_figures.pairwise_heatmap, st.pairwise, order),
            "Each pair once: mean place of the row minus the column (blue: the row places "
            "better); * p < 0.05, ** p < 0.01 after Holm's adjustment",
        )
    out["strategy_deciles"] = (
        partial(strategy_figures.deciles, st.deciles),
        "Mean place by decile of dealt-hand strength, 95 % intervals",
    )
    return out


def _column(frame: pd.DataFrame, column: str) -> list[str]:
    """``column`` of a standings table, each cell ``estimate [lo, hi]`` to the column's
    shared decimals (:mod:`reports.numbers`)."""
    return numbers.format_column(frame[column], frame[f"{column}_lo"], frame[f"{column}_hi"])


def _p(p: float) -> str:
    """A p-value as read: ``< 0.0001`` rather than ``0`` or ``1.3e-60``."""
    return "< 0.0001" if p < 1e-4 else f"{p:.2g}"


def strategy_section(st: Standings, figs: dict[str, str], wins: bool) -> str:
    """The section's HTML: tables, figures and the words that say what they mean."""
    st = clipped(st)
    measures = [("mean_place", "mean place"), ("adjusted", "luck-adjusted mean place"),
                ("president", "President rate"), ("scum", "Scum rate")]  # fmt: skip
    if st.luck_balanced:  # the adjusted column would copy the plain one: _method says why
        measures.pop(1)
    if wins:
        measures.append(("match_wins", "match win rate"))
    ranking = pd.DataFrame(
        {"strategy": st.ranking["strategy"],
         "seat-rounds": [f"{n:,}" for n in st.ranking["rounds"]]}
        | {title: _column(st.ranking, c) for c, title in measures}
    )  # fmt: skip
    out = html.paragraph(*_method(st)) + html.table(ranking, "Ranking (best first)")
    out += figs["strategy_ranking"]
    if len(st.pairwise):
        pw = st.pairwise
        pairs = pd.DataFrame(
            {
                "better-ranked": pw["a"],
                "other": pw["b"],
                "difference": [c + stars(p) for c, p in zip(_column(pw, "diff"), pw["p_holm"],
                                                             strict=True)],
                "Holm p": [_p(p) for p in pw["p_holm"]],
            }
        )  # fmt: skip
        if not st.luck_balanced:
            pairs["luck-adjusted"] = [
                c + stars(p)
                for c, p in zip(_column(pw, "adjusted"), pw["adjusted_p_holm"], strict=True)
            ]
        out += html.table(
            pairs, "Pairwise: mean place of the better-ranked minus the other",
            text_columns=["other"],
        )  # fmt: skip
        out += figs.get("strategy_pairs", "")
    return (
        out
        + html.paragraph(
            term("deciles", "Deciles"),
            ": every dealt hand (its base hand, before the exchange) falls in a decile of "
            "the strength of all dealt hands; the vertical gap between two strategies' "
            "curves at a decile is what one gains over the other with hands that strong.",
            note=True,
        )
        + figs["strategy_deciles"]
    )


def _method(st: Standings) -> list[object]:
    """What the intervals of the section mean, in words (text and glossary links)."""
    r2 = st.r_squared
    out: list[object] = [
        "Every interval is a ",
        term("interval", "95 % interval"),
        f" whose clusters — the independent units — are {st.cluster_label}: "
        f"G = {st.clusters}, Student's t with G − 1 degrees of freedom (a rate's: fewer when a "
        "few clusters hold its events). ",
        term("luck", "Luck-adjusted"),
        ": the mean place with the luck of the dealt cards removed, place − β × "
        "(dealt-hand strength − the table's mean), β the least-squares slope of place on "
        "that difference over every seat-round, refitted without each cluster (jackknife), "
        "so its uncertainty is in the interval",
    ]
    if r2 is not None and np.isfinite(r2):
        out.append(f"; the dealt hand explains R² = {r2:.3f} of the place variance")
    if st.luck_balanced:
        out.append(
            ". Here duplicate deals already balance the luck of the deal: every strategy "
            "gets every dealt hand equally often in each cluster, so the adjusted values "
            "would equal the plain ones and are not shown"
        )
    return [
        *out,
        ". Pairwise differences compare two strategies where both sat at the same table; "
        "stars use ",
        term("holm", "Holm's adjustment"),
        " over all the pairs (* p < 0.05, ** p < 0.01).",
    ]


def tournament_summary(st: Standings, rules: Rules) -> str:
    """What the tournament says: the winner and its margin, then how many pairs differ."""
    st = clipped(st)
    items: list[object] = [winner(st, bool(rules.target))]
    if len(st.pairwise) > 1:
        clear = int((st.pairwise["p_holm"] < 0.05).sum())
        items.append(
            html.join(
                f"Of the {len(st.pairwise)} pairs of strategies, {clear} differ beyond chance (",
                term("holm", "Holm-adjusted"),
                " p < 0.05); the heatmap below shows each pair once.",
            )
        )
    closing = html.paragraph(
        "Every bracket is a ",
        term("interval", "95 % interval"),
        f" over {st.clusters} {st.cluster_label}.",
        note=True,
    )
    return html.box(html.bullets(items) + closing)


def tips_section(names: tuple[str, ...], rules: Rules) -> str:
    """The tips each player of the line-up that follows a ``president advise`` run's tips
    (its ``tips.toml``, the strategy ``advised``) plays by, in words and in the order to
    follow them; "" when none does. Their worths are on the advice's own page."""
    parts = []
    for name in names:
        spec = get(name, rules)
        tips = tips_of(spec.vector) if spec.name == "advised" else []
        if tips:
            said = html.paragraph(
                html.code(name),
                " is the simple player (rules-aware) following these tips, the first that applies:",
            )
            listed = [f"{k}. {tip_words(tip)}" for k, tip in enumerate(tips, start=1)]
            parts.append(said + html.bullets(listed))
    if not parts:
        return ""
    closing = html.paragraph(
        "Each tip's gain, how often it applies and an example position: the page of the "
        "president advise run that wrote the file (advice.html beside it).",
        note=True,
    )
    return "".join(parts) + closing


def write_tournament_page(out: Path, rules: Rules, config: TournamentConfig, st: Standings) -> Path:
    """Write ``OUT/tournament.html`` (self-contained) and its figures in ``OUT/figures/``."""
    embedded = publish(standing_figures(st), out / FIGURES_DIR)
    length = f"to {rules.target} points" if rules.target else f"of {config.rounds_per_match} rounds"
    name = settings.rule_set_name(rules.to_dict())
    facts = [
        ("rule set", name),
        ("players", str(rules.players)),
        ("strategies", ", ".join(config.strategies)),
        ("matches per table", f"{config.matches:,}, each {length}"),
        ("deals", "duplicate: every table plays the same deal groups, the line-up turning"),
        ("seed", str(config.seed)),
    ]
    lead = f"{len(config.strategies)} strategies, {name} rules, {rules.players} players"
    tips = tips_section(config.strategies, rules)
    page = html.page(
        "Président strategy report",
        [
            ("summary", "What the tournament says", tournament_summary(st, rules)),
            (
                "settings",
                "Rules and tournament",
                settings.facts_table(facts)
                + settings.rules_section(name, {"value": rules.to_dict()}),
            ),
            ("strategies", "Strategies", strategy_section(st, embedded, bool(rules.target))),
            *([("tips", "Tips the players follow", tips)] if tips else []),
            ("glossary", "Glossary", glossary(GLOSSARY)),
        ],
        lead,
    )
    path = out / PAGE_FILE
    write_atomic(path, page)
    return path
