"""The one digit rule (reports.numbers) and the one colour per strategy (reports.colours)."""

from __future__ import annotations

import math

import pytest

from reports import colours, numbers
from reports.estimates import POOLED
from reports.numbers import format_ci, format_column, plus_minus, shared
from strategies import registry

NAN = math.nan


@pytest.mark.parametrize(
    ("cell", "text"),
    [
        ((0.3123, 0.3011, 0.3234), "0.312 [0.301, 0.323]"),  # half 0.011: 3 places
        ((0.47178, 0.47153, 0.47203), "0.47178 [0.47153, 0.47203]"),  # half 0.00025: 5
        ((2.31, 2.11, 2.51), "2.31 [2.11, 2.51]"),  # half 0.20: 2 places, no noise
        ((1234.4, 1222.1, 1246.7), "1234 [1222, 1247]"),  # half 12: none
        ((0.5, NAN, NAN), "0.500"),  # no interval: the fallback
        ((0.25, 0.25 - 1e-15, 0.25 + 1e-15), "0.250 (exact)"),
        ((0.25, 0.2499, 0.2501), "0.25000 [0.24990, 0.25010]"),
        ((NAN, NAN, NAN), "–"),
    ],
)
def test_an_interval_gets_two_significant_digits_of_its_half_width(cell, text):
    assert format_ci(*cell) == text


def test_no_number_prints_a_signed_zero():
    # a difference that rounds to zero is not a negative finding
    assert format_ci(-0.00004, -0.0021, 0.0020) == "0.0000 [-0.0021, 0.0020]"
    assert format_ci(-0.0002, NAN, NAN) == "0.000"
    assert format_ci(-0.0312, -0.0401, -0.00004) == "-0.031 [-0.040, 0.000]"
    assert numbers.fixed(-0.0004, 3, signed=True) == "+0.000"
    assert format_ci(0.0123, 0.0021, 0.0226, signed=True) == "+0.012 [0.002, 0.023]"


def test_a_column_shares_the_widest_need_of_its_cells():
    wide, narrow = (0.318, 0.300, 0.336), (0.3471, 0.3431, 0.3511)  # halves 0.018, 0.004
    assert numbers.needed(*wide) == 3 and numbers.needed(*narrow) == 4
    assert shared([wide, narrow]) == 4
    cells = format_column(*zip(wide, narrow, strict=True))
    assert cells == ["0.3180 [0.3000, 0.3360]", "0.3471 [0.3431, 0.3511]"]
    decimals = {len(c.split()[0].split(".")[1]) for c in cells}
    assert decimals == {4}  # never 0.318 above 0.3471
    exact = format_column([0.25, 0.3471], [0.25 - 1e-15, 0.3431], [0.25 + 1e-15, 0.3511])
    assert exact == ["0.2500 (exact)", "0.3471 [0.3431, 0.3511]"]


def test_quantities_of_one_table_each_get_their_own_count():
    places = numbers.shared_by(
        ["tenure", "share", "tenure", "share"],
        [2.3, 0.25, 2.1, 0.31],
        [2.2, 0.249, 2.0, 0.30],
        [2.4, 0.251, 2.2, 0.32],
    )
    assert places == {"tenure": 2, "share": 4}


def test_plus_minus_gives_the_half_width_to_the_same_place():
    assert plus_minus(1.5, 1.4877, 1.5123) == "1.500 ± 0.012"
    assert format_column([0.0100, 0.5031], [0.0015, 0.4732], [0.0185, 0.5330],
                         style="plus_minus") == ["0.0100 ± 0.0085", "0.5031 ± 0.0299"]  # fmt: skip
    assert plus_minus(NAN, NAN, NAN) == "–"  # as format_ci writes a missing estimate


def test_every_built_in_strategy_has_its_own_fixed_colour():
    built_in = registry.names()
    shades = [colours.colour(name) for name in built_in]
    assert len(set(shades)) == len(shades)
    assert colours.colour(POOLED) not in shades
    assert not set(shades) & set(colours.USER_PALETTE)  # a user's strategy is told apart


def test_the_declared_colours_are_kept_and_an_undeclared_built_in_takes_a_spare(monkeypatch):
    assert colours.colour("random") == colours.BUILT_IN["random"] == "#7f7f7f"
    monkeypatch.setattr(colours, "names", lambda: [*registry.names(), "new-one", "newer"])
    assert colours.colour("new-one") == colours.SPARE_PALETTE[0]
    assert colours.colour("newer") == colours.SPARE_PALETTE[1]
    spares = set(colours.SPARE_PALETTE)
    assert len(spares) == len(colours.SPARE_PALETTE)
    assert not spares & (set(colours.BUILT_IN.values()) | set(colours.USER_PALETTE))


def test_a_users_strategy_keeps_its_colour_whatever_the_line_up():
    name = "my_bots.py:greedy"
    first = colours.colour(name)
    assert first in colours.USER_PALETTE and first not in colours.BUILT_IN.values()
    assert colours.colour(name) == first  # a stable hash, not Python's salted one


def _line_colours(fig) -> dict[str, str]:
    """Each labelled line or marker series of a figure's first axes → its colour."""
    from matplotlib.colors import to_hex

    ax = fig.axes[0]
    handles, labels = ax.get_legend_handles_labels()
    out = {}
    for handle, label in zip(handles, labels, strict=True):
        line = handle[0] if isinstance(handle, tuple) else getattr(handle, "lines", [handle])[0]
        out[label] = to_hex(line.get_color())
    return out


def test_a_strategy_has_one_colour_in_the_report_and_the_tournament():
    """The report's convergence figure and the tournament's deciles figure, with the
    strategies in different orders and line-ups, draw each strategy in its colour."""
    import pandas as pd

    from reports import figures
    from reports.strategy import figures as strategy_figures

    def frame(names: list[str], key: str, values: range) -> pd.DataFrame:
        rows = [
            {"strategy": s, key: v, "estimate": 2.0, "lo": 1.9, "hi": 2.1, "measure": m}
            for s in names
            for v in values
            for m in ("President rate", "mean place")
        ]
        return pd.DataFrame(rows)

    report = figures.convergence(frame(["random", "lowest", "planner"], "rounds", range(1, 4)))
    tournament = strategy_figures.deciles(
        frame(["planner", "rules-aware", "random", "lowest"], "decile", range(1, 11))
    )
    seen_report, seen_tournament = _line_colours(report), _line_colours(tournament)
    for name in ("random", "lowest", "planner"):
        assert seen_report[name] == seen_tournament[name] == colours.colour(name)
    assert seen_tournament["rules-aware"] == colours.colour("rules-aware")


def test_plus_minus_only_where_the_interval_is_symmetric_to_the_digits_shown():
    assert plus_minus(0.3123, 0.3011, 0.3235) == "0.312 ± 0.011"
    assert plus_minus(0.0088, 0.0070, 0.0120) == "0.0088 [0.0070, 0.0120]"  # a score interval
    assert plus_minus(-0.00001, -0.0021, 0.0021) == "0.0000 ± 0.0021"  # never a signed zero
    assert plus_minus(0.5, float("nan"), float("nan")) == format_ci(0.5, math.nan, math.nan)
