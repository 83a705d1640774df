"""Tuned files: a built-in strategy with the parameters ``president tune`` found.

``DIR/tuned.toml`` names the strategy, the version of its parameter set
(:attr:`strategies.specs.StrategySpec.params_version`), every parameter's value, the rules
it was tuned for (a rules table, as ``president rules show`` writes them) and how it was
tuned (seeds, budget). It is named wherever a strategy is (``--strategies
DIR/tuned.toml``): :func:`strategies.registry.get` reads it here, so a run's manifest
keeps the file's path and a resume reads it again.

A file for another version of the parameter set is refused: its numbers would mean
something else.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from simulator.rules.files import to_toml
from simulator.rules.options import Rules
from strategies.specs import BuiltIn, StrategyError, StrategySpec

SUFFIX = ".toml"


def is_tuned_file(name: str) -> bool:
    """Whether a strategy name is a tuned file's path (it ends in ``.toml``)."""
    return name.endswith(SUFFIX)


def tuned_text(
    spec: StrategySpec, values: tuple[float, ...], rules: Rules, tuning: Mapping[str, Any]
) -> str:
    """The tuned file of ``spec`` with ``values`` (every parameter, in declaration order),
    tuned for ``rules`` as ``tuning`` says (seeds, budget: TOML values)."""
    lines = [
        f"# president tune: {spec.name} tuned for these rules (use: --strategies THIS_FILE)",
        f'strategy = "{spec.name}"',
        f"params_version = {spec.params_version}",
        "",
        "[params]",
        *(f"{p.name} = {_number(v)}" for p, v in zip(spec.params, values, strict=True)),
        "",
        "[tuning]",
        *(f"{key} = {_value(value)}" for key, value in tuning.items()),
        "",
        "[rules]",
        to_toml(rules).rstrip("\n"),
    ]
    return "\n".join(lines) + "\n"


def _number(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


def _value(value: Any) -> str:
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return _number(value) if isinstance(value, float) else str(value)


def read_tuned(path: Path) -> dict[str, Any]:
    """The tuned file's table, or a StrategyError in one line."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StrategyError(f"tuned file {path} does not exist") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise StrategyError(f"tuned file {path} is not readable TOML: {exc}") from None


def load(name: str, registry: Mapping[str, StrategySpec]) -> StrategySpec:
    """The built-in strategy of the tuned file ``name`` with its values (a StrategyError
    in one line when the file is not one, names an unknown strategy or another version)."""
    path = Path(name)
    data = read_tuned(path)
    base = data.get("strategy")
    if not isinstance(base, str) or base not in registry:
        raise StrategyError(
            f"tuned file {path}: strategy {base!r} is not a built-in strategy (allowed: "
            f"{', '.join(registry)}; files are written by president tune)"
        )
    spec = registry[base]
    return replace(spec, values=values_of(data, f"tuned file {path}", spec))


def values_of(
    data: Mapping[str, Any], where: str, spec: BuiltIn | StrategySpec
) -> tuple[float, ...]:
    """Every parameter value of ``spec`` a tuned table gives, in declaration order, or a
    StrategyError in one line naming ``where``: a table for another version of the
    parameters is refused, since its numbers would mean something else."""
    if data.get("params_version") != spec.params_version:
        raise StrategyError(
            f"{where} is for version {data.get('params_version')!r} of {spec.name}'s "
            f"parameters, not version {spec.params_version}: tune it again"
        )
    params = data.get("params")
    names = [p.name for p in spec.params]
    if not isinstance(params, dict) or sorted(params) != sorted(names):
        raise StrategyError(f"{where}: [params] must give exactly {', '.join(names)}")
    values = tuple(params[n] for n in names)
    if not all(isinstance(v, int | float) and math.isfinite(v) for v in values):
        raise StrategyError(f"{where}: every parameter must be a finite number")
    return tuple(float(v) for v in values)
