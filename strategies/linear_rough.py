"""``linear``'s best move by rough scores: the terms of its exact scores
(:func:`~strategies.linear.play_score`, :func:`~strategies.linear.pass_score`) summed in
a tree, trusted only when the best beats the next by far more than their rounding."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, count_of, ctz, popc, remove_cards
from simulator.kernel.config import INLINE
from simulator.kernel.layout import (
    JACKS,
    R_FLAGS,
    R_TRICK_FLAGS,
    S_REV,
    S_RUN,
    S_TOP_COUNT,
    S_TOP_RANK,
    TWOS_LAST,
)
from simulator.kernel.legal import play_count, play_rank, strength
from simulator.kernel.trick import ends_trick, revolts, skips_next
from simulator.rules.cards import ACE, JACK, JOKER, TWO
from strategies.hand import (
    STRONGEST,
    THREAT,
    groups,
    spread,
    unbeatable,
    unbeatable_groups,
    weakest_of,
)
from strategies.linear_terms import beaters
from strategies.rules_aware import mean_strength
from strategies.specs import (
    LINEAR_FEATURES,
    LINEAR_W_BEATERS,
    LINEAR_W_BREAKS,
    LINEAR_W_BREAKS_KEPT,
    LINEAR_W_CARDS,
    LINEAR_W_CONTROL_KEPT,
    LINEAR_W_ENDS,
    LINEAR_W_GROUPS,
    LINEAR_W_JACK,
    LINEAR_W_JOKER,
    LINEAR_W_LEAD_CARDS,
    LINEAR_W_LEAD_OVER,
    LINEAR_W_LEAD_STRENGTH,
    LINEAR_W_NEED,
    LINEAR_W_ONLY_TWOS,
    LINEAR_W_OUT,
    LINEAR_W_OUT_ON_TWO,
    LINEAR_W_PASS,
    LINEAR_W_PASS_CARDS,
    LINEAR_W_PASS_LAST,
    LINEAR_W_PASS_OWNER,
    LINEAR_W_PASS_THREAT,
    LINEAR_W_REVOLT,
    LINEAR_W_SKIP,
    LINEAR_W_STRENGTH,
    LINEAR_W_SURE,
    LINEAR_W_TWO,
    LINEAR_W_WEAKEST,
    LINEAR_W_WINS,
    LINEAR_W_WINS_THREAT,
)

# A bound on how far a score summed in another order (the rough scores) can be from the
# exact one, as a share of the weights' sum in size: a score sums some 32 terms, each a
# weight times at most 14, whose rounding errors come to a few 1e-14 of that sum.
ROUGH = 1e-9
THIRTEENTH = 1.0 / 13.0  # the features' cards held are / 13: multiplied, not divided (faster)
PASS_BIT = 64  # the best move's bit while it is the pass (no play's bit)
TWOS = (U1 << np.uint64(TWO)) | (U1 << np.uint64(JOKER))  # the ranks no_finish_on_two punishes


@njit(**INLINE)
def weight_scale(params, at):
    """The sum of the weights of row ``at`` in size, the scale of their rounding: not
    finite (``inf`` or NaN) when a weight is not. Four sums side by side (one chain of
    32 additions is slower); when the weights are not a multiple of 4, the slots read
    past them only make the scale larger."""
    a, b, c, d = 0.0, 0.0, 0.0, 0.0
    for i in range(0, LINEAR_FEATURES, 4):
        a += abs(params[at, i])
        b += abs(params[at, i + 1])
        c += abs(params[at, i + 2])
        d += abs(params[at, i + 3])
    return (a + b) + (c + d)


@njit(**INLINE)
def rough_best(
    h, m, out, u, t, tc, rev, run, rules, trick_rules, fewest, owner_cards, last, params, at
):
    """The best-scored move of :func:`~strategies.linear.linear_choice` by rough scores —
    the terms of :func:`~strategies.linear.play_score` and
    :func:`~strategies.linear.pass_score` summed in a tree, not one by one, the weights
    that every move shares folded first — and the margin by which it beats the next:
    ``(rank, count, margin)``.

    A score summed one term after the other is a chain of dependent additions, the bulk
    of a decision's time; a tree's additions run side by side. Its floats differ from
    the exact scores by rounding, a few 1e-14 of the weights' sum in size
    (:func:`weight_scale`): when the best beats the next by more than ``ROUGH`` of it,
    it is the exact best too, and the caller plays it; else (a tie, or nearly) the
    caller scores the moves exactly. The terms are chosen by selects, not branches, and
    so is the best move: which of them apply changes from one play to the next, and a
    branch the processor guesses wrong costs more than the term (25 % of the time of a
    decision, measured on recorded ones).

    The top (``tc`` cards of ``t``, the trick's run ``run`` cards) and the order in force
    ``rev`` come as values, not in the state array, so that a round loop that keeps them
    in registers (:mod:`simulator.matchloop.linear_plain`) calls this too; so do the
    rule words ``rules`` and ``trick_rules`` (``R[R_FLAGS]``, ``R[R_TRICK_FLAGS]``): that
    loop plays no table rule and passes a constant 0, which takes the table rules' tests
    out of every move (3 ns of a decision's 52, measured on recorded ones).
    """
    lead = tc == 0
    held_cards = popc(h)
    gh = groups(h)
    weak = weakest_of(h & RANKS, rev)
    threat = fewest <= THREAT
    nofin2 = rules & TWOS_LAST != 0
    w_cards = params[at, LINEAR_W_CARDS] + (params[at, LINEAR_W_LEAD_CARDS] if lead else 0.0)
    w_strength = params[at, LINEAR_W_STRENGTH]
    if lead:
        w_strength += params[at, LINEAR_W_LEAD_STRENGTH]
    w_strength *= 1.0 / STRONGEST  # a product, not a division: faster, and rough anyway
    w_wins = params[at, LINEAR_W_WINS] + (params[at, LINEAR_W_WINS_THREAT] if threat else 0.0)
    w_groups, w_need = params[at, LINEAR_W_GROUPS], params[at, LINEAR_W_NEED]
    w_sure, w_beaters = params[at, LINEAR_W_SURE], params[at, LINEAR_W_BEATERS]
    w_breaks, w_kept = params[at, LINEAR_W_BREAKS], params[at, LINEAR_W_BREAKS_KEPT] * THIRTEENTH
    w_out, w_two_out = params[at, LINEAR_W_OUT], params[at, LINEAR_W_OUT_ON_TWO]
    w_only = params[at, LINEAR_W_ONLY_TWOS] if nofin2 else 0.0
    w_two, w_joker = params[at, LINEAR_W_TWO], params[at, LINEAR_W_JOKER]
    w_weak = params[at, LINEAR_W_WEAKEST]
    w_jack = params[at, LINEAR_W_JACK] if trick_rules & JACKS != 0 else 0.0
    w_ends, w_skip = params[at, LINEAR_W_ENDS], params[at, LINEAR_W_SKIP]
    w_over = params[at, LINEAR_W_LEAD_OVER] if lead else 0.0
    w_control = params[at, LINEAR_W_CONTROL_KEPT] * THIRTEENTH
    best_bit, best, second = PASS_BIT, -np.inf, -np.inf
    if not lead:
        best = pass_rough(h, u, gh, held_cards, threat, owner_cards, last, params, at)
    x = m
    while x != U0:
        bit = ctz(x)
        x &= x - U1
        r, c = play_rank(bit), play_count(bit)
        left = count_of(h, r) - c  # the cards of r the play keeps
        after = remove_cards(h, r, c)
        gone = after == U0
        g = gh - (1 if left == 0 else 0)
        sure = popc(unbeatable_groups(after, u))
        st = strength(r, rev)
        kept = held_cards - c
        a = w_cards * c + w_strength * st
        b = w_groups * g + w_need * max(g - sure, 0) + w_sure * sure
        d = (w_wins if unbeatable(u, r, c) and not gone else 0.0) + (
            w_breaks + w_kept * kept if left > 0 else 0.0
        )
        if gone:
            e = w_out + (w_two_out if nofin2 and r >= TWO else 0.0)
        else:
            e = w_only if (after & ~spread(TWOS)) == U0 else 0.0
        f = (w_two if r == TWO else 0.0) + (w_joker if r == JOKER else 0.0)
        f += (w_weak if r == weak else 0.0) + (w_jack if r == JACK else 0.0)
        ends = ends_trick(r, c, t, tc, run, rules, trick_rules)
        skips = skips_next(r, c, t, tc, run, rules, trick_rules)
        i = (w_ends if ends else 0.0) + (w_skip if skips else 0.0)
        i += w_over if c > fewest else 0.0
        j = w_control * kept if st >= ACE else 0.0
        if w_beaters != 0.0:
            j += w_beaters * beaters(out, r, c, rev)
        if revolts(c, rules) and not gone:
            j += params[at, LINEAR_W_REVOLT] * (1.0 - mean_strength(after, rev) / (STRONGEST / 2))
        v = ((a + b) + (d + e)) + ((f + i) + j)
        best_bit = bit if v > best else best_bit
        second = max(second, min(v, best))
        best = max(best, v)
    if best_bit == PASS_BIT:
        return 0, 0, best - second
    return play_rank(best_bit), play_count(best_bit), best - second


@njit(**INLINE)
def rough_on_state(h, m, out, u, S, R, fewest, owner_cards, last, params, at):
    """:func:`rough_best` on the top and the order in force of the state ``S``."""
    return rough_best(h, m, out, u, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_REV], S[S_RUN],
                      R[R_FLAGS], R[R_TRICK_FLAGS], fewest, owner_cards, last, params, at)  # fmt: skip


@njit(**INLINE)
def pass_rough(h, u, gh, held_cards, threat, owner_cards, last, params, at):
    """The pass's rough score (:func:`rough_best`): its terms summed in a tree."""
    sure = popc(unbeatable_groups(h, u))
    need = max(gh - sure, 0)
    a = params[at, LINEAR_W_PASS] + params[at, LINEAR_W_PASS_CARDS] * (held_cards * THIRTEENTH)
    b = (params[at, LINEAR_W_PASS_THREAT] if threat else 0.0) + (
        params[at, LINEAR_W_PASS_OWNER] if owner_cards <= THREAT else 0.0
    )
    d = params[at, LINEAR_W_PASS_LAST] if last else 0.0
    return (a + b) + ((params[at, LINEAR_W_GROUPS] * gh + params[at, LINEAR_W_NEED] * need)
                      + (params[at, LINEAR_W_SURE] * sure + d))  # fmt: skip
