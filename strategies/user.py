"""Users' own strategies, loaded from a file: ``--strategies path/to/file.py:name``.

Two kinds, told apart by what ``name`` is in the file:

* a **numba function** (``@njit``) with the kernel's observation → move signature
  ``name(pos, S, H, R, played, roles, rs, params) -> (rank, count)`` (count 0: pass; see
  :mod:`simulator.kernel.layout`), and optionally ``name_give_back(h, k, rs, params,
  out)`` writing the ranks of the ``k`` cards it gives back into ``out``. It runs inside
  the kernel: :mod:`simulator.matchloop.specialise` compiles a copy of the match loop
  whose dispatch calls the user's function, cached on disk by the content of the file
  and of the local modules it imports (:func:`source_digest`), so only the first run of
  a file compiles. numba's own cache of the file's functions and of those modules' is
  dropped when any of them changed (:func:`simulator.kernel.freshness.refresh_module`:
  numba's cache follows each function's own file only). It also runs on
  ``--engine python``.
* a **plain-Python class** with ``choose(obs, rng) -> Move`` and ``give_back(hand, k,
  rng)`` (like :class:`strategies.lowest.Lowest`): the reference engine only;
* an **environment agent**: a class with ``act(observation, action_mask) -> action``
  and no ``choose`` (:mod:`strategies.agent`, docs/env.md): the reference engine only.

A user strategy is checked at every move. On the reference engine the one guard
(:class:`strategies.guard.Guarded`) stops the run at the first exception or illegal move with a
message naming the strategy, the situation and the move (an exception: where it was
raised). In the kernel an illegal move or give-back raises a flag, and an exception
leaves the compiled loop; the run then replays the matches at fault on the reference
engine, which finds the same situation and reports it the same way
(:mod:`simulator.matchloop.userchain`). A function that cannot take the kernel's
arguments is refused when its file loads; one whose body numba cannot type, before a
loop is compiled around it: each in one line saying where and why.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
from numba.core.errors import NumbaError

from simulator.kernel.freshness import refresh_module
from simulator.kernel.layout import MAX_PLAYERS, R_SIZE, S_SIZE
from simulator.kernel.suits import picked
from simulator.rules.cards import NUM_RANKS
from strategies.adapter import KernelStrategy
from strategies.agent import AgentStrategy, is_agent
from strategies.specs import NPARAMS, PLUGIN_BASE, StrategyError, StrategySpec

MOVE_ARGS = ("pos", "S", "H", "R", "played", "roles", "rs", "params")
GIVE_ARGS = ("h", "k", "rs", "params", "out")
SIGNATURE = f"name({', '.join(MOVE_ARGS)}) -> (rank, count)"
GIVE_SIGNATURE = f"name_give_back({', '.join(GIVE_ARGS)})"
_LOADED: dict[str, StrategySpec] = {}
_FUNCTIONS: list[tuple[str, Any, Any]] = []  # (label, move function, give-back or None)
_DIGESTS: list[str] = []  # each function's module key (refresh_module) and its name
_CHECKED: set[int] = set()  # kernel ids whose functions compiled for the kernel's types


def is_plugin(text: str) -> bool:
    """Whether a strategy name designates a user file (``FILE.py:name``)."""
    return plugin_file(text).endswith(".py")


def plugin_file(text: str) -> str:
    """The file of a user strategy ``FILE.py:name``."""
    return text.partition(":")[0]


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
    if isinstance(obj, type) and is_agent(obj):
        spec = StrategySpec(text, doc, lambda spec: AgentStrategy(text, obj()), -1,
                            python_note="an environment agent: run it with --engine python")  # fmt: skip
    elif isinstance(obj, type):
        spec = StrategySpec(text, doc, lambda spec: obj(), -1,
                            python_note="a plain-Python strategy: run it with --engine python")  # fmt: skip
    elif hasattr(obj, "py_func"):
        key = refresh_module(path)  # before anything of it is compiled or loaded
        give = getattr(module, f"{name}_give_back", None)
        _check_signature(text, obj, SIGNATURE, len(MOVE_ARGS))
        if give is not None:
            _check_signature(text, give, GIVE_SIGNATURE, len(GIVE_ARGS))
        kernel_id = PLUGIN_BASE + len(_FUNCTIONS)
        _FUNCTIONS.append((text, obj, give))
        _DIGESTS.append(f"{key}:{name}")
        spec = StrategySpec(
            text, doc, lambda spec: UserKernelStrategy(text, obj, give, kernel_id), kernel_id
        )
    else:
        raise StrategyError(
            f"strategy {text!r}: {name} must be a numba @njit function ({SIGNATURE}) "
            "or a strategy class with choose(obs, rng) and give_back(hand, k, rng), "
            "or an agent class with act(observation, action_mask) (docs/env.md)"
        )
    _LOADED[text] = spec
    return spec


# ---------------------------------------------------------------- reference engine


class UserKernelStrategy(KernelStrategy):
    """A user's numba function on the reference engine, through the kernel adapter."""

    def __init__(self, name: str, func: Any, give: Any, kernel_id: int) -> None:
        check_compiles(kernel_id)
        super().__init__(name, -1, ())
        self.func, self.give = func, give

    def decide(self, pos: int, *arrays: np.ndarray) -> tuple[int, int]:
        return self.func(pos, *arrays)

    reads_club_three = False  # a user's give-back has the kernel's fixed signature
    answers_sequences = False  # its moves are sets: on a sequence it passes, unasked

    def named_cards(self, S: np.ndarray, H: np.ndarray, R: np.ndarray, seat: int, rank: int,
                    count: int) -> int:  # fmt: skip
        """The cards it chose, fitting or not: a bad choice is its fault, reported as the
        kernel reports it (``bad_pick``)."""
        return int(picked(S))

    def give_ranks(
        self, h: np.uint64, k: int, rs: np.ndarray, out: np.ndarray, opens: bool = False
    ) -> None:
        if self.give is None:
            super().give_ranks(h, k, rs, out)
        else:
            self.give(h, k, rs, self.params, out)


# ---------------------------------------------------------------- kernel


def source_digest(kernel_id: int) -> str:
    """What a user function's compiled code depends on: the content of its file and of
    the local modules it imports (:func:`simulator.kernel.freshness.module_key`) and its
    name; a kernel compiled around it is cached by this."""
    return _DIGESTS[kernel_id - PLUGIN_BASE]


def check_compiles(kernel_id: int) -> None:
    """Compile the user's functions of ``kernel_id`` for the kernel's argument types, or
    say why not in one line (once per process). Called before a compile around them, so a
    run whose loop is cached pays nothing for it."""
    if kernel_id in _CHECKED:
        return
    label, func, give = _FUNCTIONS[kernel_id - PLUGIN_BASE]
    _check_compiles(label, func, give)
    _CHECKED.add(kernel_id)


def _check_compiles(label: str, func: Any, give: Any) -> None:
    """Compile the user's functions for the kernel's argument types, or say why not."""

    S = np.zeros(S_SIZE, np.int64)
    H = np.zeros(MAX_PLAYERS, np.uint64)
    R = np.zeros(R_SIZE, np.int64)
    played = np.zeros(NUM_RANKS, np.int64)
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
        files = {func.py_func.__code__.co_filename} | (
            {give.py_func.__code__.co_filename} if give else set()
        )
        raise StrategyError(f"strategy {label!r} {_compile_error(str(exc), files)}") from None


def _def_line(func: Any) -> int:
    """The line of a function's ``def`` (its code starts at its first decorator)."""
    lines, start = inspect.getsourcelines(func)
    return start + next((i for i, ln in enumerate(lines) if ln.lstrip().startswith("def ")), 0)


def _check_signature(label: str, func: Any, expected: str, count: int) -> None:
    """Refuse a numba function that cannot take the kernel's arguments, naming what it
    takes and what the kernel passes (numba would say "Cannot bind args=(...)")."""
    py_func = func.py_func
    try:
        inspect.signature(py_func).bind(*range(count))
    except TypeError:
        where = f"{py_func.__code__.co_filename}, line {_def_line(py_func)}"
        raise StrategyError(
            f"strategy {label!r}: {py_func.__name__}{inspect.signature(py_func)} at {where} "
            f"takes the wrong arguments: the kernel calls {expected} ({count} arguments)"
        ) from None


_FILE_LINE = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+):\n(?P<context>.*)')


def _compile_error(text: str, files: set[str]) -> str:
    """numba's compile error in one line: where in the user's files (the first place its
    trace names there: the innermost, where typing failed) and its first line that says
    what failed."""
    lines = [ln.strip() for ln in text.splitlines()]
    useful = [ln for ln in lines if ln and not ln.startswith(("Failed in", "During:"))]
    first = useful[0] if useful else "numba cannot compile it"
    if first.endswith(":") and len(useful) > 1 and useful[1].startswith(">>>"):
        first = f"{first} {useful[1]}"  # "No implementation … for signature: >>> add(…)"
    own = {str(Path(f).resolve()): f for f in files}
    sites = [m for m in _FILE_LINE.finditer(text) if str(Path(m["file"]).resolve()) in own]
    if not sites:
        return f"does not compile as {SIGNATURE}: {first}"
    site = sites[0]
    func = re.match(r"\s*def (\w+)", site["context"])
    name = f", in {func[1]}" if func else ""
    where = f"{own[str(Path(site['file']).resolve())]}, line {site['line']}{name}"
    return f"does not compile at {where}: {first}"


def _probe_source(func: Any, give: Any) -> Callable[..., Any]:
    """A function that calls the user's ones with the kernel's types (compile only): the
    position and the count as ``int64`` values, not literals, which numba types as
    ``Literal[int]``: the kernel's call then finds the same compiled code rather than
    compiling the user's functions a second time (docs/performance.md)."""
    source = textwrap.dedent(
        """
        def probe(S, H, R, played, roles, rs, params, out):
            r, c = func(np.int64(0), S, H, R, played, roles, rs, params)
            x = np.int64(r) + np.int64(c)
            if has_give:
                give(H[0], np.int64(1), rs, params, out)
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


def loaded_functions() -> list[tuple[str, Any, Any]]:
    """The numba functions loaded so far, in kernel-id order: ``(label, move, give-back)``."""
    return list(_FUNCTIONS)
