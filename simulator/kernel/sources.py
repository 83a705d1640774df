"""The one list of the source folders compiled into the match loop, and their digest.

numba's on-disk cache is keyed by each function's own file only: it does not notice an
edit to a callee in another file, nor to a module-level constant it froze into the
compiled code. So two caches are keyed by the text of every file these folders hold:
numba's own cache of the package's functions, dropped wherever the digest changed
(:mod:`simulator.kernel.freshness`), and the specialised loops' modules, named by a key
that includes it (:mod:`simulator.matchloop.specialise`).

Every folder whose code ends up in the compiled loop is listed: the kernel and the match
loop (the compiled functions), the strategies (the built-ins' numba code), the rule book
(card and rule constants, ``WEIGHTS``), the reference engine, whose stream purposes
(``SEAT_STREAMS``, ``PLAY_STREAM`` in :mod:`simulator.reference.rng`) the loop freezes in
as constants, and the environments (the vector environment's compiled loop, and the
observation layout's offsets it freezes in). Folders are hashed as files: nothing is imported from them here.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path

# the checkout or install holding the packages, as imported (not resolved: numba names a
# cache folder after the path of the source file as imported)
ROOT = Path(__file__).parents[2]
SOURCES = ("simulator/kernel", "simulator/matchloop", "simulator/reference", "simulator/rules",
           "strategies", "simulator/env")  # fmt: skip
# other folders of functions numba caches: their callees are in SOURCES (the vector
# environment's too: its own modules, and the layout's offsets it freezes in, are in
# simulator/env)
APART = ("simulator/runs", "simulator/env/vector")


def source_folders() -> tuple[Path, ...]:
    """The folders of :data:`SOURCES`, as paths."""
    return tuple(ROOT / folder for folder in SOURCES)


def cached_folders() -> tuple[Path, ...]:
    """Every folder of the package holding a function numba caches on disk."""
    return tuple(ROOT / folder for folder in (*SOURCES, *APART))


@functools.cache
def sources_digest() -> str:
    """A hash of the name and text of every module in :data:`SOURCES` (read once per
    process: a run does not see the sources edited under it)."""
    h = hashlib.sha256()
    for folder in source_folders():
        for path in sorted(folder.rglob("*.py")):
            h.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return h.hexdigest()
