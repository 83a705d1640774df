"""The code blocks of a Markdown page, for the tests that run a page's examples verbatim."""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import ROOT

FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.MULTILINE | re.DOTALL)
FILE_LINE = re.compile(r"^# (examples/\S+\.py)\n")  # a block that is a file of the tree, not to run


def code_blocks(page: Path, language: str) -> list[str]:
    """The ``language`` blocks of ``page``, in order, each exactly as written."""
    return [body for lang, body in FENCE.findall(page.read_text()) if lang == language]


@contextmanager
def working_in(folder: Path) -> Iterator[None]:
    """Run the page's examples from ``folder``: the files they name are written there."""
    before = Path.cwd()
    os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)


def run_python_blocks(page: Path, folder: Path) -> dict[str, object]:
    """Run every Python block of ``page`` in order in one namespace, from ``folder``; a
    block starting ``# examples/…/NAME.py`` is that file of the tree, whole (checked), and
    is written to ``folder/NAME.py`` instead, as a reader would save it. The namespace is
    returned, for the test to check what the examples computed. A deprecation warning
    raised by a line of the page is an error."""
    namespace: dict[str, object] = {"__name__": "__docs__"}
    with working_in(folder), warnings.catch_warnings():
        # a call of the page that a library deprecates (pandas 2.1's observed=False) fails
        for category in (DeprecationWarning, FutureWarning):
            warnings.filterwarnings("error", category=category, module="__docs__")
        for index, block in enumerate(code_blocks(page, "python")):
            named = FILE_LINE.match(block)
            if named:
                kept = ROOT / named.group(1)
                assert kept.read_text() == block, f"{page.name} shows {kept} otherwise"
                (folder / kept.name).write_text(block)
                continue
            exec(compile(block, f"{page.name}, python block {index + 1}", "exec"), namespace)
    return namespace
