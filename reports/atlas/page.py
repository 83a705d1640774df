"""``DIR/atlas.html``: whether each house rule makes Président more about skill or more
about luck, from the rows of ``atlas.parquet`` (``docs/formats.md``).

The page opens with the verdicts that hold (:mod:`simulator.runs.atlas.verdicts`: every
rung from tuned linear up agrees), then those that depend on the level of play with each
level's figure (:mod:`reports.atlas.sections`); then the skill curve, where the ladder
is not monotone, the measures of luck, RS at each rung (labelled: it fails the dose of
luck), a table of every measure that sorts on a click of its header (a few lines of
inline script: the page stays self-contained, :mod:`reports.html`), and how the field
enters each measure.
"""

from __future__ import annotations

import html as escape
import math
from functools import partial
from pathlib import Path

import pandas as pd

from reports import html
from reports.atlas import sections, words
from reports.atlas.figures import curves, differences, drawn_verdicts, verdict_of
from reports.figures import publish
from reports.glossary import glossary, term
from reports.html import Markup
from simulator.runs.atlas.verdicts import base_of
from simulator.runs.claims import write_atomic

PAGE_FILE = "atlas.html"
FIGURES_DIR = "figures"
TEXT = ' class="text"'  # a left-aligned column of words
TEXT_HEADS = ("rule set", "verdict", "change", "best heuristic", "field", "weights", "capped")
GLOSSARY = ("skill-gap", "skill-depth", "verdict", "skill", "paired", "holm", "interval",
            "edge", "deal-share", "persistence", "no-memory", "capped")  # fmt: skip
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
    """Write the atlas page to ``path`` (atomically) and its figures, as PNG and SVG, to
    ``figures/`` beside it, from the rows of ``atlas.parquet``."""
    path = Path(path)
    places, rs = sections.place_measures(frame), sections.rs_measures(frame)
    drawings = {"atlas-skill-curve": (partial(curves, frame, places, "mean place "
                                              "(1: always first)", lower_is_better=True),
                                      CURVE_CAPTION),
                "atlas-rs": (partial(curves, frame, rs, "relative skill"), RS_CAPTION)}  # fmt: skip
    if len(drawn_verdicts(frame)):  # else the summary says there is none: no empty frame
        drawings["atlas-verdicts"] = (partial(differences, frame), VERDICTS_CAPTION)
    else:  # nor an earlier page's, left in the folder
        for old in (path.parent / FIGURES_DIR).glob("atlas-verdicts.*"):
            old.unlink()
    embedded = publish(drawings, path.parent / FIGURES_DIR)
    facts = words.rule_sets(frame)
    field = ", ".join(dict.fromkeys(facts["field"].astype(str)))
    lead = (f"{len(facts)} rule sets against the base {base_of(frame)}; one seat plays "
            f"each rung of a ladder of players, every other seat the field ({field}), on "
            "duplicate deals")  # fmt: skip
    parts = [
        ("summary", "Skill or luck: the verdicts that hold",
         sections.summary(frame) + embedded.get("atlas-verdicts", "")),
        ("curve", "The skill curve", embedded["atlas-skill-curve"]
         + html.paragraph(CURVE_WORDS) + sections.convergence_words(frame)),
        ("ladder", "Where the ladder is not monotone", sections.monotone_section(frame)),
        ("luck", "Luck: rounds until skill shows", sections.luck_section(frame)),
        ("rs", "Relative skill at each level (fails the dose of luck)",
         embedded["atlas-rs"] + html.paragraph(term("skill", "RS"), RS_WORDS)
         + html.paragraph(words.agreement_words(words.agreement(frame)), note=True)),
        ("measures", "Every measure", measures_section(frame)),
        ("field", "The field: how its strength enters each measure",
         sections.field_section(frame)),
        ("method", "Method", html.paragraph(METHOD)),
        ("glossary", "Glossary", glossary(GLOSSARY)),
    ]  # fmt: skip
    write_atomic(path, html.page("Président: the house-rule atlas", parts, lead))


# ---------------------------------------------------------------- the table


def measures_section(frame: pd.DataFrame) -> str:
    """Every measure of every rule set in one table that sorts on a click of a header."""
    intro = html.paragraph(
        "One row per rule set; a click on a column's header sorts by it (again: the other "
        "way). Each cell is the estimate and its 95 % interval, each paired difference "
        "with the base followed by its ",
        term("holm", "Holm-adjusted p"),
        "; ",
        term("edge", "Δ and N95"),
        " compare two players at one table; the last column names the parts that were ",
        term("capped", "capped"),
        ", and a row is red where the duels were.",
        note=True,
    )
    return intro + sortable_table(frame) + f"<script>{SORT_SCRIPT}</script>\n"


def sortable_table(frame: pd.DataFrame) -> str:
    """The table: the rule set and its verdict first (what a phone shows beside the
    name), then every measure, each paired difference with its Holm p, then the facts."""
    facts = words.rule_sets(frame).set_index("rule_set")
    measures = words.measure_order(frame["measure"])
    base = base_of(frame)
    columns = {m: words.measure_rows(frame, m) for m in measures}
    columns = {m: c.drop(index=base, errors="ignore") if m.endswith(words.VS_BASE) else c
               for m, c in columns.items()}  # fmt: skip
    places = {m: words.decimals(rows, m) for m, rows in columns.items()}
    said = verdict_of(frame)
    heads = ["rule set", "verdict"]
    for m in measures:
        heads += [words.label(m), *(["Holm-adjusted p"] if m.endswith(words.VS_BASE) else [])]
    heads += ["change", "players", "best heuristic", "field", "weights", "rounds", "clusters",
              "capped"]  # fmt: skip
    body = []
    parts = words.capped_parts(frame)
    for name, row in facts.iterrows():
        cells = [_text(name), _text(said.get(name, "base"))]
        for m in measures:
            paired = m.endswith(words.VS_BASE)
            if paired and name == base:
                cells += [_number(0.0, "base"), _number(math.nan, "–")]
                continue
            cells.append(_measure_cell(columns[m], name, places[m], signed=paired))
            if paired:
                p = columns[m].at[name, "p_holm"] if name in columns[m].index else math.nan
                cells.append(_number(p, words.p_cell(p)))
        cells += [_text(row["change"]), _number(row["players"], str(row["players"]))]
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
        '<div class="scroll"><table class="sortable wraps"><thead><tr>'
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


VERDICTS_CAPTION = Markup(
    "The paired difference with the base at each level of play, with its 95 % interval, "
    "for each rule set with a verdict: solid lines hold at every level, dashed ones depend "
    "on the level; above 0 more about skill"
)
CURVE_CAPTION = Markup(
    "The skill curve: each rung's mean place (one seat against the field, the same "
    "deals), weakest rung on the left, better places higher; a line per rule set, "
    "coloured by its verdict, the base in black"
)
RS_CAPTION = Markup(
    "Relative skill at each rung that has its ceiling (clairvoyant at the same search): "
    "RS does not see luck nobody can exploit (it fails the dose of luck)"
)
CURVE_WORDS = (
    "A rung's skill gap is 2 (G(random) − G(rung)) / (n − 1): the places a round it gains "
    "over random play, in half-tables ((n − 1)/2 places, the way from the middle place to "
    "first), so that tables of every size read on one scale; it exceeds 1 where random "
    "play places below the middle against the field. If a share p of rounds were "
    "decided by a random order instead of the play, every gap would shrink by (1 − p): "
    "the skill gap sees luck, which is why the verdicts rest on it."
)
RS_WORDS = (
    " = (G(random) − G(champion)) / (G(random) − G(clairvoyant)), at each level of "
    "champion's search with clairvoyant at the same search. It does not see luck nobody "
    "can exploit (it fails the dose of luck): if a share p of rounds had their places "
    "drawn at random, both gaps would shrink by (1 − p) and RS would not move, although "
    "the game would plainly be more about luck. It stays here as data, not as a verdict."
)
METHOD = (
    "For each rule set one seat plays each rung of the ladder (random, lowest, the best "
    "heuristic, tuned linear, champion at a quarter, one and four times its search, and "
    "clairvoyant at the same three) and every other seat the field, on duplicate deals "
    "with the same seed, so every rung and every rule set of the same number of players "
    "meets the same deals; tables that mix the rungs give the ratings. Intervals treat "
    "each duplicate group (or whole match) as one observation. The paired differences "
    "with the base are measured on those shared deals; each measure's p-values are "
    "Holm-adjusted over the rule sets. Sizes grow in batches until the intervals reach "
    "the precision asked for, up to a cap. docs/skill.md gives every measure's formula "
    "and source, and the doses of luck and skill each passed."
)
