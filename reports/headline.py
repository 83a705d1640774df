"""What a run says, in plain words: the first section of ``president report``'s page.

A reader opening a report wants the answer before the evidence: who wins and by how
much, how sticky the President is against the no-memory baseline, what the exchange
does (or how to measure it), and anything surprising — each with the number and its
95 % interval exactly as the tables below show it. Nothing here is computed anew: every
number comes from the estimates of :mod:`reports.results`.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import pandas as pd

from reports import html, settings
from reports.estimates import POOLED
from reports.glossary import term
from reports.html import Markup
from reports.numbers import format_ci
from reports.strategy.words import ci, strong, winner
from simulator.rules.presets import PRESETS
from simulator.rules.roles import ROLE_NAMES, ROLE_TITLES
from simulator.runs.standings import Standings

if TYPE_CHECKING:
    from reports.results import RunResults


def run_summary(
    results: RunResults,
    standings: Standings,
    rules: Mapping[str, Any],
    target: bool,
    clusters: str,
) -> str:
    """The summary box: one bullet per finding, then how sure the numbers are."""
    items = [
        winner(standings, target),
        persistence(results.persistence, results.chain),
        exchange(rules, results.next_place),
        surprise(results.next_place, results.transitions),
        matches(results.match_length) if target else None,
        duplicate(results.duplicate) if results.duplicate is not None else None,
    ]
    closing = html.paragraph(
        "Every bracket is a ",
        term("interval"),
        f" over {clusters}; the sections below give every "
        "number with its interval, and the glossary what each word means.",
        note=True,
    )
    return html.box(html.bullets(i for i in items if i) + closing)


def persistence(persist: pd.DataFrame, chain: pd.DataFrame) -> Markup | None:
    """P(President → President) of all players against its no-memory baseline, the
    tenure, and each strategy against its own President rate."""
    pooled = persist[persist["strategy"] == POOLED]
    if not len(pooled):
        return None
    p = pooled.iloc[0]
    excess = p["estimate"] - p["baseline"]
    tenure = chain[(chain["strategy"] == POOLED) & (chain["measure"] == "President tenure")]
    out: list[object] = [
        "A President stays President the next round with probability ",
        strong(format_ci(p["estimate"], p["lo"], p["hi"])),
        f", against {p['baseline']:.3f} ",
        term("no-memory", "without memory"),
        " (if roles did not carry over from one round to the next)",
        f": the role carries {excess:.3f} of memory" if excess > 0 else ": the role has no memory",
    ]
    if len(tenure) and pd.notna(tenure["estimate"].iat[0]):
        out += [". A ", term("tenure", "reign"), f" lasts {ci(tenure.iloc[0])} rounds"]
    own = persist[persist["strategy"] != POOLED]
    if len(own) > 1:
        each = "; ".join(
            f"{r.strategy} {r.estimate:.3f} against its President rate {r.baseline:.3f}"
            for r in own.itertuples()
        )
        out.append(f". Per strategy: {each}")
    return html.join(*out, ".")


def exchange(rules: Mapping[str, Any], next_place: pd.DataFrame) -> Markup:
    """What the card exchange is, what the roles are worth the round after, and how to
    measure the exchange's own effect (a single run cannot: it needs the same deals
    without it)."""
    pairs = [
        (i, k)
        for i, k in enumerate(rules.get("exchange", []), 1)
        if k and 2 * i <= rules["players"]
    ]
    pooled = next_place[next_place["strategy"] == POOLED].set_index("prev_role")
    worth: list[object] = []
    if {"president", "scum"} <= set(pooled.index):
        worth = [
            " After a round as President a player's expected place next round is ",
            ci(pooled.loc["president"]),
            ", after a round as Scum ",
            ci(pooled.loc["scum"]),
            ".",
        ]
    if not pairs:
        return html.join(
            "These rules have no card exchange: the memory above comes from the players alone.",
            *worth,
        )
    given = "; ".join(
        f"the {_worst(i)} gives his {'best card' if k == 1 else f'{k} best cards'} to the "
        f"{_best(i)}"
        for i, k in pairs
    )
    name, changes = settings.rule_set(rules)
    how: list[object] = (
        [" (run ", html.code(f"president compare --rules {name} --rules FILE"), " with FILE "
         "holding ", html.code(f'preset = "{name}"'), " and ", html.code("exchange = []"), ")"]
        if not changes and name in PRESETS
        else [" (", html.code("president compare"), " with these rules, then the same rules "
              "with ", html.code("exchange = []"), ")"]
    )  # fmt: skip
    return html.join(
        f"The exchange ({given}, who gives back as many of his choice) hands the winners "
        "the best cards.",
        *worth,
        " Its own effect needs the same deals without it",
        *how,
        ": the ",
        term("paired", "paired"),
        " difference is the exchange's effect.",
    )


def _best(i: int) -> str:
    return {1: "President", 2: "Vice-President"}.get(i, f"{_ordinal(i)} best player")


def _worst(i: int) -> str:
    return {1: "Scum", 2: "Vice-Scum"}.get(i, f"{_ordinal(i)} worst player")


def _ordinal(i: int) -> str:
    return f"{i}{'th' if 11 <= i % 100 <= 13 else {1: 'st', 2: 'nd', 3: 'rd'}.get(i % 10, 'th')}"


def surprise(next_place: pd.DataFrame, transitions: pd.DataFrame) -> Markup | None:
    """When a lower role leads to a better next place than a higher one (all players
    together), say so and why it can happen: the roles are held by different strategies
    in different proportions."""
    pooled = next_place[next_place["strategy"] == POOLED].set_index("prev_role")
    roles = [r for r in ROLE_NAMES if r in pooled.index]
    for higher, lower in itertools.pairwise(roles):
        a, b = pooled.loc[higher], pooled.loc[lower]
        if b["hi"] < a["lo"]:  # clearly better after the lower role
            mix = _holders(transitions, [higher, lower])
            return html.join(
                "Surprise: the expected place next round is better after ",
                ROLE_TITLES[lower],
                f" ({ci(b)}) than after ",
                ROLE_TITLES[higher],
                f" ({ci(a)}). All players together, a role's row also says who tends to "
                f"hold it{mix}; each strategy's own column of the table 'Expected place "
                "next round' compares like with like.",
            )
    return None


def _holders(transitions: pd.DataFrame, roles: list[str]) -> str:
    """``: lowest holds 29 % of the Scum rounds but 13 % of the Vice-Scum rounds`` — the
    shares of the strategy that holds the lower role most often relative to the higher."""
    own = transitions[(transitions["strategy"] != POOLED) & transitions["prev_role"].isin(roles)]
    if own["strategy"].nunique() < 2:
        return ""
    counts = own.groupby(["strategy", "prev_role"])["count"].sum().unstack("prev_role")
    shares = (counts / counts.sum()).reindex(columns=roles).fillna(0.0)
    strategy = (shares[roles[1]] - shares[roles[0]]).idxmax()  # most over-represented below
    a, b = shares.loc[strategy, roles[1]], shares.loc[strategy, roles[0]]
    return (
        f": {strategy} holds {a:.0%} of the {ROLE_TITLES[roles[1]]} rounds but {b:.0%} of "
        f"the {ROLE_TITLES[roles[0]]} rounds"
    )


def matches(length: pd.DataFrame) -> Markup | None:
    """How long a match lasts under a target."""
    rounds = length[length["measure"] == "rounds per match"]
    if not len(rounds):
        return None
    return html.join(f"A match lasts {ci(rounds.iloc[0])} rounds on average.")


def duplicate(gain: pd.DataFrame) -> Markup | None:
    """How much duplicate deals narrowed the mean places' intervals."""
    mean = gain[gain["measure"] == "mean place"]
    if not len(mean):
        return None
    ratios = ", ".join(
        f"{r.strategy} {r.variance_ratio:.2f} ({r.equivalent_matches:,.0f} independent matches)"
        for r in mean.itertuples()
    )
    return html.join(
        term("duplicate", "Duplicate deals"),
        f": the variance ratio of the mean place (below 1: narrower intervals) is {ratios}.",
    )
