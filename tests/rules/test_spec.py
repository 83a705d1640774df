"""The rule spec: every option declared once, with all that the rest of the code derives.

Each field of :class:`Rules` carries its meaning, its type and its allowed values; the
presets are package files; and no module but the spec, the kernel's layout and the
reference engine names an option key in its code (docs/architecture.md, "fact → its one
home"), so that adding a rule touches few files.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import re
import typing
from pathlib import Path

import pytest

from simulator.reference.round import Observation
from simulator.rules import options
from simulator.rules.options import (
    AT_TABLE,
    BOOL_KEYS,
    CHOICES,
    KEYS,
    TYPES,
    Rules,
    RulesError,
    allowed,
    option_meanings,
)
from simulator.rules.presets import PRESET_NAMES, PRESETS

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("simulator", "strategies", "reports")  # every production package
MAX_HOMES = 3  # the spec, the kernel's layout, the reference engine module of the rule
# Keys that are ordinary words the code uses in other senses too (a run's players, a
# match's target, a row's points, the exchange of cards...): the count cannot tell those
# uses apart, so these are not counted. Each must be named in more modules than
# MAX_HOMES (test_each_uncounted_key_needs_it), so the list cannot outgrow its reason;
# every other key of the spec, a new one included, is counted.
ORDINARY_WORDS = ("players", "jokers", "dealer", "exchange", "opener", "points", "target")
# The kernel adapter copies every field of the reference engine's Observation into the
# kernel's state (strategies/adapter.py), and a field may bear its rule's name
# (``jack_back``: the order reversed by jacks until the trick ends): it may name those,
# and so may the Observation's own module.
OBSERVED = {f.name for f in dataclasses.fields(Observation)} & set(KEYS)
ADAPTER = "strategies/adapter.py"
OBSERVERS = (ADAPTER, "simulator/reference/observation.py")


def names_in_code(source: str) -> set[str]:
    """The words a module's code names, lower-cased: identifiers, attributes, arguments,
    and string constants that are a word by themselves (``SLOT["jack_back"]``); prose
    (docstrings, comments, help and messages) names a rule without depending on it."""
    words = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.arg | ast.keyword) and node.arg:
            words.add(node.arg)
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            words.add(node.name)
        elif isinstance(node, ast.alias):
            words.add(node.asname or node.name)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            words.add(node.value)
    return {word.lower() for word in words}


@functools.cache
def homes() -> dict[str, list[str]]:
    """Each key of the spec → the production modules whose code names it."""
    modules = [p for d in PACKAGES for p in sorted((ROOT / d).rglob("*.py"))]
    named = {p.relative_to(ROOT).as_posix(): names_in_code(p.read_text("utf-8")) for p in modules}
    assert options.__file__ and len(named) > 100
    return {key: [m for m, words in named.items() if key in words] for key in KEYS}


@pytest.mark.parametrize("f", dataclasses.fields(Rules), ids=lambda f: f.name)
def test_every_option_declares_its_meaning_type_and_allowed_values(f):
    assert f.metadata["meaning"].endswith((".", ")")), f.name
    assert "``" not in f.metadata["meaning"]  # plain words: the report and TOML show them
    kind = TYPES[f.name]
    assert isinstance(f.default, typing.get_origin(kind) or kind)
    if kind is bool:
        assert f.name in BOOL_KEYS and allowed(f.name) == "true, false"
        assert not f.metadata["choices"]
    elif f.name in CHOICES:
        assert f.default in CHOICES[f.name]
        assert all(type(v) is kind for v in CHOICES[f.name])
    else:
        assert f.metadata["allowed"], f"{f.name} says neither its choices nor what it allows"


@pytest.mark.parametrize("key", sorted(CHOICES))
def test_a_value_outside_the_choices_is_refused_naming_them(key):
    wrong = 1 if TYPES[key] is str else "x"
    with pytest.raises(RulesError, match=rf"{key} = .* \(allowed: {re.escape(allowed(key))}\)"):
        Rules().with_options(**{key: wrong})


def test_meanings_and_table_wordings_come_from_the_declarations():
    assert list(option_meanings()) == list(KEYS)
    assert set(AT_TABLE) <= set(BOOL_KEYS)  # what the screen says when a yes/no rule acts
    assert AT_TABLE["two_ends_trick"] == "2s end the trick"


def test_the_preset_files_are_the_presets():
    folder = ROOT / "simulator" / "rules" / "preset-files"
    assert sorted(p.stem for p in folder.glob("*.toml")) == sorted(PRESET_NAMES)
    for name, (description, changes) in PRESETS.items():
        assert description and not description.startswith("#"), name
        assert set(changes) <= set(KEYS), name


def test_each_key_is_named_in_at_most_three_modules():
    """The count of docs/architecture.md ("Declare once"): every key of the spec but the
    ordinary words is named by the code of at most three modules of ``simulator/``,
    ``strategies/`` and ``reports/`` (tests and docs are free to name them)."""
    over = {}
    for key, where in homes().items():
        counted = [m for m in where if not (m in OBSERVERS and key in OBSERVED)]
        if key not in ORDINARY_WORDS and len(counted) > MAX_HOMES:
            over[key] = counted
    assert not over, f"keys named outside their homes: {over}"


def test_each_uncounted_key_needs_it():
    assert set(ORDINARY_WORDS) <= set(KEYS)
    assert all(len(homes()[key]) > MAX_HOMES for key in ORDINARY_WORDS)
    assert all(ADAPTER in homes()[key] for key in OBSERVED)


def test_the_count_reads_code_not_prose():
    source = (
        'R = SLOT["jack_back"]\nx = rules.Revolution\n"""Under quad_burns, 4s burn."""  # passing'
    )
    assert {"jack_back", "revolution"} <= names_in_code(source)
    assert not {"quad_burns", "passing"} & names_in_code(source)
