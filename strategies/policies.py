"""Dispatch over the strategies a rollout may use: every one but the search player.

The search player (:mod:`strategies.montecarlo`) plays rounds out with one of these,
so this dispatch must not lead back to it.

Why two functions. :func:`choose` is inlined where it is called (the match loop of the
heuristics' tier, :func:`decide_basic`): a call to a compiled function passes every
array argument as seven words, so the dispatch by id, the reads of the position and
the legal plays (shared by every heuristic) cost more as a call than as code in the
loop, where the state the loop has just written to ``S`` is still in registers. Each
heuristic then gets only scalars (and ``played`` for those that count the cards out
there), so the call to the ones compiled apart is cheap.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import popc
from simulator.kernel.config import HOT, INLINE
from simulator.kernel.knowledge import CARDS
from simulator.kernel.layout import (
    R_JOKERS,
    R_NOFIN2,
    R_TRICK_FLAGS,
    S_LOCK,
    S_OWNER,
    S_REV,
    S_TOP_COUNT,
    S_TOP_RANK,
)
from simulator.kernel.legal import legal_plays
from simulator.kernel.runs import is_run
from strategies.advice import advised_move
from strategies.hand import outside, unbeatable_plays
from strategies.heuristics import control_choice, keep_sets_choice, planner_choice, shed_max_choice
from strategies.kernels import lowest_move, random_move
from strategies.linear import linear_move
from strategies.rules_aware import rules_aware_move
from strategies.sequences import lays_runs, sequence_sense
from strategies.specs import (
    ADVISED,
    CONTROL,
    CONTROL_SPEND_AT,
    CONTROL_STRENGTH,
    CONTROL_THREAT_AT,
    KEEP_SETS,
    KEEP_SETS_BREAK_AT,
    LINEAR,
    LOWEST,
    PLANNER,
    PLANNER_LEAD_BONUS,
    PLANNER_PASS_COST,
    PLANNER_PER_CARD,
    PLANNER_PER_GROUP,
    RANDOM,
    RULES_AWARE,
    SHED_MAX,
    SHED_MAX_END_GROUPS,
)

# What the dispatch raises for a kernel id with no branch of its own: a strategy declared
# in strategies.specs but not dispatched would otherwise play another one's moves, on both
# engines alike, and every test comparing them would pass (tests/strategies/test_dispatch.py).
UNDISPATCHED = "a built-in strategy id that the kernel's dispatch has no branch for"
# the heuristics that lay sequences by the shared sense of strategies.sequences, a bit each
SENSE = (1 << KEEP_SETS) | (1 << SHED_MAX) | (1 << CONTROL) | (1 << PLANNER) | (1 << RULES_AWARE)
SENSE |= 1 << ADVISED  # rules-aware with tips: its sequences are rules-aware's


@njit(**INLINE)
def choose(sid, pos, S, H, R, played, roles, rs, params):
    """The move of heuristic ``sid`` (neither ``lowest``, ``random`` nor the search
    player, which the match loop moves for itself): ``(rank, count)``, count 0 = pass.
    Any other id raises :data:`UNDISPATCHED` (a constant exception: no cost per move)."""
    at = np.uint64(pos)  # an unsigned index: numba adds no code for a negative one
    h = H[at]
    tc = S[S_TOP_COUNT]
    rev = S[S_REV]
    if SENSE >> sid & 1 != 0 and lays_runs(R, H):  # a sequence first, none on one: a pass
        low, c = sequence_sense(H[CARDS + at], h, S[S_TOP_RANK], tc, rev, S[S_LOCK],
                                R[R_TRICK_FLAGS], sid in (RULES_AWARE, ADVISED))  # fmt: skip
        if c != 0 or is_run(tc):
            return low, c
    m = legal_plays(h, S, R)
    if sid == KEEP_SETS:
        return keep_sets_choice(h, m, tc, rev, params[at, KEEP_SETS_BREAK_AT])
    if sid == SHED_MAX:
        return shed_max_choice(h, m, tc, rev, params[at, SHED_MAX_END_GROUPS])
    if sid == CONTROL:
        owner_cards = popc(H[S[S_OWNER]]) if tc != 0 else 0
        return control_choice(h, m, tc, rev, played, R[R_JOKERS], params[at, CONTROL_STRENGTH],
                              params[at, CONTROL_SPEND_AT], params[at, CONTROL_THREAT_AT],
                              owner_cards)  # fmt: skip
    if sid == PLANNER:
        u = unbeatable_plays(outside(h, played, R[R_JOKERS]), rev)
        return planner_choice(h, m, tc, u, R[R_NOFIN2], params[at, PLANNER_PER_GROUP],
                              params[at, PLANNER_PER_CARD], params[at, PLANNER_LEAD_BONUS],
                              params[at, PLANNER_PASS_COST])  # fmt: skip
    if sid == LINEAR:
        return linear_move(pos, S, H, R, played, rs, params)
    if sid == RULES_AWARE:
        return rules_aware_move(pos, S, H, R, played, params)
    if sid == ADVISED:
        return advised_move(pos, S, H, R, played, roles, params)
    raise ValueError(UNDISPATCHED)


@njit(**HOT)
def decide_basic(sid, pos, S, H, R, played, roles, rs, params):
    """The move of strategy ``sid`` (any but the search player), compiled on its own for
    the search player's rollouts and prior: ``(rank, count)``, count 0 = pass."""
    if sid == LOWEST:
        return lowest_move(pos, S, H, R)
    if sid == RANDOM:
        return random_move(pos, S, H, R, rs)
    return choose(sid, pos, S, H, R, played, roles, rs, params)
