"""Strategy dispatch inside the kernel, by integer id (:mod:`strategies.specs`).

Passing jitted functions as arguments would disable the on-disk cache (and compile the
caller again for each function), so built-in strategies are chosen by an integer id.
The heuristics are dispatched by :func:`strategies.policies.choose`, inlined into the
match loop (which moves for ``lowest`` and ``random`` itself); every strategy but the
search player by :func:`strategies.policies.decide_basic`, compiled apart, which the
search player's rollouts call in turn. This module adds the search player on top.

A job's match loop is compiled for its strategies only (:mod:`simulator.matchloop.specialise`):
the built-ins come in :data:`TIERS` of growing cost, each with the dispatch functions
that reach its strategies and no others, so a run of ``lowest`` and ``random`` never
compiles the heuristics or the search player.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numba import config, njit

from simulator.kernel.config import HOT, INLINE, cached_on_disk
from strategies.champion import champion_move, clairvoyant_move
from strategies.heuristics import give_singles
from strategies.kernels import lowest_give, lowest_move, random_give, random_move
from strategies.montecarlo import montecarlo_move
from strategies.policies import UNDISPATCHED, choose, decide_basic
from strategies.rules_aware import rules_aware_give
from strategies.specs import (
    ADVISED,
    CHAMPION,
    CLAIRVOYANT,
    HEURISTIC_IDS,
    LOWEST,
    MONTECARLO,
    PLUGIN_BASE,
    RANDOM,
    RULES_AWARE,
    SEARCH_IDS,
)


@njit(**INLINE)
def decide(sid, pos, S, H, R, played, roles, rs, params):
    """The move of strategy ``sid`` (a heuristic or the search player: the match loop
    moves for ``lowest`` and ``random`` itself): ``(rank, count)``, count 0 = pass."""
    if sid == MONTECARLO:
        return montecarlo_move(pos, S, H, R, played, roles, rs, params)
    if sid == CHAMPION:
        return champion_move(pos, S, H, R, played, roles, rs, params)
    if sid == CLAIRVOYANT:
        return clairvoyant_move(pos, S, H, R, played, roles, rs, params)
    return choose(sid, pos, S, H, R, played, roles, rs, params)


@njit(**INLINE)
def give_back(sid, h, k, rs, params, out):
    """Strategy ``sid``'s give-back: writes k ranks into ``out``, returns the hand without them.

    Inlined into the exchange: a call passes each array as seven words, which made the
    exchange of a ``lowest``/``random`` table several times slower (docs/performance.md)."""
    if sid == RANDOM:
        return random_give(h, k, rs, out)
    if sid == LOWEST:
        return lowest_give(h, k, out)
    return give_singles(h, k, out)


@njit(**HOT)
def give_back_opening(sid, h, k, rs, params, out, giver):
    """:func:`give_back` from a hand that holds the 3 of clubs which opens the round
    (clubs_three_opens = "every_round"); ``giver`` is the giver's row of ``params``.

    Only ``rules-aware`` (and ``advised``, which is it with tips) gives back differently
    then. A separate entry point, so that the common give-back keeps its signature and
    its speed.
    """
    if sid in (RULES_AWARE, ADVISED):  # advised gives back as rules-aware
        return rules_aware_give(h, k, out, params, giver)
    return give_back(sid, h, k, rs, params, out)


@njit(**HOT)
def decide_once(sid, pos, S, H, R, played, roles, rs, params):
    """The move of any built-in strategy ``sid``, as a compiled entry point for one
    decision at a time (the reference engine's kernel adapter, scripted rounds): the
    search tier's, see :func:`decider`. Not :func:`decide`, which leaves ``lowest`` and
    ``random`` to the match loop."""
    if sid == MONTECARLO:
        return montecarlo_move(pos, S, H, R, played, roles, rs, params)
    if sid == CHAMPION:
        return champion_move(pos, S, H, R, played, roles, rs, params)
    if sid == CLAIRVOYANT:
        return clairvoyant_move(pos, S, H, R, played, roles, rs, params)
    return decide_basic(sid, pos, S, H, R, played, roles, rs, params)


@njit(**HOT)
def decide_basic_once(sid, pos, S, H, R, played, roles, rs, params):
    """:func:`decide_once` of the heuristics' tier: compiles no search player."""
    return decide_basic(sid, pos, S, H, R, played, roles, rs, params)


@njit(**HOT)
def decide_reference_once(sid, pos, S, H, R, played, roles, rs, params):
    """:func:`decide_once` of the first tier (``lowest``, ``random``): compiles no heuristic."""
    if sid == RANDOM:
        return random_move(pos, S, H, R, rs)
    if sid == LOWEST:
        return lowest_move(pos, S, H, R)
    raise ValueError(UNDISPATCHED)


@njit(**HOT)
def decide_unreachable(sid, pos, S, H, R, played, roles, rs, params):
    """:func:`decide` of the first tier (``lowest``, ``random``): the match loop moves for
    both itself and never calls it, so it compiles to nothing rather than to a second
    copy of them, which lengthened the first run's compile (docs/performance.md)."""
    return np.int64(0), np.int64(0)


@njit(**HOT)
def give_back_plain_opening(sid, h, k, rs, params, out, giver):
    """:func:`give_back_opening` for tiers without ``rules-aware``: the common give-back."""
    return give_back(sid, h, k, rs, params, out)


@dataclass(frozen=True)
class Tier:
    """Built-in strategies the match loop is compiled for, and the dispatch functions
    that reach them and no others (out of its repr, which keys the compile cache: a
    tier is named by its name, its functions by the sources)."""

    name: str
    sids: frozenset[int]
    decide: Any = field(repr=False)
    give_back: Any = field(repr=False)
    give_back_opening: Any = field(repr=False)
    decide_once: Any = field(repr=False)  # one decision as a compiled entry point (see decider)
    # Compiles on an empty cache, wall s measured on the idle 2-core machine (4 December,
    # docs/performance.md): a first run of the tier's match loop, and of decide_once.
    seconds: int
    decide_seconds: int


# Each tier lists its strategies' ids and holds the cheaper tiers' too: a heuristic joins
# HEURISTIC_IDS by its declaration (strategies.specs), and no id is renumbered.
REFERENCE_IDS = frozenset({LOWEST, RANDOM})
TIERS = (
    Tier("reference", REFERENCE_IDS, decide_unreachable, give_back, give_back_plain_opening,
         decide_reference_once, 19, 5),
    Tier("heuristics", REFERENCE_IDS | HEURISTIC_IDS, choose, give_back, give_back_opening,
         decide_basic_once, 65, 38),
    Tier("search", REFERENCE_IDS | HEURISTIC_IDS | SEARCH_IDS, decide, give_back,
         give_back_opening, decide_once, 125, 105),
)  # fmt: skip


def tier_of(sids: Iterable[int]) -> Tier:
    """The cheapest tier that holds every built-in strategy of ``sids`` (user ids aside)."""
    wanted = {int(s) for s in sids if s < PLUGIN_BASE}
    for tier in TIERS:
        if wanted <= tier.sids:
            return tier
    raise ValueError(f"no tier holds the strategy ids {sorted(wanted)}")


def decider(sids: Iterable[int], names: Iterable[str] = ()) -> Any:
    """The one-decision entry point of the cheapest tier holding ``sids``: the first
    ``replay`` or ``play`` of ``lowest`` and ``random`` compiles no heuristic, and of a
    heuristic no search player (a first decision's compile is the longer for each).
    When it is not compiled yet, one line on standard error says so, naming ``names``."""
    tier = tier_of(sids)
    entry = tier.decide_once
    if tier.name in _CHECKED:  # replay and play ask before every decision: look once
        return entry
    _CHECKED.add(tier.name)
    if not config.DISABLE_JIT and not cached_on_disk(entry):
        named = ", ".join(dict.fromkeys(names)) or f"the {tier.name} strategies"
        print(f"compiling {named} for the kernel — once, about {tier.decide_seconds} s",
              file=sys.stderr, flush=True)  # fmt: skip
    return entry


_CHECKED: set[str] = set()  # the tiers whose cache this process has looked at (and announced)
