"""Terms of ``linear``'s features that read the table — who is nearest to going out, what
a play does under the trick's rules, how beatable it is, what spending a control costs —
shared by its exact scores (:mod:`strategies.linear`), its rough ones
(:mod:`strategies.linear_rough`) and the heuristics that ask the same questions."""

from __future__ import annotations

import numpy as np
from numba import njit

from simulator.kernel.bits import RANKS, popc
from simulator.kernel.config import INLINE
from simulator.kernel.layout import (
    R_FLAGS,
    R_TRICK_FLAGS,
    S_ACTIVE,
    S_N,
    S_RUN,
    S_TOP_COUNT,
    S_TOP_RANK,
)
from simulator.kernel.legal import strength
from simulator.kernel.trick import ends_trick, skips_next
from simulator.rules.cards import ACE
from strategies.hand import FAR, at_least


@njit(**INLINE)
def fewest_others(S, H, pos):
    """The fewest cards held by another player still in the round (``FAR`` if none)."""
    return fewest_of(H, S[S_ACTIVE] & ~(1 << pos), S[S_N])


@njit(**INLINE)
def fewest_of(H, players, n):
    """The fewest cards held by a player of the bitmask ``players`` (``FAR`` if none), by
    selects over the ``n`` positions: a branch per player was guessed wrong often (8 % of
    the speed of ``linear``'s round loop)."""
    least = FAR
    for q in range(n):
        held = popc(H[np.uint64(q)])
        least = min(least, held) if (players >> q) & 1 else least
    return least


@njit(**INLINE)
def ends_trick_now(r, c, S, R):
    """Whether ``c`` cards of ``r`` end the trick by a table rule (their player leads
    next), as the kernel's rules say (:func:`simulator.kernel.trick.ends_trick`)."""
    return ends_trick(r, c, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_RUN], R[R_FLAGS], R[R_TRICK_FLAGS])


@njit(**INLINE)
def skips_now(r, c, S, R):
    """Whether ``c`` cards of ``r`` skip the next player, as the kernel's rules say
    (:func:`simulator.kernel.trick.skips_next`)."""
    return skips_next(r, c, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_RUN], R[R_FLAGS], R[R_TRICK_FLAGS])


@njit(**INLINE)
def control_kept(r, rev, after):
    """Playing a control — an ace or stronger in the order in force, what ``control``
    keeps — times the cards the play keeps, / 13: what it costs to spend one early."""
    if strength(r, rev) < ACE:
        return 0.0
    return popc(after) / 13.0


@njit(**INLINE)
def beaters(out, r, c, rev):
    """The ranks stronger than ``r`` in the order in force of which ``c`` cards or more are
    out there (``out``: :func:`~strategies.hand.outside`), / 13: how many ranks could
    still beat the play — 0 for a play nobody can beat, more for a weaker one."""
    level = (out >> np.uint64(16 * (c - 1))) & RANKS
    return popc(level & at_least(strength(r, rev) + 1.0, rev)) / 13.0
