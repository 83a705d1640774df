"""``rules-aware``: ``control`` tuned to never pass when it can play, plus the house rules.

The first catalogue's rules (no_finish_on_two, skips, burns, revolution, transparent
threes) shape its play as the docstring of :func:`rules_aware_move` says. The second
catalogue's table rules are a separate piece of knowledge, which the parameter ``knows``
(``params[pos, RULES_AWARE_KNOWS]``, bits of :mod:`strategies.specs`) switches on rule
by rule, so that what each is worth can be measured (docs/strategies.md):

* eight_ends_trick: 8s win any trick they may be laid on, so they count as controls —
  kept while a cheaper group will do, laid before a 2 — and it leads them when they
  leave a single group (it then goes out).
* accumulation_burns: a play of the top's rank that brings the trick's run to 4 cards
  burns the pile and gives the lead; it makes it whenever it can.
* jack_back: jacks reverse the order for the rest of the trick, which turns its weakest
  cards into winners. It plays (or leads) jacks when cards left in its hand would then
  be unbeatable, to win the trick with them when the turn comes back.
* out_ends_trick: a player going out ends the trick and the lead passes on from him, so
  a strong card laid where a player still to answer could go out on it may be wasted:
  with the bit ``KNOWS_OUT_ENDS`` it keeps the card unless nobody can beat it.
* clubs_three_opens = "every_round": its holder after the exchange leads the round. With
  the bit ``KNOWS_CLUBS`` it never gives back its last 3 while it holds the 3 of clubs.
* seven_passes, ten_discards (the third catalogue): a play of 7s or 10s hands over a card
  per 7 or 10. With the bit ``KNOWS_SEVENS`` (``KNOWS_TENS``) it lays or leads a whole
  group of 7s (10s) whenever the hand-over rids it of as many single cards below the
  aces (its give-back's choice) and leaves it another group.
* suit_lock: with the bit ``KNOWS_LOCKS``, a play that can lay the top's suits lays them
  and locks the trick, so that only those suits may answer it.

``KNOWS_OUT_ENDS``, ``KNOWS_CLUBS`` and ``KNOWS_TENS`` are off by default: the first two
measured as small losses (keeping a strong card costs more tricks than it saves; the
first lead is worth less than the single 3 kept for it), as did laying a strong card that
nobody could beat to stop a player going out, and spending transparent threes on a burn;
the 10s gained under the default rules but lost under ``french`` (docs/strategies.md).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import (
    RANKS,
    U0,
    U1,
    add_card,
    count_of,
    ctz,
    popc,
    remove_cards,
    with_count,
)
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import CARDS
from simulator.kernel.layout import (
    ACCUMULATION,
    LOCK,
    R_ACCUM,
    R_EIGHT_ENDS,
    R_EQUAL,
    R_JACK_BACK,
    R_JOKERS,
    R_NOFIN2,
    R_OUT_ENDS,
    R_QUAD,
    R_REVOL,
    R_TRANSP,
    R_TRICK_FLAGS,
    S_ACTIVE,
    S_ANSWERED,
    S_OOT,
    S_OWNER,
    S_REV,
    S_RUN,
    S_TOP_COUNT,
    S_TOP_RANK,
    SEVENS,
    TENS,
)
from simulator.kernel.legal import legal_plays, strength
from simulator.kernel.suits import locking_cards, pick_cards
from simulator.kernel.trick import owed_cards, still_to_answer, table_play
from simulator.rules.cards import ACE, EIGHT, JACK, SEVEN, TEN, THREE
from strategies.hand import (
    at_least,
    groups,
    outside,
    singles_below_aces,
    spread,
    twos,
    unbeatable,
    unbeatable_plays,
    weakest_of,
    weakest_play,
)
from strategies.heuristics import control_follow, control_lead, give_singles
from strategies.specs import (
    KNOWS_BURNS,
    KNOWS_CLUBS,
    KNOWS_EIGHTS,
    KNOWS_JACKS,
    KNOWS_LOCKS,
    KNOWS_OUT_ENDS,
    KNOWS_SEVENS,
    KNOWS_TENS,
    RULES_AWARE_BURN_AT,
    RULES_AWARE_KNOWS,
    RULES_AWARE_REVOLT_BELOW,
    RULES_AWARE_SPEND_AT,
    RULES_AWARE_STRENGTH,
    RULES_AWARE_THREAT_AT,
    RULES_AWARE_TWOS_AT,
)

U48 = np.uint64(48)


# ---------------------------------------------------------------- first catalogue


@njit(**INLINE)
def leaves_only_twos(h, r, c, tw):
    """Under no_finish_on_two: would this play leave a hand of only 2s and jokers?"""
    after = remove_cards(h, r, c)
    return tw != U0 and after != U0 and (after & ~spread(tw)) == U0


@njit(**INLINE)
def mean_strength(h, rev):
    """Mean strength of the cards held, under the order in force."""
    total = 0
    ranks = h & RANKS
    while ranks != U0:
        r = ctz(ranks)
        ranks &= ranks - U1
        total += count_of(h, r) * strength(r, rev)
    return total / popc(h)


# ---------------------------------------------------------------- second catalogue


@njit(**INLINE)
def largest(m, r):
    """The play of rank ``r`` in play mask ``m`` with the most cards up to the whole
    group: ``(r, count)``, count 0 when ``m`` holds no play of ``r``."""
    for c in range(4, 0, -1):
        if (m >> np.uint64(16 * (c - 1) + r)) & U1:
            return r, c
    return r, 0


@njit(**INLINE)
def burn_play(m, S):
    """A legal play of the top's rank that burns the pile by accumulation, as the kernel's
    rules say (:func:`simulator.kernel.trick.table_play`: it brings the trick's run to 4
    cards): ``(rank, count)``, count 0 when there is none. Transparent threes could burn
    too, but spending them measured worse than keeping them."""
    t = S[S_TOP_RANK]
    tc = S[S_TOP_COUNT]
    for c in range(tc, 4):
        if (m >> np.uint64(16 * (c - 1) + t)) & U1 and table_play(
            t, c, t, t, tc, S[S_RUN], ACCUMULATION
        )[2]:
            return t, c
    return 0, 0


@njit(**INLINE)
def jack_helps(h, c, rev, played, jokers):
    """Whether laying ``c`` jacks leaves ``c`` cards of a rank that nobody can beat in the
    reversed order the jacks bring for the rest of the trick (weak cards turned into a
    winner, to be laid on this trick when the turn comes back)."""
    after = remove_cards(h, JACK, c)
    u = unbeatable_plays(outside(after, played, jokers), rev ^ 1)
    return with_count(after, c) & (u >> np.uint64(16 * (c - 1))) != U0


@njit(**INLINE)
def may_go_out_on(S, H, pos, c):
    """Whether a player still to answer holds exactly ``c`` cards (he could go out on a
    combination of ``c`` cards, which under out_ends_trick ends the trick): the top's owner
    counts, as he answers a play laid on his top."""
    waiting = still_to_answer(S[S_ACTIVE], S[S_ANSWERED] | (1 << pos), S[S_OOT], -1)
    while waiting != 0:
        q = ctz(np.uint64(waiting))
        waiting &= waiting - 1
        if popc(H[q]) == c:
            return True
    return False


@njit(**INLINE)
def handing_play(h, m, R, knows):
    """A whole group of 7s or 10s in play mask ``m`` whose hand-over (``seven_passes``,
    ``ten_discards``) gets rid of as many single cards below the aces, the cards its
    give-back hands over first: ``(rank, count)``, count 0 when none. The 7s first (they
    measured the larger gain); each only with its bit of ``knows``."""
    for r, bit in ((SEVEN, KNOWS_SEVENS), (TEN, KNOWS_TENS)):
        c = count_of(h, r)
        if not knows & bit or c == 0 or not (m >> np.uint64(16 * (c - 1) + r)) & U1:
            continue
        after = remove_cards(h, r, c)
        owed = owed_cards(r, c, popc(after), R[R_TRICK_FLAGS])
        if owed > 0 and groups(after) > owed and popc(singles_below_aces(after)) >= owed:
            return r, c
    return 0, 0


@njit(**INLINE)
def table_lead(h, rev, played, R, knows):
    """A lead the table rules make good: ``(rank, count)``, count 0 when none."""
    if knows & KNOWS_EIGHTS and R[R_EIGHT_ENDS] and count_of(h, EIGHT) > 0 and groups(h) == 2:
        return EIGHT, count_of(h, EIGHT)  # ends the trick: the last group then goes out
    if knows & KNOWS_JACKS and R[R_JACK_BACK] and count_of(h, JACK) > 0 and groups(h) > 1:
        c = count_of(h, JACK)
        if jack_helps(h, c, rev, played, R[R_JOKERS]):
            return JACK, c
    if knows & (KNOWS_SEVENS | KNOWS_TENS) and R[R_TRICK_FLAGS] & (SEVENS | TENS):
        return handing_play(h, h, R, knows)  # a hand holds the bit of each play: any may lead
    return 0, 0


@njit(**INLINE)
def table_follow(h, m, S, R, played, knows):
    """A play on the trick that the table rules make good (it takes the lead):
    ``(rank, count)``, count 0 when none."""
    if knows & KNOWS_BURNS and R[R_ACCUM]:
        r, c = burn_play(m, S)
        if c > 0:
            return r, c
    if knows & KNOWS_JACKS and R[R_JACK_BACK]:
        r, c = largest(m, JACK)
        if c > 0 and jack_helps(h, c, S[S_REV], played, R[R_JOKERS]):
            return r, c
    if knows & (KNOWS_SEVENS | KNOWS_TENS) and R[R_TRICK_FLAGS] & (SEVENS | TENS):
        return handing_play(h, m, R, knows)
    return 0, 0


@njit(**INLINE)
def wasted(h, r, c, S, H, pos, ctl, played, R):
    """Under out_ends_trick: a strong play (a control, or an ace or better) laid where a
    player still to answer could beat it and go out (which ends the trick and gives the
    lead to the player after him)."""
    if not R[R_OUT_ENDS] or c == 0 or remove_cards(h, r, c) == U0:
        return False
    if not (ctl >> np.uint64(r)) & U1 and strength(r, S[S_REV]) < ACE:
        return False
    if unbeatable(unbeatable_plays(outside(h, played, R[R_JOKERS]), S[S_REV]), r, c):
        return False
    return may_go_out_on(S, H, pos, c)


# ---------------------------------------------------------------- the strategy


@njit(**INLINE)
def rules_aware_move(pos, S, H, R, played, params):
    """:func:`rules_aware_play`, and under ``suit_lock`` with the bit ``KNOWS_LOCKS`` the
    cards that lock the trick when its play can (:func:`lock_when_it_can`)."""
    r, c = rules_aware_play(pos, S, H, R, played, params)
    if c > 0 and R[R_TRICK_FLAGS] & LOCK and np.int64(params[pos, RULES_AWARE_KNOWS]) & KNOWS_LOCKS:
        lock_when_it_can(pos, r, c, S, H)
    return r, c


@njit(**INLINE)
def lock_when_it_can(pos, r, c, S, H):
    """Choose the cards of its play of ``c`` cards of ``r`` that lock the trick, when it
    holds the top's suits in ``r``: the players after it must then answer in those suits."""
    cards = locking_cards(S, H[CARDS + np.uint64(pos)], r, c)
    if cards != U0:
        pick_cards(S, cards)


@njit(**HOT)
def rules_aware_play(pos, S, H, R, played, params):
    """``rules-aware``: ``control`` tuned to never pass when it can play, plus the house
    rules in force.

    With its defaults (controls are the 2s and jokers, spent whenever no cheaper whole
    group is legal) it follows with the weakest whole group, then a control, then the
    weakest play that breaks a group: passing measured worse than playing in every
    preset. It cashes unbeatable groups when they are all but one of its groups.

    * no_finish_on_two: it gets rid of its 2s and jokers while it has other cards —
      leading them once at most ``twos_at`` other groups remain, playing them on
      a trick then too — and never plays its last other group while it holds 2s.
    * equal_rank = "skip": an equal play that breaks no group is played at once (it
      skips the next player at no cost in strength).
    * quad_burns: a four that burns the trick is played once it holds at most
      ``burn_at`` groups (it then leads again).
    * revolution: it leads a four to reverse the order when its mean strength is below
      ``revolt_below``.
    * transparent_threes: threes count as controls (they cover any top).
    * the table rules of the second catalogue, when their bit of ``knows`` is on (see
      the module's docstring).

    The thresholds of ``control`` are ``strength`` (control strength), ``spend_at``
    (cards at which controls are spent) and ``threat_at`` (the top owner's cards at
    which controls are spent). Each parameter is read from ``params[pos]`` at its slot
    (``RULES_AWARE_*``, :mod:`strategies.specs`).
    """
    h = H[pos]
    rev = S[S_REV]
    jokers = R[R_JOKERS]
    knows = np.int64(params[pos, RULES_AWARE_KNOWS])
    ctl = at_least(params[pos, RULES_AWARE_STRENGTH], rev)
    if R[R_TRANSP]:
        ctl |= U1  # threes
    if knows & KNOWS_EIGHTS and R[R_EIGHT_ENDS]:
        ctl |= U1 << np.uint64(EIGHT)  # 8s win any trick they may be laid on
    ctl = spread(ctl)
    tw = twos(h) if R[R_NOFIN2] else U0
    others = h & ~spread(tw)
    fours = (h >> U48) & RANKS
    tc = S[S_TOP_COUNT]
    if tc == 0:
        if (
            R[R_REVOL]
            and fours != U0
            and mean_strength(h, rev) < params[pos, RULES_AWARE_REVOLT_BELOW]
        ):
            return weakest_of(fours, rev), 4
        if tw != U0 and others != U0 and groups(others) <= params[pos, RULES_AWARE_TWOS_AT]:
            r = weakest_of(tw, rev)
            return r, count_of(h, r)
        if knows:
            r, c = table_lead(h, rev, played, R, knows)
            if c > 0 and not leaves_only_twos(h, r, c, tw):
                return r, c
        r, c = control_lead(h, rev, played, jokers, ctl)
        if leaves_only_twos(h, r, c, tw):
            r = weakest_of(tw, rev)
            return r, count_of(h, r)
        return r, c
    m = legal_plays(h, S, R)
    if m == U0:
        return 0, 0
    if R[R_EQUAL]:
        t = S[S_TOP_RANK]
        equal = (m >> np.uint64(16 * (tc - 1) + t)) & U1
        if equal and count_of(h, t) == tc and not leaves_only_twos(h, t, tc, tw):
            return t, tc
    if knows:
        r, c = table_follow(h, m, S, R, played, knows)
        if c > 0 and not leaves_only_twos(h, r, c, tw):
            return r, c
    if R[R_QUAD]:
        burn = (m >> U48) & RANKS
        if burn != U0 and groups(h) <= params[pos, RULES_AWARE_BURN_AT]:
            r = weakest_of(burn, rev)
            if not leaves_only_twos(h, r, 4, tw):
                return r, 4
    if tw != U0 and others != U0 and groups(others) <= params[pos, RULES_AWARE_TWOS_AT]:
        m2 = m & spread(tw)
        if m2 != U0:
            return weakest_play(m2, rev)
    owner_cards = popc(H[S[S_OWNER]])
    r, c = control_follow(
        h,
        m,
        rev,
        played,
        jokers,
        ctl,
        params[pos, RULES_AWARE_SPEND_AT],
        params[pos, RULES_AWARE_THREAT_AT],
        owner_cards,
    )
    if c > 0 and leaves_only_twos(h, r, c, tw):
        return 0, 0
    if knows & KNOWS_OUT_ENDS and wasted(h, r, c, S, H, pos, ctl, played, R):
        return 0, 0
    return r, c


@njit(**HOT)
def rules_aware_give(h, k, out, params, opener):
    """Give back like the other heuristics (single cards that break no group), but keep
    the last 3 while holding the 3 of clubs that opens the round (``opener`` is the
    giver's row of ``params``, -1 when it holds none), if it knows the table rules."""
    if (
        opener < 0
        or not np.int64(params[opener, RULES_AWARE_KNOWS]) & KNOWS_CLUBS
        or count_of(h, THREE) == 0
    ):
        return give_singles(h, k, out)
    kept = remove_cards(h, THREE, 1)  # one 3 set aside: the 3 of clubs stays with it
    return add_card(give_singles(kept, k, out), THREE)
