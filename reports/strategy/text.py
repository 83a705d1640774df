"""A tournament's results as text: the ranking and each pair's difference, as
``president tournament`` prints them and :meth:`simulator.api.results.Tournament.text`
returns them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pandas as pd

from reports import numbers, text
from reports.text import PM_MEANS, Column
from simulator.runs.standings import stars

ESTIMATES = (
    ("mean_place", "mean place"),
    ("adjusted", "luck-adjusted"),
    ("president", "President"),
    ("scum", "Scum"),
    ("match_wins", "match wins"),
)


def number(value: float, digits: int = 3, sign: bool = False) -> str:
    """``value`` to ``digits`` places, never a signed zero (``-0.0004`` prints as ``0.000``);
    NaN as n/a."""
    return "n/a" if math.isnan(value) else numbers.fixed(value, digits, sign)


def format_ranking(
    table: pd.DataFrame, clusters: int, width: int, luck_balanced: bool = False
) -> str:
    """The ranking as aligned text, each estimate ± the half-width of its 95 % interval
    (``[lo, hi]`` where the interval is not symmetric: :func:`reports.numbers.plus_minus`),
    each column to the digits its intervals need, every line at most ``width`` columns:
    with many strategies or a narrow terminal the estimates go in blocks that each fit
    (:func:`reports.text.table`). ``luck_balanced``: duplicate deals balanced the luck of
    the deal, so the luck-adjusted column would copy the plain one: it is left out, and
    the note says why once.
    """
    shown = [(k, t) for k, t in ESTIMATES if not (luck_balanced and k == "adjusted")]
    rows = [r for _, r in table.iterrows()]
    names = Column("strategy", [r["strategy"] for r in rows], "<")
    columns = [Column("seat-rounds", [f"{r['rounds']:,}" for r in rows])] + [
        Column(title, numbers.format_column(table[key], table[f"{key}_lo"],
                                            table[f"{key}_hi"], style="plus_minus"))
        for key, title in shown
    ]  # fmt: skip
    luck = (
        "Duplicate deals already balance the luck of the deal (every strategy gets every "
        "dealt hand equally often), so the luck-adjusted mean place equals the plain one "
        "and is not shown."
        if luck_balanced
        else "luck-adjusted: the mean place with the luck of the dealt hands removed "
        "(jackknife intervals); it differs from the plain one because matches end at "
        "different rounds (a points target), so duplicate deals balance the hands only in part."
    )
    note = (
        f"{PM_MEANS}, over the {clusters} deal groups (group g has the same deals at every "
        "table, so it is one cluster across all tables), Student's t with "
        f"{clusters - 1} degrees of freedom; rates have score intervals (Wilson's, with fewer "
        "degrees of freedom when a few groups hold the events). "
        f"seat-rounds: rounds times the seats held. {luck}"
    )
    return "\n".join(text.table(names, [[c] for c in columns], width) + text.wrap(note, width))


def format_pairwise(table: pd.DataFrame, order: Sequence[str], width: int) -> str:
    """Each pair once, the better ranked first, sorted by its mean place difference; the
    explanations wrapped to ``width`` (a pair's row is about 70 columns with built-in names).

    ``table`` may hold each pair in one orientation or both; a pair found only as
    ``(b, a)`` is turned round (the difference and its interval change sign). Stars and
    p-values are Holm-adjusted over all the pairs.
    """
    rows = {(r.a, r.b): r for r in table.itertuples()}
    pairs = []
    for a, b in itertools.combinations(order, 2):
        if (a, b) in rows:
            r = rows[(a, b)]
            diff, lo, hi = r.diff, r.diff_lo, r.diff_hi
        else:
            r = rows[(b, a)]
            diff, lo, hi = -r.diff, -r.diff_hi, -r.diff_lo
        pairs.append((diff, lo, hi, r.p_holm, a, b))
    pairs.sort(key=lambda p: (math.isnan(p[0]), p[0]))
    wa = max(len(p[4]) for p in pairs)
    wb = max(len(p[5]) for p in pairs)
    lines = text.wrap(
        "each pair once: mean place of the first minus the second where both sat at the same "
        "table (negative: the first places better), its 95 % interval and Holm-adjusted "
        "p-value",
        width,
    )
    places = numbers.shared((diff, lo, hi) for diff, lo, hi, *_ in pairs)
    for diff, lo, hi, p, a, b in pairs:
        p_text = "p = n/a" if math.isnan(p) else "p < 0.0001" if p < 1e-4 else f"p = {p:.4f}"
        lines.append(
            f"  {a:<{wa}} − {b:<{wb}}  {number(diff, places, sign=True):>{places + 3}} "
            f"[{number(lo, places, sign=True)}, {number(hi, places, sign=True)}]  "
            f"{p_text} {stars(p)}".rstrip()
        )
    lines += text.wrap(
        f"* p < 0.05, ** p < 0.01 after Holm's adjustment for the {len(pairs)} pairs", width
    )
    return "\n".join(lines)
