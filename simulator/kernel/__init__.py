"""The numba kernel: whole matches of Président, every option, millions of rounds per second.

numba's on-disk cache is keyed by each function's own file only: after an edit to a
module a cached caller still holds the old inlined code of its callees. So on import
the kernel hashes every source file it compiles from and, when the hash changed since
the cache was written, deletes the stale cache files first.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# every folder whose numba functions are compiled into the match loop (file hashing only:
# nothing is imported from them here)
_SOURCES = (
    _PACKAGE,
    _PACKAGE.parent / "matchloop",
    _PACKAGE.parent / "rules",
    _PACKAGE.parent.parent / "strategies",
)


def _source_digest() -> str:
    digest = hashlib.sha256()
    for folder in _SOURCES:
        for path in sorted(folder.glob("*.py")):
            digest.update(path.name.encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _drop_stale_cache() -> None:
    stamp = _PACKAGE / "__pycache__" / "kernel-sources.sha256"
    digest = _source_digest()
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    for folder in _SOURCES:
        for cached in (folder / "__pycache__").glob("*.nb[ic]"):
            cached.unlink(missing_ok=True)
    try:
        stamp.parent.mkdir(exist_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only install: numba then caches elsewhere or not at all
        pass


_drop_stale_cache()
