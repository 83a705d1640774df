"""Président as a gymnasium ``VectorEnv``: N tables, one learner each (docs/env.md).

The tables are stepped by the kernel in threads (:mod:`simulator.env.vector.batch`); the
learner's observations and masks are the PettingZoo environment's layout, in arrays of
shape ``(N, …)``; the other seats are built-in strategies played inside the kernel.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numba
import numpy as np
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from simulator.env.encoding import N_ACTIONS, OBS_SIZE, rules_vector
from simulator.env.options import (
    EPISODES,
    NAME,
    REWARDS,
    ROUNDS,
    action_space,
    check_choice,
    check_count,
    observation_space,
    resolve_rules,
)
from simulator.env.vector.batch import builtin_tables, reset_tables, step_tables
from simulator.env.vector.spread import Spread
from simulator.env.vector.state import (
    C_CUT,
    C_LEARNER,
    C_POINTS,
    C_ROUNDS,
    C_SIZE,
    C_TABLES,
    LEARNER,
    M_MATCH,
    M_PHASE,
    M_ROUND,
    M_SIZE,
    OVER,
    T_KEY,
    T_M,
    T_PARAMS_PL,
    T_SID_PL,
)
from simulator.kernel.bits import seed_key
from simulator.kernel.config import cached_on_disk
from simulator.kernel.knowledge import H_SIZE
from simulator.kernel.layout import DECK, MAX_PLAYERS, S_SIZE, role_table, rules_array
from simulator.matchloop.matches import out_cols
from simulator.reference.match import MAX_ROUNDS
from simulator.rules.cards import NUM_RANKS
from simulator.rules.options import Rules
from strategies.registry import get, one_per_seat, split_names
from strategies.specs import NPARAMS, PLUGIN_BASE, SEARCH_IDS, StrategyError, StrategySpec

COMPILE_SECONDS = 160  # its first compile, numba's cache empty (the 2-core machine, busy)
Opponent = str | StrategySpec  # a strategy's name, or its spec with the values it plays


class PresidentVectorEnv(VectorEnv):
    """``num_envs`` tables of Président, the learner at ``seat`` of each, the other seats
    played by the built-in ``opponents``; see docs/env.md for the options."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.NEXT_STEP, "name": NAME}

    def __init__(
        self,
        num_envs: int,
        rules: str | Path | Rules = "french",
        players: int | None = None,
        opponents: str | Sequence[str] = "rules-aware",
        seat: int = 0,
        episode: str = "match",
        rounds: int = ROUNDS,
        max_rounds: int = MAX_ROUNDS,
        reward: str = "places",
        threads: int | None = None,
        keep_rows: bool = False,
    ) -> None:
        check_count("num_envs", num_envs)
        self.rules = resolve_rules(rules, players)
        n = self.rules.players
        check_choice("episode", episode, EPISODES)
        check_choice("reward", reward, REWARDS)
        check_count("rounds", rounds)
        check_count("max_rounds", max_rounds)
        check_choice("seat", seat, tuple(range(n)))
        self.num_envs, self.seat, self.episode, self.reward = num_envs, seat, episode, reward
        self.threads = numba.config.NUMBA_NUM_THREADS if threads is None else threads
        check_count("threads", self.threads)
        if self.rules.target:
            limit = 1 if episode == "round" else max_rounds
        else:
            limit = 1 if episode == "round" else rounds
        self._R = rules_array(self.rules)
        self._C = np.zeros(C_SIZE, np.int64)
        self._C[[C_LEARNER, C_ROUNDS, C_TABLES]] = seat, limit, num_envs
        self._C[C_POINTS] = reward == "points"
        self._C[C_CUT] = episode == "match"
        self._rules_vec = rules_vector(self.rules)
        self._T = _tables(num_envs, role_table(n))
        self.set_opponents(opponents)
        self.rows = np.zeros((num_envs, limit if keep_rows else 0, out_cols(n)), np.int32)
        self._reward = np.zeros(num_envs, np.float64)
        self._ended = np.zeros(num_envs, np.int64)
        self._mask = np.zeros((num_envs, N_ACTIONS), np.int8)
        self.single_observation_space = observation_space()
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.run_seed: int | None = None
        self._spread = Spread(num_envs, self.threads)
        if not numba.config.DISABLE_JIT and not cached_on_disk(step_tables):
            print(f"compiling the vector environment for the kernel — once, about "
                  f"{COMPILE_SECONDS} s", file=sys.stderr, flush=True)  # fmt: skip

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """Seat ``opponents`` (as the option) from each table's next round on: a frozen
        copy of a learned policy, say, refreshed while the learner trains (a ``linear``
        spec with the learner's weights: ``get("linear").with_values(...)``)."""
        specs = _opponents(opponents, self.rules.players - 1, self.rules)
        self.opponents = [spec.label for spec in specs]
        sids, params = self._T[T_SID_PL], self._T[T_PARAMS_PL]
        params[:] = 0.0
        others = iter(specs)
        for p in range(self.rules.players):
            spec = None if p == self.seat else next(others)
            sids[p] = LEARNER if spec is None else spec.kernel_id
            if spec is not None:
                params[p, : len(spec.kernel_vector)] = spec.kernel_vector

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Start a match at every table: with ``seed``, table ``t`` plays match ``t`` of the
        run seeded ``seed`` (``options={"match": m}``: match ``m + t``), then matches
        ``t + N``, ``t + 2N`` …; without, matches none of them has played yet."""
        super().reset(seed=seed)
        if seed is not None or self.run_seed is None:
            self.run_seed = int(np.random.SeedSequence().entropy % 2**63) if seed is None else seed
            self._T[T_KEY][0] = seed_key(np.uint64(self.run_seed % 2**64))
            first = 0
        else:
            first = int(self._T[T_M][:, M_MATCH].max()) + 1
        first = int((options or {}).get("match", first))
        obs, mask = self._fresh()
        self._spread.run(lambda lo, hi: reset_tables(
            lo, hi, first, self._T, self._R, self._C, self.rows, self._reward, self._ended,
            self._rules_vec, obs, mask))  # fmt: skip
        return {"observation": obs, "action_mask": mask}, {}

    def step(
        self, actions: np.ndarray
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Each table's learner takes his action (an illegal one raises ``ValueError``,
        naming the table); a table whose episode ended at the last step starts its next
        one and its action is not read (gymnasium's next-step autoreset)."""
        if self.run_seed is None:
            raise ResetNeeded("call reset() before step()")
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        self._check(actions)
        obs, mask = self._fresh()
        self._spread.run(lambda lo, hi: step_tables(
            lo, hi, actions, self._T, self._R, self._C, self.rows, self._reward, self._ended,
            self._rules_vec, obs, mask))  # fmt: skip
        observations = {"observation": obs, "action_mask": mask}
        return observations, self._reward.copy(), self._ended == 1, self._ended == 2, {}

    def builtin_actions(self, name: Opponent) -> np.ndarray:
        """The action the built-in ``name`` would take in each table's decision, drawing
        from the table's play stream as the kernel draws for the seat it holds: stepping
        them plays the kernel's match with ``name`` in the learner's seat (call it once
        per step). A table whose episode has ended gets 0, which is not read."""
        spec = _playable(name, self.rules)
        params = np.zeros((MAX_PLAYERS, NPARAMS), np.float64)
        params[:, : len(spec.kernel_vector)] = spec.kernel_vector
        out = np.zeros(self.num_envs, np.int64)
        self._spread.run(
            lambda lo, hi: builtin_tables(lo, hi, spec.kernel_id, params, self._T, self._R, out)
        )
        return out

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the helper threads (gymnasium's ``close`` calls it, and gymnasium 1.1's
        ``__del__`` too: also for an environment whose options were refused before its
        threads existed)."""
        spread = getattr(self, "_spread", None)
        if spread is not None:
            spread.close()

    @property
    def matches(self) -> np.ndarray:
        """The match each table plays (of the run seeded ``run_seed``)."""
        return self._T[T_M][:, M_MATCH].copy()

    @property
    def rounds(self) -> np.ndarray:
        """The round each table's match is in (0 its first; past its last once over)."""
        return self._T[T_M][:, M_ROUND].copy()

    def _fresh(self) -> tuple[np.ndarray, np.ndarray]:
        """New observation and mask arrays (the kernel writes every number): what a step
        returned stays as it was while the learner keeps it."""
        self._mask = np.empty((self.num_envs, N_ACTIONS), np.int8)
        return np.empty((self.num_envs, OBS_SIZE), np.float32), self._mask

    def _check(self, actions: np.ndarray) -> None:
        """Refuse an action the mask of a table's decision does not allow."""
        live = self._T[T_M][:, M_PHASE] != OVER
        inside = (actions >= 0) & (actions < N_ACTIONS)
        allowed = inside.copy()
        allowed[inside] = self._mask[np.flatnonzero(inside), actions[inside]] == 1
        bad = np.flatnonzero(live & ~allowed)
        if bad.size:
            t = int(bad[0])
            raise ValueError(
                f"action {actions[t]} of table {t} is illegal (its mask allows "
                f"{np.flatnonzero(self._mask[t]).tolist()})"
            )


def _playable(strategy: Opponent, rules: Rules) -> StrategySpec:
    """The spec of built-in ``strategy`` for ``rules`` (a spec as it is: its values are
    its own), refused unless the kernel plays it here: not a search player (its playouts
    would cost every step a match), not a user's."""
    spec = strategy if isinstance(strategy, StrategySpec) else get(strategy, rules)
    if spec.kernel_id in SEARCH_IDS or not 0 <= spec.kernel_id < PLUGIN_BASE:
        raise StrategyError(
            f"strategy {spec.name!r}: the vector environment plays the built-ins but the "
            f"search players (montecarlo, champion, clairvoyant) and users' strategies"
        )
    return spec


def _opponents(
    opponents: Opponent | Sequence[Opponent], seats: int, rules: Rules
) -> list[StrategySpec]:
    """One spec per other seat, from one for all or one per seat (in seat order; names
    in one text are separated by commas, as on the command line)."""
    if isinstance(opponents, StrategySpec):
        opponents = [opponents]
    names = split_names(opponents) if isinstance(opponents, str) else list(opponents)
    specs = [_playable(name, rules) for name in names]
    return one_per_seat(specs, seats, "opponents", "other seats")


def _tables(tables: int, role_tab: np.ndarray) -> tuple:
    """The arrays of ``tables`` tables (:mod:`simulator.env.vector.state`'s ``T``)."""

    def each(*shape: int, dtype: type = np.int64) -> np.ndarray:
        return np.zeros((tables, *shape), dtype)

    return (
        each(H_SIZE, dtype=np.uint64), each(S_SIZE), each(M_SIZE), each(NUM_RANKS),
        each(MAX_PLAYERS), np.full((tables, MAX_PLAYERS), -1, np.int64), each(MAX_PLAYERS),
        each(MAX_PLAYERS), each(MAX_PLAYERS + 1), each(MAX_PLAYERS), each(MAX_PLAYERS),
        each(8), each(8), each(3, dtype=np.uint64), each(3, dtype=np.uint64), each(DECK),
        each(MAX_PLAYERS), each(MAX_PLAYERS, dtype=np.uint64), each(DECK + 1, dtype=np.uint64),
        each(MAX_PLAYERS), each(MAX_PLAYERS, NPARAMS, dtype=np.float64),
        np.zeros(1, np.uint64), np.zeros(MAX_PLAYERS, np.int64),
        np.zeros((MAX_PLAYERS, NPARAMS), np.float64), role_tab, np.zeros((MAX_PLAYERS, 3), np.uint64),
        np.full(MAX_PLAYERS, -1, np.int64), np.zeros(0, np.int32),
    )  # fmt: skip
