"""Plain-text tables and notes that fit a terminal's width.

The commands print their tables to a terminal that may be 80 columns wide: a line any
wider breaks in two and the table becomes unreadable. So a table is laid out as wide as
it is when that fits (one block, full ``[lo, hi]`` intervals); otherwise the caller's
compact cells (``±`` forms, :func:`reports.numbers.plus_minus`) are used, and a table still
too wide is split into blocks of columns, each repeating the first column (the strategy,
the measure) so that every block reads on its own. Notes are wrapped to the width too.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

GAP = 2  # spaces between two columns
NOTE_WIDTH = 100  # notes are wrapped at this width even on a wider terminal: lines read
PM_MEANS = "x ± h: the 95 % interval [x - h, x + h] (x [low, high] where it is not symmetric)"


@dataclass(frozen=True)
class Column:
    """A column: its title and cells, aligned left (``<``) or right (``>``)."""

    title: str
    cells: Sequence[str]
    align: str = ">"

    @property
    def width(self) -> int:
        return max([len(self.title), *map(len, self.cells)])


Groups = Sequence[Sequence[Column]]  # columns kept in one block whenever they fit in one


def table(
    key: Column, groups: Groups, width: int, headings: Mapping[int, str] | None = None
) -> list[str]:
    """The lines of a table: ``key`` first, then the columns of ``groups``, in as few
    blocks (separated by a blank line) as fit ``width``.

    A group goes whole into a block when it fits there, else it starts a new block; only
    a group too wide for any block is split column by column. ``headings`` maps a row to a
    line printed above it (a group of measures); rows under a heading are indented.
    """
    blocks: list[list[Column]] = [[]]
    room = width - key.width
    used = 0
    for group in groups:
        need = sum(GAP + c.width for c in group)
        if used + need > room and blocks[-1] and need <= room:
            blocks.append([])
            used = 0
        for column in group:
            if used + GAP + column.width > room and blocks[-1]:
                blocks.append([])
                used = 0
            blocks[-1].append(column)
            used += GAP + column.width
    lines: list[str] = []
    for block in blocks:
        lines += [""] if lines else []
        lines += _block(key, block, headings or {})
    return lines


def _block(key: Column, columns: Sequence[Column], headings: Mapping[int, str]) -> list[str]:
    """One block: the title line, then a line per row (and the headings above theirs)."""
    everything = [key, *columns]
    widths = [c.width for c in everything]
    lines = [_line([c.title for c in everything], everything, widths)]
    for i in range(len(key.cells)):
        if i in headings:
            lines.append(headings[i])
        lines.append(_line([c.cells[i] for c in everything], everything, widths))
    return lines


def _line(texts: Sequence[str], columns: Sequence[Column], widths: Sequence[int]) -> str:
    cells = (f"{t:{c.align}{w}}" for t, c, w in zip(texts, columns, widths, strict=True))
    return (" " * GAP).join(cells).rstrip()


def fitted(build: Callable[[bool], list[str]], width: int) -> tuple[list[str], bool]:
    """``build(compact)``'s lines: the full form when every line fits ``width``, else the
    compact one. Also says whether the compact form was taken (its notes differ)."""
    lines = build(False)
    if max(map(len, lines), default=0) <= width:
        return lines, False
    return build(True), True


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` wrapped to ``width`` (:data:`NOTE_WIDTH` at most), each line starting with
    ``indent``. Words are never cut: a path or an option stays whole."""
    return textwrap.wrap(
        text,
        min(width, NOTE_WIDTH),
        initial_indent=indent,
        subsequent_indent=indent,
        break_long_words=False,
        break_on_hyphens=False,
    )


def wrap_lines(lines: Sequence[str], width: int) -> list[str]:
    """Each line wrapped to ``width`` under its own indent, except commands (indented more
    than two spaces: a command must stay on one line to be copied) and blank lines."""
    out: list[str] = []
    for line in lines:
        indent = line[: len(line) - len(line.lstrip())]
        keep = not line.strip() or len(indent) > 2 or len(line) <= width
        out += [line] if keep else wrap(line.strip(), width, indent)
    return out
