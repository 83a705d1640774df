"""Self-contained HTML: inline CSS, figures embedded as base64 PNG, tables that scroll.

The pages must open offline and read on a 400 px phone as well as on a desktop, so
nothing is fetched (no fonts, scripts or style sheets from the network), every table sits
in its own horizontally scrolling box (its first column stays in view) instead of
widening the page, and every figure comes in two layouts — a wide one and a narrow one
drawn for phones — chosen by the browser with ``<picture>``.

Text is escaped unless it is :class:`Markup`, the pages' own markup (links to the
glossary, emphasis), so numbers and names from a run can never inject HTML.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import pandas as pd

NARROW_MAX_PX = 700  # viewports up to this width get the figures' narrow layout

CSS = f"""
* {{ box-sizing: border-box; }}
body {{ font-family: system-ui, sans-serif; margin: 0 auto; padding: 0 1rem 3rem;
       max-width: 66rem; line-height: 1.5; color: #1d1d1f; font-size: 1rem;
       overflow-wrap: break-word; }}
h1 {{ font-size: 1.55rem; line-height: 1.25; margin: 1.2rem 0 0.3rem; }}
h2 {{ font-size: 1.3rem; margin-top: 2.4rem; border-bottom: 1px solid #ccc; }}
h3 {{ font-size: 1.05rem; margin: 1.4rem 0 0.4rem; }}
p, ul, dl {{ max-width: 48rem; }}
.lead {{ color: #444; margin-top: 0; }}
nav ul {{ list-style: none; padding: 0; margin: 0.8rem 0; display: flex; flex-wrap: wrap;
          gap: 0.3rem 1rem; max-width: none; }}
nav a {{ white-space: normal; }}
.scroll {{ overflow-x: auto; max-width: 100%; margin: 0.5rem 0 1rem;
           -webkit-overflow-scrolling: touch; }}
table {{ border-collapse: collapse; font-size: 0.875rem; white-space: nowrap; }}
th, td {{ border: 1px solid #ddd; padding: 0.3rem 0.55rem; text-align: right;
          vertical-align: top; }}
th {{ background: #f3f3f3; font-weight: 600; }}
td:first-child, th:first-child {{ text-align: left; position: sticky; left: 0;
                                  background: #fafafa; }}
td.text, th.text {{ text-align: left; }}
table.prose td.text {{ white-space: normal; }}
table.prose td.long {{ min-width: 16rem; }}
tr.changed td {{ background: #fff3c4; }}
tr.changed td:first-child {{ background: #ffe89a; }}
td.wrap {{ white-space: normal; min-width: 14rem; }}
table.wraps th, table.wraps td {{ white-space: normal; overflow-wrap: break-word;
                                  min-width: 5.5rem; }}
tr.flag td {{ background: #fde4e1; }}
tr.flag td:first-child {{ background: #f9cbc5; }}
th button {{ font: inherit; font-weight: 600; color: inherit; background: none; border: 0;
             padding: 0; cursor: pointer; text-align: inherit; }}
th button::after {{ content: " ↕"; color: #888; }}
th[aria-sort="ascending"] button::after {{ content: " ↑"; }}
th[aria-sort="descending"] button::after {{ content: " ↓"; }}
.count {{ display: block; color: #666; font-size: 0.75rem; }}
caption {{ caption-side: top; text-align: left; font-size: 0.9rem; color: #444;
           padding: 0 0 0.3rem; white-space: normal; }}
figure {{ margin: 1rem 0 1.5rem; }}
figure img {{ max-width: 100%; height: auto; display: block; }}
figcaption {{ font-size: 0.875rem; color: #555; margin-top: 0.3rem; }}
.note {{ color: #555; font-size: 0.9rem; }}
.summary {{ background: #f4f8fc; border: 1px solid #c9dced; border-radius: 6px;
            padding: 0.4rem 1.1rem 0.6rem; }}
.summary ul {{ padding-left: 1.1rem; }} .summary li {{ margin: 0.45rem 0; }}
dl.glossary dt {{ font-weight: 600; margin-top: 0.6rem; }}
dl.glossary dd {{ margin-left: 1.2rem; }}
a.term {{ color: inherit; text-decoration: underline dotted; }}
code {{ font-size: 0.9em; background: #f3f3f3; padding: 0 0.2em; border-radius: 3px; }}
@media (max-width: {NARROW_MAX_PX}px) {{
  body {{ padding: 0 0.75rem 2rem; }} h1 {{ font-size: 1.3rem; }} h2 {{ font-size: 1.15rem; }}
  td:first-child {{ white-space: normal; min-width: 7rem; max-width: 11rem; }}
  table.prose, table.prose tbody, table.prose tr, table.prose td {{ display: block; }}
  table.prose thead {{ display: none; }}
  table.prose tr {{ border: 1px solid #ddd; border-radius: 4px; margin-bottom: 0.5rem; }}
  table.prose td {{ border: none; text-align: left; white-space: normal; position: static;
                    padding: 0.15rem 0.6rem; min-width: 0; max-width: none; }}
  table.prose td:first-child {{ font-weight: 600; background: #f3f3f3; }}
  table.prose td:empty {{ display: none; }}
  table.prose td[data-label]::before {{ content: attr(data-label) ": "; color: #666; }}
}}
"""


@dataclass(frozen=True)
class Markup:
    """HTML written by the pages themselves: inserted as it is, never escaped.

    Not a ``str`` subclass on purpose: pandas turns columns of strings into its string
    dtype, which would quietly drop the mark and escape the markup.
    """

    html: str

    def __str__(self) -> str:
        return self.html


def text(value: object) -> str:
    """A value as HTML: :class:`Markup` as it is, anything else escaped."""
    return value.html if isinstance(value, Markup) else html.escape(str(value))


def join(*parts: object) -> Markup:
    """Text and markup pieces as one piece of markup (the text escaped)."""
    return Markup("".join(text(p) for p in parts))


def link(anchor: str, label: object) -> Markup:
    """A link to a glossary entry (or any anchor of the page), dotted so it reads as text."""
    return Markup(f'<a class="term" href="#{html.escape(anchor)}">{text(label)}</a>')


def code(value: object) -> Markup:
    """A rules key or command, as code."""
    return Markup(f"<code>{html.escape(str(value))}</code>")


def page(title: str, sections: Sequence[tuple[str, str, str]], lead: object = "") -> str:
    """The whole document from (anchor, heading, body HTML) sections, with a contents list.

    ``lead``: a line under the title that says what was run.
    """
    items = "".join(f'<li><a href="#{a}">{html.escape(h)}</a></li>' for a, h, _ in sections)
    body = "\n".join(
        f'<section id="{a}"><h2>{html.escape(h)}</h2>\n{content}</section>'
        for a, h, content in sections
    )
    sub = f'<p class="lead">{text(lead)}</p>\n' if lead else ""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{CSS}</style></head>\n"
        f"<body><h1>{html.escape(title)}</h1>\n{sub}"
        f'<nav aria-label="contents"><ul>{items}</ul></nav>\n{body}\n</body></html>\n'
    )


def table(
    frame: pd.DataFrame,
    caption: object = None,
    *,
    text_columns: Iterable[str] = (),
    long_columns: Iterable[str] = (),
    changed: Sequence[bool] | None = None,
    prose: bool = False,
    labels: bool = True,
    wraps: bool = False,
) -> str:
    """A table of a display-ready frame (every cell already text or :class:`Markup`) in
    its own scrolling box.

    Numbers are right-aligned, the first column and ``text_columns`` left-aligned,
    ``long_columns`` (sentences) given room to wrap; rows where ``changed`` is true are
    highlighted. ``prose``: a table of words (settings,
    rules) whose text columns wrap, and which a phone shows as one card per row, each
    cell after the first named by its column (``labels``) since the header is hidden.
    ``wraps``: every cell wraps at its spaces (a table of many columns of intervals, which
    would otherwise run off a desktop page's column).
    """
    head = f"<h3>{text(caption)}</h3>\n" if caption else ""
    left, long = set(text_columns), set(long_columns)
    classes = [
        (f' class="text{" long" if c in long else ""}"' if c in left else "")
        + (f' data-label="{html.escape(str(c))}"' if prose and labels and k else "")
        for k, c in enumerate(frame.columns)
    ]
    header = "".join(f"<th{k}>{text(c)}</th>" for c, k in zip(frame.columns, classes, strict=True))
    rows = []
    for i, values in enumerate(frame.itertuples(index=False, name=None)):
        mark = ' class="changed"' if changed is not None and changed[i] else ""
        cells = "".join(f"<td{k}>{_cell(v)}</td>" for v, k in zip(values, classes, strict=True))
        rows.append(f"<tr{mark}>{cells}</tr>")
    kinds = " ".join(k for k, on in (("prose", prose), ("wraps", wraps)) if on)
    style = f' class="{kinds}"' if kinds else ""
    return (
        f'{head}<div class="scroll"><table{style}><thead><tr>{header}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>\n"
    )


def _cell(value: object) -> str:
    """A cell: missing values as a dash, everything else as text."""
    if value is None or (isinstance(value, float) and value != value):
        return "–"
    return text(value)


def figure(name: str, wide: bytes, narrow: bytes, caption: object, sizes: tuple) -> str:
    """An embedded figure in its two layouts; ``name`` ties it to figures/NAME.png and
    .svg (the wide layout). ``sizes``: the CSS pixel size (width, height) of each layout,
    so the page keeps its place while the image decodes and never draws it larger."""
    (ww, wh), (nw, nh) = sizes
    alt = html.escape(_plain(caption))
    return (
        f'<figure id="fig-{name}"><picture>'
        f'<source media="(max-width: {NARROW_MAX_PX}px)" width="{nw}" height="{nh}" '
        f'srcset="{_data(narrow)}">'
        f'<img alt="{alt}" width="{ww}" height="{wh}" src="{_data(wide)}"></picture>\n'
        f"<figcaption>{text(caption)} (figures/{name}.png, figures/{name}.svg)"
        "</figcaption></figure>\n"
    )


def _data(png: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _plain(value: object) -> str:
    """Markup reduced to its words (for an image's alt text)."""
    return re.sub(r"<[^>]+>", "", str(value))


def paragraph(*parts: object, note: bool = False) -> str:
    """A paragraph of text and markup pieces; ``note``: smaller and grey."""
    cls = ' class="note"' if note else ""
    return f"<p{cls}>{join(*parts)}</p>\n"


def bullets(items: Iterable[object]) -> str:
    """A bulleted list, each item text or markup."""
    return "<ul>" + "".join(f"<li>{text(i)}</li>" for i in items) + "</ul>\n"


def box(content: str) -> str:
    """The highlighted box of a page's summary."""
    return f'<div class="summary">{content}</div>\n'
