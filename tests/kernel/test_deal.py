"""The kernel's shuffle and deal against the reference engine's ``shuffle_deal``.

The kernel deals each card the moment the shuffle puts it in place, with the four
hands of a four-player table in registers and the others through an array, and finds
the 3 of clubs by following its swaps afterwards. Each of these paths is compared with
the reference, which swaps the whole deck first: every table size, joker count (so
leftover cards), dealer and placement of the base hands.
"""

from __future__ import annotations

import numpy as np
import pytest
from numba import njit

from simulator.kernel.bits import U0, stream_init
from simulator.kernel.layout import DECK
from simulator.matchloop.deal import deal
from simulator.reference.match import shuffle_deal
from simulator.reference.rng import Stream, seed_key
from simulator.rules.options import Rules


@njit  # not cached: numba would not see a change to the kernel function it calls
def _deal(key, match, dealer, slot_pos, n, jokers):
    """The kernel's deal of ``match``'s first round: hands, base hands, club position."""
    rs = np.zeros(3, np.uint64)
    stream_init(rs, key, match, np.uint64(1))
    H = np.full(8, U0)
    base = np.full(8, U0)
    deck = np.zeros(DECK, np.int64)
    draws = np.zeros(DECK + 1, np.uint64)
    club = deal(rs, dealer, slot_pos, n, jokers, deck, H, base, 0, draws)
    return H[:n].copy(), base[:n].copy(), club, rs.copy()


def _layout(counts: list[int]) -> int:
    """A hand of counts by rank in the kernel's layout (bit 16*l + r: more than l of r)."""
    return sum(1 << (16 * level + r) for r, c in enumerate(counts) for level in range(c))


@pytest.mark.parametrize("players", range(3, 9))
@pytest.mark.parametrize("jokers", [0, 2])
def test_deal_is_the_references_card_for_card(players, jokers):
    rules = Rules(players=players, jokers=jokers)
    seed = 11
    rng = np.random.default_rng(players * 10 + jokers)
    for match in range(40):
        dealer = int(rng.integers(players))
        slots = [(dealer + 1 + k) % players for k in range(players)]
        if match % 2:  # the fixed frame of duplicate deals places base hands anywhere
            slots = [int(s) for s in rng.permutation(players)]
        stream = Stream.of(seed, match, 1)
        hands, base, club = shuffle_deal(rules, stream, dealer, slots)
        H, B, kclub, rs = _deal(
            np.uint64(seed_key(seed)), match, dealer, np.array(slots), players, jokers
        )
        where = f"{players} players, {jokers} jokers, match {match}"
        assert [int(h) for h in H] == [_layout(h) for h in hands], where
        assert [int(b) for b in B] == [_layout(b) for b in base], where
        assert kclub == club, where
        # the stream is left where the reference's is: the next draws are the same
        assert (int(rs[0]), int(rs[1]), bool(rs[2])) == (stream.state, stream.buf, stream.have)
