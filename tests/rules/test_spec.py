"""The rule spec: every option declared once, with all that the rest of the code derives.

Each field of :class:`Rules` carries its meaning, its type and its allowed values; the
presets are package files; and no module but the spec, the kernel's layout and the
reference engine names a distinctive option key (docs/architecture.md, "fact → its one
home"), so that adding a rule touches few files.
"""

from __future__ import annotations

import dataclasses
import re
import typing
from pathlib import Path

import pytest

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
# The keys that are words of their own: only their homes may name them.
DISTINCTIVE = (
    "reseat", "equal_rank", "larger_sets", "transparent_threes", "two_ends_trick",
    "quad_burns", "revolution", "no_finish_on_two", "eight_ends_trick", "jack_back",
    "accumulation_burns", "out_ends_trick", "after_out_lead", "clubs_three_opens",
)  # fmt: skip
MAX_HOMES = 3  # the spec, the kernel's layout, the reference engine module of the rule


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


def test_each_distinctive_key_is_named_in_at_most_three_modules():
    """The count of docs/architecture.md ("Declare once"): a word, any case, in a module of
    ``simulator/`` or ``reports/``; tests and docs are free to name them."""
    modules = [p for d in ("simulator", "reports") for p in (ROOT / d).rglob("*.py")]
    texts = {p.relative_to(ROOT).as_posix(): p.read_text(encoding="utf-8") for p in modules}
    assert options.__file__ and len(texts) > 50
    over = {}
    for key in DISTINCTIVE:
        homes = [m for m, text in texts.items() if re.search(rf"\b{key}\b", text, re.I)]
        if len(homes) > MAX_HOMES:
            over[key] = homes
    assert not over, f"keys named outside their homes: {over}"
