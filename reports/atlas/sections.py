"""The atlas page's sections in words: the verdicts that hold (the first screen), where the
ladder of players is not monotone, the top's convergence, the measures of luck, and how
the field's strength enters each measure.

Every verdict is :func:`simulator.runs.atlas.verdicts.verdicts`'s: a claim that one rung
alone supports is never written; "depends on the level of play" says each level's figure.
"""

from __future__ import annotations

from itertools import pairwise

import pandas as pd

from reports import html
from reports.atlas import words
from reports.glossary import term
from simulator.runs.atlas import verdicts as v
from simulator.runs.atlas.ladder import RUNGS

TOP = "champion_high"
TOP_EDGE = "edge_top_vs_heuristic"  # Δ: the top rung's mean place − the best heuristic's
NAMED = {"heuristic": "the best heuristic", "champion_low": "champion ×¼",
         "champion_high": "champion ×4"}  # a rung in a sentence  # fmt: skip
RS_LEVELS = {"linear": "relative_skill_linear", "champion_low": "relative_skill_champion_low",
             "champion": "relative_skill", "champion_high": "relative_skill_champion_high"}  # fmt: skip


def rung_measure(rung: str, best_heuristic: str) -> str:
    """The mean place row of a rung: ``mean_place_<rung>``, the heuristic's by its name."""
    return f"{words.MEAN_PLACE}{best_heuristic if rung == 'heuristic' else rung}"


def place_measures(frame: pd.DataFrame) -> dict[str, dict[str, str]]:
    """Each rung's mean place measure, by rule set (:func:`reports.atlas.figures.curves`)."""
    best = words.rule_sets(frame).set_index("rule_set")["best_heuristic"].astype(str)
    present = set(frame["measure"])
    return {r: {n: rung_measure(r, b) for n, b in best.items()} for r in RUNGS
            if any(rung_measure(r, b) in present for b in best)}  # fmt: skip


def rs_measures(frame: pd.DataFrame) -> dict[str, dict[str, str]]:
    """RS at each rung that has its ceiling, by rule set."""
    names = list(dict.fromkeys(frame["rule_set"]))
    present = set(frame["measure"])
    return {level: dict.fromkeys(names, m) for level, m in RS_LEVELS.items() if m in present}


# ---------------------------------------------------------------- the first screen


def summary(frame: pd.DataFrame) -> str:
    """The answer in words: the verdicts that hold (more about skill first), then those
    that depend on the level of play with each level's figure, then the count of the
    rest, the base's own skill gap and N95, and which rule sets were capped."""
    base = v.base_of(frame)
    table = v.verdicts(frame)
    held = v.held(table)
    depends = table[table["verdict"] == v.DEPENDS]
    box = html.paragraph(term("verdict", "Verdicts that hold"), f" (against {base}):")
    box += html.bullets(held["sentence"] if len(held) else [
        f"No rule set makes the game more about skill or more about luck than {base} at "
        "every level of play."])  # fmt: skip
    if len(depends):
        box += html.paragraph("Depends on the level of play (no verdict):")
        box += html.bullets(depends["sentence"])
    box += html.bullets(_the_rest(table, frame, base))
    rule = html.paragraph(
        "A rule set is said to make the game more about skill (or luck) only where the ",
        term("paired", "paired difference"), " of the ", term("skill-gap", "skill gap"),
        " with the base has the same sign, each with a ", term("holm", "Holm-adjusted p"),
        f" below {v.ALPHA}, at every rung from tuned linear to champion at four times its "
        "search, and in the ", term("skill-depth", "skill depth"),
        " where the atlas has it: measured, a verdict resting on one player that stands for "
        "skill turned over when that player changed (docs/skill.md).",
        note=True,
    )  # fmt: skip
    return html.box(box) + rule


def _the_rest(table: pd.DataFrame, frame: pd.DataFrame, base: str) -> list[object]:
    """The rule sets without a difference (counted, named), those not compared, the base's
    own measures and the capped parts."""
    items: list[object] = []
    quiet = table.loc[table["verdict"] == v.NONE, "rule_set"].tolist()
    if quiet:
        shown = ", ".join(quiet) if len(quiet) <= 6 else f"{', '.join(quiet[:6])}, …"
        items.append(f"{len(quiet)} rule set{'s' if len(quiet) != 1 else ''} showed no "
                     f"difference from {base} at any level of play ({shown}).")  # fmt: skip
    unpaired = table.loc[table["verdict"] == v.UNPAIRED, "rule_set"].tolist()
    if unpaired:
        items.append(f"Not compared with {base} on the same deals (another number of "
                     f"players): {', '.join(unpaired)}; read their curves below.")  # fmt: skip
    gap = words.measure_rows(frame, f"skill_gap_{TOP}")
    if base in gap.index:
        items.append(html.join(
            f"Under {base} itself the top rung (champion at four times its search) has a ",
            term("skill-gap", "skill gap"), " of ", _cell(gap, base, f"skill_gap_{TOP}"),
            " (the places a round it gains over random play, in half-tables of (n − 1)/2 "
            "places; above 1 where random play places below the middle against the "
            "field)", *_top_edge(frame, base),
        ))  # fmt: skip
    parts = words.capped_parts(frame)
    for part, what in (("RS", "the duels (mean places, skill gaps, RS)"),
                       ("edges", "the edges (Δ, N95)")):  # fmt: skip
        capped = parts.index[parts[part]].tolist()
        if capped:
            which = "every rule set" if len(capped) == len(parts) else ", ".join(capped)
            items.append(html.join(term("capped", "Capped"),
                                   f" (wider intervals than asked for), {what}: {which}."))  # fmt: skip
    return items


def _top_edge(frame: pd.DataFrame, base: str) -> list[object]:
    """The end of the base's sentence: whether the top rung beats the best heuristic (its
    Δ's interval below 0) and over how many rounds (N95), said only as far as the
    intervals know it. An N95 of 0 or none comes from ordinary matches too few to give a
    spread."""
    edge, n95 = (words.measure_rows(frame, m) for m in (TOP_EDGE, words.TOP_N95))
    if base not in edge.index or base not in n95.index:
        return ["."]
    delta = edge.loc[base]
    said = html.join(term("edge", "Δ"), " ", _cell(edge, base, TOP_EDGE))
    if delta["low"] > 0:
        return ["; the best heuristic places better than it (", said, ")."]
    if not delta["high"] < 0:
        return [". Whether it beats the best heuristic is not known at this size (", said, ")."]
    if not n95.loc[base, "estimate"] > 0:
        return [", and beats the best heuristic (", said, "); over how many rounds (",
                term("edge", "N95"), ") its ordinary matches are too few to tell."]  # fmt: skip
    return [", and beats the best heuristic with 95 % confidence over ",
            _cell(n95, base, words.TOP_N95), " rounds (", term("edge", "N95"), ")."]  # fmt: skip


def _cell(rows: pd.DataFrame, name: str, measure: str) -> str:
    r = rows.loc[name]
    return words.cell(r["estimate"], r["low"], r["high"], words.decimals(rows, measure))


# ---------------------------------------------------------------- the ladder


def out_of_order(frame: pd.DataFrame) -> list[tuple[str, str, str, bool]]:
    """Each rule set's neighbouring rungs whose stronger rung does not place better than
    the weaker beyond its interval: (rule set, stronger, weaker, reversed), reversed when
    the stronger places worse with the intervals apart, else the two overlap."""
    measures = place_measures(frame)
    rows = frame.drop_duplicates(["rule_set", "measure"]).set_index(["rule_set", "measure"])
    found = []
    for name in dict.fromkeys(frame["rule_set"]):
        for lower, upper in pairwise(measures):
            a, b = (name, measures[upper][name]), (name, measures[lower][name])
            if a not in rows.index or b not in rows.index:
                continue
            up, down = rows.loc[a], rows.loc[b]
            if up["high"] >= down["low"]:
                found.append((name, upper, lower, bool(up["low"] > down["high"])))
    return found


def monotone_section(frame: pd.DataFrame) -> str:
    """Where the ladder is not monotone, in words."""
    found = out_of_order(frame)
    if not found:
        return html.paragraph(
            "Under every rule set each rung places better than the rung below it, beyond "
            "their intervals: the ladder is monotone."
        )
    worse = [f"{n}: {NAMED.get(u, u)} places worse than {NAMED.get(w, w)}"
             for n, u, w, rev in found if rev]  # fmt: skip
    tied = [f"{n}: {NAMED.get(u, u)} and {NAMED.get(w, w)}" for n, u, w, rev in found if not rev]
    text = ""
    if worse:
        text += html.paragraph(
            "Not monotone (the stronger rung places worse, beyond the intervals): "
            f"{'; '.join(worse)}. There the weaker player is the better one under these "
            "rules, and the skill gap of the stronger rung is the smaller."
        )
    if tied:
        text += html.paragraph(
            "Not told apart (their intervals overlap: the stronger rung is not better "
            f"beyond its interval): {'; '.join(tied)}."
        )
    return text


def convergence_words(frame: pd.DataFrame) -> str:
    """Whether the top has converged: the skill gap of champion ×4 against champion ×1."""
    gain = words.measure_rows(frame, "top_convergence_gap")
    if gain.empty:
        return ""
    more = gain.index[gain["low"] > 0].tolist()
    text = (
        "Four times champion's search still gains skill gap under "
        f"{', '.join(more)}: there the top has not converged, and a stronger player would "
        "find more skill than this page shows."
        if more
        else "Four times champion's search gains no skill gap over champion beyond the "
        "intervals under any rule set: the top has converged as far as this atlas can tell."
    )
    return html.paragraph(text)


# ---------------------------------------------------------------- luck


def luck_section(frame: pd.DataFrame) -> str:
    """N95 of the top against the best heuristic and between neighbouring rungs, a row
    per rule set."""
    n95 = [words.TOP_N95, "n95_heuristic_vs_random"]
    n95 += [f"n95_{b}_vs_{a}" for a, b in pairwise(RUNGS)]
    present = [m for m in n95 if m in set(frame["measure"])]
    if not present:
        return html.paragraph("This atlas holds no N95.")
    cols = {"rule set": list(dict.fromkeys(frame["rule_set"]))}
    for m in present:
        rows = words.measure_rows(frame, m)
        places = words.decimals(rows, m)
        cols[words.label(m)] = [
            words.cell(*rows.loc[n, ["estimate", "low", "high"]], places) if n in rows.index
            else "–" for n in cols["rule set"]
        ]  # fmt: skip
    text = html.paragraph(
        term("edge", "N95"), " is the number of rounds after which the better of two "
        "players leads on total place with probability 0.95: the longer, the more the cards "
        "hide the better play. The top against the best heuristic is the luck a good "
        "player meets; the neighbours' say how far apart each two rungs are. A dose of luck "
        "(places replaced by a random order in a share of rounds) raises every N95, as "
        "predicted (docs/skill.md).",
    )  # fmt: skip
    return text + html.table(pd.DataFrame(cols), "Rounds until skill shows (N95)", wraps=True)


# ---------------------------------------------------------------- the field

FIELD_ENTERS = (
    "mean places and skill gaps: each rung plays one seat against the field in the "
    "others; a stronger field pushes every rung towards the back, a weaker one lets a "
    "good heuristic beat it (below), and the gaps between rules change with it",
    "the paired differences and the verdicts: both rule sets play against their field, "
    "each with the weights resolved for its rules, on the same deals",
    "skill depth and the ratings: from tables that mix the rungs themselves; the field "
    "does not sit at them",
    "Δ and N95: the two players compared sit at one table with the field in the other "
    "seats, so a field that feeds one of them moves both",
    "RS: a ratio of two gaps against the same field, which enters both",
    "the deal's share, persistence and the exchange: ordinary matches of the pairs and the field",
)


def field_section(frame: pd.DataFrame) -> str:
    """How the field's strength enters each measure, where the best heuristic beats the
    field, and which weights the field played."""
    facts = words.rule_sets(frame)
    text = html.paragraph(
        "Every seat but the tested ones plays the field. How its strength enters each measure:"
    ) + html.bullets(FIELD_ENTERS)
    beat = _beaten_field(frame, facts)
    if beat:
        text += html.paragraph(
            "Where the best heuristic, one seat against the field, places better than "
            "the field's own (n + 1)/2 beyond its interval, the field is weak for those "
            f"rules: {'; '.join(beat)}."
        )
    grouped = facts.groupby(["field", "weights"], sort=False)["rule_set"].apply(list)
    rows = pd.DataFrame({"field": [f for f, _ in grouped.index],
                         "weights": [w for _, w in grouped.index],
                         "rule sets": [", ".join(n) for n in grouped]})  # fmt: skip
    return text + html.table(
        rows, text_columns=("weights", "rule sets"), long_columns=("rule sets",), prose=True
    )


def _beaten_field(frame: pd.DataFrame, facts: pd.DataFrame) -> list[str]:
    """``rule set: planner beats the field by 0.49 places``, where it does."""
    out = []
    for row in facts.itertuples(index=False):
        rows = words.measure_rows(frame, rung_measure("heuristic", str(row.best_heuristic)))
        if row.field == row.best_heuristic or row.rule_set not in rows.index:
            continue
        middle = (row.players + 1) / 2
        r = rows.loc[row.rule_set]
        if r["high"] < middle:
            out.append(f"{row.rule_set}: {row.best_heuristic} beats the field "
                       f"({row.field}) by {middle - r['estimate']:.2f} places")  # fmt: skip
    return out
