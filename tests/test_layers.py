"""The layers of the code base: every import goes down the stack, never up, never round.

This file is the one statement of the layer order (docs/architecture.md draws it). A module may
import from its own layer or any layer below; module-level imports and imports inside
functions count alike (only ``if TYPE_CHECKING:`` blocks are exempt, as they never run).
The command line is a leaf: nothing imports it, the Python API beside it included (both
call the library below). A cycle is refused even inside one layer, type-only imports
included (two modules that name each other's types cannot be read one before the other),
and no module grows past 450 lines.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.conftest import ROOT

PACKAGES = ("simulator", "strategies", "reports")
# Bottom to top; a module belongs to the first layer whose prefix names it.
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundation", ("simulator", "simulator.stats")),
    ("rule book", ("simulator.rules",)),
    (
        "reference engine and kernel primitives",
        ("simulator.reference", "simulator.kernel", "simulator.env"),
    ),
    ("strategies", ("strategies",)),
    ("compiled match loop", ("simulator.matchloop", "simulator.env.vector")),
    ("runs", ("simulator.runs",)),
    ("analytics and pages", ("reports",)),
    ("applications", ("simulator.apps", "simulator.uecda")),
    ("command line and Python API", ("simulator.cli", "simulator.__main__", "simulator.api")),
)
MAX_LINES = 450


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {
    module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))
}


def layer_of(module: str) -> int:
    """Index of the layer a module belongs to (the longest matching prefix wins)."""
    best, length = -1, -1
    for index, (_, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            matches = module == prefix or module.startswith(prefix + ".")
            if matches and len(prefix) > length:
                best, length = index, len(prefix)
    assert best >= 0, f"{module} belongs to no layer: add it to LAYERS"
    return best


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(module: str, typing: bool = False) -> set[str]:
    """The project modules ``module`` imports, anywhere in its body; those of
    ``if TYPE_CHECKING:`` blocks only with ``typing``."""
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child) and not typing:
                continue
            if isinstance(child, ast.Import):
                found.update(alias.name for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    anchor = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*anchor, *([child.module] if child.module else [])])
                found.add(base)
                found.update(f"{base}.{alias.name}" for alias in child.names)
            visit(child)

    visit(ast.parse(path.read_text()))
    resolved = set()
    for name in found:
        while name and name not in MODULES:
            name = name.rpartition(".")[0]
        if name and name != module:
            resolved.add(name)
    return resolved


GRAPH = {module: imports_of(module) for module in MODULES}
TYPED_GRAPH = {module: imports_of(module, typing=True) for module in MODULES}
COMMAND_LINE = ("simulator.cli", "simulator.__main__")  # the leaves: nothing imports them


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_go_down_the_layers(module):
    mine = layer_of(module)
    upward = [m for m in GRAPH[module] if layer_of(m) > mine]
    assert not upward, f"{module} ({LAYERS[mine][0]}) imports from higher layers: " + ", ".join(
        f"{m} ({LAYERS[layer_of(m)][0]})" for m in sorted(upward)
    )


@pytest.mark.parametrize("module", sorted(MODULES))
def test_nothing_imports_the_command_line(module):
    """The Python API and every layer below call the library, never a command: what both
    need (orchestration, progress, formatting) lives in ``simulator/runs`` or ``reports``."""

    def command_line(name: str) -> bool:
        return any(name == p or name.startswith(p + ".") for p in COMMAND_LINE)

    if command_line(module):
        return
    found = [m for m in TYPED_GRAPH[module] if command_line(m)]
    assert not found, f"{module} imports the command line: " + ", ".join(sorted(found))


def test_no_import_cycle():
    """Depth-first search over the whole graph, type-only imports included: a back edge
    is a cycle."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> None:
        state[module] = 1
        path.append(module)
        for target in sorted(TYPED_GRAPH[module]):
            if state.get(target) == 1:
                cycle = [*path[path.index(target) :], target]
                pytest.fail("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        path.pop()
        state[module] = 2

    for module in sorted(TYPED_GRAPH):
        if module not in state:
            visit(module)


@pytest.mark.parametrize("module", sorted(MODULES))
def test_modules_stay_small(module):
    lines = len(MODULES[module].read_text().splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines (at most {MAX_LINES}): split it"


def test_a_module_outside_every_layer_is_noticed():
    with pytest.raises(AssertionError, match="belongs to no layer"):
        layer_of("elsewhere.module")
    assert layer_of("simulator.rules.options") == 1
    assert layer_of("simulator.stats") == 0


def test_a_cycle_through_type_only_imports_is_seen(tmp_path, monkeypatch):
    """The two circles this test once missed (``if TYPE_CHECKING:`` imports only) are seen."""
    monkeypatch.setattr(
        "tests.test_layers.MODULES",
        {"pkg.a": tmp_path / "a.py", "pkg.b": tmp_path / "b.py"},
    )
    (tmp_path / "a.py").write_text("from pkg.b import f\n")
    (tmp_path / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.a import g\n"
    )
    assert imports_of("pkg.b") == set()
    assert imports_of("pkg.b", typing=True) == {"pkg.a"}
