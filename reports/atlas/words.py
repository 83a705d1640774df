"""What the measures of ``atlas.parquet`` say, in words and cells: shared by the atlas
page (:mod:`reports.atlas.page`) and ``compare --skill``.

The verdicts themselves (more about skill, more about luck, depends on the level of play)
are :mod:`simulator.runs.atlas.verdicts`'s, so that the page, the terminal and the Python
API say the same; here are the cells, the labels and the robustness line of RS.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

import numpy as np
import pandas as pd

from reports import numbers
from simulator.runs.atlas.ladder import GAP_RUNGS, VERDICT_RUNGS
from simulator.runs.atlas.play import DUEL, EDGE, part_of
from simulator.runs.atlas.verdicts import base_of, verdicts

RS = "relative_skill"
RS_VS_BASE = "relative_skill_vs_base"
RS_LINEAR = "relative_skill_linear"
MEAN_PLACE = "mean_place_"  # + the test strategy's name
VS_BASE = "_vs_base"  # the paired differences with the base: each has its Holm p
TOP_N95 = "n95_top_vs_heuristic"
# every column of atlas.parquet that describes the rule set, not the measure
FACTS = ("change", "players", "capped", "field", "weights", "best_heuristic")
LABELS = {  # measure -> its name on the page and the terminal
    RS: "RS (champion)",
    RS_VS_BASE: "RS − base (paired)",
    RS_LINEAR: "RS (tuned linear in its place)",
    "relative_skill_champion_low": "RS (champion ×1/4)",
    "relative_skill_champion_high": "RS (champion ×4)",
    **{f"skill_gap_{rung}": f"skill gap: {rung}" for rung in GAP_RUNGS},
    **{f"skill_gap_{rung}_vs_base": f"skill gap: {rung} − base (paired)" for rung in VERDICT_RUNGS},
    "skill_depth": "skill depth",
    "skill_depth_vs_base": "skill depth − base (paired)",
    "rating_gain_top": "rating gain ×1 → ×4",
    "top_convergence_rs": "RS(×4) − RS(×1)",
    "top_convergence_gap": "skill gap(×4) − skill gap(×1)",
    "edge_top_vs_heuristic": "Δ top − best heuristic",
    "n95_top_vs_heuristic": "N95 top vs best heuristic",
    "edge_heuristic_vs_random": "Δ best heuristic − random",
    "n95_heuristic_vs_random": "N95 best heuristic vs random",
    "deal_r2": "R² of place on the deal",
    "deal_r2_after_exchange": "R² after the exchange",
    "president_stays": "P(President → President)",
    "president_stays_baseline": "P(President → President) without memory",
    "exchange_effect": "exchange effect",
}
# the order of the measures in a table, by the start of their names
GROUPS = ("mean_place_", "skill_gap_", "skill_depth", "rating_", "relative_skill",
          "top_convergence", "edge_top", "n95_top", "edge_", "n95_", "deal_r2",
          "president_stays", "exchange_effect")  # fmt: skip


def label(measure: str) -> str:
    """A measure's name as read: ``mean place: champion`` for ``mean_place_champion``,
    ``skill gap: linear − base (paired)`` for ``skill_gap_linear_vs_base``."""
    if measure in LABELS:
        return LABELS[measure]
    if measure.startswith(MEAN_PLACE):
        return f"mean place: {measure.removeprefix(MEAN_PLACE)}"
    paired = " − base (paired)" if measure.endswith(VS_BASE) else ""
    name = measure.removesuffix(VS_BASE)
    for prefix, words in (("skill_gap_", "skill gap: "), ("rating_", "rating: ")):
        if name.startswith(prefix):
            return f"{words}{name.removeprefix(prefix)}{paired}"
    for prefix, words, sign in (("edge_", "Δ ", " − "), ("n95_", "N95 ", " vs ")):
        if name.startswith(prefix) and "_vs_" in name:
            a, b = name.removeprefix(prefix).split("_vs_")
            return f"{words}{a}{sign}{b}{paired}"
    return measure.replace("_", " ")


def measure_order(measures: Sequence[str]) -> list[str]:
    """The measures present, in display order: by :data:`GROUPS` (the mean places, the
    skill gaps and their paired differences, the depth and ratings, RS, the top's
    convergence, the edges and N95, the match measures), each group in the frame's order
    with its paired differences last; any measure no group knows at the end."""
    present = list(dict.fromkeys(measures))

    def key(m: str) -> tuple[int, bool, int]:
        group = next((k for k, g in enumerate(GROUPS) if m.startswith(g)), len(GROUPS))
        return group, m.endswith(VS_BASE), present.index(m)

    return sorted(present, key=key)


def whole(measure: str) -> bool:
    """Rounds (N95): no decimals needed where no cell has an interval to go by."""
    return measure.startswith("n95_")


# ---------------------------------------------------------------- cells


def decimals(rows: pd.DataFrame, measure: str) -> int:
    """One decimal count for a column of one measure (:func:`reports.numbers.shared`),
    counting only the cells with a finite interval (N95's may be open-ended)."""
    finite = [
        (e, lo, hi)
        for e, lo, hi in zip(rows["estimate"], rows["low"], rows["high"], strict=True)
        if all(math.isfinite(v) for v in (e, lo, hi))
    ]
    if finite:
        return numbers.shared(finite)
    return 0 if whole(measure) else numbers.FALLBACK


def cell(estimate: float, low: float, high: float, places: int, signed: bool = False) -> str:
    """``0.31 [0.29, 0.33]``, an open end as ∞ (``240 [95, ∞]``: N95 when Δ's interval
    holds 0)."""
    if math.isnan(estimate) or (math.isfinite(low) and math.isfinite(high)):
        return numbers.format_ci(estimate, low, high, places, signed)
    ends = [
        "∞" if v == math.inf else "−∞" if v == -math.inf else numbers.fixed(v, places)
        for v in (low, high)
    ]
    value = "∞" if estimate == math.inf else numbers.fixed(estimate, places, signed)
    return f"{value} [{ends[0]}, {ends[1]}]"


def p_text(p: float) -> str:
    """A p-value as said: ``p = 0.003``, ``p < 0.001``."""
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def p_cell(p: float) -> str:
    """A p-value in a table's cell: ``0.003``, ``< 0.001``, ``–`` where there is none."""
    return "–" if math.isnan(p) else "< 0.001" if p < 0.001 else f"{p:.3f}"


# ---------------------------------------------------------------- the rule sets


def rule_sets(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per rule set (in the frame's order): its :data:`FACTS`, ``rounds`` and
    ``clusters`` (the largest of its rows), capped if any of its rows is."""
    grouped = frame.groupby("rule_set", sort=False)
    facts = grouped[[c for c in FACTS if c != "capped"]].first()
    sizes = grouped[["rounds", "clusters"]].max()
    capped = grouped["capped"].any().rename("capped")
    return pd.concat([facts, capped, sizes], axis=1).reset_index()


CAPPED_PARTS = {DUEL: "RS", EDGE: "edges"}  # a batch's parts as the page names them


def capped_parts(frame: pd.DataFrame) -> pd.DataFrame:
    """Which parts of each rule set hit their cap: a row per rule set (in the frame's
    order), a column of booleans per part named as :data:`CAPPED_PARTS` ("RS": the duels
    behind RS; "edges": the pairs on duplicate deals behind Δ and N95, which adapt, and
    are capped, apart; the ordinary matches have no target, so no cap)."""
    part = frame["measure"].map(part_of).map(CAPPED_PARTS)
    names = frame["rule_set"].drop_duplicates()
    capped = frame.groupby([frame["rule_set"], part])["capped"].any().unstack(fill_value=False)
    columns = list(CAPPED_PARTS.values())
    return capped.reindex(index=names, columns=columns, fill_value=False).astype(bool)


def capped_words(parts: pd.Series) -> str:
    """One rule set's capped parts in words (a row of :func:`capped_parts`): "RS, edges",
    "RS", "edges" or "no"."""
    return ", ".join(name for name, capped in parts.items() if capped) or "no"


def measure_rows(frame: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The rows of one measure, one per rule set, indexed by rule set."""
    return frame[frame["measure"] == measure].drop_duplicates("rule_set").set_index("rule_set")


# ---------------------------------------------------------------- robustness


@dataclass(frozen=True)
class Agreement:
    """How the order of rule sets by RS with champion compares with that with tuned
    ``linear`` in its place: Kendall's τ and the pairs ordered the other way although
    champion's order is clear (their champion intervals apart)."""

    rule_sets: int
    tau: float
    swapped: list[tuple[str, str]]  # (higher by champion, higher by linear)


def agreement(frame: pd.DataFrame) -> Agreement | None:
    """The robustness check, over the rule sets that have both measures (None if < 2)."""
    rs, lin = measure_rows(frame, RS), measure_rows(frame, RS_LINEAR)
    names = [n for n in rs.index if n in lin.index]
    names = [n for n in names if np.isfinite([rs.at[n, "estimate"], lin.at[n, "estimate"]]).all()]
    if len(names) < 2:
        return None
    concordant = discordant = 0
    swapped = []
    for a, b in combinations(names, 2):
        x = rs.at[a, "estimate"] - rs.at[b, "estimate"]
        y = lin.at[a, "estimate"] - lin.at[b, "estimate"]
        if x * y > 0:
            concordant += 1
        elif x * y < 0:
            discordant += 1
            hi, lo = (a, b) if x > 0 else (b, a)
            if rs.at[hi, "low"] > rs.at[lo, "high"]:
                swapped.append((hi, lo))
    pairs = len(names) * (len(names) - 1) / 2
    return Agreement(len(names), (concordant - discordant) / pairs, swapped)


def agreement_words(found: Agreement | None, shown: int = 4) -> str:
    """The robustness line of RS in words: how far the order of the rule sets by RS with
    champion agrees with that with tuned linear in its place, and what that means."""
    if found is None:
        return ("Ordering the rule sets by RS with tuned linear in the place of champion "
                "needs both for at least two rule sets; this data has them for fewer.")  # fmt: skip
    head = (
        f"Ordered by RS with tuned linear in the place of champion, the {found.rule_sets} "
        f"rule sets agree with their order by RS with champion with Kendall's τ = "
        f"{found.tau:.2f} (1: the same order, 0: no relation, −1: the reverse)."
    )
    pairs = "; ".join(f"{a} above {b} with champion, below it with linear"
                      for a, b in found.swapped[:shown])  # fmt: skip
    more = f" (and {len(found.swapped) - shown} more)" if len(found.swapped) > shown else ""
    swapped = f" Swapped although champion's order is clear: {pairs}{more}." if pairs else ""
    return (
        f"{head}{swapped} An order of the rule sets by RS depends on which player stands "
        "for skill; that is why no verdict of this page rests on RS, nor on any one rung."
    )


# ---------------------------------------------------------------- measures down


def skill_wide(frame: pd.DataFrame, compact: bool = False) -> pd.DataFrame:
    """Measures down (``group``, ``measure``), rule sets across, ``estimate [low, high]``
    in each cell (``compact``: ``estimate ± half-width`` where symmetric, for a narrow
    terminal), each measure to its shared decimals, each rule set's verdict first; the
    Holm-adjusted p of each paired difference with the base as a row of its own.
    ``compare --skill`` shows it."""
    names = list(dict.fromkeys(frame["rule_set"]))
    base = base_of(frame)
    said = verdicts(frame).set_index("rule_set")["verdict"]
    rows = [{"group": "skill and luck", "measure": "verdict (docs/skill.md)",
             **{n: said.get(n, "base") for n in names}}]  # fmt: skip
    for m in measure_order(frame["measure"]):
        part = measure_rows(frame, m)
        if m.endswith(VS_BASE):  # the base's difference with itself is no finding
            part = part.drop(index=base, errors="ignore")
        places = decimals(part, m)
        signed = m.endswith(VS_BASE)
        cells = {}
        for name in names:
            if name not in part.index:
                cells[name] = "base" if signed and name == base else "–"
                continue
            e, lo, hi = (float(part.at[name, k]) for k in ("estimate", "low", "high"))
            finite = math.isfinite(lo) and math.isfinite(hi)
            cells[name] = (numbers.plus_minus(e, lo, hi, places, signed) if compact and finite
                           else cell(e, lo, hi, places, signed))  # fmt: skip
        rows.append({"group": "skill and luck", "measure": label(m), **cells})
        if signed:
            ps = {n: part.at[n, "p_holm"] if n in part.index else math.nan for n in names}
            shown = {n: p_cell(p) for n, p in ps.items()}
            rows.append({"group": "skill and luck", "measure": "Holm-adjusted p", **shown})
    facts = rule_sets(frame).set_index("rule_set")
    for title, values in (
        ("capped (short of the precision)", facts["capped"].map({True: "yes", False: "no"})),
        ("the field's weights", facts["weights"].astype(str)),
    ):
        rows.append({"group": "skill and luck", "measure": title, **values.to_dict()})
    return pd.DataFrame(rows, columns=["group", "measure", *names])
