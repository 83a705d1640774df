"""The rules of a trick as pure functions: what a play does, what ends a trick, who is
skipped, who must answer next, who leads, the order in force.

The one home of this logic. :func:`simulator.kernel.step.step` plays by it, and the
strategies that reason about a move — ``linear``'s features, ``champion``'s reading of
who passed, the endgame solver, ``rules-aware`` — ask it rather than restating a rule, so
a rule added here is seen by all of them. Each function reads scalars (the rules as the
flag words of :func:`~simulator.kernel.step.rule_flags` and
:func:`~simulator.kernel.step.trick_rule_flags`, the state as its values) and returns
values: the state the table rules need (the run, the jack-back) is the caller's to keep.

A table rule (the second catalogue: a bit of the ``trick_rules`` word) acts on a play in
:func:`table_play`, the one place for a new rule's effect: it may end the trick, reverse
the order until the trick ends, or skip the next player, and ``step`` calls it on every
play whenever any table rule is on.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, U0, add_card, ctz, popc, remove_cards
from simulator.kernel.config import INLINE
from simulator.kernel.layout import (
    ACCUMULATION,
    EIGHTS,
    FIVES,
    JACKS,
    QUAD,
    REVERSES,
    SEVENS,
    SKIP,
    TENS,
    TRANSPARENT,
    TWO_ENDS,
)
from simulator.kernel.suits import spade_return
from simulator.rules.cards import EIGHT, FIVE, JACK, SEVEN, TEN, THREE, TWO


@njit(**INLINE)
def play_effect(r, c, tc, t, equal, transparent):
    """(rank the new top carries, whether it is an equal-rank play) of a legal play."""
    if tc == 0 or c != tc:
        return r, False
    taken = t if (r == THREE and transparent) else r  # transparent threes take the rank
    return taken, equal and r == t


@njit(**INLINE)
def ends_trick_at_once(r, c, two_ends, quad):
    """2s (when they end the trick) and fours (when they burn) end the trick at once."""
    return (r == TWO and two_ends) or (c == 4 and quad)


@njit(**INLINE)
def revolts(c, rules):
    """Whether a play of ``c`` cards reverses the round's order (a four, when fours
    reverse it: :data:`~simulator.kernel.layout.REVERSES`), from the next play on."""
    return c == 4 and rules & REVERSES != 0


@njit(**INLINE)
def table_play(r, c, taken, t, tc, run, trick_rules):
    """What a play of ``c`` cards of ``r`` (the top then carries ``taken``) does under the
    table rules on a top of ``tc`` cards of ``t`` (``tc == 0``: a lead), the trick's
    latest run holding ``run`` cards: ``(run, flips, ends, skips, times)``.

    The run grows when the play carries the top's rank, else starts anew; a run reaching 4
    cards burns (never a play of 4 cards); 8s end the trick, and so does the 3 of spades on
    a lone joker (:func:`~simulator.kernel.suits.spade_return`); real jacks reverse the order
    in force from the next play until the trick ends (``flips``); ``skips`` is the bit of
    the rule that makes the play skip the next player, 0 when none does, and ``times``
    how many players it skips one after the other: 5s skip one player per 5."""
    run = run + c if tc != 0 and taken == t else c
    ends = (
        (r == EIGHT and trick_rules & EIGHTS != 0)
        or (c < 4 and run >= 4 and trick_rules & ACCUMULATION != 0)
        or spade_return(r, c, t, tc, trick_rules)
    )
    flips = r == JACK and trick_rules & JACKS != 0
    skips, times = 0, 0
    if r == FIVE and trick_rules & FIVES != 0:
        skips, times = FIVES, c
    return run, flips, ends, skips, times


@njit(**INLINE)
def owed_cards(r, c, left, trick_rules):
    """How many cards a play of ``c`` cards of ``r`` obliges its player to hand over at
    once, ``left`` cards staying in his hand after it: one per 7 to the next player
    (:data:`~simulator.kernel.layout.SEVENS`), one per 10 out of the round
    (:data:`~simulator.kernel.layout.TENS`), all he has left when that is fewer."""
    if (r == SEVEN and trick_rules & SEVENS != 0) or (r == TEN and trick_rules & TENS != 0):
        return min(c, left)
    return 0


@njit(**INLINE)
def gift_receiver(n, pos, r, active):
    """Who receives the cards handed over after a play of ``r`` by ``pos``: under 7s the
    next player clockwise still holding cards (``active``), under 10s nobody (-1: the
    cards are discarded)."""
    if r != SEVEN:
        return -1
    for i in range(1, n):
        q = pos + i if pos + i < n else pos + i - n
        if (active >> q) & 1:
            return q
    return -1


@njit(**INLINE)
def assumed_gift(h, r, c, trick_rules):
    """The cards a play of ``c`` cards of ``r`` from hand ``h`` hands over (a hand), as
    the search players' rollouts and the endgame solver assume them: the weakest left
    (normal order). In a round a player hands over his strategy's choice (its
    give-back), which they do not model."""
    gift = U0
    if c == 0:
        return gift
    h = remove_cards(h, r, c)
    for _ in range(owed_cards(r, c, popc(h), trick_rules)):
        weakest = ctz(h & RANKS)
        h = remove_cards(h, weakest, 1)
        gift = add_card(gift, weakest)
    return gift


@njit(**INLINE)
def ends_trick(r, c, t, tc, run, rules, trick_rules):
    """Whether ``c`` cards of ``r`` laid on the top (``tc`` cards of ``t``, the trick's
    run ``run`` cards) end the trick by a rule, their player leading next: 2s, a burning
    four, or a table rule (:func:`table_play`)."""
    if ends_trick_at_once(r, c, rules & TWO_ENDS != 0, rules & QUAD != 0):
        return True
    if trick_rules == 0:
        return False
    taken, _ = play_effect(r, c, tc, t, False, rules & TRANSPARENT != 0)
    return table_play(r, c, taken, t, tc, run, trick_rules)[2]


@njit(**INLINE)
def skips_next(r, c, t, tc, run, rules, trick_rules):
    """Whether ``c`` cards of ``r`` laid on the top skip the next player to answer (unless
    they end the trick): an equal play when equal plays skip
    (:data:`~simulator.kernel.layout.SKIP`), or a table rule's skip (:func:`table_play`;
    ``five_skips`` may skip more players after that one)."""
    taken, is_equal = play_effect(r, c, tc, t, rules & SKIP != 0, rules & TRANSPARENT != 0)
    if is_equal:
        return True
    if trick_rules == 0:
        return False
    return table_play(r, c, taken, t, tc, run, trick_rules)[3] != 0


@njit(**INLINE)
def order_after(rev, r, c, rules, trick_rules):
    """The order in force after a play, from the next play on: a four that reverses the
    round's order (:func:`revolts`) and a jack-back's jacks each reverse it."""
    if revolts(c, rules):
        rev ^= 1
    if table_play(r, c, r, -1, 0, 0, trick_rules)[1]:
        rev ^= 1
    return rev


@njit(**INLINE)
def next_to_ask(n, after, owner, eligible):
    """The next player clockwise after ``after`` who would be asked, or -1.

    ``eligible`` holds the players with cards still in the trick (out_of_trick); the
    owner of the top is never asked to answer his own combination.
    """
    s = after
    for _ in range(n - 1):
        s += 1
        if s == n:
            s = 0
        if s == owner:
            return -1
        if (eligible >> s) & 1:
            return s
    return -1


@njit(**INLINE)
def still_to_answer(active, answered, oot, owner):
    """The players who must still answer the top: holding cards, still in the trick,
    neither passed nor skipped since it was laid, and not its owner (a bitmask)."""
    waiting = active & ~(answered | oot)
    if owner >= 0:
        waiting &= ~(1 << owner)
    return waiting


@njit(**INLINE)
def trick_over(active, answered, oot, owner):
    """Everyone holding cards but the top's owner has passed or been skipped since it was laid."""
    return still_to_answer(active, answered, oot, owner) == 0


@njit(**INLINE)
def trick_leader(n, owner, active):
    """The top's owner leads the next trick, or the next player clockwise holding cards."""
    leader = owner
    while not (active >> leader) & 1:
        leader += 1
        if leader == n:
            leader = 0
    return leader


@njit(**INLINE)
def last_in_trick(active, oot, owner):
    """Under :data:`~simulator.kernel.layout.LAST_IN`, while the top's owner is out: the one
    player left in the trick (holds cards, has not passed in it), else -1."""
    if owner < 0 or (active >> owner) & 1:
        return -1
    left = active & ~oot
    if left == 0 or left & (left - 1) != 0:
        return -1
    return ctz(np.uint64(left))
