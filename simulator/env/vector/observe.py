"""The learner's observation and action mask, written by the kernel from a table's state.

The vector and the mask are :mod:`simulator.env.encoding`'s (its ``LAYOUT`` and
``ACTIONS``, whose offsets are read here, not copied): the PettingZoo environment builds
them from the reference engine's ``Observation``, this module from the kernel's arrays
of the same position (``tests/env/test_vector.py`` holds the two to the same numbers).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.env.encoding import (
    GIVE_BASE,
    MAX_RUN,
    OFFSETS,
    PASS_ACTION,
    RUN_BASE,
    SUIT_SETS,
    SUITS_BASE,
)
from simulator.env.vector.state import (
    C_LEARNER,
    GIVE,
    HAND_OVER,
    M_CLUB,
    M_GIVEN,
    M_PHASE,
    M_PLAY_C,
    M_PLAY_R,
    M_RUN,
    M_TO_GIVE,
    MOVE,
    SHAPE_AT,
    T_GIVE,
    T_H,
    T_M,
    T_PLAYED,
    T_POS_OF,
    T_ROLES,
    T_S,
)
from simulator.kernel.bits import U0, U1, count_of, ctz, popc, remove_cards
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import CARDS
from simulator.kernel.layout import (
    CLUBS_EVERY,
    R_CLUBS,
    R_N,
    R_TRICK_FLAGS,
    RUNS,
    S_ANSWERED,
    S_JACK,
    S_LOCK,
    S_OOT,
    S_OWNER,
    S_REV,
    S_RUN,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    S_TURN,
    SUITED,
)
from simulator.kernel.legal import legal_plays, play_count, play_rank
from simulator.kernel.runs import MIN_RUN, is_run, legal_runs, run_length
from simulator.kernel.suits import pick_fits, suits_of_rank
from simulator.rules.cards import JOKER, NUM_RANKS, SUITS
from simulator.rules.roles import ROLE_NAMES

ROLES = len(ROLE_NAMES)
NSUITS = len(SUITS)
(O_HAND, O_PLAYED, O_CARDS_LEFT, O_PASSED, O_TOP_RANK, O_TOP_COUNT, O_TOP_OWNER, O_REVERSED,
 O_TRICK_REVERSAL, O_RUN, O_ROLES, O_GIVING, O_TO_GIVE, O_CLUB_OPENS, O_CARDS, O_TOP_SUITS,
 O_LOCK, O_TOP_SEQUENCE, O_RULES) = OFFSETS.values()  # fmt: skip


@njit(**INLINE)
def put_hand(vec, h):
    """The ``hand`` block: the rank counts of hand ``h``."""
    for r in range(NUM_RANKS):
        vec[O_HAND + r] = count_of(h, r)


@njit(**INLINE)
def put_suits(vec, at, suits):
    """A suit set (a bit per suit) as four numbers from ``at``."""
    for s in range(NSUITS):
        vec[at + s] = (suits >> s) & 1


@njit(**INLINE)
def play_vector(t, T, R, C, vec):
    """``play_observation`` of :mod:`simulator.env.encoding` from the learner's position."""
    H, S, M = T[T_H], T[T_S], T[T_M]
    s = S[t]
    n = R[R_N]
    pos = T[T_POS_OF][t, C[C_LEARNER]]
    put_hand(vec, H[t, pos])
    for r in range(NUM_RANKS):
        vec[O_PLAYED + r] = T[T_PLAYED][t, r]
    passed = s[S_ANSWERED] | s[S_OOT]
    for off in range(n):
        q = pos + off if pos + off < n else pos + off - n
        vec[O_CARDS_LEFT + off] = popc(H[t, q])
        vec[O_PASSED + off] = (passed >> q) & 1
        role = T[T_ROLES][t, q]
        if role >= 0:
            vec[O_ROLES + ROLES * off + role] = 1
    tc = s[S_TOP_COUNT]
    if tc != 0:
        vec[O_TOP_RANK + s[S_TOP_RANK]] = 1
        vec[O_TOP_COUNT] = run_length(tc) if is_run(tc) else tc
        vec[O_TOP_SEQUENCE] = run_length(tc) if is_run(tc) else 0
        vec[O_TOP_OWNER + (s[S_OWNER] - pos) % n] = 1
    trick_rules = R[R_TRICK_FLAGS]
    vec[O_REVERSED] = s[S_REV]
    vec[O_TRICK_REVERSAL] = s[S_JACK]
    vec[O_RUN] = s[S_RUN] if trick_rules != 0 else M[t, M_RUN]
    if trick_rules & SUITED != 0:
        k = H[t, CARDS + pos]
        while k != U0:
            vec[O_CARDS + ctz(k)] = 1
            k &= k - U1
        put_suits(vec, O_TOP_SUITS, s[S_TOP_SUITS])
        put_suits(vec, O_LOCK, s[S_LOCK])


@njit(**INLINE)
def play_actions(t, T, R, mask):
    """``play_mask`` of :mod:`simulator.env.encoding`: 1 at each legal move's action (under
    the rules that read suits, each set of suits a play may lay, and each sequence)."""
    H, S = T[T_H], T[T_S]
    s = S[t]
    pos = s[S_TURN]
    tc = s[S_TOP_COUNT]
    if tc != 0:
        mask[PASS_ACTION] = 1
    trick_rules = R[R_TRICK_FLAGS]
    k = H[t, CARDS + pos]
    if trick_rules & RUNS != 0 and (tc == 0 or is_run(tc)):
        for length in range(MIN_RUN, MAX_RUN + 1):
            if is_run(tc) and length != run_length(tc):
                continue
            runs = legal_runs(k, length, s[S_TOP_RANK], tc, s[S_REV], s[S_LOCK], trick_rules)
            while runs != U0:
                bit = ctz(runs)
                runs &= runs - U1
                mask[RUN_BASE + 4 * (SHAPE_AT[length] + bit // 4) + bit % 4] = 1
    m = legal_plays(H[t, pos], s, R)
    while m != U0:
        b = ctz(m)
        m &= m - U1
        r, c = play_rank(b), play_count(b)
        if trick_rules & SUITED == 0 or r == JOKER:
            mask[4 * r + c - 1] = 1
            continue
        held = suits_of_rank(k, r)
        x = held
        while x != U0:  # every set of suits of r held, as many as the play lays
            cards = x << np.uint64(4 * r)
            if popc(x) == c and pick_fits(cards, k, r, c, s[S_TOP_RANK], tc, s[S_LOCK],
                                          trick_rules):  # fmt: skip
                mask[SUITS_BASE + SUIT_SETS * r + np.int64(x) - 1] = 1
            x = (x - U1) & held


@njit(**HOT)
def observe(t, T, R, C, rules_vec, vec, mask):
    """Write table ``t``'s observation ``vec`` and mask ``mask`` (every number: the rows
    are fresh memory): a give-back's while the learner gives cards, else his view of the
    round, with the mask of his moves when it is his turn (all 0 otherwise)."""
    H, M = T[T_H], T[T_M]
    vec[:] = 0
    mask[:] = 0
    phase = M[t, M_PHASE]
    if phase in (GIVE, HAND_OVER):
        pos = T[T_POS_OF][t, C[C_LEARNER]]
        h = H[t, pos]
        if phase == HAND_OVER:
            h = remove_cards(h, M[t, M_PLAY_R], M[t, M_PLAY_C])
            for j in range(M[t, M_GIVEN]):
                h = remove_cards(h, T[T_GIVE][t, j], 1)
        put_hand(vec, h)
        vec[O_GIVING] = 1
        vec[O_TO_GIVE] = M[t, M_TO_GIVE] - M[t, M_GIVEN]
        opens = phase == GIVE and R[R_CLUBS] == CLUBS_EVERY and M[t, M_CLUB] == pos
        vec[O_CLUB_OPENS] = 1 if opens else 0
        for r in range(NUM_RANKS):
            mask[GIVE_BASE + r] = 1 if count_of(h, r) > 0 else 0
    else:
        play_vector(t, T, R, C, vec)
        if phase == MOVE:
            play_actions(t, T, R, mask)
    for j in range(rules_vec.size):
        vec[O_RULES + j] = rules_vec[j]
