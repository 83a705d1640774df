"""A range of tables of a vector environment in one compiled call.

Each entry point runs tables ``[lo, hi)`` one after the other without the GIL; the
environment spreads the ranges over threads (:mod:`simulator.env.vector.spread`). A
table is a row of each array, written by its own iteration only, so the games are the
same for any number of threads and any ranges.
"""

from __future__ import annotations

from numba import njit

from simulator.env.vector.learner import builtin_action, learner_acts
from simulator.env.vector.match import start_match
from simulator.env.vector.observe import observe
from simulator.env.vector.state import C_TABLES, M_END, M_MATCH, M_PHASE, OVER, T_M
from simulator.env.vector.tables import advance
from simulator.kernel.config import JIT


@njit(**JIT)
def reset_tables(lo, hi, first, T, R, C, rows, reward, ended, rules_vec, obs, mask):
    """Table ``t`` starts match ``first + t`` and plays on to the learner's first decision."""
    for t in range(lo, hi):
        start_match(t, first + t, T)
        advance(t, T, R, C, rows, reward)
        reward[t] = 0.0
        ended[t] = T[T_M][t, M_END]
        observe(t, T, R, C, rules_vec, obs[t], mask[t])


@njit(**JIT)
def step_tables(lo, hi, actions, T, R, C, rows, reward, ended, rules_vec, obs, mask):
    """Each table's learner takes his action and the table plays on to his next decision;
    a table whose match was over starts its next one instead (the action is not read)."""
    M = T[T_M]
    for t in range(lo, hi):
        reward[t] = 0.0
        if M[t, M_PHASE] == OVER:
            start_match(t, M[t, M_MATCH] + C[C_TABLES], T)
        else:
            learner_acts(t, T, R, actions[t])
        advance(t, T, R, C, rows, reward)
        ended[t] = M[t, M_END]
        observe(t, T, R, C, rules_vec, obs[t], mask[t])


@njit(**JIT)
def builtin_tables(lo, hi, sid, params, T, R, out):
    """``out[t]``: the action built-in ``sid`` takes in table ``t``'s decision (a table
    whose match is over: 0, not read)."""
    M = T[T_M]
    for t in range(lo, hi):
        out[t] = 0 if M[t, M_PHASE] == OVER else builtin_action(t, T, R, sid, params)
