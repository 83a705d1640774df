"""numba's on-disk cache, dropped wherever it may hold code compiled from other sources.

numba keys a cached function by its own file only (that file's stamp, the function's
bytecode and closure): after an edit of a callee in another file, or an upgrade in
place, a cached caller still holds the old callee's code (numba/numba#1833, open since
2016). So each cache folder numba may use carries a stamp of everything compiled into the
code it holds, and numba's files there are deleted, before anything is compiled or loaded
from them, when the stamp is not the current one:

* the package's functions compiled apart (the heuristics, the search player,
  ``step_trick_rules``, the generic loop, ``fill_columns``): their code holds callees of
  every folder of :data:`~simulator.kernel.sources.SOURCES`, so one stamp per folder,
  the digest of those sources and numba's version (:func:`refresh_package`, run on the
  import of :mod:`simulator.kernel.config`, which every module with cached functions
  imports before its decorators run);
* a user's strategy file and the local modules it imports (:mod:`strategies.user`): one
  stamp per module, the digest of its own local imports, transitively
  (:func:`local_closure`), with the package's.

Where numba caches a function of folder ``F``, in the order it tries: under
``$NUMBA_CACHE_DIR`` when set (``F``'s name and the sha1 of its path), in ``F/__pycache__``
when writable, else under the user's cache (``~/.cache/numba``, the same name). Every one
of them that exists is checked (numba goes back to ``__pycache__`` when
``NUMBA_CACHE_DIR`` is unset), and the first that numba will use is stamped before its
first compile: a folder of numba files without a stamp (an older version's) is dropped.

Why not a key in the cache's location: numba chooses the folder, and the only ways to
choose it (a custom locator) are numba's internals, renamed between releases. Why not
compile those functions without numba's cache, inside the loops' keyed modules alone:
``play``, ``replay`` and the reference engine call them from Python, and every process
would compile them again (tens of seconds). The limit:
a process started before an edit that compiles a function for the first time after a
later process dropped the folder writes code of the old sources under the new stamp
(delete the folder after editing under a long run).
"""

from __future__ import annotations

import ast
import functools
import glob
import hashlib
import os
import site
import sys
import sysconfig
from collections.abc import Iterable
from pathlib import Path

import numba
from numba.core import config as numba_config
from numba.misc.appdirs import AppDirs

from simulator.kernel.sources import ROOT, cached_folders, sources_digest

STAMP = "president-key"  # a folder's stamp; a user module's is STEM.president-key
# the Python of numba's file names: each Python has files, and so a stamp, of its own (a
# checkout run by two Pythons in turn does not drop one's cache for the other)
TAG = f"py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}"
PROJECT = (ROOT / "simulator", ROOT / "strategies")  # keyed by sources_digest, not walked


def cache_folders(source_dir: Path) -> list[Path]:
    """The folders numba may cache the functions of ``source_dir``'s modules in, in the
    order it tries them (see the module docstring)."""
    path = os.path.abspath(source_dir)  # numba's own form: the path as imported, unresolved
    name = f"{os.path.basename(path)}_{hashlib.sha1(path.encode()).hexdigest()}"
    user_wide = Path(AppDirs(appname="numba", appauthor=False).user_cache_dir) / name
    tried = [Path(path) / "__pycache__", user_wide]
    return [Path(numba_config.CACHE_DIR) / name, *tried] if numba_config.CACHE_DIR else tried


def refresh(source_dir: Path, key: str, stem: str = "") -> None:
    """Delete numba's files of ``source_dir`` for this Python (of its module ``stem``
    alone, if given) from every folder of :func:`cache_folders` whose stamp is not
    ``key``; stamp them, and the first folder numba will use, with ``key``. A folder that
    cannot be written is left alone (numba then does not cache there either)."""
    stamp_name = f"{stem}.{STAMP}.{TAG}" if stem else f"{STAMP}.{TAG}"
    start = f"{glob.escape(stem)}.*" if stem else "*"
    patterns = (f"{start}.{TAG}.nbi", f"{start}.{TAG}.*.nbc")  # numba's index and data files
    chosen = False  # whether a folder numba tries earlier is usable, hence used
    for folder in cache_folders(source_dir):
        if chosen and not folder.is_dir():
            continue
        stamp = folder / stamp_name
        if _read(stamp) == key:
            chosen = True
            continue
        try:
            for cached in [p for pattern in patterns for p in folder.glob(pattern)]:
                cached.unlink(missing_ok=True)
            folder.mkdir(parents=True, exist_ok=True)
            temporary = folder / f".{stamp_name}.{os.getpid()}.tmp"
            temporary.write_text(key)
            os.replace(temporary, stamp)  # atomic: a parallel process reads all or nothing
            chosen = True
        except OSError:
            continue


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:
        return None


@functools.cache
def package_key() -> str:
    """The stamp of the package's cache folders: its sources and numba's version."""
    return hashlib.sha256(f"{sources_digest()}\0{numba.__version__}".encode()).hexdigest()


@functools.cache
def refresh_package() -> None:
    """Drop the package's stale numba files (once per process, before any compile)."""
    for folder in cached_folders():
        refresh(folder, package_key())


def module_key(path: Path) -> str:
    """The stamp of a user module: the text of it and of its local imports
    (:func:`local_closure`; texts, not paths: a copy elsewhere has the same key), the
    package's sources and numba's version."""
    own = Path(os.path.abspath(path))
    others = sorted(_sha(source) for source in local_closure(path) if source != own)
    return hashlib.sha256("\0".join([package_key(), _sha(own), *others]).encode()).hexdigest()


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def refresh_module(path: Path) -> str:
    """Drop the stale numba files of the user module ``path`` and of each local module
    it imports; its key (:func:`module_key`)."""
    for source in local_closure(path):
        refresh(source.parent, module_key(source), source.stem)
    return module_key(path)


def local_closure(path: Path) -> list[Path]:
    """``path`` and the files of the modules it imports, transitively, that are local:
    neither Python's, nor an installed package's, nor this project's (keyed apart). Read
    from the import statements of each file, among the modules loaded (a module a file
    imports has been loaded by its import)."""
    found: set[Path] = set()
    todo = [Path(os.path.abspath(path))]  # numba's form of a path (see cache_folders)
    while todo:
        source = todo.pop()
        if source in found:
            continue
        found.add(source)
        if source.suffix != ".py":
            continue
        for name in _imported(source):
            module_file = getattr(sys.modules.get(name), "__file__", None)
            if module_file and _is_local(Path(module_file)):
                todo.append(Path(os.path.abspath(module_file)))
    return sorted(found)


def _imported(source: Path) -> Iterable[str]:
    """The absolute names of the modules a file imports (and their parent packages)."""
    package = next((m.__package__ for m in list(sys.modules.values())
                    if getattr(m, "__file__", None) == str(source)), None)  # fmt: skip
    for node in ast.walk(ast.parse(source.read_bytes(), str(source))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                if not package:
                    continue
                base = _resolve("." * node.level + base, package)
            names = [base, *(f"{base}.{alias.name}" for alias in node.names)]
        for name in names:
            parts = name.split(".")
            yield from (".".join(parts[: i + 1]) for i in range(len(parts)))


def _resolve(relative: str, package: str) -> str:
    from importlib.util import resolve_name

    try:
        return resolve_name(relative, package)
    except ImportError:
        return ""


@functools.cache
def _not_local() -> tuple[Path, ...]:
    """The folders of Python's own modules, of installed packages and of this project."""
    python = [sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")]
    paths = {*python, *site.getsitepackages(), site.getusersitepackages(), *PROJECT}
    return tuple(Path(p).resolve() for p in paths if p)


def _is_local(path: Path) -> bool:
    resolved = path.resolve()
    return not any(resolved.is_relative_to(folder) for folder in _not_local())
