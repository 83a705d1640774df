"""The documentation keeps up with the code, and nothing in the tree points outside it.

docs/rules.md has a section for every option of :class:`simulator.rules.options.Rules`;
docs/formats.md documents every column of :data:`simulator.runs.schema.SCHEMA` (its dtype,
in its order) and every key :func:`simulator.runs.summary.summary_of` writes; and every
reference to a repository file or module — in the README, the docs, docstrings and
comments — names one that exists.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import io
import re
import subprocess
import tokenize
from pathlib import Path

import click
import pytest

from simulator.cli import cli
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from simulator.runs.job import default_strategies, make_config
from simulator.runs.schema import COLUMNS, SCHEMA
from simulator.runs.simulate import run
from simulator.runs.summary import summary_of
from tests.conftest import ROOT

DOCS = ROOT / "docs"

# --- Markdown structure -------------------------------------------------------------------


def heading_of(line: str, fenced: bool) -> tuple[int, str] | None:
    """``(level, title)`` of a Markdown heading line; a ``#`` line in a code block is none."""
    match = None if fenced else re.match(r"(#{1,6}) (.*)", line)
    return (len(match[1]), match[2].strip()) if match else None


def lines_of(text: str) -> list[tuple[str, bool]]:
    """Each line of a Markdown text, with whether it lies in a fenced code block."""
    fenced, out = False, []
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        out.append((line, fenced))
    return out


def sections(text: str, level: int) -> dict[str, str]:
    """Heading → body of every heading of ``level``; a body runs to the next heading of
    that level or above."""
    found: dict[str, str] = {}
    title, body = None, []
    for line, fenced in [*lines_of(text), ("#", False)]:
        heading = heading_of(line, fenced) or ((1, "") if line == "#" else None)
        if heading and heading[0] <= level:
            if title is not None:
                found[title] = "\n".join(body)
            title = heading[1] if heading[0] == level else None
            body = []
        else:
            body.append(line)
    return found


def section(text: str, level: int, contains: str) -> str:
    """The body of the one heading of ``level`` whose title contains ``contains``."""
    hits = [body for title, body in sections(text, level).items() if contains in title]
    assert len(hits) == 1, f"expected one level-{level} heading containing {contains!r}"
    return hits[0]


def table_rows(body: str) -> dict[str, list[str]]:
    """Every name in backticks in a table row's first cell → the row's other cells."""
    rows = {}
    for line in body.splitlines():
        if not line.startswith("|") or re.match(r"\|[-| ]+\|$", line):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        for name in re.findall(r"`([^`]+)`", cells[0]):
            rows[name] = cells[1:]
    return rows


# --- (a) docs/rules.md, (b) and (c) docs/formats.md ---------------------------------------


def test_every_option_has_a_section_in_rules_md():
    headings = re.findall(r"^## `([a-z_]+)`$", (DOCS / "rules.md").read_text(), re.MULTILINE)
    missing = [f.name for f in dataclasses.fields(Rules) if f.name not in headings]
    assert not missing, f"docs/rules.md has no ## `key` section for: {', '.join(missing)}"


def test_every_column_is_documented_with_its_dtype():
    table = table_rows(section((DOCS / "formats.md").read_text(), 2, "rounds table"))
    missing = [c.name for c in SCHEMA if c.name not in table]
    assert not missing, f"docs/formats.md's rounds table lacks the columns {missing}"
    wrong = [(c.name, c.dtype, table[c.name][0]) for c in SCHEMA if table[c.name][0] != c.dtype]
    assert not wrong, f"docs/formats.md gives other dtypes (column, schema, docs): {wrong}"
    documented = [name for name in table if name in COLUMNS]
    assert documented == list(COLUMNS), "docs/formats.md lists the columns in another order"


@pytest.fixture(scope="module")
def summary():
    """A real summary.json of two matches on the reference engine."""
    rules = preset("french")
    config = make_config(rules, default_strategies(rules.players), seed=1, matches=2)
    return summary_of(config, run(config, None, engine="python"))


def test_every_summary_key_is_documented(summary):
    formats = (DOCS / "formats.md").read_text()
    documented = table_rows(section(formats, 3, "summary.json"))
    missing = [key for key in summary if key not in documented]
    entry_keys = {key for entry in summary["table"] for key in entry}
    missing += [f"table[].{key}" for key in sorted(entry_keys - set(documented))]
    option_keys = table_rows(section(formats, 2, "Rules files"))
    missing += [f"rules.{key}" for key in summary["rules"] if key not in option_keys]
    assert not missing, f"docs/formats.md does not document the summary keys {missing}"


# --- (e) docs/cli.md: click's own command tree -------------------------------------------


def command_tree(command: click.Command, path: str = "president"):
    """``(path, command)`` of the group and every command under it, as typed."""
    yield path, command
    if isinstance(command, click.Group):
        ctx = click.Context(command)
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            assert sub is not None
            yield from command_tree(sub, f"{path} {name}")


def option_names(command: click.Command) -> set[str]:
    return {
        name
        for param in command.params
        if isinstance(param, click.Option)
        for name in (*param.opts, *param.secondary_opts)
    }


def test_cli_md_documents_every_command_and_option_and_no_other():
    text = (DOCS / "cli.md").read_text()
    documented = {title.strip("`"): body for title, body in sections(text, 2).items()}
    commands = dict(command_tree(cli))
    assert sorted(documented) == sorted(commands), "docs/cli.md: one ## section per command"
    known = {"--help"}  # every command's own, not one of its params
    for path, command in commands.items():
        body, names = documented[path], option_names(command)
        rows = set(table_rows(body))
        assert rows == names, f"{path}: missing {names - rows}, unknown {rows - names}"
        usage = body.strip().splitlines()[0]
        for argument in command.params:
            if isinstance(argument, click.Argument):
                assert f" {argument.make_metavar(click.Context(command))}" in usage, path
        known |= names
    named = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", text))
    assert named <= known, f"docs/cli.md names options that do not exist: {named - known}"


# --- (d) references -----------------------------------------------------------------------

TOP = "docs|simulator|strategies|reports|tests|examples|benchmarks"
# A repository path: a top-level folder then path characters, not inside a longer path.
PATH = re.compile(rf"(?<![\w./~-])(?:{TOP})/[\w./*-]*")
# A Markdown file named without its folder, not as the end of a path.
BARE_MD = re.compile(r"(?<![\w./-])[A-Za-z][\w-]*\.md\b")
# A Python file named without its folder; names in capitals (``FILE.py``) are placeholders.
BARE_PY = re.compile(r"(?<![\w./-])(?![A-Z]+\.py)[A-Za-z_][\w-]*\.py\b")
# A Markdown link's target: [text](target).
LINK = re.compile(r"\]\(([^)\s]+)\)")
# A Markdown file's section by its anchor in any file's prose (docs/reports.md#compare),
# not as a link's target (the "link" check's).
ANCHORED = re.compile(r"(?<![\w./-])(?<!\]\()((?:[\w-]+/)*[\w-]+\.md)#([\w-]+)")
# A section cited by its title: README "Commands", docs/reports.md's section "Compare".
TITLED = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.md|README)(?:'s)?(?: section)? \"([^\"]+)\"")
# A numbered section: `docs/formats.md` §2, [`docs/formats.md`](docs/formats.md) §6.
NUMBERED = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.md)`?\)? §(\d+)")
# A dotted module path (``simulator.runs.job.SimConfig``), not an attribute of something else
# nor a Markdown file (``docs/strategies.md``, a link to ``docs/reports.md``).
MODULE = re.compile(r"(?<![\w.])(?:simulator|strategies|reports)(?:\.(?!md\b)[A-Za-z_]\w*)+")


def _git(*args: str) -> list[str]:
    out = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True)
    return out.stdout.splitlines()


IN_GIT = (ROOT / ".git").exists()
FILE_NAMES = (
    {Path(name).name for name in _git("ls-files", "-co", "--exclude-standard")} if IN_GIT else set()
)


def prose_of(path: Path) -> str:
    """The text a reader reads: a Markdown or TOML file whole, a Python file's docstrings
    (attribute docstrings included) and comments. Names in code are checked by running
    it; strings in code are data (a test's made-up file names), not references."""
    text = path.read_text()
    if path.suffix != ".py":
        return text
    docstrings = [
        node.value.value
        for node in ast.walk(ast.parse(text))
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]
    tokens = tokenize.generate_tokens(io.StringIO(text).readline)
    return "\n".join([*docstrings, *(t.string for t in tokens if t.type == tokenize.COMMENT)])


def slug(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _exists(relative: str, base: Path) -> bool:
    if "*" in relative:
        return any(base.glob(relative))
    return (base / relative).exists()


def _anchor_exists(target: str, where: Path) -> bool:
    file, _, anchor = target.partition("#")
    path = where.parent / file if file else where
    if not anchor or path.suffix != ".md" or not path.is_file():
        return True
    headings = [heading_of(line, fenced) for line, fenced in lines_of(path.read_text())]
    return anchor in {slug(h[1]) for h in headings if h}


def _headings(name: str, where: Path) -> list[str] | None:
    """The headings of the Markdown file ``name`` ("README": README.md), read from the
    root or beside ``where``; None when there is no such file."""
    name = "README.md" if name == "README" else name
    for path in (ROOT / name, where.parent / name):
        if path.is_file():
            return [h[1] for h in (heading_of(*line) for line in lines_of(path.read_text())) if h]
    return None


def _sections_missing(text: str, where: Path) -> list[str]:
    """The sections ``text`` cites by anchor, title or number (:data:`ANCHORED`,
    :data:`TITLED`, :data:`NUMBERED`) that their file lacks; a file that is not there is
    the "path" check's to report."""
    tests = ((ANCHORED, lambda heading, anchor: slug(heading) == anchor),
             (TITLED, lambda heading, title: heading.startswith(title)),
             (NUMBERED, lambda heading, number: heading.startswith(f"{number}.")))  # fmt: skip
    missing = []
    for pattern, holds in tests:
        for match in pattern.finditer(text):
            headings = _headings(match[1], where)
            if headings is not None and not any(holds(h, match[2]) for h in headings):
                missing.append(match[0])
    return missing


def _resolves(dotted: str) -> bool:
    """Whether ``dotted`` is a module, or an attribute (chain) of the longest module prefix."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:  # a prefix is a module, not a package
            found = False
        if not found:
            continue
        obj = importlib.import_module(name) if cut < len(parts) else None
        for attribute in parts[cut:]:
            if not hasattr(obj, attribute):
                return False
            obj = getattr(obj, attribute)
        return True
    return False


def dangling(text: str, where: Path) -> dict[str, list[str]]:
    """The references in ``text`` (read in the file ``where``) that name nothing in the
    tree, by kind."""
    bad: dict[str, list[str]] = {
        "path": [r.rstrip(".") for r in PATH.findall(text) if not _exists(r.rstrip("."), ROOT)],
        "bare .md": [
            r for r in BARE_MD.findall(text) if not (_exists(r, where.parent) or _exists(r, ROOT))
        ],
        "bare .py": [r for r in BARE_PY.findall(text) if r not in FILE_NAMES],
        "module": [r for r in MODULE.findall(text) if not _resolves(r)],
        "link": [],
        "section": _sections_missing(text, where),
    }
    if where.suffix == ".md":
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):  # https:, mailto:
                continue
            file = target.partition("#")[0]
            if (file and not _exists(file, where.parent)) or not _anchor_exists(target, where):
                bad["link"].append(target)
    return {kind: refs for kind, refs in bad.items() if refs}


FILES = [
    ROOT / name
    for name in (_git("ls-files", "*.py", "*.md", "*.toml") if IN_GIT else [])
    if (ROOT / name).exists()
]


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(ROOT)) for p in FILES])
def test_no_dangling_reference(path):
    name = str(path.relative_to(ROOT))
    bad = dangling(prose_of(path), path)
    assert not bad, f"{name} refers to what the tree lacks: {bad}"


# --- no machine's paths ------------------------------------------------------------------

# The folders that hold one machine's own files: a user's home, a work or scratch folder,
# the temporary folder. A tracked file naming a path under one points where another
# machine has nothing (the system's own paths, /usr/bin/env and Debian's packages', are
# the same everywhere and not among them).
MACHINE_FOLDERS = ("home", "root", "Users", "work", "tmp", "var", "mnt", "srv", "opt",
                   "media", "private", "scratch", "data")  # fmt: skip
MACHINE_PATH = re.compile(
    rf"(?<![\w.~$/-])/(?:{'|'.join(MACHINE_FOLDERS)})(?![\w.-])|\b[A-Z]:\\+Users\\+"
)


def machine_paths(text: str) -> list[str]:
    """The machine paths ``text`` names (:data:`MACHINE_PATH`), each as its line."""
    return [line.strip() for line in text.splitlines() if MACHINE_PATH.search(line)]


def test_no_tracked_file_names_a_machine_path():
    """Every tracked text file, code and data alike: the project is read on other machines."""
    found = {}
    for name in _git("ls-files") if IN_GIT else []:
        try:
            text = (ROOT / name).read_text("utf-8")
        except (UnicodeDecodeError, FileNotFoundError):  # a binary file, a deleted one
            continue
        if machine_paths(text):
            found[name] = machine_paths(text)
    assert not found, f"tracked files name paths of one machine: {found}"


@pytest.mark.skipif(not IN_GIT, reason="needs the git tree")
def test_no_tracked_file_holds_a_merge_conflict_marker():
    """A merge left half done reads as text to every other check (a page once kept both
    sides of a conflict for a session)."""
    marker = re.compile(r"^(<{7} |={7}$|>{7} )", re.MULTILINE)
    found = []
    for name in _git("ls-files"):
        path = ROOT / name
        if path.suffix in (".md", ".py", ".toml", ".txt", ".json", ".sh") or name == ".ci/run":
            text = path.read_text(encoding="utf-8", errors="replace")
            found += [f"{name}: {m.group(0)!r}" for m in marker.finditer(text)]
    assert found == [], found


def test_the_machine_path_scanner():
    # "|" stands for "/" in the paths meant to be found, so that this file names none
    found = "see |work|shared|RESEARCH.md, |home|ann|x.py, `|tmp`, (|Users|bob|runs)"
    text = "\n".join(
        [
            found.replace("|", "/"),
            "|var|folders|x |root|.cache".replace("|", "/"),
            "C:" + "\\" + "Users" + "\\" + "ann",  # a Windows home
            "not: benchmarks/variance_levers.py https://example.org/home/a ~/.cache/president-sim",
            "nor: $TMPDIR/president-sim #!/usr/bin/env bash /usr/bin/chromium runs/tmp/x /workers",
        ]
    )
    assert machine_paths(text) == text.splitlines()[:3]


def test_the_scanner_finds_each_kind_of_dangling_reference():
    text = "\n".join(
        [
            "see simulator/engine.py and docs/rules.md, `equal_rank`; docs/strategies.md, [reports](reports.md);",
            "the rule book is RULES.md, the layout kernel/layout.py;",
            "old modules: simulator.kernel.api and simulator.runs.job.NoSuchThing,",
            "new ones: simulator.runs.job.SimConfig.to_json, strategies.specs.",
            "a file alone: output.py, bench_kernel.py, FILE.py:NAME.",
            "[rules](rules.md#no-such-section) [formats](formats.md#1-rules-files-toml)",
            "[old](../simulator/match.py) [web](https://example.org/x.md) [up](#presets)",
            'docs/reports.md#compare docs/reports.md#gone README "Commands" README "Moved"',
            'docs/reports.md\'s section "Compare", `docs/formats.md` §2, formats.md §9.',
        ]
    )
    assert dangling(text, DOCS / "example.md") == {
        "path": ["simulator/engine.py"],
        "bare .md": ["RULES.md"],
        "bare .py": ["output.py"],
        "module": ["simulator.kernel.api", "simulator.runs.job.NoSuchThing"],
        "link": ["rules.md#no-such-section", "../simulator/match.py"],
        "section": ["docs/reports.md#gone", 'README "Moved"', "formats.md §9"],
    }
    # Links are Markdown's: in a Python file the same text has no link to check, and a
    # page named without its folder is looked for at the root or beside the file only.
    kinds = {"path", "bare .md", "bare .py", "module", "section"}
    assert dangling(text, ROOT / "example.py").keys() == kinds
    assert dangling(text, ROOT / "example.py")["section"] == [
        "docs/reports.md#gone",
        'README "Moved"',
    ]
    same_file = "[up](#presets) [down](#no-such-section)"
    assert dangling(same_file, DOCS / "rules.md") == {"link": ["#no-such-section"]}


def test_prose_of_a_python_file_is_its_docstrings_and_comments(tmp_path):
    source = tmp_path / "example.py"
    source.write_text(
        '"""Module."""\nimport simulator.stats\n\nstrategies = ["simulator/nowhere.py"]\n'
        '"""Attribute."""\n\n\ndef f():\n    """Function."""  # and a comment\n'
    )
    assert prose_of(source).split("\n") == ["Module.", "Attribute.", "Function.", "# and a comment"]


def test_sections_skip_comments_in_code_blocks():
    text = "## One\n```toml\n# a comment\nx = 1\n```\n| `k` | v |\n### Sub\n## Two\ny\n"
    assert table_rows(section(text, 2, "One")) == {"k": ["v"]}
    assert sections(text, 3) == {"Sub": ""}


def test_slugs_follow_github():
    assert (
        slug("3. The rounds table: `DIR/rounds.parquet`") == "3-the-rounds-table-dirroundsparquet"
    )
    assert slug("5. `president compare --out` and `president tournament --out`") == (
        "5-president-compare---out-and-president-tournament---out"
    )


# --- the README: the way in --------------------------------------------------------------

README_MAX_LINES = 250


def test_readme_is_short_and_links_every_docs_page():
    """The README is the way in: short enough to read at once, with a link to every page
    of docs/ (a page nobody links to is a page nobody finds)."""
    text = (ROOT / "README.md").read_text()
    lines = len(text.splitlines())
    assert lines <= README_MAX_LINES, f"README.md has {lines} lines, at most {README_MAX_LINES}"
    linked = {target.partition("#")[0] for target in LINK.findall(text)}
    pages = sorted(f"docs/{page.name}" for page in DOCS.glob("*.md"))
    unlinked = [page for page in pages if page not in linked]
    assert pages and not unlinked, f"README.md links no docs page {unlinked}"
