"""The match loop compiled for a job's strategies only, cached on disk by content.

Why a generated module. The strategies and rules of a job are known before the kernel
starts, but the generic loop (:func:`simulator.matchloop.matches.run_blocks`) reaches
every built-in strategy through :mod:`strategies.dispatch`, so its first call compiled
all of them, the search player included, for a run of ``lowest`` and ``random``.
Rebinding the loop's globals to a smaller dispatch is not enough: numba's on-disk cache
is keyed by the source file and the function's name (and bytecode), not by the globals
the function sees, and it does not notice when the source of a callee changes. So for
each specialisation this module writes a small module into the cache folder whose text
imports the loop's globals by name, binds ``decide``/``give_back``/``give_back_opening``
to the dispatch of the job's tier (and, with user strategies, to
:func:`simulator.matchloop.userchain.dispatch_source`), and holds copies of the loop
functions' *current* source (:data:`LOOP`, read with :mod:`inspect`, so edits to the
loop flow in), compiled with ``cache=True``.

Why not closures. numba freezes a closure's variables as constants, as it does globals,
and its cache keys a closure by them; but it keys them by their pickle, and a jitted
function's pickle holds an id drawn afresh in each process, so a loop closed over its
tier's dispatch (or a user's function) would be compiled again by every run. Globals it
does not key at all. Hence a module of its own per loop, named by what it is compiled
for: its constants (:meth:`Specialisation.loop_constants`, declared in
:mod:`simulator.matchloop.round`) and its dispatch (the functions of its
:class:`~strategies.dispatch.Tier`) are bound there.

What keys the cache. A module is named by :func:`cache_key`, a hash of everything its
compiled code depends on, and a module that exists is never rewritten, so numba's cache
of it stays valid and a change to any of these gives another name, hence a fresh
compile:

* the text of every module the loop is compiled from: the folders of
  :data:`simulator.kernel.sources.SOURCES` (kernel, match loop, reference engine, rule
  book, strategies), the one list the kernel's own stale-cache check reads too;
* the :class:`Specialisation`: the tier, the table-rule, plain-play and all-``lowest``
  flags, and each user strategy's id with the digest of its file
  (:func:`strategies.user.source_digest`);
* the project's, numba's and Python's versions.

What is specialised, and why no finer. The built-ins come in three tiers of growing
cost (:data:`strategies.dispatch.TIERS`: ``lowest``/``random``; the heuristics; the
search player): at most three built-in loops, whatever the strategy sets of a test
suite or a study; one per subset of strategies would compile the loop again for each.
Functions compiled apart (the heuristics, the search player, ``step_trick_rules``) keep
their own numba cache, shared by every loop and dropped whenever the sources change
(:mod:`simulator.kernel.freshness`: a loop compiled anew links their code as it is). A lowest/random job whose rules have no
table rule is also told so (:attr:`Specialisation.plain_rounds`): its loop holds only
the plain round loop, and a first run is shorter; so is one whose rules read suits
under trick rules the suited plain loop plays (``suited_rounds``,
:mod:`simulator.matchloop.suited`). Such a loop is also told whether
every play of the job's rules only takes the top and whether every player is
``lowest`` (:attr:`Specialisation.simple_plays`, ``all_lowest``), which the plain loop's
tests then fold away, for at most four such loops (the default rules and french, say,
compile apart once each). Any other loop of a job whose rules read suits holds the
suited round loop alone (``ALL_SUITED``: every round of the job is suited), not the
general one beside it, which it would never run. The heuristics' loops keep the table
rules' path (``step_trick_rules``): leaving it out made their move loop slower. A job whose every
player is ``linear``, under rules with no table rule and no suits, gets a loop of its
own (``linear_rounds``: :mod:`simulator.matchloop.linear_plain`), the policy that the
search players' playouts and learners run most, at 1.5 times the heuristics' loop's
speed and half its first compile. What each of these measured is in
docs/performance.md.

The cache lives in ``$PRESIDENT_CACHE``, else ``$XDG_CACHE_HOME/president-sim/kernels``
(``~/.cache/…``); numba keeps the compiled code beside the modules (``__pycache__``),
or under ``$NUMBA_CACHE_DIR`` when that is set
(:func:`~simulator.kernel.freshness.cache_folders`). Deleting the folder clears it. When it
cannot be written (a read-only home, a bad ``$PRESIDENT_CACHE``) the run says so in one
line and uses a folder under the system's temporary folder instead, or, failing that,
the generic loop: slower to compile, never an error. Every edit of the sources or
upgrade of the project leaves a module behind, so each use of a module is stamped
(``<module>.used``) and, whenever a new one is written, all but the
:data:`KEEP` most recently used are deleted with their compiled code.
"""

from __future__ import annotations

import ast
import dis
import hashlib
import importlib.util
import inspect
import os
import re
import sys
import tempfile
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

import numba

from simulator import __version__  # not the installed metadata's: a search of the path
from simulator.kernel.config import cached_on_disk
from simulator.kernel.freshness import cache_folders
from simulator.kernel.sources import sources_digest
from simulator.matchloop import matches
from simulator.matchloop import round as round_loop
from simulator.matchloop.plain import PLAIN_SIDS
from simulator.notices import notice
from strategies.dispatch import Tier, tier_of
from strategies.specs import LINEAR, LOWEST, PLUGIN_BASE, StrategyError

LOOP = (
    (round_loop, "gift_step"),
    (round_loop, "play_suited_round"),
    (round_loop, "play_round"),
    (matches, "exchange"),
    (matches, "play_match"),
    (matches, "run_blocks"),
)  # the functions copied into a specialised module, each calling the ones before it
DISPATCH = ("decide", "give_back", "give_back_opening")  # the fields of a Tier the loop calls
USER_SECONDS = 5  # a loop around user functions: the user's code and its checks (measured)
PLAIN_ROUNDS_SECONDS = 10  # a first run of a lowest/random job of one round loop (measured)
# the suited round loop in a strategies' loop, the only round loop there (ALL_SUITED): the
# default line-up's first run took 68-69 s under uecda against 67 s under french, and
# champion's 205 s against 201 s, 6 December 2026 (the tiers' figures are older)
SUITED_SECONDS = 5
# a first run of 4 x linear under french: 38 s wall (the heuristics' loop took 82 s with
# rules-aware in a seat), 6 December 2026
LINEAR_ROUNDS_SECONDS = 35
# Modules kept in the cache folder, the most recently used ones: about 1 MB each with
# their compiled code (18 loops, the test suite's, took 15 MB). A loop dropped and used
# again is compiled again (the search tier's takes minutes): with 12, the suite dropped
# loops its last files then compiled a second time (6 December 2026).
KEEP = 32
PREFIX = "president_loop_"  # the name of every module written here: its key follows
_LOADED: dict[Specialisation, Any] = {}  # run_blocks of each loop imported in this process


@dataclass(frozen=True)
class Specialisation:
    """What a job's loop is compiled for: a tier and the user functions as ``(kernel id, what their code depends on)`` (:func:`strategies.user.source_digest`)."""

    tier: Tier
    users: tuple[tuple[int, str], ...] = ()
    table_rules: bool = True  # whether a rule of the second catalogue may be on
    simple_plays: bool = False  # plain_rounds only: every play only takes the top
    all_lowest: bool = False  # plain_rounds only: every player is lowest
    suits: bool = True  # whether a rule that reads suits may be on (the suited round loop)
    suited_rounds: bool = False  # only_plain, and every round is the suited plain loop's
    linear_rounds: bool = False  # every player linear, no table rule, no suits

    @classmethod
    def of(
        cls,
        sids: Sequence[int],
        table_rules: bool = True,
        simple_plays: bool = False,
        shared: Tier | None = None,
        suits: bool = False,
        suited_rounds: bool = False,
    ) -> Specialisation:
        """The loop of a job of strategies ``sids``; ``simple_plays``:
        :func:`simulator.matchloop.plain.simple_plays` holds for its rules. ``shared``: the
        tier of a study whose jobs share one loop. A job that needs more than the plain
        tier's ``lowest`` and ``random`` takes it, so the study compiles one such loop, not
        one per tier; plain jobs keep their own loop, which is several times faster, and
        so do jobs of ``linear`` alone that its round loop plays (``linear_rounds``).
        ``suits``: a rule that reads suits is on, and the loop holds the suited round loop
        (the others leave it out: a shorter compile); ``suited_rounds``: the suited plain
        loop (:func:`simulator.matchloop.suited.suited_fast`) plays its rules, and a
        ``lowest``/``random`` job's loop then holds only that round loop."""
        ids = sorted({int(s) for s in sids if s >= PLUGIN_BASE})
        users: tuple[tuple[int, str], ...] = ()
        if ids:  # users' files: a job of built-ins imports none of their machinery
            from strategies.user import source_digest

            users = tuple((sid, source_digest(sid)) for sid in ids)
        tier = tier_of(sids)
        linear = not (users or table_rules or suits) and all(s == LINEAR for s in sids)
        if shared is not None and tier.sids <= shared.sids and not tier.sids <= PLAIN_SIDS:
            tier = tier if linear else shared  # linear's round loop is a loop of its own anyway
        spec = cls(tier, users, table_rules, suits=suits)
        if not spec.only_plain:  # the same loop, table rules or not: compiled once for both
            return replace(spec, table_rules=True, linear_rounds=linear)
        if not spec.plain_rounds:  # the constants serve the plain round loop alone
            return replace(spec, suited_rounds=suited_rounds)
        return replace(spec, simple_plays=simple_plays, all_lowest=all(s == LOWEST for s in sids))

    @property
    def only_plain(self) -> bool:
        """Whether every table is ``lowest``/``random`` only (the plain round loop's); else
        none is, for every table of a job holds all of the job's strategies."""
        return not self.users and self.tier.sids <= PLAIN_SIDS

    @property
    def plain_rounds(self) -> bool:
        """Whether every round is the plain loop's: plain tables and no table rule. The
        general round loop is then not compiled at all (a first run 5 s shorter)."""
        return self.only_plain and not self.table_rules

    def loop_constants(self) -> dict[str, bool]:
        """The values of the loop's constants (:mod:`simulator.matchloop.round` declares
        them and says what each means) that this loop is compiled with."""
        plain = self.only_plain
        return {"ONLY_PLAIN": plain, "NO_PLAIN": not plain, "PLAIN_ROUNDS": self.plain_rounds,
                "SIMPLE_PLAYS": self.simple_plays, "ALL_LOWEST": self.all_lowest,
                "SUITS": self.suits, "ALL_SUITED": self.suits, "SUITED_ROUNDS": self.suited_rounds,
                "LINEAR_ROUNDS": self.linear_rounds}  # fmt: skip

    @property
    def user_ids(self) -> list[int]:
        return [sid for sid, _ in self.users]

    def seconds(self) -> int:
        """The measured estimate of a cold compile (the message's "about N s")."""
        if self.plain_rounds or self.suited_rounds:
            return PLAIN_ROUNDS_SECONDS
        if self.linear_rounds:
            return LINEAR_ROUNDS_SECONDS
        return (self.tier.seconds + (USER_SECONDS if self.users else 0)
                + (SUITED_SECONDS if self.suits else 0))  # fmt: skip


def cache_dir() -> Path:
    """The folder of the specialised modules (see the module docstring)."""
    if os.environ.get("PRESIDENT_CACHE"):
        return Path(os.environ["PRESIDENT_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "president-sim" / "kernels"


def fallback_dir() -> Path:
    """Where the modules go when :func:`cache_dir` cannot be written."""
    return Path(tempfile.gettempdir()) / "president-sim" / "kernels"


def cache_key(spec: Specialisation) -> str:
    """A hash of everything the compiled loop depends on (see the module docstring)."""
    h = hashlib.sha256()
    for part in (__version__, numba.__version__, sys.version, repr(spec)):
        h.update(part.encode() + b"\0")
    h.update(sources_digest().encode())
    return h.hexdigest()[:20]


def module_source(spec: Specialisation, key: str) -> str:
    """The text of the specialised module (imports, dispatch, copies of :data:`LOOP`)."""
    imports: dict[str, tuple[str, str, object]] = {}  # name -> (module, attribute, object)
    constants = spec.loop_constants()
    defined = {name for _, name in LOOP} | set(DISPATCH) | set(constants)
    for module, name in LOOP:
        func = getattr(module, name).py_func
        for used in _names_used(func) - defined:
            _bind(imports, used, module.__name__, used, func.__globals__[used])
    bodies = [textwrap.dedent(inspect.getsource(getattr(m, name).py_func)) for m, name in LOOP]
    prefix = "builtin_" if spec.users else ""  # the users' dispatch falls back to the built-ins'
    for name in DISPATCH:
        target = getattr(spec.tier, name).py_func
        _bind(imports, prefix + name, target.__module__, target.__name__, getattr(spec.tier, name))
    if spec.users:
        from simulator.matchloop import userchain  # users' jobs only (see Specialisation.of)

        for used in userchain.DISPATCH_SCOPE:
            _bind(imports, used, userchain.__name__, used, userchain.DISPATCH_SCOPE[used])
        bodies.insert(0, userchain.dispatch_source(spec.user_ids))
    lines = [
        f'"""The match loop for tier {spec.tier.name}, user ids {spec.user_ids}: written by',
        f"{__name__} (key {key}). Generated: do not edit; delete the folder to clear it.",
        '"""',
        "",
    ]
    by_module: dict[str, list[str]] = {}
    for name, (module, attr, _) in sorted(imports.items()):
        by_module.setdefault(module, []).append(f"{attr} as {name}" if attr != name else name)
    for module, items in sorted(by_module.items()):
        lines.append(f"from {module} import (\n    " + ",\n    ".join(items) + ",\n)")
    lines += [f"move_{sid}, give_{sid} = user_pair({sid})" for sid in spec.user_ids]
    for name, value in constants.items():
        if not isinstance(getattr(round_loop, name, None), bool):
            raise RuntimeError(f"the loop declares no constant {name!r} (round.py)")
        lines.append(f"{name} = {value!r}  # see round.py")
    return "\n".join(lines) + "\n\n\n" + "\n\n".join(bodies)


def _bind(imports: dict, name: str, module: str, attr: str, obj: object) -> None:
    """Import ``module.attr`` (which is ``obj``) as ``name``; the same name bound twice
    must be one object."""
    if name in imports and imports[name][2] is not obj:
        raise RuntimeError(f"the loop functions see two different {name!r}: rename one")
    imports[name] = (module, attr, obj)


def _names_used(func: Any) -> set[str]:
    """The globals a function reads (its body and decorators), builtins aside."""
    names = set(_globals_of(func.__code__))
    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    for decorator in tree.body[0].decorator_list:  # type: ignore[attr-defined]
        names.update(n.id for n in ast.walk(decorator) if isinstance(n, ast.Name))
    return {n for n in names if n in func.__globals__}


def _globals_of(code: CodeType) -> set[str]:
    found = {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_GLOBAL"}
    for const in code.co_consts:
        if isinstance(const, CodeType):
            found |= _globals_of(const)
    return found


def bare(name: str) -> str:
    """A strategy's name without its parameters (``champion`` for ``champion:budget=12,…``;
    a user's ``FILE.py:NAME`` kept whole): the compile notice names what is compiled, and
    a kernel serves every parameter value."""
    return re.sub(r":[^:]*=.*$", "", name)


def specialised_loop(spec: Specialisation, names: Sequence[str]) -> Any:
    """``run_blocks`` compiled for ``spec`` (imported once per process; the compile
    message is given when numba has no compiled code for it on disk). Without a folder
    it can write, the generic loop (see the module docstring)."""
    if numba.config.DISABLE_JIT:  # plain Python: nothing to compile, the generic loop will do
        return matches.run_blocks
    if spec in _LOADED:  # a job of the same kind in this process: not even a hash to take
        return _LOADED[spec]
    key = cache_key(spec)
    module = _import_anywhere(spec, key)
    if module is None:  # nowhere to write: the generic loop, which holds no user function
        if spec.users:
            raise StrategyError(
                "a strategy file needs a kernel cache folder you can write: set PRESIDENT_CACHE"
            )
        notice(
            "compiling the kernel for every built-in strategy (no cache folder) — this can "
            "take minutes"  # no measured estimate: no seconds to count
        )
        run_blocks = matches.run_blocks
    else:
        run_blocks = module.run_blocks
        if not cached_on_disk(run_blocks):
            if spec.users:
                from simulator.matchloop.userchain import check_users

                check_users(spec.user_ids)  # a readable error before a long compile
            notice(
                f"compiling the kernel for {', '.join(dict.fromkeys(map(bare, names)))} — once, about "
                f"{spec.seconds()} s (cached in {Path(module.__file__ or '').parent})",
                spec.seconds(),
            )
    _LOADED[spec] = run_blocks
    return run_blocks


def _import_anywhere(spec: Specialisation, key: str) -> ModuleType | None:
    """The module from the cache folder, else from :func:`fallback_dir` (said once on
    standard error), else None: no folder could be written."""
    folders = list(dict.fromkeys([cache_dir(), fallback_dir()]))
    for i, folder in enumerate(folders):
        try:
            return _import(spec, key, folder)
        except OSError as err:
            then = f"using {folders[i + 1]}" if i + 1 < len(folders) else "not caching"
            notice(
                f"warning: cannot write the kernel cache in {folder} ({err.strerror or err}); "
                f"{then} (set PRESIDENT_CACHE to a folder you can write)"
            )
    return None


def _import(spec: Specialisation, key: str, folder: Path) -> ModuleType:
    """Write the module (once: an existing file keeps numba's cache valid) and import it."""
    folder.mkdir(parents=True, exist_ok=True)
    name = f"{PREFIX}{key}"
    path = folder / f"{name}.py"
    (folder / f"{name}.used").touch()  # before pruning: this module is the latest used
    if not path.exists():
        temporary = folder / f".{name}.{os.getpid()}.tmp"
        temporary.write_text(module_source(spec, key))
        _create(temporary, path)
        prune(folder)
    module_spec = importlib.util.spec_from_file_location(name, path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[name] = module  # numba's cache finds a function's module by name
    module_spec.loader.exec_module(module)
    return module


def _create(temporary: Path, path: Path) -> None:
    """Give ``path`` the text of ``temporary`` unless another process wrote it first,
    atomically (a parallel worker sees all of it or nothing), and remove ``temporary``.
    The first writer's file is kept: numba's cache of a module is stamped with its
    file's time, so a second copy written over it, the same text, had made a process
    started at the same moment compile the loop again rather than load it."""
    try:
        os.link(temporary, path)  # fails when the file exists
    except FileExistsError:
        pass
    except OSError:  # no hard links on this file system: the last writer's copy
        os.replace(temporary, path)
    temporary.unlink(missing_ok=True)


def prune(folder: Path, keep: int = KEEP) -> list[str]:
    """Delete all but the ``keep`` most recently used modules of ``folder`` and their
    compiled code; returns the names deleted. A module never stamped (written by an
    older version) was last used when it was written."""

    def last_used(module: Path) -> float:
        stamp = module.with_suffix(".used")
        return (stamp if stamp.exists() else module).stat().st_mtime

    modules = sorted(folder.glob(f"{PREFIX}*.py"), key=last_used, reverse=True)
    gone = []
    for module in modules[keep:]:
        stem = module.stem
        compiled = [p for cached in cache_folders(folder) for p in cached.glob(f"{stem}.*")]
        for path in [module, module.with_suffix(".used"), module.with_suffix(".lock"), *compiled]:
            path.unlink(missing_ok=True)
        gone.append(stem)
    return gone
