"""How an option of the rule book is declared (:func:`option`): a dataclass field of
:class:`~simulator.rules.options.Rules` with the metadata the rest of the code derives from
(the allowed values and checks, ``rules show --explain``, the play screen's words, the
atlas's choice, the kernel's rules array).
"""

from __future__ import annotations

import dataclasses
from typing import Any


def option(
    default: Any,
    meaning: str,
    *,
    choices: tuple[Any, ...] = (),
    bounds: tuple[int, int] | None = None,
    allowed: str = "",
    at_table: str = "",
    argued: bool = False,
) -> Any:
    """One option of :class:`Rules`: its default and what the rest of the code derives.

    ``meaning``: the option in one line (docs/rules.md has the full text); ``choices``:
    its allowed values, in the order the kernel numbers them; ``bounds``: the range of
    an integer; ``allowed``: the allowed values in words when neither says them;
    ``at_table``: what the play screen says when the rule acts; ``argued``: one of the
    house rules players argue about most, which the default atlas measures changed alone
    (the others: ``president atlas --all``).
    """
    metadata = {
        "meaning": meaning,
        "choices": choices,
        "bounds": bounds,
        "allowed": allowed,
        "at_table": at_table,
        "argued": argued,
    }
    return dataclasses.field(default=default, metadata=metadata)
