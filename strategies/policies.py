"""Dispatch over the strategies a rollout may use: every one but the search player.

The search player (:mod:`strategies.montecarlo`) plays rounds out with one of these,
so this dispatch must not lead back to it.
"""

from __future__ import annotations

from numba import njit

from simulator.kernel.config import HOT
from strategies.heuristics import control_move, keep_sets_move, planner_move, shed_max_move
from strategies.kernels import lowest_move, random_move
from strategies.rules_aware import rules_aware_move
from strategies.specs import CONTROL, KEEP_SETS, LOWEST, PLANNER, RANDOM, SHED_MAX


@njit(**HOT)
def decide_basic(sid, pos, S, H, R, played, roles, rs, params):
    """The move of strategy ``sid`` (any but the search player): ``(rank, count)``, count 0 = pass."""
    if sid == LOWEST:
        return lowest_move(pos, S, H, R)
    if sid == RANDOM:
        return random_move(pos, S, H, R, rs)
    if sid == KEEP_SETS:
        return keep_sets_move(pos, S, H, R, params)
    if sid == CONTROL:
        return control_move(pos, S, H, R, played, params)
    if sid == SHED_MAX:
        return shed_max_move(pos, S, H, R, params)
    if sid == PLANNER:
        return planner_move(pos, S, H, R, played, params)
    return rules_aware_move(pos, S, H, R, played, params)
