"""How the heuristics lay sequences (``sequences``; docs/strategies.md, "Sequences").

A sequence sheds three cards or more in one play, so a heuristic that leads its groups
one by one would waste it; but a sequence made of pairs breaks them, one with a joker
spends the joker, and one with a control (an ace or stronger in the order in force)
spends it. The heuristics share one sense of them (``keep-sets``, ``control``,
``shed-max``, ``planner``, ``rules-aware``; ``linear`` scores sequences with its
features, the search players search them, :mod:`strategies.suited_search`):

* leading, the longest sequence of *plain* cards (each the only card of its rank in the
  hand, none a control, no joker), the weakest weakest card then the lowest suit among
  equals, before anything else; without one, their own lead of sets;
* on a sequence, the weakest plain one that may be laid (``rules-aware``, which never
  passes when it can play: the weakest of any), else a pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import holds_cards
from simulator.kernel.layout import R_TRICK_FLAGS, RUNS
from simulator.kernel.runs import MIN_RUN, is_run, run_move, suit_masks, weakest_run
from simulator.rules.cards import ACE, TWO
from strategies.hand import at_least

NIBBLE = np.uint64(0xF)


@njit(**INLINE)
def lays_runs(R, H):
    """Whether a strategy may lay sequences here: under ``sequences``, with the cards in
    ``H`` (:func:`~simulator.kernel.knowledge.holds_cards`)."""
    return R[R_TRICK_FLAGS] & RUNS != 0 and holds_cards(H)


@njit(**INLINE)
def plain_cards(k, h, rev):
    """The cards of card mask ``k`` that a heuristic lays in a sequence: those of the
    ranks it holds once (in rank hand ``h``) that are not controls, jokers left out."""
    once = h & RANKS & ~((h >> np.uint64(16)) & RANKS)
    ranks = once & ~at_least(float(ACE), rev)
    cards = U0
    for r in range(TWO + 1):
        if ranks >> np.uint64(r) & U1 != U0:
            cards |= NIBBLE << np.uint64(4 * r)
    return k & cards


@njit(**INLINE)
def longest_run(k, rev):
    """The longest sequence held whole in card mask ``k`` (no joker), the weakest weakest
    card then the lowest suit among equals: ``(low, count)``, ``(0, 0)`` when none."""
    suits = suit_masks(k)
    best_low, best_len, best_suit, best_weak = 0, 0, 0, TWO + 1
    for suit in range(4):
        ranks = suits[suit]
        low = 0
        while low <= TWO:
            if ranks >> np.uint64(low) & U1 == U0:
                low += 1
                continue
            length = 1
            while low + length <= TWO and ranks >> np.uint64(low + length) & U1 != U0:
                length += 1
            weak = TWO - (low + length - 1) if rev else low
            if length > best_len or (length == best_len and weak < best_weak):
                best_low, best_len, best_suit, best_weak = low, length, suit, weak
            low += length
    if best_len < MIN_RUN:
        return 0, 0
    return best_low, run_move(best_len, best_suit)


@njit(**HOT)
def sequence_sense(k, h, t, tc, rev, lock, trick_rules, any_answer):
    """The sequence a heuristic holding card mask ``k`` (rank hand ``h``) lays on the top
    ``(t, tc)`` (``tc == 0``: a lead), as ``(low, count)``, ``(0, 0)``: none (see the
    module; ``any_answer``: any legal sequence answers, not only plain ones)."""
    plain = plain_cards(k, h, rev)
    if tc == 0:
        return longest_run(plain, rev)
    if not is_run(tc):
        return 0, 0
    return weakest_run(k if any_answer else plain, t, tc, rev, lock, trick_rules)
