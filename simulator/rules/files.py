"""Rules files: TOML with the rule book's keys, ``preset = "NAME"`` first (docs/formats.md §1).

``president rules show`` writes the fully resolved rules back in this format
(:func:`to_toml`), and :func:`load_rules` reads them back to the same :class:`Rules`.
"""

from __future__ import annotations

import textwrap
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from simulator.errors import did_you_mean
from simulator.rules.options import KEYS, Rules, RulesError, changed, option_meanings
from simulator.rules.presets import PRESET_NAMES, PRESETS, preset


def rules_from_mapping(data: Mapping[str, Any], base: Rules | None = None) -> Rules:
    """Rules from a rules-file mapping: ``preset`` first, then every override."""
    if not isinstance(data, Mapping):
        raise RulesError(
            "rules: expected a table of options (allowed keys: "
            + ", ".join(("preset", *KEYS))
            + ")"
        )
    data = dict(data)
    if "preset" in data:
        name = data.pop("preset")
        if not isinstance(name, str):
            raise RulesError(
                f"rules: preset = {name!r} is not allowed "
                f"(allowed: {', '.join(repr(p) for p in PRESET_NAMES)})"
            )
        base = preset(name)
    return changed(base or Rules(), data)


def load_rules(spec: str | Path) -> Rules:
    """Rules from a preset name or a TOML rules file (``--rules NAME|FILE``)."""
    text_spec = str(spec)
    if text_spec in PRESETS:
        return preset(text_spec)
    path = Path(text_spec)
    if not path.is_file():
        raise RulesError(
            f"rules: {text_spec!r} is neither a preset nor a rules file"
            f"{did_you_mean(text_spec, PRESET_NAMES)} "
            f"(allowed: {', '.join(PRESET_NAMES)}, or a path to a .toml file)"
        )
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise RulesError(f"rules: {path} is not valid TOML: {exc}") from None
    return rules_from_mapping(data)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {_toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"no TOML form for {value!r}")


def to_toml(rules: Rules, title: str | None = None, explain: bool = False) -> str:
    """The fully resolved rules as a TOML rules file that :func:`load_rules` reads back.

    ``explain``: a comment above each key says what it means (the field docstrings of
    :class:`Rules`), and the default when the value differs from it.
    """
    lines = [f"# {title}"] if title else []
    defaults = Rules().to_dict()
    for key, value in rules.to_dict().items():
        if explain:
            meaning = option_meanings()[key]
            if value != defaults[key]:
                meaning += f" (default: {_toml_value(defaults[key])})"
            lines += ["", *textwrap.wrap(meaning, 98, initial_indent="# ", subsequent_indent="# ")]
        lines.append(f"{key} = {_toml_value(value)}")
    return "\n".join(lines) + "\n"
