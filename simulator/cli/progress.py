"""Progress on standard error: one line redrawn in place, on a terminal only.

Every command that can run longer than a second shows where it is (``simulate`` and
``compare`` a bar of rounds, ``tournament`` the table being played, ``report`` the data
read), and none of them writes a byte of progress with ``--quiet`` or when standard
error is not a terminal, so pipes, files and logs stay clean.
"""

from __future__ import annotations

import shutil
import sys
import time
from typing import TextIO

BAR_WIDTH = 30
CLEAR_TO_END = "\x1b[K"  # ANSI: erase from the cursor to the end of the line
REDRAW = 0.1  # seconds between two redraws of the bar at least


def on_terminal() -> bool:
    """Whether standard error is a terminal (the one place progress asks it)."""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def bar(fraction: float) -> str:
    """``[#########                     ]  30.0 %``"""
    fraction = min(1.0, max(0.0, fraction))
    return f"[{'#' * int(fraction * BAR_WIDTH):<{BAR_WIDTH}}] {fraction:6.1%}"


def duration(seconds: float) -> str:
    """``42 s``, ``3 min 07 s``, ``1 h 02 min``: a time left that reads at a glance."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class StatusLine:
    """One line on standard error, redrawn in place at each :meth:`show`.

    ``enabled`` is decided once by the caller (``not quiet and on_terminal()``); a
    disabled line writes nothing at all. Lines are cut to the terminal's width, since a
    wrapped line could no longer be redrawn in place. ``close`` ends the line (``keep``:
    leave it on screen) or erases it, so the command's own output starts on a clean line.
    """

    def __init__(self, enabled: bool, stream: TextIO | None = None) -> None:
        self.enabled = enabled
        self.stream = stream
        self.shown = False

    def show(self, text: str) -> None:
        if not self.enabled:
            return
        out = self.stream or sys.stderr
        width = shutil.get_terminal_size().columns - 1
        out.write("\r" + text[:width] + CLEAR_TO_END)
        out.flush()
        self.shown = True

    def close(self, keep: bool = False) -> None:
        if self.shown:
            out = self.stream or sys.stderr
            out.write("\n" if keep else "\r" + CLEAR_TO_END)
            out.flush()
            self.shown = False


class ProgressBar:
    """Rounds done, rounds/s and time left, for :func:`simulator.runs.simulate.run`.

    Called as ``progress(done, expected, seconds)`` as the kernel finishes tasks of a few
    thousand rounds (:func:`simulator.matchloop.api.run_matches`) and after each part;
    drawn only once the run has lasted a second, so that short runs stay quiet, and at
    most every :data:`REDRAW` seconds. ``label`` goes in front (``compare`` names the
    variant there).
    """

    within_parts = True  # called within parts too (simulator.runs.simulate.Progress)

    def __init__(self, enabled: bool, label: str = "", stream: TextIO | None = None) -> None:
        self.line = StatusLine(enabled, stream)
        self.label = label
        self.drawn = 0.0  # the run's clock at the last redraw

    def __call__(self, done: int, expected: int | None, seconds: float) -> None:
        if seconds < 1.0 or (seconds - self.drawn < REDRAW and done != expected):
            return
        self.drawn = seconds
        rate = done / seconds if seconds else 0.0
        text = f"{done:>12,} rounds  {rate:>12,.0f} rounds/s"
        if expected:
            left = (expected - done) / rate if rate else 0.0
            text = f"{bar(done / expected)} {text}  {duration(left)} left"
        self.line.show(f"{self.label}  {text}" if self.label else text)

    def close(self) -> None:
        self.line.close(keep=True)


class StepProgress:
    """Steps of a known count (tables, chunks of a run): where we are and the time left.

    ``step(done, total, what, detail)`` says that ``done`` of ``total`` steps are
    finished and names the one under way; the time left is extrapolated from the steps
    done. The line reads ``what [bar] share time-left detail``, so that on a narrow
    terminal the cut falls on the detail, never on the bar.
    """

    def __init__(self, enabled: bool, stream: TextIO | None = None) -> None:
        self.line = StatusLine(enabled, stream)
        self.started = time.perf_counter()

    def step(self, done: int, total: int, what: str, detail: str = "") -> None:
        elapsed = time.perf_counter() - self.started
        text = f"{what}  {bar(done / total if total else 1.0)}"
        if 0 < done < total:
            text += f"  {duration(elapsed * (total - done) / done)} left"
        self.line.show(f"{text}  {detail}" if detail else text)

    def close(self) -> None:
        self.line.close()
