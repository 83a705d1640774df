"""``linear``'s best move by rough scores: the terms of its exact scores
(:func:`~strategies.linear.play_score`, :func:`~strategies.linear.pass_score`) summed in
a tree, trusted only when the best beats the next by far more than their rounding."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, count_of, ctz, popc, remove_cards
from simulator.kernel.config import INLINE
from simulator.kernel.layout import JACKS, R_FLAGS, R_TRICK_FLAGS, S_REV, S_TOP_COUNT, TWOS_LAST
from simulator.kernel.legal import play_count, play_rank, strength
from simulator.kernel.trick import revolts
from simulator.rules.cards import ACE, JACK, JOKER, TWO
from strategies.hand import (
    STRONGEST,
    THREAT,
    groups,
    spread,
    twos,
    unbeatable,
    unbeatable_groups,
    weakest_of,
)
from strategies.linear_terms import beaters, ends_trick_now, skips_now
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
def rough_best(h, m, out, u, S, R, fewest, owner_cards, last, params, at):
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
    caller scores the moves exactly.
    """
    tc = S[S_TOP_COUNT]
    rev = S[S_REV]
    rules = R[R_FLAGS]
    lead = tc == 0
    held_cards = popc(h)
    gh = groups(h)
    weak = weakest_of(h & RANKS, rev)
    threat = fewest <= THREAT
    nofin2 = rules & TWOS_LAST != 0
    jacks = R[R_TRICK_FLAGS] & JACKS != 0
    w_cards = params[at, LINEAR_W_CARDS] + (params[at, LINEAR_W_LEAD_CARDS] if lead else 0.0)
    w_strength = params[at, LINEAR_W_STRENGTH]
    if lead:
        w_strength += params[at, LINEAR_W_LEAD_STRENGTH]
    w_strength /= STRONGEST
    w_wins = params[at, LINEAR_W_WINS] + (params[at, LINEAR_W_WINS_THREAT] if threat else 0.0)
    w_groups, w_need = params[at, LINEAR_W_GROUPS], params[at, LINEAR_W_NEED]
    w_sure, w_beaters = params[at, LINEAR_W_SURE], params[at, LINEAR_W_BEATERS]
    best_r, best_c, best, second = 0, 0, -np.inf, -np.inf
    if not lead:
        sure = popc(unbeatable_groups(h, u))
        need = max(gh - sure, 0)
        a = params[at, LINEAR_W_PASS] + params[at, LINEAR_W_PASS_CARDS] * (held_cards / 13.0)
        b = (params[at, LINEAR_W_PASS_THREAT] if threat else 0.0) + (
            params[at, LINEAR_W_PASS_OWNER] if owner_cards <= THREAT else 0.0
        )
        d = params[at, LINEAR_W_PASS_LAST] if last else 0.0
        best = (a + b) + ((w_groups * gh + w_need * need) + (w_sure * sure + d))
    x = m
    while x != U0:
        bit = ctz(x)
        x &= x - U1
        r, c = play_rank(bit), play_count(bit)
        held = count_of(h, r)
        after = remove_cards(h, r, c)
        gone = after == U0
        g = gh - (1 if held == c else 0)
        sure = popc(unbeatable_groups(after, u))
        need = max(g - sure, 0)
        st = strength(r, rev)
        kept = (held_cards - c) / 13.0
        a = w_cards * c + w_strength * st
        b = w_groups * g + w_need * need + w_sure * sure
        d = 0.0
        if unbeatable(u, r, c) and not gone:
            d = w_wins
        if held > c:
            d += params[at, LINEAR_W_BREAKS] + params[at, LINEAR_W_BREAKS_KEPT] * kept
        e = 0.0
        if gone:
            e = params[at, LINEAR_W_OUT]
            if nofin2 and r >= TWO:
                e += params[at, LINEAR_W_OUT_ON_TWO]
        elif nofin2 and (after & ~spread(twos(after))) == U0:
            e = params[at, LINEAR_W_ONLY_TWOS]
        f = params[at, LINEAR_W_TWO] if r == TWO else 0.0
        f += params[at, LINEAR_W_JOKER] if r == JOKER else 0.0
        f += params[at, LINEAR_W_WEAKEST] if r == weak else 0.0
        f += params[at, LINEAR_W_JACK] if jacks and r == JACK else 0.0
        i = params[at, LINEAR_W_ENDS] if ends_trick_now(r, c, S, R) else 0.0
        i += params[at, LINEAR_W_SKIP] if skips_now(r, c, S, R) else 0.0
        i += params[at, LINEAR_W_LEAD_OVER] if lead and c > fewest else 0.0
        j = params[at, LINEAR_W_CONTROL_KEPT] * kept if st >= ACE else 0.0
        if w_beaters != 0.0:
            j += w_beaters * beaters(out, r, c, rev)
        if revolts(c, rules) and not gone:
            j += params[at, LINEAR_W_REVOLT] * (1.0 - mean_strength(after, rev) / (STRONGEST / 2))
        v = ((a + b) + (d + e)) + ((f + i) + j)
        if v > best:
            best_r, best_c, best, second = r, c, v, best
        elif v > second:
            second = v
    return best_r, best_c, best - second
