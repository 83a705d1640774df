"""How a comparison is shown: ``compare.json`` and ``compare.html`` (the terminal table is
:mod:`reports.compare.text`'s).

The page is self-contained like ``president report``'s (:mod:`reports.html`) and opens the
same way: what the comparison says in plain words (each rule set's President against its
no-memory baseline, the exchange's own effect when a variant isolates it, the ranking),
then the rules of every variant in words, then the details. Its figures
(:mod:`reports.compare.figures`) are also written as PNG and SVG to ``OUT/figures/``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from reports import html, numbers, settings
from reports.atlas import words as atlas_words
from reports.compare import comparison
from reports.compare.comparison import Comparison
from reports.compare.figures import make_figures
from reports.figures import publish
from reports.glossary import glossary, term
from reports.html import Markup
from reports.numbers import format_ci, plus_minus
from simulator.rules.roles import ROLE_TITLES
from simulator.runs.atlas import verdicts

PAGE_FILE = "compare.html"
JSON_FILE = "compare.json"
FIGURES_DIR = "figures"
GLOSSARY = ("roles", "place", "interval", "persistence", "no-memory", "tenure", "paired",
            "jackknife", "gini", "correlation")  # fmt: skip
SKILL_GLOSSARY = ("skill-gap", "skill-depth", "verdict", "skill", "holm", "edge", "deal-share",
                  "capped")  # fmt: skip


# ---------------------------------------------------------------- text


def measure_title(measure: str) -> str:
    """A measure as read: ``next place after Vice-Scum``, not ``… vice_scum``."""
    head, _, role = measure.rpartition(" ")
    return f"{head} {ROLE_TITLES[role]}" if role in ROLE_TITLES else measure


def wide(frame: pd.DataFrame, signed: bool = False, compact: bool = False) -> pd.DataFrame:
    """Measures down, variants across, ``estimate [lo, hi]`` in each cell (``compact``:
    ``estimate ± half-width`` where the interval is symmetric, for a narrow terminal),
    every cell of a measure (a row) to the row's shared decimals (:mod:`reports.numbers`)."""
    places = numbers.shared_by(frame["measure"], frame["estimate"], frame["lo"], frame["hi"])
    write = plus_minus if compact else format_ci
    cells = [
        write(e, lo, hi, places[m], signed)
        for e, lo, hi, m in zip(frame["estimate"], frame["lo"], frame["hi"], frame["measure"],
                                strict=True)
    ]  # fmt: skip
    shown = frame.assign(value=cells, measure=frame["measure"].map(measure_title))
    out = shown.pivot_table(
        index=["group", "measure"], columns="variant", values="value", aggfunc="first", sort=False
    )
    return out.reset_index()


def to_json(c: Comparison, skill: pd.DataFrame | None = None) -> dict[str, Any]:
    """The numbers of the comparison, machine-readable (NaN and infinite bounds as null);
    with ``skill``, its rows (those of ``atlas.parquet``) as ``skill``."""

    def plain(value: Any) -> Any:
        if isinstance(value, np.integer):
            return int(value)
        if isinstance(value, (float, np.floating)):
            return float(value) if math.isfinite(value) else None
        if isinstance(value, np.bool_):
            return bool(value)
        return value

    def records(frame: pd.DataFrame) -> list[dict[str, Any]]:
        return [{k: plain(v) for k, v in r.items()} for r in frame.to_dict(orient="records")]

    return {
        "variants": list(c.names),
        "baseline": c.baseline,
        "matches": c.summaries[0]["matches"],
        "batches": c.batches,
        "seed": c.summaries[0].get("seed"),
        "strategies": c.summaries[0]["strategies"],
        "estimates": records(c.estimates),
        "differences": records(c.differences),
        "ranking": records(c.ranking),
    } | ({} if skill is None else {"skill": records(skill)})


# ---------------------------------------------------------------- page


def write_page(c: Comparison, out: str | Path, skill: pd.DataFrame | None = None) -> Path:
    """Write ``out/compare.html``, ``out/compare.json`` and ``out/figures/`` (PNG and SVG);
    with ``skill`` (``compare --skill``: the atlas's rows for these rule sets), a section
    of skill and luck."""
    root = Path(out)
    embedded = publish(make_figures(c), root / FIGURES_DIR)
    text = json.dumps(to_json(c, skill), indent=1, ensure_ascii=False)
    (root / JSON_FILE).write_text(text + "\n")
    players = c.summaries[0]["rules"]["players"]
    lead = (
        f"{len(c.names)} rule sets, {players} players, {c.summaries[0]['matches']:,} matches "
        f"each on the same deals; differences are to {c.baseline}"
    )
    page = root / PAGE_FILE
    title = "Président: rule sets compared (" + ", ".join(c.names) + ")"
    page.write_text(html.page(title, sections(c, embedded, skill), lead), encoding="utf-8")
    return page


def _table(frame: pd.DataFrame, caption: str, signed: bool = False) -> str:
    return html.table(wide(frame, signed).drop(columns="group"), caption)


def _shown_differences(c: Comparison) -> pd.DataFrame:
    diff = c.differences
    return diff.assign(variant=diff["variant"] + " − " + c.baseline)


def sections(
    c: Comparison, figs: dict[str, str], skill: pd.DataFrame | None = None
) -> list[tuple[str, str, str]]:
    """The page's sections as (anchor, heading, HTML); the skill section with ``skill``."""
    est = c.estimates
    group = {g: est[est["group"] == g] for g in comparison.GROUPS}
    diff_shown = _shown_differences(c)
    ratio = diff_shown.pivot_table(
        index="measure", columns="variant", values="variance_ratio", sort=False
    )
    ratio = ratio.map(lambda v: "–" if pd.isna(v) else f"{v:.3f}").reset_index()
    ratio["measure"] = ratio["measure"].map(measure_title)
    shown = [("skill", "Skill or luck", skill_section(skill))] if skill is not None else []
    return [
        (
            "summary",
            "What the comparison says",
            (skill_verdicts(skill) if skill is not None else "") + summary(c),
        ),
        ("settings", "Rules of each variant", _settings(c)),
        *shown,
        ("answer", "Does the exchange keep the President in power?", _answer(c, figs)),
        (
            "inequality",
            "Inequality of outcomes",
            html.paragraph(
                "How much the current role decides the next round: the Scum's expected place "
                "next round minus the President's, the ",
                term("correlation"),
                ", the ",
                term("gini"),
                ", and the expected place next round after each role.",
            )
            + _table(group[comparison.INEQUALITY], "By rule set")
            + figs["next_place"],
        ),
        (
            "strategies",
            "Ranking of strategies",
            html.table(_ranking(c), "Rank by mean place (1 = best)")
            + _table(group[comparison.STRATEGIES], "By rule set")
            + figs["strategies"],
        ),
        (
            "length",
            "Game length",
            _table(group[comparison.LENGTH], "By rule set") + figs["game_length"],
        ),
        (
            "differences",
            "Every difference",
            _table(diff_shown, f"Differences to {c.baseline}, paired by match", signed=True)
            + figs["differences"]
            + html.table(
                ratio,
                "Variance of the paired difference / variance if the variants were independent",
            ),
        ),
        ("method", "Method", _method(c)),
        ("glossary", "Glossary", glossary(GLOSSARY + (SKILL_GLOSSARY if shown else ()))),
    ]


def skill_verdicts(skill: pd.DataFrame) -> str:
    """``compare --skill``'s first screen: the skill verdict of each rule set against the
    first (:func:`simulator.runs.atlas.verdicts.verdicts`, the atlas's)."""
    table = verdicts.verdicts(skill)
    first = verdicts.held(table)
    said = [*first["sentence"], *table.drop(first.index)["sentence"]]
    return html.box(
        html.paragraph(term("verdict", "Skill or luck"), f" (against {verdicts.base_of(skill)}):")
        + html.bullets(said)
    )


def skill_section(skill: pd.DataFrame) -> str:
    """``compare --skill``: the skill measures of each rule set (the verdicts are on the
    first screen), in a table whose cells wrap."""
    words = html.paragraph(
        "A rule set is said to make the game more about skill (or luck) than the first only "
        "where the ",
        term("paired", "paired difference"),
        " of the ",
        term("skill-gap", "skill gap"),
        " has the same sign, each with a Holm-adjusted p below 0.05, at every rung from "
        "tuned linear up and in the ",
        term("skill-depth", "skill depth"),
        "; else it depends on the level of play. ",
        term("skill", "Relative skill (RS)"),
        " is shown as data: it does not see luck nobody can exploit. The measures are those "
        "of president atlas (docs/skill.md), on their own duplicate deals; the sizes adapt "
        "to the atlas's precision.",
        note=True,
    )
    table = html.table(
        atlas_words.skill_wide(skill).drop(columns="group"), "By rule set", wraps=True
    )
    return words + table


def summary(c: Comparison) -> str:
    """What the comparison says: each rule set's President against the no-memory
    baseline, the exchange's effect when a variant isolates it, and the ranking."""
    est = c.estimates.set_index(["variant", "measure"])
    stay = [_against_baseline(est, name) for name in c.names]
    items: list[object] = [
        html.join(
            "How often the President stays President (",
            term("persistence", "P(President → President)"),
            ", against its value ",
            term("no-memory", "without memory"),
            "): ",
            "; ".join(stay),
            ".",
        )
    ]
    items.append(_changes(c))
    items.append(_exchange_effect(c, _isolating(c)))
    items.append(_ranking_words(c))
    closing = html.paragraph(
        "Brackets are ",
        term("interval", "95 % intervals"),
        f" over {c.batches} batches of matches; differences are ",
        term("paired"),
        " by match (the same deals in every rule set).",
        note=True,
    )
    return html.box(html.bullets(i for i in items if i) + closing)


def _against_baseline(est: pd.DataFrame, name: str) -> str:
    """``french 0.451 [0.437, 0.465] against 0.242``: the baseline to the same digits."""
    cell = est.loc[(name, "P(President → President)"), ["estimate", "lo", "hi"]]
    places = numbers.shared([tuple(cell)])
    baseline = est.loc[(name, "P(President → President) without memory"), "estimate"]
    return f"{name} {format_ci(*cell, places)} against {numbers.fixed(baseline, places)}"


def _changes(c: Comparison) -> Markup | None:
    """How every other rule set changes P(President → President) from the baseline, each
    with its paired interval (none left out, the exchange-free variant included), the
    largest change named first with the tenure it gives."""
    diff = c.differences[c.differences["measure"] == "P(President → President)"]
    diff = diff.reset_index(drop=True)
    if not len(diff):
        return None
    shown = dict(zip(diff["variant"], numbers.format_column(
        diff["estimate"], diff["lo"], diff["hi"], signed=True), strict=True))  # fmt: skip
    top = diff.loc[diff["estimate"].abs().idxmax(), "variant"]
    tenure = c.estimates[c.estimates["measure"] == "President tenure (rounds)"].set_index("variant")
    reign = tenure.loc[[top, c.baseline]]
    places = numbers.shared(zip(reign["estimate"], reign["lo"], reign["hi"], strict=True))
    each = "; ".join(f"{name} {cell}" for name, cell in shown.items())
    return html.join(
        f"Change of P(President → President) from {c.baseline}, ",
        term("paired", "paired"),
        f" by match — largest under {top}: ",
        Markup(f"<strong>{html.text(shown[top])}</strong>"),
        ", a ",
        term("tenure", "tenure"),
        f" of {numbers.fixed(tenure.loc[top, 'estimate'], places)} rounds against "
        f"{numbers.fixed(tenure.loc[c.baseline, 'estimate'], places)}. Every rule set: {each}.",
    )


def _isolating(c: Comparison) -> str | None:
    """The variant whose rules are the baseline's without the exchange, if there is one:
    its paired difference to the baseline is the exchange's own effect."""
    base = settings.resolved(c.summaries[0]["rules"])
    if not any(base.get("exchange", [])):
        return None
    for name, summary in zip(c.names[1:], c.summaries[1:], strict=True):
        rules = settings.resolved(summary["rules"])
        same = all(rules.get(k) == v for k, v in base.items() if k != "exchange")
        if same and not any(rules.get("exchange", [])):
            return name
    return None


def _exchange_effect(c: Comparison, isolated: str | None) -> Markup:
    """The exchange's own effect (the isolating variant's paired difference, sign turned),
    or how to measure it."""
    if isolated is None:
        return html.join(
            "No variant isolates the exchange: add the baseline's rules with ",
            html.code("exchange = []"),
            " (a rules file such as examples/rules/french-no-exchange.toml) to measure its "
            "own effect.",
        )
    diff = c.differences[c.differences["variant"] == isolated].set_index("measure")
    stay, tenure = diff.loc["P(President → President)"], diff.loc["President tenure (rounds)"]
    return html.join(
        f"What the exchange is worth ({c.baseline} against {isolated}, the same rules without "
        "it): it adds ",
        Markup(
            f"<strong>{html.text(format_ci(-stay['estimate'], -stay['hi'], -stay['lo']))}</strong>"
        ),
        " to P(President → President) and "
        f"{format_ci(-tenure['estimate'], -tenure['hi'], -tenure['lo'])} rounds to the "
        "President's tenure, ",
        term("paired", "paired"),
        " by match.",
    )


def _ranking_words(c: Comparison) -> Markup | None:
    """Which strategy ranks first under each rule set."""
    firsts = c.ranking[c.ranking["rank"] == 1]
    if c.ranking["strategy"].nunique() < 2:
        return None
    names = list(dict.fromkeys(firsts["strategy"]))
    if len(names) == 1:
        return html.join(
            "The strategy ",
            Markup(f"<strong>{html.text(names[0])}</strong>"),
            " ranks first (the best mean place) under every rule set.",
        )
    each = "; ".join(f"{r.variant}: {r.strategy}" for r in firsts.itertuples())
    return html.join(f"The best strategy depends on the rules: {each}.")


def _answer(c: Comparison, figs: dict[str, str]) -> str:
    players = int(c.summaries[0]["rules"]["players"])
    est = c.estimates[c.estimates["group"] == comparison.PERSISTENCE]
    diff = c.differences[c.differences["group"] == comparison.PERSISTENCE]
    text = (
        "P(President → President) is the chance that the President of a round is President "
        "again in the next. Without any memory (each round's roles independent of the last) "
        "it would be Σπᵢ²/Σπᵢ, πᵢ each seat's President rate: 1/"
        f"{players} only when all players are alike; a strong player is President more "
        "often, so the President is likelier to be him — shown as 'without memory'. Above "
        "that baseline, the card exchange (the Scum hands over his best cards) keeps a "
        "President in power. A variant without exchange (exchange = []) isolates the "
        "exchange: its difference to the same rules with the exchange is the exchange's "
        "effect."
    )
    return (
        html.paragraph(text)
        + _table(est, "Role persistence by rule set")
        + _table(
            diff.assign(variant=diff["variant"] + " − " + c.baseline),
            f"Differences to {c.baseline}, paired by match",
            signed=True,
        )
        + figs["persistence"]
    )


def _settings(c: Comparison) -> str:
    first = c.summaries[0]
    rounds = {n: s.get("rounds_played") for n, s in zip(c.names, c.summaries, strict=True)}
    facts = [
        ("players", str(first["rules"]["players"])),
        ("strategies by seat", settings.seating(first["strategies"])),
        ("matches per variant", f"{first['matches']:,} (the same deals in every variant)"),
        ("rounds played", ", ".join(f"{n} {r:,}" for n, r in rounds.items() if r)),
        ("intervals", f"95 %, over {c.batches} batches of matches"),
        ("seed", str(first.get("seed"))),
        ("president-sim version", str(first.get("version"))),
    ]
    variants = {n: s["rules"] for n, s in zip(c.names, c.summaries, strict=True)}
    named = ", ".join(
        n if settings.rule_set_name(r) == n else f"{n} = {settings.rule_set_name(r)}"
        for n, r in variants.items()
    )
    return settings.facts_table(facts) + settings.rules_section(named, variants)


def _ranking(c: Comparison) -> pd.DataFrame:
    """Strategies down, variants across, ``rank: estimate [lo, hi]``, each variant's
    column to its shared decimals."""
    r = c.ranking
    places = numbers.shared_by(r["variant"], r["estimate"], r["lo"], r["hi"])
    shown = r.assign(
        value=[
            f"{k}: {format_ci(e, lo, hi, places[v])}"
            for k, e, lo, hi, v in zip(r["rank"], r["estimate"], r["lo"], r["hi"], r["variant"],
                                       strict=True)
        ]
    )  # fmt: skip
    out = shown.pivot_table(
        index="strategy", columns="variant", values="value", aggfunc="first", sort=False
    )
    return out[list(c.names)].reset_index()


def _method(c: Comparison) -> str:
    return html.paragraph(
        "Every variant plays the same strategies in the same seats with the same seed, so "
        "match m of every variant starts from the same shuffle and the same first dealer "
        "(common random numbers); rule sets with a scoring target play the same matches to "
        "their own length. The matches are split into "
        f"{c.batches} batches of consecutive matches (every match its own batch when there are "
        "few), the same in every variant; rounds within a match are correlated, matches are "
        "independent, so batches are the clusters. Each measure is a function θ = f(T) of "
        "the run's sums; its standard error is the delete-one-batch ",
        term("jackknife"),
        ", Var = (G−1)/G · Σ_b (θ₍b₎ − θ̄)², where θ₍b₎ leaves batch b out, and its 95 % "
        "interval θ ± t(0.975, G−1)·SE. A difference between two variants is paired: its "
        "replicates are θᴮ₍b₎ − θᴬ₍b₎, both without the same batch (the same deals). "
        "The last table says how much the pairing saved: the paired variance over the sum of "
        "the two variances (below 1: the shared deals cancel part of the noise). Next "
        "place after a role and P(role → role) count every round but the first of a match; "
        "the Gini of place points (n − place, summed over a match) is averaged over matches.",
    )
