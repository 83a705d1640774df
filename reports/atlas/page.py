"""``DIR/atlas.html``: which house rules make Président more about skill, which more about
luck, from the rows of ``atlas.parquet`` (``docs/formats.md``).

The page opens with the answer in words — one sentence per rule set whose paired
difference of relative skill with the base is supported (:mod:`reports.atlas.words`), a
count of those that showed none — then the dot plot of RS per rule set, the robustness
check, a table of every measure that sorts on a click of its header (a few lines of
inline script: the page stays self-contained, :mod:`reports.html`), and the field each
rule set was measured against.
"""

from __future__ import annotations

import html as escape
import math
from functools import partial
from pathlib import Path

import pandas as pd

from reports import html
from reports.atlas import words
from reports.atlas.figures import rs_dots
from reports.figures import publish
from reports.glossary import glossary, term
from reports.html import Markup
from simulator.runs.claims import write_atomic
from strategies.shipped import search_settings

PAGE_FILE = "atlas.html"
FIGURES_DIR = "figures"
TEXT = ' class="text"'  # a left-aligned column of words
TEXT_HEADS = ("rule set", "change", "best heuristic", "field", "weights", "capped")
GLOSSARY = ("skill", "paired", "holm", "interval", "edge", "deal-share", "persistence",
            "no-memory", "capped")  # fmt: skip
SORT_SCRIPT = """
document.querySelectorAll('table.sortable').forEach(function (table) {
  var heads = table.tHead.rows[0].cells;
  Array.prototype.forEach.call(heads, function (th, col) {
    th.querySelector('button').addEventListener('click', function () {
      var up = th.getAttribute('aria-sort') !== 'ascending';
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', up ? 'ascending' : 'descending');
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      function key(row) {
        var td = row.cells[col], v = td.getAttribute('data-sort');
        return v === null ? td.textContent.toLowerCase() : (v === '' ? null : parseFloat(v));
      }
      rows.sort(function (a, b) {
        var x = key(a), y = key(b);
        if (x === null || y === null) { return (x === null) - (y === null); }
        var d = typeof x === 'number' ? x - y : x.localeCompare(y);
        return up ? d : -d;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
  });
});
"""


def write_atlas_page(frame: pd.DataFrame, path: Path) -> None:
    """Write the atlas page to ``path`` (atomically) and its figure, as PNG and SVG, to
    ``figures/`` beside it, from the rows of ``atlas.parquet``."""
    path = Path(path)
    embedded = publish(
        {"atlas-rs": (partial(rs_dots, frame), RS_CAPTION)}, path.parent / FIGURES_DIR
    )
    base = words.base_of(frame)
    facts = words.rule_sets(frame)
    field = ", ".join(dict.fromkeys(facts["field"].astype(str)))
    lead = (f"{len(facts)} rule sets against the base {base}; one seat plays the test "
            f"strategy, every other seat the field ({field}), on duplicate deals")  # fmt: skip
    sections = [
        ("summary", "Skill or luck: what the rules change", summary(frame)),
        ("rs", "Relative skill per rule set", embedded["atlas-rs"] + html.paragraph(RS_WORDS)),
        ("robustness", "Does it hold with another player for skill?",
         html.paragraph(words.agreement_words(words.agreement(frame)))),
        ("measures", "Every measure", measures_section(frame)),
        ("field", "The field and its weights", field_section(facts)),
        ("method", "Method", html.paragraph(METHOD)),
        ("glossary", "Glossary", glossary(GLOSSARY)),
    ]  # fmt: skip
    write_atomic(path, html.page("Président: the house-rule atlas", sections, lead))


# ---------------------------------------------------------------- the first screen


def summary(frame: pd.DataFrame) -> str:
    """The answer in words: the supported claims, how many rule sets showed no
    difference, what RS is and what it depends on, and which rule sets were capped."""
    base = words.base_of(frame)
    said, quiet, unpaired = words.claims(frame)
    rs = words.measure_rows(frame, words.RS)
    items: list[object] = list(said)
    if not said:
        items.append(f"No rule set changes relative skill from {base} by more than chance "
                     "could explain: no paired difference has the support asked for below.")  # fmt: skip
    if quiet:
        shown = ", ".join(quiet) if len(quiet) <= 6 else f"{', '.join(quiet[:6])}, …"
        items.append(f"{len(quiet)} rule set{'s' if len(quiet) != 1 else ''} showed no "
                     f"difference from {base} that the data support ({shown}).")  # fmt: skip
    if unpaired:
        items.append(f"Not compared with {base} in pairs (the data hold no paired "
                     f"difference): {', '.join(unpaired)}; read their RS in the figure.")  # fmt: skip
    if base in rs.index:
        b = rs.loc[base]
        places = words.decimals(rs, words.RS)
        items.append(html.join(
            f"Under {base} itself, ", term("skill", "RS"),
            f" is {words.cell(b['estimate'], b['low'], b['high'], places)}.",
        ))  # fmt: skip
    parts = words.capped_parts(frame)
    for part, what in (("RS", "RS"), ("edges", "the edges (Δ, N95)")):
        capped = parts.index[parts[part]].tolist()
        if capped:
            which = "every rule set" if len(capped) == len(parts) else ", ".join(capped)
            items.append(html.join(
                term("capped", "Capped"), f" (wider intervals than asked for), {what}: {which}.",
            ))  # fmt: skip
    what = html.paragraph(
        term("skill", "Relative skill (RS)"),
        " is the share of what perfect knowledge of every hand could win over random play "
        "that the best play we have (champion) wins without it: near 0 the cards decide, "
        "near 1 the play does. It depends on the field the test seat plays against and on "
        "how strong champion really is (a stronger champion would raise it), so the "
        "differences between rule sets, measured on the same deals, say more than the "
        "values. A rule set is named above only where its ",
        term("paired", "paired difference"),
        " with the base has a ",
        term("holm", "Holm-adjusted p"),
        f" below {words.ALPHA} and a 95 % interval that leaves out 0.",
        note=True,
    )
    return html.box(html.bullets(items) + what)


# ---------------------------------------------------------------- the table


def measures_section(frame: pd.DataFrame) -> str:
    """Every measure of every rule set in one table that sorts on a click of a header."""
    intro = html.paragraph(
        "One row per rule set; a click on a column's header sorts by it (again: the other "
        "way). Each cell is the estimate and its 95 % interval; ",
        term("edge", "Δ and N95"),
        " compare two strategies at one table; the last column names the parts that were ",
        term("capped", "capped"),
        ", and a row is red where RS was.",
        note=True,
    )
    return intro + sortable_table(frame) + f"<script>{SORT_SCRIPT}</script>\n"


def sortable_table(frame: pd.DataFrame) -> str:
    """The table: the rule set, its RS, paired difference and Holm p first (what a phone
    shows beside the name), then every other measure, then the facts."""
    facts = words.rule_sets(frame).set_index("rule_set")
    measures = words.measure_order(frame["measure"])
    columns = {m: words.measure_rows(frame, m) for m in measures}
    places = {m: words.decimals(rows, m) for m, rows in columns.items()}
    base = words.base_of(frame)
    if words.RS_VS_BASE in columns:  # the base's difference with itself is no finding
        columns[words.RS_VS_BASE] = columns[words.RS_VS_BASE].drop(index=base, errors="ignore")
    diff = columns.get(words.RS_VS_BASE)
    p_after = words.RS_VS_BASE if diff is not None else None
    heads = ["rule set"]
    for m in measures:
        heads += [words.label(m), *(["Holm-adjusted p"] if m == p_after else [])]
    heads += ["change", "players", "best heuristic", "field", "weights", "rounds", "clusters",
              "capped"]  # fmt: skip
    body = []
    parts = words.capped_parts(frame)
    for name, row in facts.iterrows():
        cells = [_text(name)]
        for m in measures:
            if m == words.RS_VS_BASE and name == base:
                cells += [_number(0.0, "base"), _number(math.nan, "–")]
                continue
            cells.append(_measure_cell(columns[m], name, places[m], signed=m == words.RS_VS_BASE))
            if m == p_after:
                p = diff.at[name, "p_holm"] if name in diff.index else math.nan
                cells.append(_number(p, words.p_cell(p)))
        cells += [_text(row["change"], "text wrap"), _number(row["players"], str(row["players"]))]
        cells += [_text(row[k]) for k in ("best_heuristic", "field", "weights")]
        cells += [_number(row[k], f"{int(row[k]):,}") for k in ("rounds", "clusters")]
        cells.append(_text(words.capped_words(parts.loc[name])))
        mark = ' class="flag"' if parts.at[name, "RS"] else ""
        body.append(f"<tr{mark}>{''.join(cells)}</tr>")
    header = "".join(
        f'<th{TEXT if h in TEXT_HEADS else ""}><button type="button">{escape.escape(h)}</button>'
        "</th>"
        for h in heads
    )
    return (
        '<div class="scroll"><table class="sortable"><thead><tr>'
        f"{header}</tr></thead><tbody>{''.join(body)}</tbody></table></div>\n"
    )


def _text(value: object, kind: str = "text") -> str:
    return f'<td class="{kind}">{escape.escape(str(value if value is not None else ""))}</td>'


def _number(value: float, shown: str) -> str:
    key = "" if value is None or math.isnan(float(value)) else repr(float(value))
    return f'<td data-sort="{key}">{escape.escape(shown)}</td>'


def _measure_cell(rows: pd.DataFrame, name: str, places: int, signed: bool) -> str:
    if name not in rows.index:
        return '<td data-sort="">–</td>'
    r = rows.loc[name]
    return _number(r["estimate"], words.cell(r["estimate"], r["low"], r["high"], places, signed))


# ---------------------------------------------------------------- the field


def field_section(facts: pd.DataFrame) -> str:
    """Which field, with which tuned weights, each rule set was measured against."""
    grouped = facts.groupby(["field", "weights"], sort=False)["rule_set"].apply(list)
    rows = pd.DataFrame(
        {
            "field": [f for f, _ in grouped.index],
            "weights": [w for _, w in grouped.index],
            "rule sets": [", ".join(v) for v in grouped],
        }
    )
    linear = (
        " linear uses the weights tuned for the rules in force when they are a shipped set, "
        "else those of the preset the rules derive from: a rule set whose field plays "
        "borrowed weights is measured against a weaker field than its own tuning would give."
        if "linear" in set(facts["field"])
        else ""
    )
    text = html.paragraph(
        "Every seat but the test seat plays the field, and RS measures the game against it.",
        linear,
        " champion and clairvoyant play their declared search under every rule set, not the "
        f"deeper one shipped for {', '.join(search_settings())} (and the rules derived from "
        "them): one instrument for all, so that RS compares rules, not search budgets.",
    )
    return text + html.table(
        rows, text_columns=("weights", "rule sets"), long_columns=("rule sets",), prose=True
    )


RS_CAPTION = Markup(
    "Relative skill per rule set with its 95 % interval, highest at the top; the dashed "
    "line is the base's value, hollow marks were capped"
)
RS_WORDS = (
    "RS = (G(random) − G(champion)) / (G(random) − G(clairvoyant)), G a strategy's mean "
    "place in the test seat on the same deals. Two rule sets whose intervals overlap may "
    "still differ: their paired difference (the table's RS − base) is measured on the "
    "same deals and is narrower than the two intervals apart suggest."
)
METHOD = (
    "For each rule set one seat plays the test strategy (random, each heuristic, linear, "
    "champion, clairvoyant) and every other seat the field, on duplicate deals with the "
    "same seed, so every test strategy and every rule set of the same number of players "
    "meets the same deals. Intervals treat each duplicate group (or whole match) as one "
    "observation. The paired difference with the base is RS(variant) − RS(base) on those "
    "shared deals; its p-values are Holm-adjusted over the rule sets. Sizes grow in "
    "batches until the intervals reach the precision asked for, up to a cap. "
    "docs/skill.md gives every measure's formula and source."
)
