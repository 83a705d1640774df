"""One round in the kernel: plays, passes, skips, the end of a trick, places.

The fast twin of :class:`simulator.reference.round.Round`, hands as bitmasks; what each
rule decides (what a play does, what ends a trick, who is asked next) is asked of the
pure functions of :mod:`simulator.kernel.trick`, which the strategies ask too. Event
order is the rule book's: the play, going out, the skip, the end of the trick; a play
that leaves one player holding cards ends the round at once.

The round state has two forms. The ``S`` array (see :mod:`simulator.kernel.layout`) is
what strategies read and what search players copy; inside :func:`simulator.matchloop.round.play_round` the same
state lives in local variables (a :data:`State` tuple), because numba cannot prove that
``S`` does not alias the hands, and every array access would then go to memory (the
kernel ran 2x slower that way). :func:`step` is the one implementation of a move's
consequences; search players run it on copies of the state with :func:`load_state` and
:func:`store_state`.

``State`` = ``(turn, top_rank, top_count, owner, rev, answered, oot, active, best_free,
worst_free, over, tricks, plays, passes, skips)`` with the meaning of the ``S_*`` slots.
``rev`` is the order in force, so legality and strategies read one slot.

The second catalogue's rules are bits of one ``trick_rules`` word (:func:`trick_rule_flags`):
the match loop compiles its move loop a second time with ``trick_rules`` the constant 0, so with
all of them off their tests fold away. The state only they need — whether a jack-back is
part of ``rev``, and the cards in the trick's latest run — is not in the State tuple but
in ``S[S_JACK]`` and ``S[S_RUN]`` (a larger tuple slowed the common path by several per
cent), read and written only while a trick rule is on. So is the record of the latest
skip (``S_SKIPPED``, ``S_SKIP_PLAY``, ``S_SKIP_BY``: who, at which play, by which rule),
written only when a play skips someone: :func:`skipped_on_top` reads it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import U0, U1, add_card, count_of, ctz, popc, remove_cards
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.layout import (
    CAPITAL,
    LAST_IN,
    NO_ROLE,
    OUT_ENDS,
    OUT_OF_TRICK,
    QUAD,
    R_FLAGS,
    R_N,
    R_TRICK_FLAGS,
    ROLE_INDEX,
    S_ACTIVE,
    S_ANSWERED,
    S_BEST_FREE,
    S_JACK,
    S_LEADER,
    S_LOCK,
    S_N,
    S_OOT,
    S_OVER,
    S_OWNER,
    S_PASSES,
    S_PICK_AT,
    S_PLAYS,
    S_PRESIDENT,
    S_REV,
    S_RUN,
    S_SKIP_BY,
    S_SKIP_PLAY,
    S_SKIPPED,
    S_SKIPS,
    S_SUIT_AT,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    S_TRICKS,
    S_TURN,
    S_WORST_FREE,
    SKIP,
    TABLE_SHIFT,
    TRANSPARENT,
    TWO_ENDS,
    TWOS_LAST,
)
from simulator.kernel.runs import JOKERS, RUNS_AT, run_ends_trick, run_length, run_suit, run_turns
from simulator.kernel.trick import (
    ends_trick_at_once,
    gift_receiver,
    last_in_trick,
    next_to_ask,
    play_effect,
    revolts,
    table_play,
    trick_leader,
    trick_over,
)
from simulator.rules.cards import JOKER, NUM_RANKS, TEN, TWO

# Positions in the State tuple (the same meanings as the ``S_*`` slots).
(ST_TURN, ST_TOP_RANK, ST_TOP_COUNT, ST_OWNER, ST_REV, ST_ANSWERED, ST_OOT, ST_ACTIVE,
 ST_BEST_FREE, ST_WORST_FREE, ST_OVER, ST_TRICKS, ST_PLAYS, ST_PASSES, ST_SKIPS) = range(15)  # fmt: skip


PRESIDENT = ROLE_INDEX["president"]


@njit(**INLINE)
def president_of(roles, n):
    """The position whose role (``roles``, by position) is President, or -1 (no roles yet:
    a match's first round)."""
    for pos in range(n):
        if roles[pos] == PRESIDENT:
            return pos
    return NO_ROLE


@njit(**HOT)
def start_round(S, H, n, leader, played, places, president):
    """A fresh round: nobody has played, the leader is to move, normal rank order;
    ``president`` is the President's position (-1: none)."""
    S[S_N] = n
    S[S_TURN] = leader
    S[S_LEADER] = leader
    S[S_TOP_RANK] = -1
    S[S_TOP_COUNT] = 0
    S[S_OWNER] = -1
    S[S_REV] = 0
    S[S_ANSWERED] = 0
    S[S_OOT] = 0
    active = 0
    for p in range(n):
        if H[p] != U0:
            active |= 1 << p
    S[S_ACTIVE] = active
    S[S_BEST_FREE] = 1
    S[S_WORST_FREE] = n
    S[S_OVER] = 0
    S[S_TRICKS] = 1
    S[S_PLAYS] = 0
    S[S_PASSES] = 0
    S[S_SKIPS] = 0
    S[S_JACK] = 0
    S[S_RUN] = 0
    S[S_SKIPPED] = 0
    S[S_SKIP_PLAY] = -1
    S[S_SKIP_BY] = 0
    S[S_PRESIDENT] = president
    S[S_TOP_SUITS] = 0
    S[S_LOCK] = 0
    S[S_SUIT_AT] = -1  # nothing written for a position yet
    S[S_PICK_AT] = -1  # no cards chosen yet
    played[:] = 0
    places[:] = 0


# ---------------------------------------------------------------- rules as small functions


@njit(**INLINE)
def rule_flags(R):
    """The rules one round needs, as ``(n, bits)``: the bits of ``R[R_FLAGS]``
    (:data:`~simulator.kernel.layout.SKIP` and the others beside it, set by
    :func:`~simulator.kernel.layout.rules_array`). One word for seven rules: the round
    loop keeps its state in registers, and every register it saves is a value it need
    not spill."""
    return R[R_N], R[R_FLAGS]


@njit(**INLINE)
def trick_rule_flags(R):
    """The second catalogue's trick rules as bits (``R[R_TRICK_FLAGS]``:
    :data:`~simulator.kernel.layout.EIGHTS` and the others beside it), 0 when they are
    all off."""
    return R[R_TRICK_FLAGS]


@njit(**INLINE)
def place_taken(twos_last, rank, best_free, worst_free):
    """The place of a player going out on ``rank``: the best free one, or the worst after
    2s/jokers when they go out last (:data:`~simulator.kernel.layout.TWOS_LAST`). Returns (place, best_free, worst_free)."""
    if twos_last and rank >= TWO:  # a 2 or a joker
        return worst_free, best_free, worst_free - 1
    return best_free, best_free + 1, worst_free


@njit(**INLINE)
def goes_out(pos, r, rules, active, best_free, worst_free, places):
    """Player ``pos`` has played his last cards (rank ``r``): his place (:func:`place_taken`),
    and the last player's when one is left. Returns ``(active, best_free, worst_free,
    whether the round is over)``."""
    place, best_free, worst_free = place_taken(rules & TWOS_LAST != 0, r, best_free, worst_free)
    places[np.uint64(pos)] = place
    active &= ~(1 << pos)
    over = popc(np.uint64(active)) == 1
    if over:
        places[ctz(np.uint64(active))] = best_free
    return active, best_free, worst_free, over


@njit(**INLINE)
def president_falls(pos, president, H, played, places, active, best_free, worst_free):
    """Under ``capital_falls``: player ``pos`` has just gone out; if he took the first
    place and the round's President (-1: none) still holds cards, the President takes the
    worst free place at once and his cards leave the round (counted in ``played``, so that
    what the others infer stays true). Returns ``(active, worst_free, whether the round
    is over)``; when one player is left he takes the best free place."""
    if president < 0 or president == pos or places[np.uint64(pos)] != 1:
        return active, worst_free, False
    at = np.uint64(president)
    if H[at] == U0:
        return active, worst_free, False
    for r in range(NUM_RANKS):
        played[r] += count_of(H[at], r)
    H[at] = U0
    places[at] = worst_free
    active &= ~(1 << president)
    over = popc(np.uint64(active)) == 1
    if over:
        places[ctz(np.uint64(active))] = best_free
    return active, worst_free - 1, over


@njit(**INLINE)
def out_of_cards(pos, r, rules, trick_rules, active, best_free, worst_free, H, S, played, places):
    """Player ``pos`` has played his last cards, on rank ``r`` (:func:`goes_out`), and under
    ``capital_falls`` the President may fall (:func:`president_falls`). Returns
    ``(active, best_free, worst_free, whether the round is over)``."""
    active, best_free, worst_free, last_one = goes_out(
        pos, r, rules, active, best_free, worst_free, places
    )
    if not last_one and trick_rules & CAPITAL != 0:
        active, worst_free, last_one = president_falls(
            pos, S[S_PRESIDENT], H, played, places, active, best_free, worst_free
        )
    return active, best_free, worst_free, last_one


@njit(**HOT)
def hand_over(gift, pos, r, n, active, H, played):
    """The cards of ``gift`` (a hand) leave ``pos``'s hand for his play of ``r``: to the next
    player holding cards (``active``) after 7s (``seven_passes``), out of the round face
    up after 10s (``ten_discards``: counted in ``played``, as every player saw them).

    Called just before :func:`step` plays the move, whose consequences it does not change:
    the receiver holds cards either way, and the player goes out in ``step`` if the play
    and the gift leave him none, as the rules order it (the gift, then going out). Kept
    out of ``step`` and compiled apart, because any code of it there, even never run,
    slowed every move under the table rules (docs/performance.md)."""
    at = np.uint64(pos)
    to = np.uint64(max(gift_receiver(n, pos, r, active), 0))
    receives = r != TEN
    for rank in range(NUM_RANKS):
        k = count_of(gift, rank)
        if k == 0:
            continue
        H[at] = remove_cards(H[at], rank, k)
        if receives:
            for _ in range(k):
                H[to] = add_card(H[to], rank)
        else:
            played[rank] += k


# ---------------------------------------------------------------- one move


@njit(**INLINE)
def step(st, fl, trick_rules, pos, r, c, H, played, places, S):
    """The state after player ``pos`` plays ``c`` cards of rank ``r`` (``c == 0``: passes).
    The cards a play of 7s or 10s hands over have left his hand just before
    (:func:`hand_over`).

    The move is legal by assumption; ``H``, ``played`` and ``places`` are updated in place,
    and so are the slots of ``S`` from ``S_IN_PLACE`` on: the table rules' state (only
    while one is on) and who a skip skipped, and why. The rest of ``S`` is not read: the
    State tuple is the state. What each rule does is asked of :mod:`simulator.kernel.trick`;
    a table rule acts on a play through :func:`~simulator.kernel.trick.table_play`, called
    here whenever any table rule is on.
    """
    (turn, t, tc, owner, rev, answered, oot, active, best_free, worst_free, over, tricks,
     plays, passes, skips) = st  # fmt: skip
    n, rules = fl
    last = pos  # whose answer the turn moves on from
    end_now = False
    if c == 0:
        passes += 1
        answered |= 1 << pos
        if rules & OUT_OF_TRICK:
            oot |= 1 << pos
    else:
        taken, is_equal = play_effect(r, c, tc, t, rules & SKIP != 0, rules & TRANSPARENT != 0)
        skip_by = SKIP if is_equal else 0  # the rule that skips the next player, if any
        times = 1  # how many players it skips, one after the other
        if trick_rules != 0:  # every table rule's effect on a play
            run, flips, end_now, table_skip, table_times = table_play(
                r, c, taken, t, tc, S[S_RUN], trick_rules
            )
            S[S_RUN] = run
            if flips:
                rev ^= 1
                S[S_JACK] ^= 1
            if table_skip != 0 and (skip_by == 0 or table_times > 1):
                skip_by, times = table_skip << TABLE_SHIFT, table_times
        at = np.uint64(pos)  # unsigned indexes: numba adds no code for negative ones
        H[at] = remove_cards(H[at], r, c)
        played[np.uint64(r)] += c
        t = taken
        tc = c
        owner = pos
        answered = 0
        plays += 1
        if revolts(c, rules):
            rev ^= 1  # in force from the next play on
        if H[at] == U0:
            active, best_free, worst_free, last_one = out_of_cards(
                pos, r, rules, trick_rules, active, best_free, worst_free, H, S, played, places
            )
            if last_one:
                over = 1
                return (turn, t, tc, owner, rev, answered, oot, active, best_free, worst_free,
                        over, tricks, plays, passes, skips)  # fmt: skip
            end_now = end_now or trick_rules & OUT_ENDS != 0
        if end_now or ends_trick_at_once(r, c, rules & TWO_ENDS != 0, rules & QUAD != 0):
            end_now = True
        elif skip_by != 0:
            skipped = 0
            for _ in range(times):  # until the turn would come back to the player
                nxt = next_to_ask(n, last, owner, active & ~oot)
                if nxt < 0:
                    break
                skips += 1
                answered |= 1 << nxt
                skipped |= 1 << nxt
                last = nxt
            if skipped != 0:
                S[S_SKIPPED], S[S_SKIP_PLAY], S[S_SKIP_BY] = skipped, plays, skip_by
    turn, t, tc, owner, rev, answered, oot, tricks = next_turn(
        n, trick_rules, last, end_now, t, tc, owner, rev, answered, oot, active, tricks, S
    )
    return (turn, t, tc, owner, rev, answered, oot, active, best_free, worst_free, over, tricks,
            plays, passes, skips)  # fmt: skip


@njit(**INLINE)
def next_turn(n, trick_rules, last, end_now, t, tc, owner, rev, answered, oot, active, tricks, S):
    """After a move (its out and skips done): the trick ends (``end_now``, the one left in
    it under ``last_in_trick``, or everyone answered) and its leader is to move, or the
    next player after ``last`` is asked. Returns ``(turn, t, tc, owner, rev, answered,
    oot, tricks)``."""
    if trick_rules & LAST_IN != 0 and not end_now:
        alone = last_in_trick(active, oot, owner)
        if alone >= 0:  # he leads without being asked: the trick ends as his
            owner = alone
            end_now = True
    if end_now or trick_over(active, answered, oot, owner):
        turn = trick_leader(n, owner, active)
        t = -1
        tc = 0
        owner = -1
        answered = 0
        oot = 0
        tricks += 1
        if trick_rules != 0:  # a jack-back ends with the trick, the round's order stays
            rev ^= S[S_JACK]
            S[S_JACK] = 0
            S[S_RUN] = 0
    else:
        turn = next_to_ask(n, last, owner, active & ~oot)
    return turn, t, tc, owner, rev, answered, oot, tricks


@njit(**HOT)
def run_step(st, fl, trick_rules, pos, low, c, cards, H, R, played, places, S):
    """The state after player ``pos`` lays the sequence ``(low, c)`` (:mod:`simulator.kernel.runs`)
    with the cards ``cards`` (a card mask): it tops the trick, turns the order when it is
    long enough (``sequence_revolution``), ends the trick on an 8 (``eight_ends_trick``,
    unless ``eights_in_sequences`` is plain); going out on it with a 2 or a joker is going
    out on 2s (``no_finish_on_two``). The reference engine's ``play_run``."""
    (turn, t, tc, owner, rev, answered, oot, active, best_free, worst_free, over, tricks,
     plays, passes, skips) = st  # fmt: skip
    n, rules = fl
    at = np.uint64(pos)
    length, suit = run_length(c), run_suit(c)
    jokers = popc(cards & JOKERS)
    for r in range(low, low + length):
        if cards >> np.uint64(4 * r + suit) & U1 != U0:
            H[at] = remove_cards(H[at], r, 1)
            played[r] += 1
    if jokers > 0:
        H[at] = remove_cards(H[at], JOKER, jokers)
        played[JOKER] += jokers
    S[S_RUN] = 0  # a sequence breaks a run of one rank
    t, tc, owner, answered = low, RUNS_AT + 4 * length, pos, 0
    plays += 1
    if run_turns(length, R):
        rev ^= 1  # in force from the next play on
    end_now = run_ends_trick(low, length, trick_rules)
    if H[at] == U0:
        on = TWO if low + length - 1 == TWO or jokers > 0 else low
        active, best_free, worst_free, last_one = out_of_cards(
            pos, on, rules, trick_rules, active, best_free, worst_free, H, S, played, places
        )
        if last_one:
            return (turn, t, tc, owner, rev, answered, oot, active, best_free, worst_free, 1,
                    tricks, plays, passes, skips)  # fmt: skip
        end_now = end_now or trick_rules & OUT_ENDS != 0
    turn, t, tc, owner, rev, answered, oot, tricks = next_turn(
        n, trick_rules, pos, end_now, t, tc, owner, rev, answered, oot, active, tricks, S
    )
    return (turn, t, tc, owner, rev, answered, oot, active, best_free, worst_free, over, tricks,
            plays, passes, skips)  # fmt: skip


@njit(**INLINE)
def skipped_on_top(S):
    """The positions the top on the table skipped, a bit each (they did not pass: they were
    not asked), or 0: what the round state records, so a strategy reading the passes need
    not guess. (``S_SKIP_BY`` is 0 when nobody was skipped, in an ``S`` of zeros too.)"""
    if S[S_TOP_COUNT] != 0 and S[S_SKIP_BY] != 0 and S[S_SKIP_PLAY] == S[S_PLAYS]:
        return S[S_SKIPPED]
    return 0


@njit(**INLINE)
def load_state(S):
    """The ``S`` array as a State tuple."""
    return (S[S_TURN], S[S_TOP_RANK], S[S_TOP_COUNT], S[S_OWNER], S[S_REV], S[S_ANSWERED],
            S[S_OOT], S[S_ACTIVE], S[S_BEST_FREE], S[S_WORST_FREE], S[S_OVER], S[S_TRICKS],
            S[S_PLAYS], S[S_PASSES], S[S_SKIPS])  # fmt: skip


@njit(**INLINE)
def store_state(S, st):
    """Write a State tuple into the ``S`` array."""
    (S[S_TURN], S[S_TOP_RANK], S[S_TOP_COUNT], S[S_OWNER], S[S_REV], S[S_ANSWERED], S[S_OOT],
     S[S_ACTIVE], S[S_BEST_FREE], S[S_WORST_FREE], S[S_OVER], S[S_TRICKS], S[S_PLAYS],
     S[S_PASSES], S[S_SKIPS]) = st  # fmt: skip


@njit(**HOT)
def step_trick_rules(st, fl, trick_rules, pos, r, c, H, played, places, S):
    """:func:`step` compiled on its own, for rounds under the second catalogue's rules.

    The match loop calls it, rather than inlining :func:`step` a second time, when any of
    those rules is on: the common rules inline :func:`step` with ``trick_rules`` the constant 0,
    so their tests fold away, and the loop is compiled once.
    """
    return step(st, fl, trick_rules, pos, r, c, H, played, places, S)
