"""How many digits an estimate with its 95 % interval shows: the one rule of every page,
figure and terminal table.

The interval decides, not a fixed count: the half-width is given to two significant
digits and the estimate and the bounds to the same decimal place, so a wide interval
never shows noise (``2.3 [2.1, 2.5]``) and a narrow one never rounds to nothing
(``±0.00``). A column of one quantity shares one decimal count, the widest need of its
cells, so ``0.318`` never sits above ``0.3471``: :func:`shared` finds it and
:func:`format_column` applies it.

Plain Python on purpose: ``president simulate`` prints its table with it without loading
pandas.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence

SIGNIFICANT = 2  # significant digits of the half-width
FALLBACK = 3  # decimals of a column where no cell has an interval to go by
MAX_DECIMALS = 6  # decimals shown at most, however narrow an interval
EXACT = 1e-9  # a half-width this small (relative) is floating-point noise, not uncertainty
ROUNDING = 1e-9  # a half-width this close below a power of ten is that power (float noise)

Interval = tuple[float, float, float]  # estimate, lo, hi (NaN where unknown)


def needed(estimate: float, lo: float, hi: float) -> int | None:
    """The decimals this interval needs (two significant digits of its half-width), or
    None when it has none to give: no interval, a zero one, or rounding noise around an
    exact value."""
    if any(math.isnan(v) for v in (estimate, lo, hi)):
        return None
    half = (hi - lo) / 2
    if half <= EXACT * max(1.0, abs(estimate)):
        return None
    magnitude = math.floor(math.log10(half) + ROUNDING)  # 0.0999999… is 0.1
    return min(MAX_DECIMALS, max(0, SIGNIFICANT - 1 - magnitude))


def shared(cells: Iterable[Interval]) -> int:
    """One decimal count for a column of one quantity: the widest need of its cells."""
    needs = [d for d in (needed(*cell) for cell in cells) if d is not None]
    return max(needs, default=FALLBACK)


def shared_by(
    keys: Iterable[Hashable], estimates: Iterable[float], los: Iterable[float], his: Iterable[float]
) -> dict[Hashable, int]:
    """One decimal count per quantity, for a table of several: ``keys`` names the
    quantity (the column, or the row where the rows are the measures) of each cell."""
    cells: dict[Hashable, list[Interval]] = {}
    for key, *cell in zip(keys, estimates, los, his, strict=True):
        cells.setdefault(key, []).append(tuple(cell))
    return {key: shared(group) for key, group in cells.items()}


def is_exact(estimate: float, lo: float, hi: float) -> bool:
    """The interval is only rounding noise around an exact value (the pooled chain's
    stationary shares are exactly 1/n)."""
    half = (hi - lo) / 2
    return 0 < half <= EXACT * max(1.0, abs(estimate))


def fixed(value: float, decimals: int, signed: bool = False) -> str:
    """``value`` to ``decimals`` places, never a signed zero (a difference of −0.00004
    reads ``0.000``, not ``-0.000``, which looks like a finding); NaN as ``–``.
    ``signed``: a ``+`` before positive values and zero (a difference)."""
    if math.isnan(value):
        return "–"
    text = f"{value:.{decimals}f}"
    if text.startswith("-") and not text.strip("-0."):
        text = text[1:]
    return f"+{text}" if signed and not text.startswith("-") else text


def format_ci(
    estimate: float, lo: float, hi: float, decimals: int | None = None, signed: bool = False
) -> str:
    """``0.312 [0.301, 0.323]``: to ``decimals`` places (default: what this interval
    needs, for a number standing alone); the interval left out when it could not be
    computed, ``(exact)`` when it is only rounding noise. ``signed``: ``+`` before a
    positive estimate (a difference; the bounds keep only their minus)."""
    if math.isnan(estimate):
        return "–"
    places = decimals if decimals is not None else shared([(estimate, lo, hi)])
    value = fixed(estimate, places, signed)
    if math.isnan(lo) or math.isnan(hi):
        return value
    if is_exact(estimate, lo, hi):
        return f"{value} (exact)"
    return f"{value} [{fixed(lo, places)}, {fixed(hi, places)}]"


def plus_minus(
    estimate: float, lo: float, hi: float, decimals: int | None = None, signed: bool = False
) -> str:
    """``0.312 ± 0.011``: the estimate and the half-width of its interval, in about two
    thirds of the width of ``[lo, hi]``, for a narrow terminal.

    ``±`` only where it is true: when the interval is symmetric to the digits shown (its
    two sides differ by less than half a unit of the last place). A t-interval always is;
    a score interval of a rate near 0 or 1 need not be, and it keeps its ``[lo, hi]``
    (``0.0088 [0.0086, 0.0091]``) rather than be shown as the symmetric one it is not.
    An exact value or a missing interval reads as :func:`format_ci` writes it.
    """
    if math.isnan(estimate) or math.isnan(lo) or math.isnan(hi) or is_exact(estimate, lo, hi):
        return format_ci(estimate, lo, hi, decimals, signed)
    places = decimals if decimals is not None else shared([(estimate, lo, hi)])
    if abs((hi - estimate) - (estimate - lo)) >= 0.5 * 10.0**-places:
        return format_ci(estimate, lo, hi, places, signed)
    return f"{fixed(estimate, places, signed)} ± {fixed((hi - lo) / 2, places)}"


def format_column(
    estimates: Sequence[float],
    los: Sequence[float],
    his: Sequence[float],
    signed: bool = False,
    style: str = "brackets",
) -> list[str]:
    """A column of one quantity, every cell to the column's shared decimals; ``style``
    ``brackets`` (``0.312 [0.301, 0.323]``) or ``plus_minus`` (``0.312 ± 0.011``)."""
    cells = list(zip(estimates, los, his, strict=True))
    places = shared(cells)
    write = format_ci if style == "brackets" else plus_minus
    return [write(*cell, decimals=places, signed=signed) for cell in cells]
