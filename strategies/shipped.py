"""linear's weights for the rules in force: the sets ``president tune`` found, shipped.

Each file of ``strategies/linear-weights/`` (package data, in the tuned-file format of
:mod:`strategies.tuned`: the weights, the feature-set version as ``params_version``, how
they were tuned and the rules they were tuned for) holds ``linear``'s weights for one
rule set: each preset (named after it), each table of ``examples/rules/`` (named as
its file) and the atlas's rule sets whose change the preset's set misreads
(``french-two-ends-trick``, ``french-3-players``: the preset, a dash, the change). Under
the rules in force ``linear`` plays (:func:`weights_for`):

1. the set tuned for exactly these rules (every option, players included) — the hand-set
   weights themselves where the tune lost to them on held-out deals (its ``[tuning]``
   says so);
2. else the set of the preset the rules derive from (:func:`derived_preset`);
3. else the hand-set defaults of ``LINEAR_PARAMS``.

The choice depends on the resolved rules alone, which every engine, a resumed run and
``replay`` hold, so the same seed and arguments give the same data everywhere.

``search-settings.toml`` (package data too) holds, per shipped set, the search
parameters of ``champion`` and ``clairvoyant`` that differ from their declared defaults
under the rules that play that set (:func:`search_for`): where the declared search, sized
for the speed target under ``french``, loses to ``montecarlo``.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from simulator.rules.files import rules_from_mapping
from simulator.rules.options import Rules, RulesError
from simulator.rules.presets import PRESET_NAMES, preset
from strategies.specs import BUILT_INS, CHAMPION, LINEAR, StrategyError
from strategies.tuned import values_of

FOLDER = "linear-weights"  # in the package ``strategies`` (pyproject.toml's package-data)
SEARCH_FILE = "search-settings.toml"  # beside it: the search players' settings per set
DIGEST_CHARS = 12  # of the sha256: enough to tell sets apart in a summary
SPEC = next(b for b in BUILT_INS if b.kernel_id == LINEAR)  # linear as declared
SEARCH_SPEC = next(b for b in BUILT_INS if b.kernel_id == CHAMPION)  # clairvoyant's alike
DEFAULTS = tuple(float(p.default) for p in SPEC.params)


def digest(values: Sequence[float]) -> str:
    """A short sha256 of weights: the same numbers give the same digest on every machine."""
    text = ",".join(repr(float(v)) for v in values)
    return hashlib.sha256(text.encode()).hexdigest()[:DIGEST_CHARS]


@dataclass(frozen=True)
class Weights:
    """linear's parameters (every one, in declaration order) and where they come from."""

    values: tuple[float, ...]
    tuned_for: str | None = None  # the shipped set's name; None: the hand-set defaults
    exact: bool = False  # tuned for exactly the rules in force, not for their preset

    @property
    def source(self) -> str:
        """Where the weights come from, in words (``strategies -v``, ``summary.json``)."""
        if self.tuned_for is None:
            return "hand-set defaults"
        # a set whose tune lost to the hand-set weights on held-out deals ships those
        what = "hand-set defaults, shipped" if self.values == DEFAULTS else "shipped, tuned"
        text = f"{what} for {self.tuned_for}"
        return text if self.exact else f"{text} (the preset these rules derive from)"

    @property
    def digest(self) -> str:
        """The short sha256 of the values (:func:`digest`)."""
        return digest(self.values)


@dataclass(frozen=True)
class Shipped:
    """One shipped set: its name, the rules it was tuned for, linear's values."""

    name: str
    rules: Rules
    values: tuple[float, ...]


def read_set(name: str, text: str) -> Shipped:
    """The shipped set ``name`` from its file's text, or a StrategyError in one line (a
    file for another version of linear's features is refused: its weights would weigh
    other features)."""
    where = f"shipped weights {FOLDER}/{name}.toml"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{where} is not readable TOML: {exc}") from None
    if data.get("strategy") != SPEC.name:
        raise StrategyError(f"{where}: strategy must be {SPEC.name!r}")
    values = values_of(data, where, SPEC)
    try:
        rules = rules_from_mapping(data.get("rules"))
    except RulesError as exc:
        raise StrategyError(f"{where}: {exc}") from None
    return Shipped(name, rules, values)


@cache
def shipped() -> tuple[Shipped, ...]:
    """Every shipped set, by name (read once per process)."""
    # beside this module, not files("strategies"): a script run from examples/ sees
    # examples/strategies/ as a namespace portion of that name
    folder = Path(__file__).resolve().parent / FOLDER
    entries = sorted((f for f in folder.iterdir() if f.name.endswith(".toml")), key=str)
    return tuple(read_set(f.name.removesuffix(".toml"), f.read_text("utf-8")) for f in entries)


def distance(a: Rules, b: Rules) -> int:
    """The number of options (players included) on which two rule sets differ."""
    left, right = a.to_dict(), b.to_dict()
    return sum(left[key] != right[key] for key in left)


def derived_preset(rules: Rules) -> str | None:
    """The preset ``rules`` derive from: the one they differ from in the fewest options
    (the first of PRESET_NAMES on a tie), unless the rule book's defaults — where a
    rules file without ``preset`` starts — are nearer still (None)."""
    best = min(PRESET_NAMES, key=lambda name: distance(rules, preset(name)))
    return best if distance(rules, preset(best)) <= distance(rules, Rules()) else None


@cache
def weights_for(rules: Rules) -> Weights:
    """The weights ``linear`` plays under ``rules`` (the module's order); kept per rules,
    as the reference engine asks for every match."""
    sets = shipped()
    exact = next((s for s in sets if s.rules == rules), None)
    if exact is not None:
        return Weights(exact.values, exact.name, exact=True)
    base = derived_preset(rules)
    derived = next((s for s in sets if s.name == base), None)
    if derived is not None:
        return Weights(derived.values, derived.name)
    return Weights(DEFAULTS)


@cache
def search_settings() -> dict[str, dict[str, float]]:
    """:data:`SEARCH_FILE`, read once per process (:func:`read_search`)."""
    return read_search((Path(__file__).resolve().parent / SEARCH_FILE).read_text("utf-8"))


def read_search(text: str) -> dict[str, dict[str, float]]:
    """Per shipped set, the search parameters that differ from the declared ones, from
    the text of :data:`SEARCH_FILE`, or a StrategyError in one line (a set that is not
    shipped, a parameter the search players do not have)."""
    where = f"shipped search settings {SEARCH_FILE}"
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StrategyError(f"{where} is not readable TOML: {exc}") from None
    sets, params = [s.name for s in shipped()], [p.name for p in SEARCH_SPEC.params]
    settings = {}
    for name, table in data.items():
        if name not in sets or not isinstance(table, dict):
            raise StrategyError(
                f"{where}: [{name}] is not a shipped set (allowed: {', '.join(sets)})"
            )
        # a TOML true is an int to Python: a number here is an int or a float, not a bool
        bad = [
            k for k, value in table.items() if k not in params or type(value) not in (int, float)
        ]
        if bad:
            raise StrategyError(f"{where}: [{name}] {bad[0]} is not a number of a search "
                                f"parameter (allowed: {', '.join(params)})")  # fmt: skip
        settings[name] = {key: float(value) for key, value in table.items()}
    return settings


def search_for(rules: Rules) -> dict[str, float]:
    """The search parameters ``champion`` and ``clairvoyant`` play under ``rules`` where
    they differ from the declared ones: those of the shipped set linear plays there."""
    name = weights_for(rules).tuned_for
    return search_settings().get(name, {}) if name is not None else {}


def search_source(rules: Rules) -> str:
    """Where the search players' settings under ``rules`` come from, in words
    (``strategies -v``, ``summary.json``): "shipped for NAME" or "declared defaults"."""
    found = search_for(rules)
    return f"shipped for {weights_for(rules).tuned_for}" if found else "declared defaults"
