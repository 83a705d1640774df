"""The plain round loop's tables (simulator/matchloop/plain.py).

The loop itself is checked move for move against the reference engine wherever a table
is all ``lowest``/``random`` under the first catalogue's rules: every configuration,
player count and seating of ``test_kernel_vs_reference.py`` and the fuzzed rules of
``test_fuzz_kernel.py`` play through it. Here: the legal plays it looks up are the ones
the strategies' legality (``plays_of``) finds, for every hand, top and rule, and the
independent test oracle's (``tests/reference/oracle.py``) for every top; and the plays
that end a trick or reverse the order are the rules'.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from numba import njit

from simulator.kernel.bits import add_card
from simulator.kernel.layout import rules_array
from simulator.kernel.legal import legal_flags, legal_layout, plays_of
from simulator.kernel.trick import ends_trick_at_once
from simulator.matchloop.plain import (
    ENDS,
    FLIPS,
    LEGAL_TABLE,
    RARE,
    fill_legal_table,
    plain_table,
)
from simulator.rules.cards import JOKER, THREE, TWO
from simulator.rules.options import Rules
from strategies.specs import CONTROL, LOWEST, RANDOM
from tests.reference.oracle import OracleRound, Top

BEATING = list(
    itertools.product(
        ("off", "skip", "allow"), (False, True), (False, True), ("off", "higher_rank", "any")
    )
)


@njit  # not cached: numba would not see a change to the kernel function it calls
def _hand(ranks):
    h = np.uint64(0)
    for r in ranks:
        h = add_card(h, r)
    return h


@njit  # not cached: numba would not see a change to the kernel function it calls
def _mismatches(hands, R, legal):
    """(top, count, order, hand) where ``h & table`` differs from ``plays_of``."""
    lf = legal_flags(R)
    bad = []
    for rev in range(2):
        for tc in range(1, 5):
            for t in range(14):
                table = legal[(rev * 4 + tc - 1) * 16 + t]
                for h in hands:
                    want = plays_of(h, t, tc, rev, lf)
                    if h & table != want or h & legal_layout(t, tc, rev, lf) != want:
                        bad.append((t, tc, rev, np.int64(h)))
    return bad


def _hands(jokers: int, count: int = 300) -> np.ndarray:
    """Random hands of 1 to 20 cards (with full sets, so that every count is met)."""
    rng = np.random.default_rng(7)
    deck = np.repeat(np.arange(13), 4).tolist() + [JOKER] * jokers
    out = [_hand(np.array(deck[:0], dtype=np.int64))]
    for _ in range(count):
        size = int(rng.integers(1, 21))
        out.append(_hand(np.array(rng.permutation(deck)[:size], dtype=np.int64)))
    return np.array(out, dtype=np.uint64)


@pytest.mark.parametrize(("equal", "transparent", "quad", "larger"), BEATING)
def test_table_of_legal_plays_is_plays_of(equal, transparent, quad, larger):
    rules = Rules(
        jokers=2,
        equal_rank=equal,
        transparent_threes=transparent,
        quad_burns=quad,
        larger_sets=larger,
    )
    R = rules_array(rules)
    legal = np.zeros(LEGAL_TABLE, np.uint64)
    fill_legal_table(R, legal)
    assert _mismatches(_hands(2), R, legal) == []


def _oracle_layout(rules: dict, t: int, tc: int, rev: int) -> int:
    """The oracle's legal plays on a top of ``tc`` cards of rank ``t``, as layout bits."""
    position = OracleRound(rules, [[1] * 14, [1] * 14], 0)
    position.top = Top(count=tc, rank=t, owner=1)
    position.reversed = bool(rev)
    return sum(
        1 << (16 * (c - 1) + r)
        for c in range(1, 5)
        for r in range(JOKER + 1)
        if position.play_effect(r, c) is not None
    )


@pytest.mark.parametrize(("equal", "transparent", "quad", "larger"), BEATING)
def test_table_of_legal_plays_is_the_oracles(equal, transparent, quad, larger):
    options = {
        "jokers": 2,
        "equal_rank": equal,
        "transparent_threes": transparent,
        "quad_burns": quad,
        "larger_sets": larger,
    }
    legal = np.zeros(LEGAL_TABLE, np.uint64)
    fill_legal_table(rules_array(Rules(**options)), legal)
    every_play = sum(((1 << (JOKER + 1)) - 1) << (16 * level) for level in range(4))
    for rev in range(2):
        for tc in range(1, 5):
            for t in range(JOKER + 1):
                got = int(legal[(rev * 4 + tc - 1) * 16 + t]) & every_play
                assert got == _oracle_layout(options, t, tc, rev), (t, tc, rev)


@pytest.mark.parametrize(
    ("two_ends", "quad", "revolution", "transparent"),
    list(itertools.product((False, True), repeat=4)),
)
def test_plays_ending_the_trick_and_reversing_the_order(two_ends, quad, revolution, transparent):
    rules = Rules(
        two_ends_trick=two_ends,
        quad_burns=quad,
        revolution=revolution,
        transparent_threes=transparent,
        jokers=2,
    )
    R = rules_array(rules)
    legal = np.zeros(LEGAL_TABLE, np.uint64)
    fill_legal_table(R, legal)
    for r in range(JOKER + 1):
        for c in range(1, 5):
            bit = 16 * (c - 1) + r
            assert bool(int(legal[ENDS]) >> bit & 1) == ends_trick_at_once(r, c, two_ends, quad)
            assert bool(int(legal[FLIPS]) >> bit & 1) == (revolution and c == 4)
            changed = int(legal[ENDS] | legal[FLIPS]) >> bit & 1 or (transparent and r == THREE)
            assert bool(int(legal[RARE]) >> bit & 1) == bool(changed)  # the loop's shortcut
    if two_ends:  # one 2 alone ends it: the table is not vacuous
        assert int(legal[ENDS]) >> TWO & 1


def test_plain_tables_are_lowest_and_random_only():
    assert plain_table(np.array([LOWEST, RANDOM, RANDOM, LOWEST, CONTROL]), 4)
    assert not plain_table(np.array([LOWEST, RANDOM, CONTROL, LOWEST]), 4)
    assert plain_table(np.array([RANDOM, RANDOM, RANDOM]), 3)
