"""What each rules key means, in one line: the field docstrings of :class:`Rules`.

The docstring written under each field of :class:`~simulator.rules.options.Rules` is the
one home of an option's short meaning (docs/rules.md has the full text); this module
reads those docstrings from the source with :mod:`ast` (Python keeps no attribute
docstrings at run time), so ``president rules show --explain`` can never drift from them.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import itertools
import re

from simulator.rules import options
from simulator.rules.options import Rules


@functools.cache
def option_meanings() -> dict[str, str]:
    """Every option of :class:`Rules` → its docstring as one plain line (no RST markup)."""
    tree = ast.parse(inspect.getsource(options))
    rules = next(
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "Rules"
    )
    meanings: dict[str, str] = {}
    for field, doc in itertools.pairwise(rules.body):
        if (
            isinstance(field, ast.AnnAssign)
            and isinstance(field.target, ast.Name)
            and isinstance(doc, ast.Expr)
            and isinstance(doc.value, ast.Constant)
            and isinstance(doc.value.value, str)
        ):
            text = " ".join(doc.value.value.split())
            meanings[field.target.id] = re.sub(r"``([^`]*)``", r"\1", text)
    missing = [f.name for f in dataclasses.fields(Rules) if f.name not in meanings]
    if missing:
        raise AssertionError(f"Rules fields without a docstring: {', '.join(missing)}")
    return meanings
