"""Strategy dispatch inside the kernel, by integer id (:mod:`strategies.specs`).

Passing jitted functions as arguments would disable the on-disk cache (and compile the
caller again for each function), so built-in strategies are chosen by an integer id.
Every strategy but the search player is dispatched by
:func:`strategies.policies.decide_basic`, which the search player's rollouts call in turn;
this module adds the search player on top.
"""

from __future__ import annotations

from numba import njit

from simulator.kernel.config import HOT, INLINE
from strategies.heuristics import give_singles
from strategies.kernels import lowest_give, random_give
from strategies.montecarlo import montecarlo_move
from strategies.policies import decide_basic
from strategies.rules_aware import rules_aware_give
from strategies.specs import LOWEST, MONTECARLO, RANDOM, RULES_AWARE


@njit(**INLINE)
def decide(sid, pos, S, H, R, played, roles, rs, params):
    """The move of strategy ``sid`` for the player at ``pos``: ``(rank, count)``, count 0 = pass."""
    if sid == MONTECARLO:
        return montecarlo_move(pos, S, H, R, played, roles, rs, params)
    return decide_basic(sid, pos, S, H, R, played, roles, rs, params)


@njit(**HOT)
def give_back(sid, h, k, rs, params, out):
    """Strategy ``sid``'s give-back: writes k ranks into ``out``, returns the hand without them."""
    if sid == RANDOM:
        return random_give(h, k, rs, out)
    if sid == LOWEST:
        return lowest_give(h, k, out)
    return give_singles(h, k, out)


@njit(**HOT)
def give_back_opening(sid, h, k, rs, params, out, giver):
    """:func:`give_back` from a hand that holds the 3 of clubs which opens the round
    (clubs_three_opens = "every_round"); ``giver`` is the giver's row of ``params``.

    Only ``rules-aware`` gives back differently then. A separate entry point, so that
    the common give-back keeps its signature and its speed.
    """
    if sid == RULES_AWARE:
        return rules_aware_give(h, k, out, params, giver)
    return give_back(sid, h, k, rs, params, out)


@njit(**HOT)
def decide_once(sid, pos, S, H, R, played, roles, rs, params):
    """``decide`` as a compiled entry point, for the reference engine's kernel adapter."""
    return decide(sid, pos, S, H, R, played, roles, rs, params)
