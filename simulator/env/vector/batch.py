"""Every table of a vector environment in one compiled call, tables spread over threads.

Each entry point runs its tables in a ``prange`` loop: a table is a row of each array,
written by its own iteration only, so the games are the same for any number of threads.
"""

from __future__ import annotations

from numba import njit, prange

from simulator.env.vector.learner import builtin_action, learner_acts
from simulator.env.vector.match import start_match
from simulator.env.vector.observe import observe
from simulator.env.vector.state import C_TABLES, M_END, M_MATCH, M_PHASE, OVER, T_M
from simulator.env.vector.tables import advance
from simulator.kernel.config import JIT

PARALLEL = {**JIT, "parallel": True}


@njit(**PARALLEL)
def reset_tables(first, T, R, C, rows, reward, ended, rules_vec, obs, mask):
    """Table ``t`` starts match ``first + t`` and plays on to the learner's first decision."""
    for t in prange(reward.size):
        start_match(t, first + t, T)
        advance(t, T, R, C, rows, reward)
        reward[t] = 0.0
        ended[t] = T[T_M][t, M_END]
        observe(t, T, R, C, rules_vec, obs[t], mask[t])


@njit(**PARALLEL)
def step_tables(actions, T, R, C, rows, reward, ended, rules_vec, obs, mask):
    """Each table's learner takes his action and the table plays on to his next decision;
    a table whose match was over starts its next one instead (the action is not read)."""
    M = T[T_M]
    for t in prange(reward.size):
        reward[t] = 0.0
        if M[t, M_PHASE] == OVER:
            start_match(t, M[t, M_MATCH] + C[C_TABLES], T)
        else:
            learner_acts(t, T, R, actions[t])
        advance(t, T, R, C, rows, reward)
        ended[t] = M[t, M_END]
        observe(t, T, R, C, rules_vec, obs[t], mask[t])


@njit(**PARALLEL)
def builtin_tables(sid, params, T, R, out):
    """``out[t]``: the action built-in ``sid`` takes in table ``t``'s decision (a table
    whose match is over: 0, not read)."""
    M = T[T_M]
    for t in prange(out.size):
        out[t] = 0 if M[t, M_PHASE] == OVER else builtin_action(t, T, R, sid, params)
