"""The presets of the rule book: one per source rule sheet, and the UECda tournament's
rules (docs/rules.md, "Presets").

Each preset is a rules file shipped with the package (``simulator/rules/preset-files/``):
its first line, a comment, describes it (``president rules list``); its keys are the
options that differ from the defaults of :class:`~simulator.rules.options.Rules`.
Adding a preset is adding a file and its name to :data:`PRESET_NAMES`.
"""

from __future__ import annotations

import tomllib
from importlib.resources import files
from typing import Any

from simulator.errors import did_you_mean
from simulator.rules.options import Rules, RulesError, changed

PRESET_NAMES = ("french", "regles-jeu", "spade", "scum", "uecda")  # the order of `rules list`


def _read(name: str) -> tuple[str, dict[str, Any]]:
    """A preset file: (its description, its options)."""
    text = files("simulator.rules").joinpath("preset-files", f"{name}.toml").read_text("utf-8")
    return text.splitlines()[0].removeprefix("# "), tomllib.loads(text)


PRESETS: dict[str, tuple[str, dict[str, Any]]] = {name: _read(name) for name in PRESET_NAMES}


def preset(name: str) -> Rules:
    """The rules of a named preset."""
    if name not in PRESETS:
        raise RulesError(
            f"rules: unknown preset {name!r}{did_you_mean(name, PRESET_NAMES)} "
            f"(allowed: {', '.join(PRESET_NAMES)})"
        )
    return changed(Rules(), PRESETS[name][1])
