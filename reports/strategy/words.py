"""The standings in words: who places best, by how much, and the rest.

One sentence, the same on the run's page (:mod:`reports.headline`) and on the strategy
page of a tournament (:mod:`reports.strategy.page`), each number with its 95 % interval
exactly as the tables show it. A module of its own so that neither page imports the
other.
"""

from __future__ import annotations

from typing import Any

from reports import html
from reports.glossary import term
from reports.html import Markup
from reports.numbers import format_ci
from simulator.runs.standings import Standings


def ci(row: Any, column: str = "estimate") -> str:
    """``estimate [lo, hi]`` of a row with estimate/lo/hi (or COLUMN/COLUMN_lo/COLUMN_hi),
    to the digits its interval needs."""
    if column == "estimate":
        return format_ci(row["estimate"], row["lo"], row["hi"])
    return format_ci(row[column], row[f"{column}_lo"], row[f"{column}_hi"])


def strong(value: object) -> Markup:
    return Markup(f"<strong>{html.text(value)}</strong>")


def winner(st: Standings, target: bool) -> Markup:
    """The best strategy, its margin over the next with the interval, and the rest."""
    ranking = st.ranking
    if len(ranking) < 2:
        name = ranking["strategy"].iat[0] if len(ranking) else "one strategy"
        return html.join(
            "Every seat plays ", strong(name), ": there is no strategy to compare it with."
        )
    best, second = ranking.iloc[0], ranking.iloc[1]
    pair = st.pairwise[
        (st.pairwise["a"] == best["strategy"]) & (st.pairwise["b"] == second["strategy"])
    ]
    out = [
        strong(best["strategy"]),
        " places best: ",
        term("place", "mean place"),
        " ",
        strong(ci(best, "mean_place")),
        f" against {ci(second, 'mean_place')} for {second['strategy']}",
    ]
    if len(pair):
        p = pair.iloc[0]
        margin = format_ci(-p["diff"], -p["diff_hi"], -p["diff_lo"])
        if p["diff_hi"] < 0:
            out += [", ", strong(f"{margin} places better"), " per round"]
        elif p["diff_lo"] > 0:  # first by the luck-adjusted mean place only
            out += [
                "; it ranks first once the luck of the cards is taken out (",
                term("luck", "luck-adjusted"),
                f" {ci(best, 'adjusted')} against {ci(second, 'adjusted')}), its plain mean "
                f"place being {format_ci(p['diff'], p['diff_lo'], p['diff_hi'])} places worse",
            ]
        else:
            out.append(f"; the difference, {margin} places, may be chance (its interval holds 0)")
    out.append(f". It is President in {ci(best, 'president')} of its rounds")
    if target:
        out.append(f" and wins {ci(best, 'match_wins')} of its matches")
    out.append(".")
    if len(ranking) > 2:
        rest = ", ".join(f"{r.strategy} {r.mean_place:.3f}" for r in ranking.iloc[2:].itertuples())
        out.append(f" Then, by mean place: {rest}.")
    return html.join(*out)
