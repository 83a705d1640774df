"""The shuffle and the deal of the kernel (the reference engine's ``deal_cards``, card for card).

The same stream draws as :func:`simulator.reference.match.deal_cards`, on the same deck
of card ids (:mod:`simulator.rules.cards`), each card dealt as its rank; the match loop
(:func:`simulator.matchloop.matches.play_match`) places each base hand by position,
which also serves the fixed frame of duplicate deals.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import GOLDEN, M32, U0, U1, U32, add_card, mix
from simulator.kernel.config import INLINE
from simulator.kernel.knowledge import CARDS


@njit(**INLINE)
def swap_partners(rs, size, draws):
    """Fisher–Yates on a deck of ``size`` cards, as stream ``rs`` draws it one draw at a
    time through ``below``: step ``i`` swaps the cards at ``i`` and ``draws[i] = i +
    below(size - i)`` (``draws[size - 1] = size - 1``: the last step draws nothing).

    The stream's outputs do not depend on the cards, so they are all computed first, in
    a loop the compiler vectorises (``draws`` is scratch for ``size + 1`` values).
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
    draws[steps] = np.uint64(steps)
    if outputs > 0:
        s += np.uint64(outputs) * GOLDEN
        buf = mix(s) & M32
        have = (steps - first) % 2 == 1  # the last output's low half is still to be drawn
    elif have:
        have = steps == 0
    rs[0], rs[1], rs[2] = s, buf, U1 if have else U0


@njit(**INLINE)
def take(deck, draws, i):
    """Step ``i`` of the shuffle: the card (its id) it brings to position ``i``.

    No later step reads position ``i``, so the card is dealt at once and never stored
    there: one store a step instead of the swap's two.
    """
    j = np.int64(draws[i])
    card = deck[j]
    deck[j] = deck[i]
    return card


@njit(**INLINE)
def deal_card(h, card):
    """Hand ``h`` with card id ``card``: its rank is ``card >> 2`` (:mod:`simulator.rules.cards`)."""
    return add_card(h, card >> 2)


@njit(**INLINE)
def club_index(draws, size, card):
    """Where card id ``card`` of the unshuffled deck (the 3 that opens: clubs, card 0, or
    diamonds, card 1) ends, following the swaps."""
    at = card
    for i in range(size):
        j = np.int64(draws[i])
        if j == at:
            return i  # brought to i: no later step moves it
        if i == at:
            at = j
    return at


@njit(**INLINE)
def holder(H, card):
    """The position whose card mask holds card id ``card`` (dealt: one does)."""
    pos = 0
    while (H[CARDS + pos] >> np.uint64(card)) & U1 == U0:
        pos += 1
    return pos


@njit(**INLINE)
def deal(rs, dealer, slot_pos, n, jokers, deck, H, base, opening, draws, ids=False):
    """Shuffle (Fisher–Yates on stream ``rs``) and deal: base hand ``k`` (the cards
    ``i < n·⌊D/n⌋`` with ``i mod n = k``) to position ``slot_pos[k]``, then the ``D mod n``
    leftover cards one each from the dealer's left. ``base[pos]`` receives each
    position's base hand. With ``slot_pos[k] = dealer + 1 + k`` this is the rules' deal,
    one card at a time from the dealer's left. ``ids``: each card id also goes to its
    position's card mask (``H[CARDS + pos]``, under rules that read suits); a loop whose
    rules never read them passes the constant False, and its deal carries none of it.

    Each card is dealt the moment the shuffle puts it in its place (:func:`take`); with
    four players the four base hands are built in registers (a deal 74 ns against 90
    through the array, measured in a harness). Returns the position dealt the card id
    ``opening`` (the 3 that opens the round), else -1 (``opening`` -1: not asked).
    """
    size = 52 + jokers
    for i in range(size):  # the card ids in order (simulator.rules.cards)
        deck[i] = i
    swap_partners(rs, size, draws)
    if ids:
        for p in range(n):
            H[CARDS + p] = U0
    full = size - size % n
    if n == 4:
        h0, h1, h2, h3 = U0, U0, U0, U0
        for i in range(0, full, 4):
            h0 = deal_id(h0, take(deck, draws, i), H, slot_pos[0], ids)
            h1 = deal_id(h1, take(deck, draws, i + 1), H, slot_pos[1], ids)
            h2 = deal_id(h2, take(deck, draws, i + 2), H, slot_pos[2], ids)
            h3 = deal_id(h3, take(deck, draws, i + 3), H, slot_pos[3], ids)
        H[slot_pos[0]], H[slot_pos[1]], H[slot_pos[2]], H[slot_pos[3]] = h0, h1, h2, h3
    else:  # base holds the hands by k until they are placed
        for k in range(n):
            base[k] = U0
        k = 0
        for i in range(full):
            base[k] = deal_id(base[k], take(deck, draws, i), H, slot_pos[k], ids)
            k = k + 1 if k + 1 < n else 0
        for k in range(n):
            H[slot_pos[k]] = base[k]
    for p in range(n):
        base[p] = H[p]
    pos = dealer
    for i in range(full, size):
        pos = pos + 1 if pos + 1 < n else 0
        H[pos] = deal_id(H[pos], take(deck, draws, i), H, pos, ids)
    if opening < 0:
        return -1
    if ids:  # the card masks say who holds it: no walk through the swaps
        return holder(H, opening)
    club = club_index(draws, size, opening)
    return slot_pos[club % n] if club < full else (dealer + 1 + club - full) % n


@njit(**INLINE)
def deal_id(h, card, H, pos, ids):
    """Hand ``h`` with card id ``card`` (:func:`deal_card`), the card also added to the card
    mask of position ``pos`` when ``ids`` (:func:`deal`)."""
    if ids:
        H[CARDS + pos] |= U1 << np.uint64(card)
    return deal_card(h, card)
