"""The match loop compiled around users' numba strategies (``--strategies FILE.py:NAME``).

Built-in strategies are dispatched by integer id inside a cached kernel; a user's
function cannot be (numba would have to compile it into the cached code). So for a run
with user functions this module generates a dispatch that calls them by id (from
:data:`~strategies.specs.PLUGIN_BASE` on) and falls back to the built-in dispatch, then
recompiles the match loop's functions with that dispatch bound in their globals (once
per process and set of functions).

Every user move and give-back is checked in the kernel: a fault raises a flag in a slot
after the rules array (exceptions cannot leave numba's parallel loops), the block goes on
with a legal move, and the run then replays the matches at fault on the reference
engine through the one guard (:class:`strategies.guard.Guarded`), which finds the same
situation and reports it in words.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from simulator.kernel.bits import U1, count_of, remove_cards
from simulator.kernel.config import JIT
from simulator.kernel.layout import R_SIZE, S_TOP_COUNT
from simulator.kernel.legal import legal_mask
from simulator.matchloop import matches, round
from simulator.matchloop.seating import group_size, lineup_slot, reference_options
from simulator.reference.match import play_match
from simulator.rules.options import Rules
from strategies import dispatch
from strategies.guard import Guarded
from strategies.heuristics import give_singles
from strategies.kernels import lowest_move
from strategies.registry import make
from strategies.specs import PLUGIN_BASE, StrategyError
from strategies.user import is_plugin, loaded_functions

R_FLAG = R_SIZE  # after the rules: the id of a strategy at fault, then its move
BAD_SHIFT = np.uint64(63)  # a hand bit no card uses: marks a bad give-back until the next move
_CHAINS: dict[int, Any] = {}  # compiled run_blocks by number of user functions
_BUILT = {**JIT, "cache": False, "_nrt": True}  # compiled per run: nothing to cache

Runner = Callable[..., None]


def _rebind(dispatcher: Any, **names: Any) -> Any:
    """A fresh, uncached compilation of a kernel function with some globals replaced."""
    f = dispatcher.py_func
    scope = dict(f.__globals__)
    scope.update(names)
    g = types.FunctionType(f.__code__, scope, f.__name__, f.__defaults__, f.__closure__)
    options = {**dispatcher.targetoptions, "cache": False}
    options.pop("nopython", None)  # implied by njit
    return njit(**options)(g)


def _dispatch_source(count: int) -> str:
    """``decide``/``give_back`` with the user functions first, then the built-ins."""
    calls = "\n".join(
        f"    {'if' if i == 0 else 'elif'} sid == {PLUGIN_BASE + i}:\n"
        f"        r, c = f{i}(pos, S, H, R, played, roles, rs, params)"
        for i in range(count)
    )
    gives = "\n".join(
        f"    {'if' if i == 0 else 'elif'} sid == {PLUGIN_BASE + i}:\n        g{i}(h, k, rs, params, out)"
        for i in range(count)
    )
    return f"""
def decide_user(sid, pos, S, H, R, played, roles, rs, params):
    if sid < {PLUGIN_BASE}:
        return decide(sid, pos, S, H, R, played, roles, rs, params)
{calls}
    else:
        r, c = 0, 0
    r = np.int64(r)
    c = np.int64(c)
    if (H[pos] >> BAD_SHIFT) & U1 or not is_legal(H[pos], r, c, S, R):
        R[R_FLAG] = sid
        R[R_FLAG + 1] = c * 16 + r
        H[pos] &= ~(U1 << BAD_SHIFT)
        return lowest_move(pos, S, H, R)  # only to finish the block: the run is refused
    return r, c


def give_user(sid, h, k, rs, params, out):
    if sid < {PLUGIN_BASE}:
        return give_back(sid, h, k, rs, params, out)
{gives}
    left = h
    for j in range(k):
        rank = out[j]
        if rank < 0 or rank > 13 or count_of(left, rank) == 0:
            return give_singles(h, k, out) | (U1 << BAD_SHIFT)  # flagged at its next move
        left = remove_cards(left, rank, 1)
    return left


def give_opening_user(sid, h, k, rs, params, out, giver):
    if sid < {PLUGIN_BASE}:
        return give_back_opening(sid, h, k, rs, params, out, giver)
    return give_user(sid, h, k, rs, params, out)
"""


@njit(**_BUILT)
def _is_legal(h, r, c, S, R):  # type: ignore[no-untyped-def]
    """Whether ``c`` cards of rank ``r`` (count 0: a pass) is a legal move for hand ``h``."""
    if c == 0:
        return S[S_TOP_COUNT] != 0
    if c < 1 or c > 4 or r < 0 or r > 13:
        return False
    return (legal_mask(h, c, S, R) >> np.uint64(r)) & U1 != 0


@njit(cache=False, nogil=True)
def _default_give(h, k, rs, params, out):  # type: ignore[no-untyped-def]
    """The give-back of a user function that defines none: cards that break no group."""
    give_singles(h, k, out)


def _chain() -> Any:
    """``run_blocks`` compiled around every user function loaded so far (once per set)."""
    functions = loaded_functions()
    if len(functions) in _CHAINS:
        return _CHAINS[len(functions)]
    scope: dict[str, Any] = {
        "__name__": __name__, "np": np, "U1": U1, "BAD_SHIFT": BAD_SHIFT, "R_FLAG": R_FLAG,
        "is_legal": _is_legal, "decide": dispatch.decide, "give_back": dispatch.give_back,
        "give_back_opening": dispatch.give_back_opening,
        "lowest_move": lowest_move, "give_singles": give_singles, "count_of": count_of,
        "remove_cards": remove_cards,
    }  # fmt: skip
    for i, (_, func, give) in enumerate(functions):
        scope[f"f{i}"] = func
        scope[f"g{i}"] = give if give is not None else _default_give
    exec(_dispatch_source(len(functions)), scope)
    decide_user = njit(**_BUILT)(scope["decide_user"])
    give_user = njit(**_BUILT)(scope["give_user"])
    scope["give_user"] = give_user
    give_opening_user = njit(**_BUILT)(scope["give_opening_user"])
    play_round = _rebind(round.play_round, decide=decide_user)
    exchange = _rebind(matches.exchange, give_back=give_user, give_back_opening=give_opening_user)
    play_match_k = _rebind(matches.play_match, play_round=play_round, exchange=exchange)
    run_blocks = _rebind(matches.run_blocks, play_match=play_match_k)
    _CHAINS[len(functions)] = run_blocks
    return run_blocks


@dataclass(frozen=True)
class FaultReplay:
    """What it takes to play a run's matches again on the reference engine."""

    rules: Rules
    seat_strategies: tuple[str, ...]
    seed: int
    rounds_per_match: int | None
    max_rounds: int
    duplicate: bool


def kernel_runner(job: FaultReplay) -> Runner:
    """``run_blocks`` for a run with user functions: the match loop compiled around them
    (once per process); a flagged fault is replayed on the reference engine."""
    run_blocks = _chain()

    def run(key, lo, hi, block, cap, R, sids, params, dup, rounds_limit, role_tab, out, done,
            trace):  # type: ignore[no-untyped-def]  # fmt: skip
        flagged = np.concatenate([R, np.zeros(2, np.int64)])
        run_blocks(key, lo, hi, block, cap, flagged, sids, params, dup, rounds_limit, role_tab,
                   out, done, trace)  # fmt: skip
        if flagged[R_FLAG] != 0 or (hi - lo == 1 and block == 1 and done[0] == 0):
            _replay(job, lo, hi)

    return run


def _replay(job: FaultReplay, lo: int, hi: int) -> None:
    """Find on the reference engine the fault the kernel flagged; raise it as a StrategyError."""
    n = job.rules.players
    group = group_size(job.seat_strategies, job.duplicate)
    for m in range(lo, hi):
        names = [job.seat_strategies[lineup_slot(p, m, n, group)] for p in range(n)]
        play_match(
            job.rules,
            [Guarded(s, make(s)) for s in names],
            job.seed,
            m,
            rounds=job.rounds_per_match,
            max_rounds=job.max_rounds,
            **reference_options(m, group, n, job.duplicate),
        )
    users = ", ".join(s for s in dict.fromkeys(job.seat_strategies) if is_plugin(s))
    raise StrategyError(
        f"strategy {users}: an illegal move, a bad give-back or an exception in the kernel "
        f"(matches {lo} to {hi - 1}) that the reference engine does not reproduce: does it "
        "read cards it cannot see?"
    )
