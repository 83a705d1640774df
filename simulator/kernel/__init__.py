"""The numba kernel: whole matches of Président, every option, millions of rounds per second.

numba's on-disk cache is keyed by each function's own file only: after an edit to a
module a cached caller still holds the old inlined code of its callees. So on import
the kernel hashes every source file compiled into the loop
(:data:`simulator.kernel.sources.SOURCES`) and, when the hash changed since the cache
was written, deletes the stale cache files first.
"""

from __future__ import annotations

from pathlib import Path

from simulator.kernel.sources import source_folders, sources_digest

_STAMP = Path(__file__).resolve().parent / "__pycache__" / "kernel-sources.sha256"


def _drop_stale_cache() -> None:
    digest = sources_digest()
    try:
        if _STAMP.read_text() == digest:
            return
    except OSError:
        pass
    for folder in source_folders():
        for cached in (folder / "__pycache__").glob("*.nb[ic]"):
            cached.unlink(missing_ok=True)
    try:
        _STAMP.parent.mkdir(exist_ok=True)
        _STAMP.write_text(digest)
    except OSError:  # a read-only install: numba then caches elsewhere or not at all
        pass


_drop_stale_cache()
