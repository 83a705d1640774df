"""What each player knows of the others' hands after the card exchange.

The exchange is the only moment a player sees cards that are not his: the better
player of a pair knows the worse one holds the cards he gave back, and that the worse
one held nothing stronger than the weakest card he had to give; the worse player knows
the better one holds the cards he gave, except as many of each rank as came back.

The knowledge lives behind the hands in the kernel's ``H`` array, so that it reaches
every strategy with the observation it already reads (no signature changes):

* ``H[pos]`` for ``pos < MAX_PLAYERS``: the hands;
* ``H[KNOWN + MAX_PLAYERS * obs + q]``: cards ``obs`` knows ``q`` held after the exchange
  (a hand bitmask; a lower bound, which shrinks as cards are played);
* ``H[ALLOWED + MAX_PLAYERS * obs + q]``: the ranks ``q`` may hold apart from those
  cards, as ``obs`` knows (a rank mask; all ranks when nothing is known);
* ``H[CARDS + pos]``: under rules that read suits, the cards of ``pos``'s hand by card id
  (bit ``4 × rank + suit``, the jokers 52 and 53: :mod:`simulator.kernel.suits`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, add_card, count_of, remove_cards
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.layout import MAX_PLAYERS
from simulator.rules.cards import NUM_RANKS

KNOWN = MAX_PLAYERS
ALLOWED = KNOWN + MAX_PLAYERS * MAX_PLAYERS
CARDS = ALLOWED + MAX_PLAYERS * MAX_PLAYERS
H_SIZE = CARDS + MAX_PLAYERS


@njit(**INLINE)
def holds_cards(H):
    """Whether ``H`` carries the card masks (``H[CARDS + pos]``): the round's own array
    does, and so do a search's guessed deals under rules that read suits; under other
    rules those hold rank hands only (``MAX_PLAYERS`` of them)."""
    return H.size > CARDS


@njit(**HOT)
def forget(H):
    """Nothing is known of anybody's hand (the start of every round)."""
    for i in range(KNOWN, ALLOWED):
        H[i] = U0
    for i in range(ALLOWED, CARDS):
        H[i] = RANKS


@njit(**HOT)
def note_exchange(H, better, worse, gave_up, weakest_given, back, k):
    """Record one pair's exchange (positions ``better`` and ``worse``).

    ``gave_up`` is the hand mask of the worse player's ``k`` best cards, of which
    ``weakest_given`` is the weakest rank; ``back[:k]`` the ranks given back.
    """
    returned = U0
    for j in range(k):
        returned = add_card(returned, back[j])
    H[KNOWN + MAX_PLAYERS * better + worse] = returned
    # the worse player kept nothing stronger than the weakest card he had to give
    H[ALLOWED + MAX_PLAYERS * better + worse] = ((U1 << np.uint64(weakest_given + 1)) - U1) & RANKS
    kept = U0
    for r in range(NUM_RANKS):
        for _ in range(count_of(gave_up, r) - count_of(returned, r)):
            kept = add_card(kept, r)
    H[KNOWN + MAX_PLAYERS * worse + better] = kept


@njit(**HOT)
def note_gift(H, giver, receiver, gift, n):
    """Record the cards of ``gift`` (a hand) leaving ``giver``'s hand after his 7s or 10s:
    to ``receiver`` (-1: discarded face up, which everybody saw).

    The giver knows the receiver holds them; the receiver knows which of the cards he
    knew of the giver left; the others saw nothing, so what they knew of the giver may
    have gone and the receiver may now hold any rank.
    """
    for obs in range(n):
        if obs == giver:
            if receiver >= 0:
                at = KNOWN + MAX_PLAYERS * giver + receiver
                for r in range(NUM_RANKS):
                    for _ in range(count_of(gift, r)):
                        H[at] = add_card(H[at], r)
                H[ALLOWED + MAX_PLAYERS * giver + receiver] |= gift & RANKS
            continue
        at = KNOWN + MAX_PLAYERS * obs + giver
        if receiver < 0 or obs == receiver:  # he saw the cards go
            for r in range(NUM_RANKS):
                gone = min(count_of(gift, r), count_of(H[at], r))
                if gone > 0:
                    H[at] = remove_cards(H[at], r, gone)
        else:
            H[at] = U0
            H[ALLOWED + MAX_PLAYERS * obs + receiver] = RANKS
