"""One-line notices on standard error from deep in the stack, which a command can take over.

The match loop says on standard error when it is about to compile for a long while
(:mod:`simulator.matchloop.specialise`). Printed straight there, the notice ran into a
status line being redrawn in place (``… montecarlocompiling the kernel …``) and the
status line's time left ignored the compile. So a notice goes through :func:`notice`:
printed as before, unless a command is :func:`listening` (``tournament`` ends its status
line, prints the notice on its own line and counts the compile's seconds as time left).
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import textwrap
from collections.abc import Callable, Iterator

Listener = Callable[[str, float], None]  # (the notice's line, the seconds of work it announces)
_LISTENERS: list[Listener] = []


def notice(text: str, seconds: float = 0.0) -> None:
    """Say ``text``, announcing about ``seconds`` of work (0: none), to the innermost
    listener, or on standard error when none listens; wrapped to the terminal's width
    (``COLUMNS`` honoured), its later lines indented by two spaces."""
    width = shutil.get_terminal_size().columns
    text = textwrap.fill(text, width, subsequent_indent="  ", break_long_words=False,
                         break_on_hyphens=False)  # fmt: skip
    if _LISTENERS:
        _LISTENERS[-1](text, seconds)
    else:
        print(text, file=sys.stderr, flush=True)


@contextlib.contextmanager
def listening(listener: Listener) -> Iterator[None]:
    """Hand every notice given within the block to ``listener``."""
    _LISTENERS.append(listener)
    try:
        yield
    finally:
        _LISTENERS.remove(listener)
