"""Users' own strategies, loaded from a file: ``--strategies path/to/file.py:name``.

Two kinds, told apart by what ``name`` is in the file:

* a **numba function** (``@njit``) with the kernel's observation → move signature
  ``name(pos, S, H, R, played, roles, rs, params) -> (rank, count)`` (count 0: pass; see
  :mod:`simulator.kernel.layout`), and optionally ``name_give_back(h, k, rs, params,
  out)`` writing the ranks of the ``k`` cards it gives back into ``out``. It runs inside
  the kernel: :func:`kernel_runner` builds (compiles, once per run) copies of the match
  loop whose dispatch calls the user's function. It also runs on ``--engine python``.
* a **plain-Python class** with ``choose(obs, rng) -> Move`` and ``give_back(hand, k,
  rng)`` (like :class:`strategies.lowest.Lowest`): the reference engine only.

A user strategy is checked at every move. On the reference engine a
:class:`Guarded` wrapper stops the run at the first exception or illegal move with a
message naming the strategy, the situation and the move. In the kernel an illegal move
or give-back raises a flag (exceptions do not leave numba's parallel loops); the run
then replays the matches at fault on the reference engine, which finds the same
situation and reports it the same way.
"""

from __future__ import annotations

import importlib.util
import sys
import textwrap
import types
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
from numba.core.errors import NumbaError

from simulator.cards import card_names
from simulator.engine import Move, Observation
from simulator.rng import Stream
from simulator.rules import Rules
from strategies import StrategyError, StrategySpec
from strategies.adapter import KernelStrategy
from strategies.heuristics import give_singles

PLUGIN_BASE = 100  # kernel ids of user functions: 100, 101, …
SIGNATURE = "name(pos, S, H, R, played, roles, rs, params) -> (rank, count)"
_LOADED: dict[str, StrategySpec] = {}
_FUNCTIONS: list[tuple[str, Any, Any]] = []  # (label, move function, give-back or None)
_CHAINS: dict[int, Any] = {}  # compiled run_blocks by number of user functions


def is_plugin(text: str) -> bool:
    """Whether a strategy name designates a user file (``FILE.py:name``)."""
    return text.partition(":")[0].endswith(".py")


def load(text: str) -> StrategySpec:
    """The spec of the user strategy ``FILE.py:name`` (loaded once per process)."""
    if text in _LOADED:
        return _LOADED[text]
    path_text, _, name = text.partition(":")
    path = Path(path_text)
    if not name:
        raise StrategyError(f"strategy {text!r}: name the function or class: {path_text}:NAME")
    if not path.is_file():
        raise StrategyError(f"strategy {text!r}: no such file {path_text}")
    module_spec = importlib.util.spec_from_file_location(f"president_user_{path.stem}", path)
    assert module_spec is not None and module_spec.loader is not None
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module  # numba's cache finds the function's module by name
    try:
        module_spec.loader.exec_module(module)
    except Exception as exc:  # the user's file: any error is his, reported in one line
        raise StrategyError(
            f"strategy {text!r}: importing {path_text} failed: {type(exc).__name__}: {exc}"
        ) from None
    obj = getattr(module, name, None)
    if obj is None:
        raise StrategyError(f"strategy {text!r}: {path_text} defines no {name!r}")
    doc = (obj.__doc__ or "A user strategy.").strip().splitlines()[0]
    if isinstance(obj, type):
        spec = StrategySpec(text, doc, lambda spec: Guarded(text, obj()), -1,
                            python_note="a plain-Python strategy: run it with --engine python")  # fmt: skip
    elif hasattr(obj, "py_func"):
        give = getattr(module, f"{name}_give_back", None)
        kernel_id = PLUGIN_BASE + len(_FUNCTIONS)
        _check_compiles(text, obj, give)
        _FUNCTIONS.append((text, obj, give))
        spec = StrategySpec(
            text, doc, lambda spec: Guarded(text, UserKernelStrategy(text, obj, give)), kernel_id
        )
    else:
        raise StrategyError(
            f"strategy {text!r}: {name} must be a numba @njit function ({SIGNATURE}) "
            "or a strategy class with choose(obs, rng) and give_back(hand, k, rng)"
        )
    _LOADED[text] = spec
    return spec


# ---------------------------------------------------------------- reference engine


class UserKernelStrategy(KernelStrategy):
    """A user's numba function on the reference engine, through the kernel adapter."""

    def __init__(self, name: str, func: Any, give: Any) -> None:
        super().__init__(name, -1, ())
        self.func, self.give = func, give

    def decide(self, pos: int, *arrays: np.ndarray) -> tuple[int, int]:
        return self.func(pos, *arrays)

    def give_ranks(self, h: np.uint64, k: int, rs: np.ndarray, out: np.ndarray) -> None:
        if self.give is None:
            super().give_ranks(h, k, rs, out)
        else:
            self.give(h, k, rs, self.params, out)


def situation(obs: Observation) -> str:
    """Where a strategy was asked to move, in words."""
    top = (
        "leading" if obs.top is None else f"on {' '.join(card_names(obs.top.rank, obs.top.count))}"
    )
    hand = " ".join(name for r, c in enumerate(obs.hand) for name in card_names(r, c))
    legal = ", ".join(str(m) for m in obs.legal)
    return f"seat {obs.seat} {top}, holding {hand} (legal: {legal})"


class Guarded:
    """A user strategy whose every move and give-back is checked; a fault stops the run."""

    def __init__(self, label: str, inner: Any) -> None:
        self.label, self.inner = label, inner
        self.name = label

    def choose(self, obs: Observation, rng: Stream) -> Move:
        try:
            move = self.inner.choose(obs, rng)
        except Exception as exc:  # the user's code: report, never crash the run
            raise StrategyError(
                f"strategy {self.label} raised {type(exc).__name__}: {exc} ({situation(obs)})"
            ) from None
        try:
            move = Move(int(move[0]), int(move[1]))
        except (TypeError, ValueError, IndexError):
            raise StrategyError(
                f"strategy {self.label} returned {move!r}, not a move (rank, count) "
                f"({situation(obs)})"
            ) from None
        if move.count == 0:
            move = Move(-1, 0)
        if move not in obs.legal:
            raise StrategyError(
                f"strategy {self.label} made the illegal move {move} "
                f"(rank {move.rank}, count {move.count}) ({situation(obs)})"
            )
        return move

    def give_back(self, hand: Sequence[int], k: int, rng: Stream) -> list[int]:
        held = " ".join(name for r, c in enumerate(hand) for name in card_names(r, c))
        where = f"giving back {k} of {held}"
        try:
            back = [int(r) for r in self.inner.give_back(hand, k, rng)]
        except Exception as exc:  # the user's code: report, never crash the run
            raise StrategyError(
                f"strategy {self.label} raised {type(exc).__name__}: {exc} ({where})"
            ) from None
        left = list(hand)
        for r in back:
            if not 0 <= r < len(left) or left[r] == 0:
                raise StrategyError(f"strategy {self.label} gave back {back}: not held ({where})")
            left[r] -= 1
        if len(back) != k:
            raise StrategyError(f"strategy {self.label} gave back {len(back)} cards ({where})")
        return back


# ---------------------------------------------------------------- kernel


def _check_compiles(label: str, func: Any, give: Any) -> None:
    """Compile the user's functions for the kernel's argument types, or say why not."""
    from simulator.kernel.layout import S_SIZE
    from simulator.kernel.matches import MAX_PLAYERS, NPARAMS

    S = np.zeros(S_SIZE, np.int64)
    H = np.zeros(8, np.uint64)
    R = np.zeros(28, np.int64)
    played = np.zeros(14, np.int64)
    roles = np.zeros(MAX_PLAYERS, np.int64)
    rs = np.zeros(3, np.uint64)
    params = np.zeros((MAX_PLAYERS, NPARAMS), np.float64)
    out = np.zeros(8, np.int64)
    probe = njit(cache=False)(_probe_source(func, give))
    try:
        probe.compile(
            tuple(probe.typeof_pyval(a) for a in (S, H, R, played, roles, rs, params, out))
        )
    except NumbaError as exc:
        first = next((ln for ln in str(exc).splitlines() if ln.strip()), "")
        raise StrategyError(
            f"strategy {label!r} does not compile as {SIGNATURE}"
            f"{' (give-back: name_give_back(h, k, rs, params, out))' if give else ''}: {first}"
        ) from None


def _probe_source(func: Any, give: Any) -> Callable[..., Any]:
    """A function that calls the user's ones with the kernel's types (compile only)."""
    source = textwrap.dedent(
        """
        def probe(S, H, R, played, roles, rs, params, out):
            r, c = func(0, S, H, R, played, roles, rs, params)
            x = np.int64(r) + np.int64(c)
            if has_give:
                give(H[0], 1, rs, params, out)
            return x
        """
    )
    env = {
        "__name__": __name__,
        "func": func,
        "give": give or func,
        "has_give": give is not None,
        "np": np,
    }
    exec(source, env)
    return env["probe"]


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
"""


def _chain() -> Any:
    """``run_blocks`` compiled around every user function loaded so far (once per set)."""
    if len(_FUNCTIONS) in _CHAINS:
        return _CHAINS[len(_FUNCTIONS)]
    from simulator.kernel import dispatch, matches, round
    from simulator.kernel.bits import U1, count_of, remove_cards
    from simulator.kernel.config import JIT
    from simulator.kernel.layout import R_SIZE, S_TOP_COUNT
    from simulator.kernel.legal import legal_mask
    from strategies.kernels import lowest_move

    built = {**JIT, "cache": False, "_nrt": True}  # compiled per run: nothing to cache

    @njit(**built)
    def is_legal(h, r, c, S, R):
        if c == 0:
            return S[S_TOP_COUNT] != 0
        if c < 1 or c > 4 or r < 0 or r > 13:
            return False
        return (legal_mask(h, c, S, R) >> np.uint64(r)) & U1 != 0

    scope: dict[str, Any] = {
        "__name__": __name__, "np": np, "U1": U1, "BAD_SHIFT": np.uint64(63), "R_FLAG": R_SIZE, "is_legal": is_legal,
        "decide": dispatch.decide, "give_back": dispatch.give_back, "lowest_move": lowest_move,
        "give_singles": give_singles, "count_of": count_of, "remove_cards": remove_cards,
    }  # fmt: skip
    for i, (_, func, give) in enumerate(_FUNCTIONS):
        scope[f"f{i}"] = func
        scope[f"g{i}"] = give if give is not None else _default_give
    exec(_dispatch_source(len(_FUNCTIONS)), scope)
    decide_user = njit(**built)(scope["decide_user"])
    give_user = njit(**built)(scope["give_user"])
    play_round = _rebind(round.play_round, decide=decide_user)
    exchange = _rebind(matches.exchange, give_back=give_user)
    play_match = _rebind(matches.play_match, play_round=play_round, exchange=exchange)
    run_blocks = _rebind(matches.run_blocks, play_match=play_match)

    _CHAINS[len(_FUNCTIONS)] = run_blocks
    return run_blocks


def kernel_runner(
    rules: Rules,
    seat_strategies: Sequence[str],
    seed: int,
    rounds_per_match: int | None,
    max_rounds: int,
    duplicate: bool,
) -> Callable[..., None]:
    """``run_blocks`` for a run with user functions: the match loop compiled around them
    (once per process); a flagged fault is replayed on the reference engine."""
    from simulator.kernel.layout import R_SIZE

    run_blocks = _chain()

    def run(key, lo, hi, block, cap, R, *rest):  # type: ignore[no-untyped-def]
        flagged = np.concatenate([R, np.zeros(2, np.int64)])
        run_blocks(key, lo, hi, block, cap, flagged, *rest)
        done = rest[-2]
        if flagged[R_SIZE] != 0 or (hi - lo == 1 and block == 1 and done[0] == 0):
            _replay(rules, seat_strategies, seed, rounds_per_match, max_rounds, duplicate, lo, hi)

    return run


@njit(cache=False, nogil=True)
def _default_give(h, k, rs, params, out):  # type: ignore[no-untyped-def]
    """The give-back of a user function that defines none: cards that break no group."""
    give_singles(h, k, out)


def _replay(
    rules: Rules,
    seat_strategies: Sequence[str],
    seed: int,
    rounds_per_match: int | None,
    max_rounds: int,
    duplicate: bool,
    lo: int,
    hi: int,
) -> None:
    """Find on the reference engine the fault the kernel flagged; raise it as a StrategyError."""
    import strategies
    from simulator.match import play_match

    n = rules.players
    for m in range(lo, hi):
        turn = m % n if duplicate else 0
        names = [seat_strategies[(p - turn) % n] for p in range(n)]
        play_match(
            rules,
            [strategies.make(s) for s in names],
            seed,
            m,
            rounds=rounds_per_match,
            max_rounds=max_rounds,
            deal_match=m // n if duplicate else None,
        )
    users = ", ".join(s for s in dict.fromkeys(seat_strategies) if is_plugin(s))
    raise StrategyError(
        f"strategy {users}: an illegal move, a bad give-back or an exception in the kernel "
        f"(matches {lo} to {hi - 1}) that the reference engine does not reproduce: does it "
        "read cards it cannot see?"
    )
