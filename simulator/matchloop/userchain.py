"""The match loop compiled around users' numba strategies (``--strategies FILE.py:NAME``).

Built-in strategies are dispatched by integer id; a user's function is called by its id
too (from :data:`~strategies.specs.PLUGIN_BASE` on) through a dispatch whose source this
module writes (:func:`dispatch_source`) and which falls back to the built-in dispatch of
the job's tier. :mod:`simulator.matchloop.specialise` puts it into the job's generated
match loop, cached on disk by the content of the users' files, so the second run of the
same file loads the compiled loop instead of compiling it again.

Every user move (and the cards it chose, under rules with suits) and give-back is
checked in the kernel: a fault raises a flag in a slot after the rules array, the block
goes on with a legal move, and the run then replays the matches at fault on the
reference engine through the one guard
(:class:`strategies.guard.Guarded`), which finds the same situation and reports it in
words. An exception a user's function raises leaves the compiled loop as a Python
exception (the task's thread hands it to the caller) whose innermost frame numba puts at
the user's ``raise``; its matches are replayed the same way, to name the situation too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np
from numba import njit

from simulator.kernel.bits import FAULT, U1, count_of, remove_cards
from simulator.kernel.config import JIT
from simulator.kernel.layout import R_SIZE, S_TOP_COUNT
from simulator.kernel.legal import legal_mask
from simulator.kernel.suits import bad_pick
from simulator.matchloop.replay import replay_match
from simulator.rules.options import Rules
from strategies.guard import raise_site, raised
from strategies.heuristics import give_singles
from strategies.kernels import lowest_move
from strategies.specs import PLUGIN_BASE, StrategyError
from strategies.user import check_compiles, is_plugin, loaded_functions, plugin_file

R_FLAG = R_SIZE  # after the rules: the id of a strategy at fault, then its move
USER_JIT = {**JIT, "_nrt": True}  # a user's function may allocate

Runner = Callable[..., None]


def dispatch_source(ids: Sequence[int]) -> str:
    """``decide``/``give_back``/``give_back_opening`` calling the user functions of kernel
    ids ``ids`` (bound as ``move_ID``, ``give_ID``: :func:`user_pair`), the built-ins
    (``builtin_*``) for every other id, and checking each user move and give-back."""
    calls = "\n".join(
        f"    {'if' if i == 0 else 'elif'} sid == {sid}:\n"
        f"        r, c = move_{sid}(pos, S, H, R, played, roles, rs, params)"
        for i, sid in enumerate(ids)
    )
    gives = "\n".join(
        f"    {'if' if i == 0 else 'elif'} sid == {sid}:\n        give_{sid}(h, k, rs, params, out)"
        for i, sid in enumerate(ids)
    )
    return f"""
@njit(**USER_JIT)
def decide(sid, pos, S, H, R, played, roles, rs, params):
    if sid < {PLUGIN_BASE}:
        return builtin_decide(sid, pos, S, H, R, played, roles, rs, params)
{calls}
    else:
        r, c = 0, 0
    r = np.int64(r)
    c = np.int64(c)
    if H[pos] & FAULT or not is_legal(H[pos], r, c, S, R) or bad_pick(pos, r, c, S, H, R):
        R[R_FLAG] = sid
        R[R_FLAG + 1] = c * 16 + r
        H[pos] &= ~FAULT
        return lowest_move(pos, S, H, R)  # only to finish the block: the run is refused
    return r, c


@njit(**USER_JIT)
def give_back(sid, h, k, rs, params, out):
    if sid < {PLUGIN_BASE}:
        return builtin_give_back(sid, h, k, rs, params, out)
{gives}
    left = h
    for j in range(k):
        rank = out[j]
        if rank < 0 or rank > 13 or count_of(left, rank) == 0:
            return give_singles(h, k, out) | FAULT  # flagged at its next move
        left = remove_cards(left, rank, 1)
    return left


@njit(**USER_JIT)
def give_back_opening(sid, h, k, rs, params, out, giver):
    if sid < {PLUGIN_BASE}:
        return builtin_give_back_opening(sid, h, k, rs, params, out, giver)
    return give_back(sid, h, k, rs, params, out)
"""


@njit(**JIT)
def is_legal(h, r, c, S, R):  # type: ignore[no-untyped-def]
    """Whether ``c`` cards of rank ``r`` (count 0: a pass) is a legal move for hand ``h``."""
    if c == 0:
        return S[S_TOP_COUNT] != 0
    if c < 1 or c > 4 or r < 0 or r > 13:
        return False
    return (legal_mask(h, c, S, R) >> np.uint64(r)) & U1 != 0


@njit(**JIT)
def default_give(h, k, rs, params, out):  # type: ignore[no-untyped-def]
    """The give-back of a user function that defines none: cards that break no group."""
    give_singles(h, k, out)


def check_users(ids: Sequence[int]) -> None:
    """Compile each user function alone first: a readable error rather than the loop's."""
    for sid in ids:
        check_compiles(sid)


def user_pair(kernel_id: int) -> tuple[Any, Any]:
    """The user's move function of ``kernel_id`` and its give-back (or the default one)."""
    _, func, give = loaded_functions()[kernel_id - PLUGIN_BASE]
    return func, give if give is not None else default_give


DISPATCH_SCOPE = {
    "njit": njit, "USER_JIT": USER_JIT, "np": np, "U1": U1, "FAULT": FAULT,
    "R_FLAG": R_FLAG, "is_legal": is_legal, "bad_pick": bad_pick, "lowest_move": lowest_move,
    "give_singles": give_singles, "count_of": count_of, "remove_cards": remove_cards,
    "user_pair": user_pair,
}  # fmt: skip
"""What :func:`dispatch_source` reads, each importable from this module by its name."""


@dataclass(frozen=True)
class FaultReplay:
    """What it takes to play a run's matches again on the reference engine."""

    rules: Rules
    seat_strategies: tuple[str, ...]
    seed: int
    rounds_per_match: int | None
    max_rounds: int
    duplicate: bool


def kernel_runner(job: FaultReplay, run_blocks: Runner) -> Runner:
    """``run_blocks`` (compiled around the job's user functions) with a slot for the
    fault flag after the rules; a flagged fault or an exception raised in a user's
    function is replayed on the reference engine and stops the run as a StrategyError."""

    def run(key, lo, hi, block, cap, R, sids, params, dup, rounds_limit, role_tab, out, done,
            trace, ws):  # type: ignore[no-untyped-def]  # fmt: skip
        flagged = np.concatenate([R, np.zeros(2, np.int64)])
        try:
            run_blocks(key, lo, hi, block, cap, flagged, sids, params, dup, rounds_limit,
                       role_tab, out, done, trace, ws)  # fmt: skip
        except Exception as exc:
            label = _raiser(job, exc)
            if label is None:  # not raised in a user's code: the project's own fault
                raise
            _replay(job, lo, hi)  # raises with the situation when it comes again
            raise StrategyError(f"{raised(label, exc, [plugin_file(label)])} (matches {lo} to "
                                f"{hi - 1}, in the kernel)") from None  # fmt: skip
        if flagged[R_FLAG] != 0 or (hi - lo == 1 and block == 1 and done[0] == 0):
            _replay(job, lo, hi)
            _not_reproduced(job, lo, hi)

    return run


def _raiser(job: FaultReplay, exc: Exception) -> str | None:
    """The user strategy of the job in whose file ``exc`` was raised (its innermost frame,
    which numba puts at the ``raise``), or None."""
    site = raise_site(exc)
    for label in dict.fromkeys(job.seat_strategies):
        if is_plugin(label) and site and raise_site(exc, [plugin_file(label)]) == site:
            return label
    return None


def _replay(job: FaultReplay, lo: int, hi: int) -> None:
    """Play matches ``[lo, hi)`` on the reference engine, every strategy guarded: the
    fault the kernel met comes again there and is raised as a StrategyError."""
    for m in range(lo, hi):
        replay_match(job.rules, job.seat_strategies, job.seed, m, job.rounds_per_match,
                     job.max_rounds, job.duplicate)  # fmt: skip


def _not_reproduced(job: FaultReplay, lo: int, hi: int) -> NoReturn:
    """The fault the kernel met did not come again on the reference engine: say so."""
    users = ", ".join(s for s in dict.fromkeys(job.seat_strategies) if is_plugin(s))
    raise StrategyError(
        f"strategy {users}: an illegal move, a bad give-back or an exception in the kernel "
        f"(matches {lo} to {hi - 1}) that the reference engine does not reproduce: does it "
        "read cards it cannot see?"
    )
