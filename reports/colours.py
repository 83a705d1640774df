"""One colour per strategy, on every figure of every page.

A reader who learnt that ``random`` is grey in the report must find it grey in the
tournament's and the comparison's figures too, whatever the line-up and its order. So
the colour is a function of the strategy's name alone: the built-in strategies have
fixed colours (one declared below, or, for a built-in declared without one, the next of
:data:`SPARE_PALETTE` in the registry's order, so adding a strategy needs no line here and
moves no other's colour), a strategy of the user's own (``PATH:NAME``) takes one from its own palette by a
stable hash of its name (CRC-32, not Python's salted ``hash``), and the pooled players
(``all``) are near-black.
"""

from __future__ import annotations

import zlib

from reports.estimates import POOLED
from strategies.registry import names

BUILT_IN = {  # matplotlib's tab10, each of these built-in strategies its own
    "lowest": "#1f77b4",  # blue
    "random": "#7f7f7f",  # grey
    "keep-sets": "#8c564b",  # brown
    "control": "#d62728",  # red
    "shed-max": "#9467bd",  # purple
    "planner": "#2ca02c",  # green
    "rules-aware": "#ff7f0e",  # orange
    "advised": "#fdae6b",  # light orange: rules-aware following tips
    "montecarlo": "#17becf",  # cyan
    "linear": "#000080",  # navy
    "champion": "#e6ab02",  # gold
    "clairvoyant": "#e7298a",  # magenta
}
USER_PALETTE = (  # none of them a built-in's colour
    "#e377c2",
    "#bcbd22",
    "#393b79",
    "#637939",
    "#8c6d31",
    "#843c39",
    "#7b4173",
    "#6baed6",
)
SPARE_PALETTE = (  # built-ins declared without a colour; none of them another's colour
    "#6b6ecf",
    "#b5cf6b",
    "#e7ba52",
    "#d6616b",
    "#ce6dbd",
)
POOLED_COLOUR = "#333333"


def colour(strategy: str) -> str:
    """The colour of ``strategy`` on every figure (a hex RGB string)."""
    if strategy == POOLED:
        return POOLED_COLOUR
    if strategy in BUILT_IN:
        return BUILT_IN[strategy]
    undeclared = [name for name in names() if name not in BUILT_IN]
    if strategy in undeclared:
        return SPARE_PALETTE[undeclared.index(strategy) % len(SPARE_PALETTE)]
    return USER_PALETTE[zlib.crc32(strategy.encode("utf-8")) % len(USER_PALETTE)]
