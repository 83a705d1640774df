"""Which kind of run a folder holds, and taking a folder for a new one; atomic writes.

``president simulate``, ``compare``, ``tournament``, ``tune`` and ``atlas`` each keep a ``manifest.json`` in
their ``--out`` folder, told apart by its ``format``. A new run takes only an absent or
empty folder (:func:`claim`); a refusal says what the folder holds and the command that
goes on from there, and ``--resume`` given to the wrong command names the right one.
Every file of those folders is written atomically (:func:`write_atomic`).
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path
from typing import Any

from simulator.kernel.sources import sources_digest
from simulator.runs.job import SimulationError
from simulator.runs.summary import FORMAT

MANIFEST_FILE = "manifest.json"
# the digest of the code that plays (simulator.kernel.sources) in a resumable folder's
# manifest: a folder is finished only by the code that started it
CODE_KEY = "code"
COMPARE_FORMAT = "president-sim/compare/1"  # the manifest of a compare's folder
TOURNAMENT_FORMAT = "president-sim/tournament/1"  # the manifest of a tournament's folder
TUNE_FORMAT = "president-sim/tune/2"  # the manifest of a tune's folder (1 pickled its optimiser)
# the manifest of an atlas's folder (4: the ladder's batches and settings.budget_scale)
ATLAS_FORMAT = "president-sim/atlas/4"
# by the format of its manifest: the command that writes (and resumes) a folder, and what
# the folder holds, in messages
KINDS = {
    FORMAT: ("simulate", "run"),
    COMPARE_FORMAT: ("compare", "compare"),
    TOURNAMENT_FORMAT: ("tournament", "tournament"),
    TUNE_FORMAT: ("tune", "tune"),
    ATLAS_FORMAT: ("atlas", "atlas"),
}


def write_json_atomic(path: Path, data: dict[str, Any]) -> None:
    """Write JSON atomically (:func:`write_atomic`), indented, one line at the end."""
    write_atomic(path, json.dumps(data, indent=2) + "\n")


def write_atomic(path: Path, data: str | bytes) -> None:
    """Write to a temporary file (``.NAME.tmp``), flush it to the disk, rename it into
    place: a reader (or a resume after a crash) sees the old file or the new one, never
    half. Text is written as UTF-8."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        if isinstance(data, str):
            tmp.write_text(data, encoding="utf-8")
        else:
            tmp.write_bytes(data)
        fsync(tmp)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def claim(path: Path, kind: str) -> None:
    """Create ``path`` for a new ``kind`` (run, compare, tournament), checked writable;
    refuse a file, or a folder holding anything, with what it holds and the commands
    that work."""
    if path.exists() and not path.is_dir():
        raise SimulationError(
            f"--out {path} is a file, not a folder (the same command with a folder, e.g. "
            f"--out {free_sibling(path)})"
        )
    if path.is_dir() and any(path.iterdir()):
        raise SimulationError(
            f"--out {path} {holding(path)} (for a new {kind}, the same command with an "
            f"empty or new folder, e.g. --out {free_sibling(path)})"
        )
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise SimulationError(f"--out {path} is not writable: {exc.strerror}") from None


def manifest_in(path: Path) -> dict[str, Any] | None:
    """The manifest of the folder ``path`` as found, without checks: None when there is
    none, ``{}`` when it is unreadable or not an object (for messages, not for resuming)."""
    try:
        manifest = json.loads((path / MANIFEST_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return {}
    return manifest if isinstance(manifest, dict) else {}


def resume_manifest(path: Path, command: str, fmt: str, error: type[Exception]) -> dict[str, Any]:
    """The manifest of the folder ``path`` that ``command`` ("atlas", "tune") goes on with,
    in its format ``fmt``, or ``error`` saying in one line why not."""
    try:
        manifest = json.loads((path / MANIFEST_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(
            f"--resume {path}: no {MANIFEST_FILE} there, so no {command} to finish"
        ) from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise error(f"--resume {path}: its {MANIFEST_FILE} is unreadable ({exc})") from None
    if other := held_by_another(path, manifest, command):
        raise error(other)
    if not isinstance(manifest, dict) or manifest.get("format") != fmt:
        found = manifest.get("format") if isinstance(manifest, dict) else None
        if isinstance(found, str) and found.rsplit("/", 1)[0] == fmt.rsplit("/", 1)[0]:
            raise error(f"--resume {path}: its {command} is of format {found}, and this version "
                        f"goes on with {fmt} only; start again with a new --out")  # fmt: skip
        raise error(f"--resume {path}: its {MANIFEST_FILE} is not {_a(command)}'s")
    if manifest.get(CODE_KEY) != sources_digest():
        raise error(
            f"--resume {path}: its {command} was started by other code (the kernel, rules or "
            "strategies changed since: what is left would not play as what is kept did); "
            "finish it with the code that started it, or start again with a new --out"
        )
    return manifest


def damaged(path: Path, exc: Exception) -> str:
    """The one line for a manifest that parsed but does not hold what it should."""
    return (
        f"--resume {path}: its {MANIFEST_FILE} is damaged ({type(exc).__name__}: {exc}); "
        "start again with a new --out"
    )


def holding(path: Path) -> str:
    """What the folder ``path`` holds, with the command that goes on from there: for
    messages that refuse it as a new run's folder."""
    manifest = manifest_in(path)
    if manifest is None:
        return "is not empty and holds no run"
    if manifest.get("format") == COMPARE_FORMAT:
        if manifest.get("complete") is True:
            return f"holds a finished compare: its page is {path / 'compare.html'}"
        return f"holds a compare: president compare --resume {path} finishes it"
    if manifest.get("format") == TOURNAMENT_FORMAT:
        if manifest.get("complete") is True:
            return f"holds a finished tournament: its ranking is {path / 'ranking.csv'}"
        return f"holds a tournament: president tournament --resume {path} finishes it"
    if manifest.get("format") == TUNE_FORMAT:
        if manifest.get("complete") is True:
            return f"holds a finished tune: its result is {path / 'tuned.toml'}"
        return f"holds a tune: president tune --resume {path} finishes it"
    if manifest.get("format") == ATLAS_FORMAT:
        if manifest.get("complete") is True:
            return f"holds a finished atlas: its data is {path / 'atlas.parquet'}"
        return f"holds an atlas: president atlas --resume {path} finishes it"
    if manifest.get("format") != FORMAT:
        return f"holds a foreign or unreadable {MANIFEST_FILE}"
    if manifest.get("complete") is True:
        return f"already holds a finished run: president report {path} reports it"
    return f"already holds a run: president simulate --resume {path} finishes it"


def held_by_another(path: Path, manifest: Any, command: str) -> str | None:
    """For ``president COMMAND --resume path`` whose folder holds another kind of run: what
    it holds and the command that finishes it; None when it holds none or this kind."""
    found = KINDS.get(manifest.get("format")) if isinstance(manifest, dict) else None
    if found is None or found[0] == command:
        return None
    mine = next(noun for owner, noun in KINDS.values() if owner == command)
    return (
        f"--resume {path}: it holds {_a(found[1])}, not {_a(mine)}: president {found[0]} "
        f"--resume {path} finishes it"
    )


def _a(noun: str) -> str:
    """``noun`` with its indefinite article (an atlas, a tune)."""
    return f"{'an' if noun[0] in 'aeiou' else 'a'} {noun}"


def free_sibling(path: Path) -> Path:
    """``path`` itself when a new run may go there (absent or empty), else ``runs/first-2``
    (or ``-3``, …), a folder beside it that does not exist yet: for messages that refuse
    ``path`` and name a command that works."""
    if not path.exists() or (path.is_dir() and not any(path.iterdir())):
        return path
    k = 2
    while (candidate := path.with_name(f"{path.name}-{k}")).exists():
        k += 1
    return candidate


def fsync(path: Path) -> None:
    """Flush a file to the disk before it is renamed into place (survives a power cut)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
