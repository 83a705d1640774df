"""Progress and output of the long jobs, and their display on standard error.

The orchestration of ``simulator/runs`` (a run, a compare's variants, a tournament's
tables, a tune's generations, an atlas's rule sets) says where it is through callbacks,
never by printing: :class:`Steps` (the step under way, and a notice such as a compile on
its own line), the rounds done of a run (:data:`simulator.runs.simulate.Progress`) and
:data:`Say` (a line of the outcome). The command line and the Python API fill them:
with the displays below, which draw one line redrawn in place on a terminal only, or
with nothing (:func:`silent`).

Every command that can run longer than a second shows where it is (``simulate`` and
``compare`` a bar of rounds, ``tournament`` the table being played, ``report`` the data
read), and none of them writes a byte of progress with ``--quiet`` or when standard
error is not a terminal, so pipes, files and logs stay clean.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol, TextIO

BAR_WIDTH = 30  # the bar's width on a wide terminal
MIN_BAR = 10  # the narrowest bar still worth drawing: a narrower terminal cuts the line
CLEAR_TO_END = "\x1b[K"  # ANSI: erase from the cursor to the end of the line
REDRAW = 0.1  # seconds between two redraws of the bar at least
DEFAULT_WIDTH = 80  # columns of the output when it goes to a file or a pipe, without COLUMNS

Say = Callable[[str], None]  # a line of the outcome (what was written, what was found)


class Steps(Protocol):
    """Where a job of known steps is: ``step`` names the one under way once ``done`` of
    ``total`` are finished; ``notice`` is a :func:`simulator.notices.listening` listener
    (a compile's announcement and the seconds it will take)."""

    def step(self, done: int, total: int, what: str, detail: str = "") -> None: ...

    def notice(self, text: str, seconds: float) -> None: ...


def silent(line: str) -> None:
    """A :data:`Say` that says nothing (the Python API's: its results are returned)."""


def to_stderr(line: str) -> None:
    """A :data:`Say` for notes beside the output (a part computed again, a resumed
    folder): a line on standard error."""
    print(line, file=sys.stderr, flush=True)


def output_width() -> int:
    """The columns every line a command prints must fit: ``COLUMNS`` when set, else the
    terminal's, else (output to a file or a pipe) :data:`DEFAULT_WIDTH`. A wider line
    would break in two on the terminal and its table would no longer read."""
    return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns


def on_terminal() -> bool:
    """Whether standard error is a terminal (the one place progress asks it)."""
    isatty = getattr(sys.stderr, "isatty", None)
    return bool(isatty and isatty())


def room() -> int:
    """The columns a status line may fill: all but the last, since a character written
    there makes some terminals wrap, and a wrapped line cannot be redrawn in place."""
    return output_width() - 1


def bar(fraction: float, width: int = BAR_WIDTH) -> str:
    """``[#########                     ]  30.0%``, the bar ``width`` characters inside."""
    fraction = min(1.0, max(0.0, fraction))
    return f"[{'#' * int(fraction * width):<{width}}] {fraction:6.1%}"


def with_bar(head: str, fraction: float, tails: Sequence[str]) -> str:
    """``head  [bar] share  tail``, fitted to :func:`room`: the bar narrows (to
    :data:`MIN_BAR`) before the first of ``tails`` (fullest first) that then fits is
    chosen; the last of them is taken, and the line cut, when none does."""
    width = room()
    lead = f"{head}  " if head else ""
    fixed = len(lead) + len(bar(0.0, 0)) + 2
    tail = next((t for t in tails if fixed + MIN_BAR + len(t) <= width), tails[-1])
    inner = min(BAR_WIDTH, max(MIN_BAR, width - fixed - len(tail)))
    return f"{lead}{bar(fraction, inner)}  {tail}".rstrip()


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
    disabled line writes nothing at all. Lines are cut to :func:`room`, since a wrapped
    line could no longer be redrawn in place. ``close`` ends the line (``keep``: leave it
    on screen) or erases it, so the command's own output starts on a clean line;
    ``say`` prints a message on its own line above it.
    """

    def __init__(self, enabled: bool, stream: TextIO | None = None) -> None:
        self.enabled = enabled
        self.stream = stream
        self.shown = False

    def show(self, text: str) -> None:
        if not self.enabled:
            return
        out = self.stream or sys.stderr
        out.write("\r" + text[: room()] + CLEAR_TO_END)
        out.flush()
        self.shown = True

    def close(self, keep: bool = False) -> None:
        if self.shown:
            out = self.stream or sys.stderr
            out.write("\n" if keep else "\r" + CLEAR_TO_END)
            out.flush()
            self.shown = False

    def say(self, message: str) -> None:
        """``message`` on a line of its own (the status line erased first; the caller
        shows it again), written even when the line is disabled: it is not progress."""
        self.close()
        out = self.stream or sys.stderr
        out.write(message + "\n")
        out.flush()


class ProgressBar:
    """Rounds done, rounds/s and time left, for :func:`simulator.runs.simulate.run`.

    Called as ``progress(done, expected, seconds)`` as the kernel finishes tasks of a few
    thousand rounds (:func:`simulator.matchloop.api.run_matches`) and after each part;
    drawn only once the run has lasted a second, so that short runs stay quiet, and at
    most every :data:`REDRAW` seconds. ``label`` goes in front (``compare`` names the
    variant there). On a narrow terminal the bar narrows, then the rounds done and the
    rounds/s give way, so that the share done and the time left always show.
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
        speed = f"{rate:,.0f} rounds/s"
        if not expected:
            count = f"{done:,} rounds  {speed}"
            self.line.show(f"{self.label}  {count}" if self.label else count)
            return
        count = f"{done:>{len(f'{expected:,}')},} rounds"  # as wide as at the end: no jitter
        left = f"{duration((expected - done) / rate if rate else 0.0)} left"
        tails = [f"{count}  {speed}  {left}", f"{speed}  {left}", left]
        self.line.show(with_bar(self.label, done / expected, tails))

    def close(self) -> None:
        self.line.close(keep=True)


class StepProgress:
    """Steps of a known count (tables, chunks of a run): where we are and the time left.

    ``step(done, total, what, detail)`` says that ``done`` of ``total`` steps are
    finished and names the one under way; the time left is extrapolated from the steps
    done. The line reads ``what [bar] share time-left detail``, so that on a narrow
    terminal the cut falls on the detail, never on the bar.

    ``notice(text, seconds)`` (a :func:`simulator.notices.listening` listener) prints a
    notice on its own line above the status line; the ``seconds`` of work it announces (a
    compile) count in the time left while pending, and are left out of the time per step
    once over (at most ``seconds``: the rest of that step's time was the step's own).
    """

    def __init__(self, enabled: bool, stream: TextIO | None = None) -> None:
        self.line = StatusLine(enabled, stream)
        self.started = time.perf_counter()
        self.last: tuple[int, int, str, str] | None = None  # the step shown
        self.pending = 0.0  # seconds announced by notices, not yet over
        self.announced = 0.0  # the clock when they were announced
        self.aside = 0.0  # seconds of announced work done, left out of the time per step

    def step(self, done: int, total: int, what: str, detail: str = "") -> None:
        if self.pending:  # a new step: the announced work is over
            now = time.perf_counter()
            self.aside += min(self.pending, now - self.announced)
            self.pending = 0.0
        self.last = (done, total, what, detail)
        self._draw()

    def notice(self, text: str, seconds: float) -> None:
        self.line.say(text)
        if seconds > 0:
            self.pending += seconds
            self.announced = time.perf_counter()
        if self.last is not None:
            self._draw()

    def _draw(self) -> None:
        assert self.last is not None
        done, total, what, detail = self.last
        now = time.perf_counter()
        since = min(self.pending, now - self.announced) if self.pending else 0.0
        own = now - self.started - self.aside - since  # the steps' own time so far
        still = self.pending - since  # announced work still to come
        left = ""
        if 0 < done < total:
            left = f"{duration(own * (total - done) / done + still)} left"
        elif done == 0 and still:
            left = f"at least {duration(still)} left"
        tail = "  ".join(t for t in (left, detail) if t)
        self.line.show(with_bar(what, done / total if total else 1.0, [tail]))

    def close(self) -> None:
        self.line.close()


@contextlib.contextmanager
def step_line(show: bool) -> Iterator[StepProgress]:
    """A :class:`StepProgress`, drawn when ``show`` and standard error is a terminal,
    erased on leaving (the command's own output then starts on a clean line)."""
    status = StepProgress(enabled=show and on_terminal())
    try:
        yield status
    finally:
        status.close()


@contextlib.contextmanager
def rounds_bar(show: bool, label: str = "") -> Iterator[ProgressBar]:
    """A :class:`ProgressBar` of a run's rounds, drawn when ``show`` and standard error
    is a terminal, left on screen on leaving."""
    bar = ProgressBar(enabled=show and on_terminal(), label=label)
    try:
        yield bar
    finally:
        bar.close()
