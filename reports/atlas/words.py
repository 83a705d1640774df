"""What the skill measures of ``atlas.parquet`` say, in words and cells: shared by the
atlas page (:mod:`reports.atlas.page`) and ``compare --skill``.

A sentence about a rule set is written only where the data support it: the paired
difference of relative skill with the base (``relative_skill_vs_base``, the same deals
under both rule sets) must have a Holm-adjusted p below :data:`ALPHA` (Holm over the rule
sets, so that testing forty rule sets does not find two "effects" by chance) *and* a 95 %
interval that leaves out 0. Every other rule set is counted as showing no difference,
never described.
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

ALPHA = 0.05  # the Holm-adjusted p below which a difference with the base is claimed
RS = "relative_skill"
RS_VS_BASE = "relative_skill_vs_base"
RS_LINEAR = "relative_skill_linear"
MEAN_PLACE = "mean_place_"  # + the test strategy's name
# every column of atlas.parquet that describes the rule set, not the measure
FACTS = ("change", "players", "capped", "field", "weights", "best_heuristic")
LABELS = {  # measure -> its name on the page and the terminal, in display order
    RS: "RS (champion)",
    RS_VS_BASE: "RS − base (paired)",
    RS_LINEAR: "RS (tuned linear in its place)",
    "relative_skill_champion_low": "RS (champion ×1/4)",
    "relative_skill_champion_high": "RS (champion ×4)",
    **{f"skill_gap_{rung}": f"skill gap: {rung}" for rung in GAP_RUNGS},
    **{f"skill_gap_{rung}_vs_base": f"skill gap: {rung} − base (paired)" for rung in VERDICT_RUNGS},
    "top_convergence_rs": "RS(champion ×4) − RS(champion)",
    "top_convergence_gap": "skill gap: champion ×4 − champion",
    "edge_top_vs_heuristic": "Δ top (champion ×4) − best heuristic",
    "edge_heuristic_vs_random": "Δ best heuristic − random",
    "n95_top_vs_heuristic": "N95 top (champion ×4) vs best heuristic",
    "n95_heuristic_vs_random": "N95 best heuristic vs random",
    "deal_r2": "R² of place on the deal",
    "deal_r2_after_exchange": "R² after the exchange",
    "president_stays": "P(President → President)",
    "president_stays_baseline": "P(President → President) without memory",
    "exchange_effect": "exchange effect",
}
WHOLE = ("n95_top_vs_heuristic", "n95_heuristic_vs_random")  # rounds: no decimals needed


def label(measure: str) -> str:
    """A measure's name as read: ``mean place: champion`` for ``mean_place_champion``."""
    if measure.startswith(MEAN_PLACE):
        return f"mean place: {measure.removeprefix(MEAN_PLACE)}"
    return LABELS.get(measure, measure.replace("_", " "))


def measure_order(measures: Sequence[str]) -> list[str]:
    """The measures present, in display order: RS first, then the mean places, then the
    rest as :data:`LABELS` lists them, any measure it does not know last."""
    present = list(dict.fromkeys(measures))
    known = list(LABELS)
    places = [m for m in present if m.startswith(MEAN_PLACE)]
    head = [m for m in known[:3] if m in present]
    tail = [m for m in known[3:] if m in present]
    rest = [m for m in present if m not in known and m not in places]
    return head + places + tail + rest


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
    return 0 if measure in WHOLE else numbers.FALLBACK


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


def base_of(frame: pd.DataFrame) -> str:
    """The base rule set: the one nothing was changed from (``change`` empty), else the first."""
    names = frame["rule_set"]
    plain = frame.loc[frame["change"].fillna("") == "", "rule_set"]
    return str(plain.iloc[0] if len(plain) else names.iloc[0])


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


@dataclass(frozen=True)
class Finding:
    """A rule set's paired difference of RS with the base."""

    rule_set: str
    change: str
    estimate: float
    low: float
    high: float
    p_holm: float

    @property
    def supported(self) -> bool:
        """Holm-adjusted p below :data:`ALPHA` and an interval that leaves out 0."""
        return self.p_holm < ALPHA and (self.low > 0 or self.high < 0)

    @property
    def tested(self) -> bool:
        """Whether the data hold a paired difference with its Holm-adjusted p."""
        return math.isfinite(self.estimate) and not math.isnan(self.p_holm)


def findings(frame: pd.DataFrame) -> list[Finding]:
    """Every rule set but the base with its paired difference (NaN where none was made)."""
    base = base_of(frame)
    diff = measure_rows(frame, RS_VS_BASE)
    out = []
    for row in rule_sets(frame).itertuples():
        if row.rule_set == base:
            continue
        d = diff.loc[row.rule_set] if row.rule_set in diff.index else None
        values = (math.nan,) * 4 if d is None else (d["estimate"], d["low"], d["high"], d["p_holm"])
        out.append(Finding(row.rule_set, str(row.change or ""), *map(float, values)))
    return out


def claim(f: Finding, base: str, places: int) -> str:
    """The sentence for a supported finding (the caller checks :attr:`Finding.supported`)."""
    more = "skill" if f.estimate > 0 else "luck"
    moves = "rises" if f.estimate > 0 else "falls"
    what = f"{f.change} ({f.rule_set})" if _says_more(f.change, f.rule_set) else f.rule_set
    size = cell(abs(f.estimate), *sorted((abs(f.low), abs(f.high))), places)
    return (
        f"{what} makes the game more about {more} than {base}: relative skill {moves} by "
        f"{size} on the same deals (Holm-adjusted {p_text(f.p_holm)})."
    )


def _says_more(change: str, name: str) -> bool:
    """Whether the change in words adds to the rule set's name: one option changed, not
    already spelt out in the name (``french: OPTION=VALUE``)."""
    one = change.count(" = ") == 1 and "," not in change
    return one and change.replace(" ", "") not in name.replace(" ", "")


def claims(frame: pd.DataFrame) -> tuple[list[str], list[str], list[str]]:
    """The supported sentences (more skill first, largest first, then more luck), the rule
    sets that showed no difference, and those not compared in pairs with the base."""
    base = base_of(frame)
    found = findings(frame)
    supported = sorted((f for f in found if f.supported), key=lambda f: -f.estimate)
    tested = [f for f in found if f.tested]
    cells = pd.DataFrame([(f.estimate, f.low, f.high) for f in tested],
                         columns=["estimate", "low", "high"])  # fmt: skip
    places = decimals(cells, RS_VS_BASE)
    said = [claim(f, base, places) for f in supported]
    quiet = [f.rule_set for f in tested if not f.supported]
    unpaired = [f.rule_set for f in found if not f.tested]
    return said, quiet, unpaired


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


def agreement_words(found: Agreement | None, shown: int = 8) -> str:
    """The robustness check in words."""
    if found is None:
        return (
            "The robustness check needs RS with tuned linear in the place of champion for "
            "at least two rule sets; this data has it for fewer."
        )
    order = (
        "keep the same order" if found.tau == 1
        else "keep much the same order" if found.tau >= 0.5
        else "fall in another order"
    )  # fmt: skip
    head = (
        f"Ordered by RS with tuned linear in the place of champion, the {found.rule_sets} "
        f"rule sets {order} (Kendall's τ = {found.tau:.2f}; 1 is the same order, 0 no "
        "relation)."
    )
    if not found.swapped:
        return head + (
            " No two rule sets whose order by champion is clear (intervals apart) swap places."
        )
    pairs = "; ".join(f"{a} above {b} with champion, below it with linear"
                      for a, b in found.swapped[:shown])  # fmt: skip
    more = f" (and {len(found.swapped) - shown} more pairs)" if len(found.swapped) > shown else ""
    return (
        f"{head} Where it does not agree, although champion's order is clear (intervals "
        f"apart): {pairs}{more}. There the verdict depends on the strength of the player "
        "who stands for skill."
    )


# ---------------------------------------------------------------- measures down


def skill_wide(frame: pd.DataFrame, compact: bool = False) -> pd.DataFrame:
    """Measures down (``group``, ``measure``), rule sets across, ``estimate [low, high]``
    in each cell (``compact``: ``estimate ± half-width`` where symmetric, for a narrow
    terminal), each measure to its shared decimals; the Holm-adjusted p of the paired
    difference with the base as a row of its own. ``compare --skill`` shows it."""
    names = list(dict.fromkeys(frame["rule_set"]))
    base = base_of(frame)
    rows = []
    for m in measure_order(frame["measure"]):
        part = measure_rows(frame, m)
        if m == RS_VS_BASE:  # the base's difference with itself is no finding
            part = part.drop(index=base, errors="ignore")
        places = decimals(part, m)
        signed = m == RS_VS_BASE
        cells = {}
        for name in names:
            if name not in part.index:
                cells[name] = "base" if m == RS_VS_BASE and name == base else "–"
                continue
            e, lo, hi = (float(part.at[name, k]) for k in ("estimate", "low", "high"))
            finite = math.isfinite(lo) and math.isfinite(hi)
            cells[name] = (numbers.plus_minus(e, lo, hi, places, signed) if compact and finite
                           else cell(e, lo, hi, places, signed))  # fmt: skip
        rows.append({"group": "skill and luck", "measure": label(m), **cells})
        if m == RS_VS_BASE:
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
