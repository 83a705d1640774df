"""Shared test helpers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from simulator.cli import cli, main

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples" / "replay"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files marked ``early`` first and those marked ``late`` last (a stable sort:
    each file's tests stay together, in their order): on several workers (pytest-xdist,
    one file to a worker) the long compiles of the early files start at once, and the
    many short files fill the end of the run. Only files whose compiles no other early
    file makes are marked: two workers compiling the same code at once each do all of it
    (the specialised-loop test and the search players' files, started beside the atlas,
    compiled the search players a second time: 100 s of the suite, 6 December 2026);
    later, they load what the atlas compiled from numba's cache. A file marked ``late``
    needs what an early file compiles, the atlas's search tier (the specialised-loop
    test its loop, ``advise`` its players): at the end of the run that compile is over."""
    items.sort(key=order)


def order(item: pytest.Item) -> int:
    """0 for the files marked ``early``, 2 for those marked ``late``, 1 for the others."""
    if item.get_closest_marker("early") is not None:
        return 0
    return 2 if item.get_closest_marker("late") is not None else 1


class Result:
    """What a command printed and how it exited (through the real entry point)."""

    def __init__(self, exit_code: int, stdout: str, stderr: str) -> None:
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr

    def events(self) -> list[dict]:
        return [json.loads(line) for line in self.stdout.splitlines() if line.strip()]


def without_compile_notice(stderr: str) -> list[str]:
    """The lines of ``stderr`` less the notice that a kernel compiles (given or not
    depending on the cache), its wrapped lines included (they start with two spaces)."""
    kept: list[str] = []
    in_notice = False
    for line in stderr.splitlines():
        in_notice = line.startswith("compiling ") or (in_notice and line.startswith("  "))
        if not in_notice:
            kept.append(line)
    return kept


def run_cli(*args: str) -> Result:
    """Run ``president ARGS`` in-process through ``main`` (exit codes included)."""
    runner = CliRunner()
    result = runner.invoke(_entry, list(args), catch_exceptions=False)
    return Result(result.exit_code, result.stdout, result.stderr)


import click  # noqa: E402


@click.command(
    context_settings={
        "ignore_unknown_options": True,
        "allow_extra_args": True,
        "help_option_names": [],
    }
)
@click.pass_context
def _entry(ctx: click.Context) -> None:
    main(list(ctx.args))


@pytest.fixture
def cli_group():
    return cli
