"""One round in the kernel: plays, passes, skips, the end of a trick, places.

The fast twin of :class:`simulator.engine.Round`: one small function per rule, the state
in the ``S`` array (see :mod:`simulator.kernel.layout`), hands as bitmasks. Event order
is the rule book's: the play, going out, the skip, the end of the trick; a play that
leaves one player holding cards ends the round at once.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import U0, ctz, popc, remove_cards
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.dispatch import decide
from simulator.kernel.layout import (
    R_EQUAL,
    R_NOFIN2,
    R_OOT,
    R_QUAD,
    R_REVOL,
    R_TRANSP,
    R_TWO_ENDS,
    S_ACTIVE,
    S_ANSWERED,
    S_BEST_FREE,
    S_LEADER,
    S_N,
    S_OOT,
    S_OVER,
    S_OWNER,
    S_PASSES,
    S_PLAYS,
    S_REV,
    S_SKIPS,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TRACE,
    S_TRICKS,
    S_TURN,
    S_WORST_FREE,
)
from simulator.kernel.legal import THREE, TWO


@njit(**HOT)
def start_round(S, H, n, leader, played, places):
    """A fresh round: nobody has played, the leader is to move, normal rank order."""
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
    played[:] = 0
    places[:] = 0


@njit(**INLINE)
def next_to_ask(S, after):
    """The next player clockwise after ``after`` who would be asked, or -1.

    He holds cards and has not left the trick (out_of_trick); the owner of the top is
    never asked to answer his own combination.
    """
    n = S[S_N]
    owner = S[S_OWNER]
    eligible = S[S_ACTIVE] & ~S[S_OOT]
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
def trick_over(S):
    """Everyone holding cards but the top's owner has passed or been skipped since it was laid."""
    waiting = S[S_ACTIVE] & ~(S[S_ANSWERED] | S[S_OOT])
    owner = S[S_OWNER]
    if owner >= 0:
        waiting &= ~(1 << owner)
    return waiting == 0


@njit(**INLINE)
def end_trick(S):
    """The top's owner leads the next trick, or the next player clockwise holding cards."""
    n = S[S_N]
    leader = S[S_OWNER]
    active = S[S_ACTIVE]
    while not (active >> leader) & 1:
        leader += 1
        if leader == n:
            leader = 0
    S[S_TURN] = leader
    S[S_TOP_RANK] = -1
    S[S_TOP_COUNT] = 0
    S[S_OWNER] = -1
    S[S_ANSWERED] = 0
    S[S_OOT] = 0
    S[S_TRICKS] += 1


@njit(**INLINE)
def continue_trick(S, last):
    """After ``last`` acted: end the trick, or hand the turn to the next player to ask."""
    if trick_over(S):
        end_trick(S)
    else:
        S[S_TURN] = next_to_ask(S, last)


@njit(**INLINE)
def go_out(S, R, places, pos, rank):
    """The player takes the best free place (the worst after 2s/jokers under no_finish_on_two).

    When one player is left holding cards he takes the last place and the round is over.
    """
    if R[R_NOFIN2] and rank >= TWO:  # a 2 or a joker
        place = S[S_WORST_FREE]
        S[S_WORST_FREE] -= 1
    else:
        place = S[S_BEST_FREE]
        S[S_BEST_FREE] += 1
    places[pos] = place
    active = S[S_ACTIVE] & ~(1 << pos)
    S[S_ACTIVE] = active
    if popc(np.uint64(active)) == 1:
        places[ctz(np.uint64(active))] = S[S_BEST_FREE]
        S[S_OVER] = 1


@njit(**INLINE)
def apply_pass(S, R, pos):
    """A pass: it counts until the next combination (out_of_trick: until the next trick)."""
    S[S_PASSES] += 1
    S[S_ANSWERED] |= 1 << pos
    if R[R_OOT]:
        S[S_OOT] |= 1 << pos
    continue_trick(S, pos)


@njit(**INLINE)
def apply_play(S, H, R, played, places, pos, r, c):
    """Play ``c`` cards of rank ``r`` (legal by assumption) and everything it causes."""
    tc = S[S_TOP_COUNT]
    t = S[S_TOP_RANK]
    taken = r
    is_equal = False
    if tc != 0 and c == tc:
        if r == THREE and R[R_TRANSP]:
            taken = t  # transparent threes take the rank they cover
        is_equal = R[R_EQUAL] != 0 and r == t
    H[pos] = remove_cards(H[pos], r, c)
    played[r] += c
    S[S_TOP_RANK] = taken
    S[S_TOP_COUNT] = c
    S[S_OWNER] = pos
    S[S_ANSWERED] = 0
    S[S_PLAYS] += 1
    if c == 4 and R[R_REVOL]:
        S[S_REV] ^= 1  # in force from the next play on
    if H[pos] == U0:
        go_out(S, R, places, pos, r)
        if S[S_OVER]:
            return
    if (r == TWO and R[R_TWO_ENDS]) or (c == 4 and R[R_QUAD]):
        end_trick(S)
        return
    if is_equal:
        skipped = next_to_ask(S, pos)
        if skipped >= 0:
            S[S_SKIPS] += 1
            S[S_ANSWERED] |= 1 << skipped
            continue_trick(S, skipped)
            return
    continue_trick(S, pos)


@njit(**HOT)
def play_round(S, H, R, played, places, roles, sid_pos, params_pos, rs, trace):
    """Play the round to its end, each position's strategy choosing its moves.

    When ``trace`` is not empty every move is appended to it as
    ``pos << 8 | count << 4 | rank`` (count 0: pass), for the engines' comparison tests.
    """
    while S[S_OVER] == 0:
        pos = S[S_TURN]
        r, c = decide(sid_pos[pos], pos, S, H, R, played, roles, rs, params_pos)
        if trace.size > 0 and S[S_TRACE] < trace.size:
            trace[S[S_TRACE]] = (pos << 8) | (c << 4) | r
            S[S_TRACE] += 1
        if c == 0:
            apply_pass(S, R, pos)
        else:
            apply_play(S, H, R, played, places, pos, r, c)
