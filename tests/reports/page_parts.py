"""Reading the pages' HTML in tests: a figure's embedded images."""

from __future__ import annotations

import base64
import re


def embedded_figure(page: str, name: str) -> tuple[bytes, bytes] | None:
    """The wide and the narrow PNG of figure ``name`` as the page embeds them (the wide
    one is figures/NAME.png), or None when the page lacks the figure."""
    found = re.search(
        rf'<figure id="fig-{name}"><picture><source [^>]*srcset="data:image/png;base64,([^"]+)">'
        rf'<img alt="[^"]*" [^>]*src="data:image/png;base64,([^"]+)"></picture>',
        page,
    )
    if found is None:
        return None
    return base64.b64decode(found.group(2)), base64.b64decode(found.group(1))


def section(page: str, anchor: str) -> str:
    """The HTML of the page's section ``anchor`` (empty when there is none)."""
    found = re.search(rf'<section id="{anchor}">(.*?)</section>', page, re.S)
    return found.group(1) if found else ""


def broken_links(page: str) -> list[str]:
    """Links within the page (``href="#x"``) whose target id is missing."""
    ids = set(re.findall(r'\bid="([^"]+)"', page))
    return sorted({a for a in re.findall(r'href="#([^"]+)"', page) if a not in ids})
