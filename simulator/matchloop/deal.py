"""The shuffle and the deal of the kernel (the reference engine's ``shuffle_deal``, card for card).

The same stream draws as :func:`simulator.reference.match.shuffle_deal`; the match loop
(:func:`simulator.matchloop.matches.play_match`) places each base hand by position,
which also serves the fixed frame of duplicate deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import GOLDEN, M32, U0, U1, U32, add_card, mix
from simulator.kernel.config import INLINE
from simulator.rules.cards import THREE

CLUB_MARK = 16  # the 3 of clubs in the deck while it is shuffled (a 3 with a mark)


@njit(**INLINE)
def club_position(deck, size, full, slot_pos, dealer, n):
    """The position dealt the marked 3 of clubs (see :func:`deal`); the mark is removed."""
    for i in range(size):
        if deck[i] == CLUB_MARK:
            deck[i] = THREE
            if i < full:
                return slot_pos[i % n]
            return (dealer + 1 + i - full) % n
    return -1


@njit(**INLINE)
def shuffle(rs, deck, size, draws):
    """Fisher–Yates on ``deck[:size]``, drawing from stream ``rs`` exactly as ``below``
    would one draw at a time: step ``i`` brings card ``i + below(size - i)`` to ``i``.

    The stream's outputs do not depend on the cards, so they are computed first, in a
    loop the compiler vectorises (``draws`` is scratch for ``size + 1`` values), and
    the swaps then only move cards.
    """
    steps = size - 1
    s, buf, have = rs[0], rs[1], rs[2] != U0
    first = 0
    if have and steps > 0:
        draws[0] = buf
        first = 1
    outputs = (steps - first + 1) // 2  # two 32-bit draws per 64-bit output, high half first
    for q in range(outputs):
        z = mix(s + np.uint64(q + 1) * GOLDEN)
        draws[first + 2 * q] = z >> U32
        draws[first + 2 * q + 1] = z & M32
    for i in range(steps):
        draws[i] = np.uint64(i) + ((draws[i] * np.uint64(size - i)) >> U32)
    for i in range(steps):
        j = np.int64(draws[i])
        d = deck[j]
        deck[j] = deck[i]
        deck[i] = d
    if outputs > 0:
        s += np.uint64(outputs) * GOLDEN
        buf = mix(s) & M32
        have = (steps - first) % 2 == 1  # the last output's low half is still to be drawn
    elif have:
        have = steps == 0
    rs[0], rs[1], rs[2] = s, buf, U1 if have else U0


@njit(**INLINE)
def deal(rs, dealer, slot_pos, n, jokers, deck, H, base, clubs, draws):
    """Shuffle (Fisher–Yates on stream ``rs``) and deal: base hand ``k`` (the cards
    ``i < n·⌊D/n⌋`` with ``i mod n = k``) to position ``slot_pos[k]``, then the ``D mod n``
    leftover cards one each from the dealer's left. ``base[pos]`` receives each
    position's base hand. With ``slot_pos[k] = dealer + 1 + k`` this is the rules' deal,
    one card at a time from the dealer's left. Each base hand is built in a register.

    Returns the position dealt the 3 of clubs (card 0 of the unshuffled deck) when
    ``clubs`` asks for it, else -1. The card is marked while it is shuffled, which never
    changes the shuffle: the hands and draws are the same either way.
    """
    size = 52 + jokers
    for i in range(52):
        deck[i] = i >> 2
    for i in range(52, size):
        deck[i] = 13
    if clubs:
        deck[0] = CLUB_MARK
    shuffle(rs, deck, size, draws)
    full = size - size % n
    club = club_position(deck, size, full, slot_pos, dealer, n) if clubs else -1
    for k in range(n):
        h = U0
        for i in range(k, full, n):
            h = add_card(h, deck[i])
        H[slot_pos[k]] = h
    for p in range(n):
        base[p] = H[p]
    pos = dealer
    for i in range(full, size):
        pos += 1
        if pos == n:
            pos = 0
        H[pos] = add_card(H[pos], deck[i])
    return club
