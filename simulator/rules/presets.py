"""The four presets of the rule book, one per source rule sheet (docs/rules.md, "Presets").

Each preset is a description and the options that differ from the defaults of
:class:`~simulator.rules.options.Rules`.
"""

from __future__ import annotations

from typing import Any

from simulator.rules.options import Rules, RulesError, changed

PRESETS: dict[str, tuple[str, dict[str, Any]]] = {
    "french": (
        "Règle du Président: out of the trick after a pass, equal rank skips, no finishing on a 2.",
        {
            "passing": "out_of_trick",
            "equal_rank": "skip",
            "no_finish_on_two": True,
            "exchange": [2, 1],
            "opener": "scum",
            "dealer": "scum",
        },
    ),
    "regles-jeu": (
        "regles-jeu.fr: passes may return, equal rank skips, 2s end the trick, no finishing on a 2.",
        {
            "passing": "may_return",
            "equal_rank": "skip",
            "two_ends_trick": True,
            "no_finish_on_two": True,
            "exchange": [2, 1],
            "opener": "scum",
        },
    ),
    "spade": (
        "Président♠: strict beating, one card exchanged, reseating, President opens, 11 points.",
        {
            "passing": "may_return",
            "exchange": [1],
            "dealer": "scum",
            "reseat": True,
            "opener": "president",
            "points": {"top": [2, 1], "bottom": []},
            "target": 11,
        },
    ),
    "scum": (
        "Scum / Presidente: strict beating, one card exchanged, President deals, +2 +1 … -1 -2.",
        {
            "passing": "may_return",
            "exchange": [1],
            "dealer": "president",
            "opener": "left_of_dealer",
            "points": {"top": [2, 1], "bottom": [-1, -2]},
        },
    ),
}
PRESET_NAMES = tuple(PRESETS)


def preset(name: str) -> Rules:
    """The rules of a named preset."""
    if name not in PRESETS:
        raise RulesError(f"rules: unknown preset {name!r} (allowed: {', '.join(PRESET_NAMES)})")
    return changed(Rules(), PRESETS[name][1])
