"""``linear``: a weighted sum of features of each move, the best-scored move played.

The strongest Daifugō programs (FujiGokoro, four times winner of the UEC computer
Daihinmin league) play their rollouts with a linear softmax over features of a move;
this is that kind of policy, with weights tuned for the rules in force where a set is
shipped (:mod:`strategies.shipped`), else hand-set (docs/strategies.md lists them). Each
legal move — every play, and the pass when following — gets a feature vector
(:func:`features`, in the order of ``LINEAR_PARAMS`` in :mod:`strategies.specs`, whose
``w_<feature>`` is its weight and whose help says what it measures), and its score is
the dot product with the weights ``params[pos, :LINEAR_FEATURES]``. At temperature 0 it
plays the best-scored move, the first in the canonical order on a tie (the pass, then
count ascending, then rank ascending, then the sequences: :mod:`strategies.linear_runs`),
so the kernel and the reference engine agree; above 0 it draws a move with probability
proportional to ``exp(score / temperature)`` from the match's random stream. At
temperature 0 the best move is first found by rough scores
(:func:`~strategies.linear_rough.rough_best`: the same terms summed in another order,
which is faster) and played when it beats the next by more than their rounding; on a
near tie the exact scores decide, so its moves are the definition's, ties included.

Only public facts and its own hand are read: the card counts of the others, the cards
played this round, the round state and the rules. ``move_features`` of
:mod:`strategies.linear_features` gives a move's features by name.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, count_of, ctz, next32, popc, remove_cards
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import CARDS, holds_cards
from simulator.kernel.layout import (
    JACKS,
    LOCK,
    R_FLAGS,
    R_JOKERS,
    R_TRICK_FLAGS,
    S_ACTIVE,
    S_ANSWERED,
    S_OOT,
    S_OWNER,
    S_REV,
    S_TOP_COUNT,
    TWOS_LAST,
)
from simulator.kernel.legal import legal_plays, play_count, play_rank, strength
from simulator.kernel.runs import is_run
from simulator.kernel.trick import revolts, trick_over
from simulator.rules.cards import JACK, JOKER, TWO
from strategies.hand import (
    FAR,
    STRONGEST,
    THREAT,
    flag,
    groups,
    outside,
    spread,
    twos,
    unbeatable,
    unbeatable_groups,
    unbeatable_plays,
    weakest_of,
)
from strategies.linear_rough import ROUGH, rough_on_state, weight_scale
from strategies.linear_runs import nth_run, reads_suits, run_features, runs_of_state, suit_terms
from strategies.linear_terms import beaters, control_kept, ends_trick_now, fewest_others, skips_now
from strategies.rules_aware import lock_when_it_can, mean_strength
from strategies.specs import (
    LINEAR_FEATURES,
    LINEAR_TEMPERATURE,
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
    LINEAR_W_LOCKS,
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
    LINEAR_W_RUNS_LEFT,
    LINEAR_W_SKIP,
    LINEAR_W_STRENGTH,
    LINEAR_W_SURE,
    LINEAR_W_TWO,
    LINEAR_W_WEAKEST,
    LINEAR_W_WINS,
    LINEAR_W_WINS_THREAT,
)


@njit(**INLINE)
def features(h, r, c, out, u, S, R, fewest, owner_cards, last, k):
    """The features of playing ``c`` cards of rank ``r`` from hand ``h`` (``c == 0``: the
    pass), in the order of ``LINEAR_PARAMS``; ``out`` is the cards out there
    (:func:`~strategies.hand.outside`), ``u`` the unbeatable plays
    (:func:`~strategies.hand.unbeatable_plays`), ``fewest`` the fewest cards another
    player holds, ``owner_cards`` the cards of the top's owner, ``last`` whether a pass
    would be the last answer to the top, ``k`` the card mask under the rules that read
    suits (else 0: :func:`strategies.linear_runs.suit_terms`)."""
    tc = S[S_TOP_COUNT]
    rev = S[S_REV]
    after = remove_cards(h, r, c) if c > 0 else h
    g = groups(after)
    sure = popc(unbeatable_groups(after, u))
    need = max(g - sure, 0)
    threat = fewest <= THREAT
    locks, runs_left = suit_terms(k, r, c, S, R)
    if c == 0:
        base = (1.0, 0.0, 0.0, 0.0, 0.0, float(g), float(need), float(sure), 0.0, 0.0,
                0.0, 0.0, 0.0, 0.0, 0.0, flag(threat), flag(owner_cards <= THREAT), 0.0,
                0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0,
                popc(h) / 13.0, flag(last))  # fmt: skip
        return base + (0.0, 0.0, runs_left)  # noqa: RUF005 (as below)
    gone = after == U0
    nofin2 = R[R_FLAGS] & TWOS_LAST != 0
    wins = unbeatable(u, r, c) and not gone
    s = strength(r, rev) / STRONGEST
    revolt = 0.0
    if revolts(c, R[R_FLAGS]) and not gone:
        revolt = 1.0 - mean_strength(after, rev) / (STRONGEST / 2)
    base = (
        0.0,  # w_pass
        float(c),  # w_cards
        s,  # w_strength
        s if tc == 0 else 0.0,  # w_lead_strength
        flag(count_of(h, r) > c),  # w_breaks
        float(g),  # w_groups
        float(need),  # w_need
        float(sure),  # w_sure
        flag(wins),  # w_wins
        flag(gone),  # w_out
        flag(gone and nofin2 and r >= TWO),  # w_out_on_two
        flag(nofin2 and not gone and (after & ~spread(twos(after))) == U0),  # w_only_twos
        flag(r == TWO),  # w_two
        flag(r == JOKER),  # w_joker
        flag(r == weakest_of(h & RANKS, rev)),  # w_weakest
        0.0,  # w_pass_threat
        0.0,  # w_pass_owner
        flag(wins and threat),  # w_wins_threat
        flag(ends_trick_now(r, c, S, R)),  # w_ends
        flag(R[R_TRICK_FLAGS] & JACKS != 0 and r == JACK),  # w_jack
        revolt,  # w_revolt
        flag(skips_now(r, c, S, R)),  # w_skip
        float(c) if tc == 0 else 0.0,  # w_lead_cards
        control_kept(r, rev, after),  # w_control_kept
        beaters(out, r, c, rev),  # w_beaters
        flag(tc == 0 and c > fewest),  # w_lead_over
        popc(after) / 13.0 if count_of(h, r) > c else 0.0,  # w_breaks_kept
        0.0,  # w_pass_cards
        0.0,  # w_pass_last
    )
    # in two parts: a tuple of over 30 items written out is a list, which numba refuses
    return base + (0.0, locks, runs_left)  # noqa: RUF005


@njit(**INLINE)
def score(f, params, at):
    """The dot product of a feature vector with the weights of row ``at``."""
    total = 0.0
    for i in range(LINEAR_FEATURES):
        total += params[at, i] * f[i]
    return total


@njit(**INLINE)
def situation(pos, S, H, R, played):
    """What every candidate shares: the hand, the cards out there, the unbeatable plays,
    the fewest cards of another player, the top owner's cards (``FAR`` when leading) and
    whether a pass would be the last answer to the top (nobody else left to answer it:
    the trick then ends)."""
    h = H[pos]
    out = outside(h, played, R[R_JOKERS])
    u = unbeatable_plays(out, S[S_REV])
    owner = S[S_OWNER]
    following = S[S_TOP_COUNT] != 0
    owner_cards = popc(H[owner]) if following and owner >= 0 else FAR
    last = following and trick_over(S[S_ACTIVE], S[S_ANSWERED] | (1 << pos), S[S_OOT], owner)
    return h, out, u, fewest_others(S, H, pos), owner_cards, last


@njit(**INLINE)
def finite_weights(params, at):
    """Whether the weights of row ``at`` are finite: then a feature of 0 adds exactly
    nothing to a score (``inf * 0`` would add NaN), which :func:`play_score` relies on.
    Read from :func:`~strategies.linear_rough.weight_scale`, the rough scores' check: a
    sum of finite weights too large to be finite sends the moves to the dot product,
    which gives them the same floats."""
    return finite_scale(weight_scale(params, at))


@njit(**INLINE)
def finite_scale(scale):
    """Whether a :func:`~strategies.linear_rough.weight_scale` is finite (not NaN either)."""
    return scale < np.inf


@njit(**INLINE)
def pass_score(h, u, fewest, owner_cards, last, params, at, runs_left):
    """The score of the pass, as :func:`play_score` counts a play's (the pass's features
    that may be other than 0: itself, groups, need, sure, the two threats, the cards
    held, the last answer and the cards in sequences)."""
    g = groups(h)
    sure = popc(unbeatable_groups(h, u))
    need = max(g - sure, 0)
    total = params[at, LINEAR_W_PASS]
    if g != 0:
        total += params[at, LINEAR_W_GROUPS] * float(g)
    if need != 0:
        total += params[at, LINEAR_W_NEED] * float(need)
    if sure != 0:
        total += params[at, LINEAR_W_SURE] * float(sure)
    if fewest <= THREAT:
        total += params[at, LINEAR_W_PASS_THREAT]
    if owner_cards <= THREAT:
        total += params[at, LINEAR_W_PASS_OWNER]
    total += params[at, LINEAR_W_PASS_CARDS] * (popc(h) / 13.0)
    if last:
        total += params[at, LINEAR_W_PASS_LAST]
    if runs_left != 0.0:
        total += params[at, LINEAR_W_RUNS_LEFT] * runs_left
    return total


@njit(**INLINE)
def play_score(h, r, c, out, u, S, R, fewest, owner_cards, last, params, at, k):
    """The score of playing ``c`` cards of ``r`` (``c > 0``), equal to the last bit to
    :func:`score` of :func:`features` under finite weights, at a fraction of its cost.

    The same sum in the same order, but only of the features that are not 0 (with finite
    weights each other term adds a zero, which changes no sum) and with a flag's term
    its weight (``w * 1.0`` is ``w``): a dot product of 23 terms was one chain of 23
    dependent additions a move, most of them of zeros, the bulk of a playout's time.
    """
    tc = S[S_TOP_COUNT]
    rev = S[S_REV]
    rules = R[R_FLAGS]
    held = count_of(h, r)
    after = remove_cards(h, r, c)
    g = groups(after)
    sure = popc(unbeatable_groups(after, u))
    need = max(g - sure, 0)
    gone = after == U0
    nofin2 = rules & TWOS_LAST != 0
    wins = unbeatable(u, r, c) and not gone
    s = strength(r, rev) / STRONGEST
    total = params[at, LINEAR_W_CARDS] * float(c)
    if s != 0.0:
        total += params[at, LINEAR_W_STRENGTH] * s
        if tc == 0:
            total += params[at, LINEAR_W_LEAD_STRENGTH] * s
    if held > c:
        total += params[at, LINEAR_W_BREAKS]
    if g != 0:
        total += params[at, LINEAR_W_GROUPS] * float(g)
    if need != 0:
        total += params[at, LINEAR_W_NEED] * float(need)
    if sure != 0:
        total += params[at, LINEAR_W_SURE] * float(sure)
    if wins:
        total += params[at, LINEAR_W_WINS]
    if gone:
        total += params[at, LINEAR_W_OUT]
        if nofin2 and r >= TWO:
            total += params[at, LINEAR_W_OUT_ON_TWO]
    elif nofin2 and (after & ~spread(twos(after))) == U0:
        total += params[at, LINEAR_W_ONLY_TWOS]
    if r == TWO:
        total += params[at, LINEAR_W_TWO]
    if r == JOKER:
        total += params[at, LINEAR_W_JOKER]
    if r == weakest_of(h & RANKS, rev):
        total += params[at, LINEAR_W_WEAKEST]
    if wins and fewest <= THREAT:
        total += params[at, LINEAR_W_WINS_THREAT]
    if ends_trick_now(r, c, S, R):
        total += params[at, LINEAR_W_ENDS]
    if R[R_TRICK_FLAGS] & JACKS != 0 and r == JACK:
        total += params[at, LINEAR_W_JACK]
    if revolts(c, rules) and not gone:
        revolt = 1.0 - mean_strength(after, rev) / (STRONGEST / 2)
        if revolt != 0.0:
            total += params[at, LINEAR_W_REVOLT] * revolt
    if skips_now(r, c, S, R):
        total += params[at, LINEAR_W_SKIP]
    if tc == 0:
        total += params[at, LINEAR_W_LEAD_CARDS] * float(c)
    kept = control_kept(r, rev, after)
    if kept != 0.0:
        total += params[at, LINEAR_W_CONTROL_KEPT] * kept
    if params[at, LINEAR_W_BEATERS] != 0.0:  # the dearest feature: only where it weighs
        stronger = beaters(out, r, c, rev)
        if stronger != 0.0:
            total += params[at, LINEAR_W_BEATERS] * stronger
    if tc == 0 and c > fewest:
        total += params[at, LINEAR_W_LEAD_OVER]
    if held > c:
        total += params[at, LINEAR_W_BREAKS_KEPT] * (popc(after) / 13.0)
    if k != U0:
        locks, runs_left = suit_terms(k, r, c, S, R)
        if locks != 0.0:
            total += params[at, LINEAR_W_LOCKS]
        if runs_left != 0.0:
            total += params[at, LINEAR_W_RUNS_LEFT] * runs_left
    return total


@njit(**INLINE)
def move_score(h, r, c, out, u, S, R, fewest, owner_cards, last, params, at, finite, k):
    """The score of one candidate move (``finite``: :func:`finite_weights`; ``k``: 0, or
    the card mask where features read suits).

    Compiled apart (:func:`scored_move`): a copy of every feature at each of its six
    callers made ``linear``'s first compile the longest of all. Only the plays' scores of
    :func:`linear_choice` keep a copy (of :func:`play_score`): under suits every move is
    scored there, and a call a move cost ``uecda`` 12 % of its speed. Plain values go in,
    so that it is compiled once, not again for the constants a caller starts from."""
    return scored_move(np.uint64(h), np.int64(r), np.int64(c), np.uint64(out), np.uint64(u), S,
                       R, np.int64(fewest), np.int64(owner_cards), bool(last), params,
                       np.uint64(at), bool(finite), np.uint64(k))  # fmt: skip


@njit(**HOT)
def scored_move(h, r, c, out, u, S, R, fewest, owner_cards, last, params, at, finite, k):
    """:func:`move_score`'s work, compiled apart."""
    if finite:
        if c == 0:
            runs_left = suit_terms(k, 0, 0, S, R)[1]
            return pass_score(h, u, fewest, owner_cards, last, params, at, runs_left)
        return play_score(h, r, c, out, u, S, R, fewest, owner_cards, last, params, at, k)
    return score(features(h, r, c, out, u, S, R, fewest, owner_cards, last, k), params, at)


@njit(**INLINE)
def linear_move(pos, S, H, R, played, rs, params):
    """``linear``'s move: ``(rank, count)``, count 0 = pass (see the module's docstring).
    Under ``suit_lock`` its play lays the top's suits when it can, locking the trick, as
    ``rules-aware``'s does (the cards, not the move: no weight changes meaning).

    Inlined where it is called, so that a pass with no legal play — a third of a round's
    decisions, and most of a playout's — costs no call (under rules that read suits a
    sequence may still answer: :func:`linear_choice` tells); the rest is
    :func:`linear_decision`, handed the legal plays."""
    m = legal_plays(H[pos], S, R)
    if S[S_TOP_COUNT] != 0 and m == U0 and not reads_suits(R, H):
        return 0, 0
    return linear_decision(pos, S, H, R, played, rs, params, m)


@njit(**HOT)
def linear_decision(pos, S, H, R, played, rs, params, m):
    """:func:`linear_move` given the legal plays ``m``, compiled apart (its code once, not
    at every place that calls it)."""
    r, c = linear_choice(pos, S, H, R, played, rs, params, m)
    if c > 0 and R[R_TRICK_FLAGS] & LOCK != 0 and not is_run(c) and holds_cards(H):
        lock_when_it_can(pos, r, c, S, H)
    return r, c


@njit(**INLINE)
def linear_choice(pos, S, H, R, played, rs, params, m):
    """The move :func:`linear_decision` makes, its cards aside."""
    at = np.uint64(pos)
    following = S[S_TOP_COUNT] != 0
    k = H[CARDS + at] if reads_suits(R, H) else U0  # its cards, where features read suits
    runs = runs_of_state(k, S, R) if k != U0 else 0
    if following and m == U0 and runs == 0:  # a pass: no legal play
        return 0, 0
    h, out, u, fewest, owner_cards, last = situation(pos, S, H, R, played)
    temperature = params[at, LINEAR_TEMPERATURE]
    scale = weight_scale(params, at)  # once for the rough scores and the exact ones
    finite = finite_scale(scale)
    if finite and k == U0 and not temperature > 0:
        r, c, margin = rough_on_state(h, m, out, u, S, R, fewest, owner_cards, last, params, at)
        if margin > ROUGH * scale:
            return r, c
    best_r, best_c, best = 0, 0, -np.inf
    if following:
        best = move_score(h, 0, 0, out, u, S, R, fewest, owner_cards, last, params, at, finite, k)
    x = m
    while x != U0:
        b = ctz(x)
        x &= x - U1
        r, c = play_rank(b), play_count(b)
        if finite:  # the scores of every decision where rough_best does not decide: inlined
            v = play_score(h, r, c, out, u, S, R, fewest, owner_cards, last, params, at, k)
        else:
            v = move_score(h, r, c, out, u, S, R, fewest, owner_cards, last, params, at, finite, k)
        if v > best:
            best, best_r, best_c = v, r, c
    for j in range(runs):  # its sequences after the plays of one rank (sequences)
        r, c = nth_run(k, S, R, j)
        v = score(run_features(h, k, r, c, u, S, R, fewest), params, at)
        if v > best:
            best, best_r, best_c = v, r, c
    if not temperature > 0:
        return best_r, best_c
    return sample(
        h, m, k, runs, following, out, u, S, R, fewest, owner_cards, last, params, at, finite,
        best, rs,
    )  # fmt: skip


@njit(**INLINE)
def sample(h, m, k, runs, following, out, u, S, R, fewest, owner_cards, last, params, at, finite,
           best, rs):  # fmt: skip
    """A move drawn with probability proportional to ``exp((score - best) / temperature)``
    by one 32-bit draw of the stream ``rs``, the moves in the canonical order (the pass,
    the plays, then the ``runs`` sequences of card mask ``k``)."""
    temperature = params[at, LINEAR_TEMPERATURE]
    total = 0.0
    for step in range(2):  # the first pass sums the weights, the second finds the draw
        if step == 1:
            total *= next32(rs) / 4294967296.0
        if following:
            v = move_score(h, 0, 0, out, u, S, R, fewest, owner_cards, last, params, at, finite, k)
            total += np.exp((v - best) / temperature) * (1 - 2 * step)
            if step == 1 and total <= 0:
                return 0, 0
        x = m
        r, c = 0, 0
        while x != U0:
            b = ctz(x)
            x &= x - U1
            r, c = play_rank(b), play_count(b)
            v = move_score(h, r, c, out, u, S, R, fewest, owner_cards, last, params, at, finite, k)
            total += np.exp((v - best) / temperature) * (1 - 2 * step)
            if step == 1 and total <= 0:
                return r, c
        for j in range(runs):
            r, c = nth_run(k, S, R, j)
            v = score(run_features(h, k, r, c, u, S, R, fewest), params, at)
            total += np.exp((v - best) / temperature) * (1 - 2 * step)
            if step == 1 and total <= 0:
                return r, c
    return r, c  # rounding left the draw past the last move: the last move
