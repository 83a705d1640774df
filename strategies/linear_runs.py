"""``linear`` under the rules that read suits: each legal sequence (``sequences``) scored
by the features of a play, read for a sequence, and the features of the suits
(docs/strategies.md, "linear").

A sequence is a play of several ranks, one card each, so the features of a play keep
their meaning with "the rank played" read as its strongest card: the cards it sheds
(``w_cards``), the strength of its strongest card, whether it breaks a group (one of
its cards was one of a pair or more), the groups, needs and sure winners left, whether
nobody can beat it by rank (no sequence as long fits above it), going out (on 2s when it
holds a 2 or a joker), 2s and jokers in it, the weakest rank in it, an 8 that ends the
trick, a revolution by its length, the cards of a lead, a control spent. The features
of a trick's answer by rank (jacks, skips, beaters) are 0 for a sequence. Three features
are the suits' own (feature set 4): laying a sequence, locking the trick (its play lays
the top's suits, which ``linear`` then does), and the cards left in sequences of the
hand (what a play spends of its sequences to come). They are 0 under rules without
suits, so the weights tuned there keep their meaning.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, popc
from simulator.kernel.config import INLINE
from simulator.kernel.knowledge import holds_cards
from simulator.kernel.layout import (
    LOCK,
    R_FLAGS,
    R_TRICK_FLAGS,
    RUNS,
    RUNS_HIGH,
    S_LOCK,
    S_REV,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    TWOS_LAST,
)
from simulator.kernel.runs import (
    run_cards,
    run_ends_trick,
    run_left,
    run_length,
    run_strengths,
    run_suit,
    run_turns,
    runs_scan,
    suit_ranks,
)
from simulator.kernel.suits import locking_cards, play_cards
from simulator.rules.cards import ACE, TWO
from strategies.hand import (
    STRONGEST,
    THREAT,
    flag,
    groups,
    spread,
    twos,
    unbeatable_groups,
    weakest_of,
)
from strategies.rules_aware import mean_strength


@njit(**INLINE)
def run_unbeatable(low, length, rev, trick_rules):
    """Whether no sequence as long fits above this one by rank: fewer ranks are stronger
    than the card it must be above (its strongest under ``above_highest``, else its
    weakest) than it holds cards."""
    weakest, strongest = run_strengths(low, length, rev)
    above = strongest if trick_rules & RUNS_HIGH != 0 else weakest
    return TWO - above < length


@njit(**INLINE)
def run_features(h, k, low, c, u, S, R, fewest):
    """The features of laying the sequence ``(low, c)`` from card mask ``k`` (rank hand
    ``h``), in the order of ``LINEAR_PARAMS``; ``u`` the unbeatable plays and ``fewest``
    the fewest cards of another player, as for a play (:func:`strategies.linear.features`)."""
    length = run_length(c)
    lead = S[S_TOP_COUNT] == 0
    rev = S[S_REV]
    trick_rules = R[R_TRICK_FLAGS]
    span = ((U1 << np.uint64(length)) - U1) << np.uint64(low)
    held = suit_ranks(k, run_suit(c)) & span
    after, jokers = run_left(h, held, low, length)
    g = groups(after)
    sure = popc(unbeatable_groups(after, u))
    gone = after == U0
    nofin2 = R[R_FLAGS] & TWOS_LAST != 0
    breaks = held & (h >> np.uint64(16)) & RANKS != U0
    wins = run_unbeatable(low, length, rev, trick_rules) and not gone
    strongest = run_strengths(low, length, rev)[1]
    s = strongest / STRONGEST
    revolt = 0.0
    if run_turns(length, R) and not gone:
        revolt = 1.0 - mean_strength(after, rev) / (STRONGEST / 2)
    kept = popc(after) / 13.0
    suits = np.int64(1) << run_suit(c)
    locks = trick_rules & LOCK != 0 and S[S_LOCK] == 0 and S[S_TOP_SUITS] == suits and not lead
    base = (
        0.0,  # w_pass
        float(length),  # w_cards
        s,  # w_strength
        s if lead else 0.0,  # w_lead_strength
        flag(breaks),  # w_breaks
        float(g),  # w_groups
        float(max(g - sure, 0)),  # w_need
        float(sure),  # w_sure
        flag(wins),  # w_wins
        flag(gone),  # w_out
        flag(gone and nofin2 and (low + length - 1 == TWO or jokers > 0)),  # w_out_on_two
        flag(nofin2 and not gone and (after & ~spread(twos(after))) == U0),  # w_only_twos
        flag(held >> np.uint64(TWO) & U1 != U0),  # w_two
        flag(jokers > 0),  # w_joker
        flag(held >> np.uint64(weakest_of(h & RANKS, rev)) & U1 != U0),  # w_weakest
        0.0,  # w_pass_threat
        0.0,  # w_pass_owner
        flag(wins and fewest <= THREAT),  # w_wins_threat
        flag(run_ends_trick(low, length, trick_rules)),  # w_ends
        0.0,  # w_jack
        revolt,  # w_revolt
        0.0,  # w_skip
        float(length) if lead else 0.0,  # w_lead_cards
        kept if strongest >= ACE else 0.0,  # w_control_kept (an ace or stronger)
        0.0,  # w_beaters
        flag(lead and length > fewest),  # w_lead_over
        kept if breaks else 0.0,  # w_breaks_kept
        0.0,  # w_pass_cards
        0.0,  # w_pass_last
    )
    left = cards_in_runs(k & ~run_cards(k, low, c)) / 13.0
    return base + (1.0, flag(locks), left)  # noqa: RUF005 (numba: see strategies.linear.features)


@njit(**INLINE)
def reads_suits(R, H):
    """Whether ``linear``'s features read the cards here: under ``sequences`` or
    ``suit_lock``, with the cards in ``H`` (:func:`~simulator.kernel.knowledge.holds_cards`)."""
    return R[R_TRICK_FLAGS] & (RUNS | LOCK) != 0 and holds_cards(H)


@njit(**INLINE)
def cards_in_runs(k):
    """The cards of card mask ``k`` in sequences of three or more of one suit (jokers
    aside): the sequences a hand still holds."""
    total = 0
    for suit in range(4):
        m = suit_ranks(k, suit)
        three = m & (m >> U1) & (m >> np.uint64(2))
        total += popc(three | (three << U1) | (three << np.uint64(2)))
    return total


@njit(**INLINE)
def suit_terms(k, r, c, S, R):
    """``(locks, runs left)`` of a play of ``c`` cards of ``r`` from card mask ``k``
    (``c == 0``: the pass; ``k`` 0: rules without suits, both 0): whether it locks the
    trick (it can lay the top's suits, as ``linear`` then does), and the cards left in
    sequences after the cards it lays (the locking ones, else the rules'), / 13."""
    if k == U0:
        return 0.0, 0.0
    trick_rules = R[R_TRICK_FLAGS]
    lock = U0
    if c > 0 and trick_rules & LOCK != 0:
        lock = locking_cards(S, k, r, c)
    left = 0.0
    if trick_rules & RUNS != 0:
        cards = lock
        if c > 0 and lock == U0:
            cards = play_cards(k, r, c, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_LOCK], trick_rules)
        left = cards_in_runs(k & ~cards) / 13.0
    return flag(lock != U0), left


@njit(**INLINE)
def runs_of_state(k, S, R):
    """How many legal sequences card mask ``k`` may lay in the state ``S``."""
    return runs_scan(k, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_REV], S[S_LOCK], R[R_TRICK_FLAGS],
                     -1)[0]  # fmt: skip


@njit(**INLINE)
def nth_run(k, S, R, j):
    """The ``j``-th legal sequence of card mask ``k`` in the engines' order: ``(low, count)``."""
    _, low, c = runs_scan(k, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_REV], S[S_LOCK],
                          R[R_TRICK_FLAGS], j)  # fmt: skip
    return low, c
