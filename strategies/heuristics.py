"""Expert heuristics as numba kernels: each one idea of how good players play.

Every function here reads the kernel's observation (see :mod:`simulator.kernel.layout`)
— its own hand ``H[pos]``, the public card counts ``popc(H[q])``, the round state ``S``,
the rules ``R``, the cards ``played`` this round — and its parameter row
``params[pos]``, so a variant is a different parameter vector, never a recompilation.
Moves are ``(rank, count)``; count 0 is the pass. Each parameter is declared, with its
default and its slot in ``params[pos]``, in :mod:`strategies.specs`
(``KEEP_SETS_BREAK_AT`` …); :func:`strategies.policies.choose` reads the slots and
hands the values to the functions here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, U1, count_of, ctz, popc, remove_cards
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.legal import play_count, play_rank
from simulator.rules.cards import TWO
from strategies.hand import (
    at_least,
    fold,
    groups,
    most,
    outside,
    singles_below_aces,
    spread,
    strongest_of,
    unbeatable,
    unbeatable_groups,
    unbeatable_plays,
    weakest_of,
    weakest_play,
    whole,
)

U48 = np.uint64(48)
GONE_OUT = -1e9  # value of a hand that went out (the planner's best outcome)
OUT_ON_TWO = 1e6  # value of going out on 2s under no_finish_on_two (the worst place)


# ---------------------------------------------------------------- keep-sets


@njit(**INLINE)
def keep_sets_choice(h, m, tc, rev, break_at):
    """``keep-sets``: never break a pair, three or four to follow; lead the weakest group.

    Following, it plays the weakest play that uses every card of its rank, and passes
    when every legal play would split a group — unless it holds at most ``break_at``
    cards, when it follows like ``lowest``. ``m`` is the legal plays.
    """
    if tc == 0:
        r = weakest_of(h & RANKS, rev)
        return r, count_of(h, r)
    if m == U0:
        return 0, 0
    w = whole(m, h)
    if w != U0:
        return weakest_play(w, rev)
    if popc(h) <= break_at:
        return weakest_play(m, rev)
    return 0, 0


# ---------------------------------------------------------------- control


@njit(**INLINE)
def control_lead(h, rev, played, jokers, ctl):
    """Lead: run out through unbeatable groups when they are all but one of the hand;
    otherwise the weakest group that is not a control (the weakest group if all are)."""
    g = groups(h)
    leads = whole(h, h)
    if g > 1:
        sure = unbeatable_groups(h, unbeatable_plays(outside(h, played, jokers), rev))
        if popc(sure) >= g - 1:  # then there is one: g - 1 >= 1
            return weakest_play(sure, rev)
    weak = leads & ~ctl
    return weakest_play(weak if weak != U0 else leads, rev)


@njit(**INLINE)
def control_follow(h, m, rev, played, jokers, ctl, spend_at, threat_at, owner_cards):
    """Follow: the weakest whole non-control group; a control only when it pays (see
    :func:`control_move`); otherwise pass."""
    if m == U0:
        return 0, 0
    w = whole(m, h)
    cheap = w & ~ctl
    if cheap != U0:
        return weakest_play(cheap, rev)
    cards = popc(h)
    strong = m & ctl
    if strong != U0:
        if cards <= spend_at or owner_cards <= threat_at or winning(h, rev, played, jokers):
            ws = w & ctl
            return weakest_play(ws if ws != U0 else strong, rev)
        return 0, 0
    if cards <= spend_at:
        return weakest_play(m, rev)
    return 0, 0


@njit(**INLINE)
def winning(h, rev, played, jokers):
    """Whether the hand's unbeatable groups are all but one of its groups."""
    sure = unbeatable_groups(h, unbeatable_plays(outside(h, played, jokers), rev))
    return popc(sure) >= groups(h) - 1


@njit(**HOT)
def control_choice(h, m, tc, rev, played, jokers, strength, spend_at, threat_at, owner_cards):
    """``control``: keep the strong cards (strength ≥ ``strength``, default the aces)
    to win tricks and regain the lead.

    Leading, it cashes its unbeatable groups first when they are all but one of its
    groups (it then goes out), and otherwise leads its weakest non-control group.
    Following, it plays its weakest non-control group whole; it spends a control only
    when it holds at most ``spend_at`` cards, when the top's owner holds at most
    ``threat_at`` cards (he is about to go out), or when its unbeatable groups are all
    but one of its groups; otherwise it passes.
    ``m`` is the legal plays; ``owner_cards`` the cards the top's owner holds.
    """
    ctl = spread(at_least(strength, rev))
    if tc == 0:
        return control_lead(h, rev, played, jokers, ctl)
    return control_follow(h, m, rev, played, jokers, ctl, spend_at, threat_at, owner_cards)


# ---------------------------------------------------------------- shed-max


@njit(**INLINE)
def biggest_play(m, rev):
    """The play of ``m`` with the most cards, the weakest rank on a tie."""
    for level in range(3, -1, -1):
        ranks = (m >> np.uint64(16 * level)) & RANKS
        if ranks != U0:
            return weakest_of(ranks, rev), level + 1
    return 0, 0


@njit(**INLINE)
def shed_max_choice(h, m, tc, rev, end_groups):
    """``shed-max``: shed as many cards per play as possible; strong first near the end.

    Leading, it plays its largest group (the weakest on a tie) — or, once it holds at
    most ``end_groups`` groups, its strongest group, to keep the lead for the last
    ones. Following, it plays the largest legal whole group (the strongest when near the
    end), else the largest legal play (``m`` is the legal plays); it never passes by
    choice.
    """
    near_end = groups(h) <= end_groups
    if tc == 0:
        if near_end:
            r = strongest_of(h & RANKS, rev)
            return r, count_of(h, r)
        return biggest_play(whole(h, h), rev)
    if m == U0:
        return 0, 0
    w = whole(m, h)
    if w != U0:
        if near_end:
            r = strongest_of(fold(w), rev)
            return r, most(w, r)
        return biggest_play(w, rev)
    return biggest_play(m, rev)


# ---------------------------------------------------------------- planner


@njit(**INLINE)
def hand_value(h, u, per_group, per_card):
    """How far a hand is from going out (lower is better), ``u`` the unbeatable plays.

    The plays it still needs that will not win by themselves (groups minus unbeatable
    groups), plus ``per_group`` per group and ``per_card`` per card.
    """
    g = groups(h)
    need = max(g - popc(unbeatable_groups(h, u)), 0)
    return need + per_group * g + per_card * popc(h)


@njit(**HOT)
def planner_choice(h, m, tc, u, nofin2, per_group, per_card, lead_bonus, pass_cost):
    """``planner``: one-move look-ahead on how many plays the hand still needs.

    It values a hand by the plays it needs to go out that will not win by themselves
    (groups minus unbeatable groups), plus small costs per group (``per_group``) and
    per card (``per_card``). Every legal play (``m``) is valued on the hand it leaves,
    with a bonus ``lead_bonus`` when the play cannot be beaten (it keeps the lead);
    going out is best, going out on 2s under no_finish_on_two worst. The pass is valued
    on the hand as it is plus ``pass_cost``. It makes the best-valued move (the first in
    the canonical order on a tie).

    A play moves cards from the hand to the table, so the cards out there — and with
    them the unbeatable plays ``u`` (:func:`~strategies.hand.unbeatable_plays`) — are
    the same for every candidate: found once, by the caller.
    """
    best_r = 0
    best_c = 0
    best = 1e18
    if tc != 0:
        best = hand_value(h, u, per_group, per_card) + pass_cost
    x = m
    while x != U0:
        b = ctz(x)
        x &= x - U1
        r = play_rank(b)
        c = play_count(b)
        after = remove_cards(h, r, c)
        if after == U0:
            v = OUT_ON_TWO if nofin2 and r >= TWO else GONE_OUT
        else:
            v = hand_value(after, u, per_group, per_card)
            if unbeatable(u, r, c):
                v -= lead_bonus  # nobody can beat it: it keeps the lead
        if v < best:
            best = v
            best_r = r
            best_c = c
    return best_r, best_c


# ---------------------------------------------------------------- giving back


@njit(**HOT)
def give_singles(h, k, out):
    """Give back ``k`` cards that break no group: the weakest single cards below the
    aces first (normal order), then the weakest cards."""
    for i in range(k):
        singles = singles_below_aces(h)
        r = ctz(singles) if singles != U0 else ctz(h & RANKS)
        out[i] = r
        h = remove_cards(h, r, 1)
    return h
