"""Self-contained HTML: inline CSS, figures embedded as base64 PNG, tables that scroll.

The page must open offline and on a phone, so nothing is fetched: no fonts, scripts or
style sheets from the network. Figures are ``<img>`` with ``max-width: 100%``; tables
sit in a horizontally scrolling box instead of squeezing.
"""

from __future__ import annotations

import base64
import html

import pandas as pd

CSS = """
body { font-family: system-ui, sans-serif; margin: 0 auto; padding: 0 1rem 3rem;
       max-width: 60rem; line-height: 1.45; color: #222; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.3rem; margin-top: 2.2rem;
       border-bottom: 1px solid #ccc; } h3 { font-size: 1.05rem; }
.scroll { overflow-x: auto; -webkit-overflow-scrolling: touch; margin: 0.6rem 0; }
table { border-collapse: collapse; font-size: 0.85rem; white-space: nowrap; }
th, td { border: 1px solid #ddd; padding: 0.25rem 0.5rem; text-align: right; }
th { background: #f3f3f3; } td:first-child, th:first-child { text-align: left; }
figure { margin: 1rem 0; } figure img { max-width: 100%; height: auto; }
figcaption { font-size: 0.85rem; color: #555; }
nav a { margin-right: 0.8rem; white-space: nowrap; } .note { color: #555; font-size: 0.9rem; }
"""


def page(title: str, sections: list[tuple[str, str, str]]) -> str:
    """The whole document from (anchor, heading, body HTML) sections, with a contents bar."""
    nav = " ".join(f'<a href="#{a}">{html.escape(h)}</a>' for a, h, _ in sections)
    body = "\n".join(
        f'<section id="{a}"><h2>{html.escape(h)}</h2>\n{content}</section>'
        for a, h, content in sections
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{CSS}</style></head>\n"
        f"<body><h1>{html.escape(title)}</h1>\n<nav>{nav}</nav>\n{body}\n</body></html>\n"
    )


def table(frame: pd.DataFrame, caption: str | None = None) -> str:
    """A scrolling HTML table of a (display-ready) frame."""
    head = f"<h3>{html.escape(caption)}</h3>\n" if caption else ""
    inner = frame.to_html(index=False, escape=True, border=0, na_rep="–")
    return f'{head}<div class="scroll">{inner}</div>\n'


def figure(name: str, png: bytes, caption: str) -> str:
    """An embedded PNG figure; ``name`` ties it to figures/NAME.png and .svg."""
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<figure id="fig-{name}"><img alt="{html.escape(caption)}" '
        f'src="data:image/png;base64,{data}">\n'
        f"<figcaption>{html.escape(caption)} (figures/{name}.png, figures/{name}.svg)"
        "</figcaption></figure>\n"
    )


def paragraph(text: str, note: bool = False) -> str:
    """A paragraph of escaped text."""
    cls = ' class="note"' if note else ""
    return f"<p{cls}>{html.escape(text)}</p>\n"
