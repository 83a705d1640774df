"""The dealt-hand strength score: how good the cards a player was dealt are, luck only.

Luck adjustment (control variates, :mod:`simulator.stats`) needs a number that explains
much of a round's result yet is pure luck: the same expectation for every player,
whatever his strategy, seat or past. So the score reads only the player's **base
hand** — the first ⌊D/n⌋ cards dealt to him (D = 52 and the jokers), before the
exchange — never the exchange (decided by last round's places, hence by skill) nor the
D mod n leftover cards (they go to the players left of the dealer, whom the roles
choose). Base hands are exchangeable between players whatever happened before, so
every player's score has the same distribution; the analyses centre it on the round's
mean over the players (``hand_strength`` minus the table's average), which has
expectation zero for every player and strategy.

The score is Σ over ranks of ``WEIGHTS[rank][count]``, a table in hundredths of a place:
holding ``count`` cards of ``rank`` moves the expected place by about
``−WEIGHTS[rank][count] / 100`` against an average hand (5 points a card were added
so that an average 13-card hand scores about 0; within a round every base hand has
the same number of cards, so this shift changes nothing). It was fitted by least squares of
place on the table's indicators, centred within the round, on 60,000 rounds of
``rules-aware`` against ``lowest`` (french, 4 players, 10-round matches; jokers from
40,000 rounds with ``jokers = 2``), and explains R² ≈ 0.09 of the place variance over all
rounds of a match (≈ 0.20 in round 1, before any exchange). A fitted table beats the
sum of rank indices (R² ≈ 0.07), and it captures that sets of high cards are worth more
than their cards apart. Any fixed score gives valid adjusted intervals; a better one
only narrows them.

The kernel compiles the table in as a constant, and numba's on-disk cache does not see
edits to this file: after changing ``WEIGHTS``, delete the cached kernels (the ``*.nbi``
and ``*.nbc`` files) so that both engines score alike again.
"""

from __future__ import annotations

from collections.abc import Sequence

from simulator.rules.cards import NUM_RANKS

# WEIGHTS[rank][count]: count = 0..4 cards of rank 3, 4, …, A, 2, joker
WEIGHTS: tuple[tuple[int, ...], ...] = (
    (0, -16, -20, -13, -1),  # 3
    (0, -19, -22, -14, 2),  # 4
    (0, -21, -21, -12, -17),  # 5
    (0, -19, -17, -8, -5),  # 6
    (0, -15, -10, -2, -8),  # 7
    (0, -9, -1, 4, 17),  # 8
    (0, -4, 7, 14, 16),  # 9
    (0, 1, 14, 21, 27),  # 10
    (0, 8, 23, 34, 42),  # J
    (0, 12, 27, 40, 54),  # Q
    (0, 14, 29, 44, 75),  # K
    (0, 15, 28, 49, 76),  # A
    (0, 13, 27, 37, 29),  # 2
    (0, 16, 30, 0, 0),  # joker (two at most)
)


def base_hand_size(deck: int, players: int) -> int:
    """Cards in a base hand: the deal's ⌊D/n⌋ cards that every player receives."""
    return deck // players


def hand_strength(counts: Sequence[int]) -> int:
    """The score of a base hand given as rank counts (index 0..13 = 3 … 2, joker)."""
    return sum(WEIGHTS[rank][counts[rank]] for rank in range(NUM_RANKS))
