"""The heuristics' bit tricks (:mod:`strategies.hand`) against the rule book's words.

The engines' comparison tests cannot see a wrong bit trick (both engines call the same
compiled function), so the shortcuts are checked here against plain Python: which plays
nobody can beat by rank, given the cards neither held nor played, and which ranks reach
a strength threshold, in both orders, with and without jokers. (Masks come back to
Python as ints: they are passed on as ``np.uint64``, their type in the kernel.)
"""

from __future__ import annotations

import math

import numpy as np

from simulator.rules.cards import JOKER, strength
from strategies.adapter import hand_mask
from strategies.hand import at_least, outside, unbeatable_plays


def random_position(rng: np.random.Generator, jokers: int) -> tuple[list[int], list[int]]:
    """A hand's 14 rank counts and the cards played this round, drawn from one deck."""
    deck = [r for r in range(13) for _ in range(4)] + [JOKER] * jokers
    rng.shuffle(deck)
    hand = [0] * 14
    played = [0] * 14
    for r in deck[: rng.integers(1, 14)]:
        hand[r] += 1
    for r in deck[20 : 20 + rng.integers(0, 30)]:
        played[r] += 1
    return hand, played


def test_unbeatable_plays_follow_the_definition() -> None:
    """``c`` cards of rank ``r`` are unbeatable when no stronger rank has ``c`` cards out
    there (neither in the hand nor played), for every count the hand can play."""
    rng = np.random.default_rng(12)
    for trial in range(400):
        jokers = 2 * (trial % 2)
        rev = (trial // 2) % 2
        hand, played = random_position(rng, jokers)
        out = [(jokers if r == JOKER else 4) - hand[r] - played[r] for r in range(14)]
        u = int(
            unbeatable_plays(
                np.uint64(outside(np.uint64(hand_mask(hand)), np.array(played), jokers)), rev
            )
        )
        for r in range(14):
            for c in range(1, hand[r] + 1):
                stronger = [q for q in range(14) if strength(q, bool(rev)) > strength(r, bool(rev))]
                expected = all(out[q] < c for q in stronger)
                assert bool(u >> (16 * (c - 1) + r) & 1) == expected, (trial, r, c)


def test_at_least_follows_the_strengths() -> None:
    """Ranks of strength at least a (float) threshold, NaN and the extremes included."""
    for rev in (0, 1):
        for t in (-3.0, 0.0, 0.5, 5.0, 10.2, 11.0, 12.0, 12.5, 13.0, 13.5, 40.0, math.nan):
            expected = sum(1 << r for r in range(14) if strength(r, bool(rev)) >= t)
            assert int(at_least(t, rev)) == expected, (rev, t)
