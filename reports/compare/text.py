"""``president compare``'s table on the terminal: estimates per variant, then the paired
differences to the baseline, every line at most the terminal's width.

With four variants the full table (``estimate [lo, hi]`` cells) is about 140 columns:
it is printed as such only on a terminal that wide; otherwise in ``±`` forms, the
variants split into blocks that each fit (:mod:`reports.text`).
"""

from __future__ import annotations

import sys

import pandas as pd

from reports.atlas.words import skill_wide
from reports.compare.comparison import Comparison
from reports.compare.page import wide
from reports.text import PM_MEANS, Column, fitted, table, wrap
from simulator.runs.atlas.verdicts import held, verdicts

SKILL_TITLE = (
    "skill and luck (--skill; RS near 0: the cards decide, near 1: the play does), 95 % "
    "intervals over duplicate deal groups"
)


def terminal_table(c: Comparison, width: int, skill: pd.DataFrame | None = None) -> str:
    """Estimates per variant, then the paired differences to the baseline, as plain text;
    with ``skill`` (``compare --skill``: the atlas's rows for these rule sets) its
    measures too, and each rule set's skill verdict in words (the held ones first)."""

    def build(compact: bool) -> list[str]:
        est = wide(c.estimates, compact=compact)
        diff = wide(c.differences, signed=True, compact=compact).rename(
            columns={n: f"{n} − {c.baseline}" for n in c.names[1:]}
        )
        lines: list[str] = []
        for title, frame in (
            ("estimates, 95 % intervals (jackknife over batches of matches)", est),
            (f"differences to {c.baseline}, paired by match (same deals)", diff),
        ):
            lines += wrap(title, width)
            lines += _measures(frame, width if compact else sys.maxsize)
            lines.append("")
        if skill is not None:
            lines += wrap(SKILL_TITLE, width)
            lines += _measures(skill_wide(skill, compact), width if compact else sys.maxsize)
            lines.append("")
            said = verdicts(skill)
            first = held(said)
            for sentence in [*first["sentence"], *said.drop(first.index)["sentence"]]:
                lines += _bullet(sentence, width)
            lines.append("")
        return lines

    lines, compact = fitted(build, width)
    if compact:
        lines += wrap(PM_MEANS + ".", width)
    return "\n".join(lines).rstrip()


def _measures(frame: pd.DataFrame, width: int) -> list[str]:
    """Measures down (under their group's name), variants across, in blocks of ``width``."""
    variants = [col for col in frame.columns if col not in ("group", "measure")]
    key = Column("", [f"  {m}" for m in frame["measure"]], "<")
    first = frame["group"].ne(frame["group"].shift()).to_numpy()
    headings = {i: str(frame["group"].iat[i]) for i in range(len(frame)) if first[i]}
    columns = [[Column(str(v), [str(x) for x in frame[v]])] for v in variants]
    return table(key, columns, width, headings)


def _bullet(sentence: str, width: int) -> list[str]:
    """``  - sentence`` wrapped to ``width``, its later lines under its first word."""
    body = wrap(sentence, width - 4)
    return [("  - " if k == 0 else "    ") + line for k, line in enumerate(body)]
