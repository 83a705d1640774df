"""``champion``'s decisions, recorded with what a person sees and what a simple player does.

Matches are played on the reference engine (:func:`simulator.reference.match.match_steps`):
``champion`` at one seat, turning with the match, through the kernel's own function
(:class:`strategies.adapter.KernelStrategy`, knowing of the exchange only its own hand, as
it plays a UECda server), the simple player at the others. At each of its decisions
with a choice (two moves or more) a row records the table as a person sees it
(:data:`strategies.advice.VIEW`), the move each play of :data:`strategies.advice.PLAYS`
names, ``champion``'s move and the simple player's move in the same position, and where
to find the position again (match, round, move): :func:`position` plays the match again
up to it, for an example.

Seeded like a run: match ``m`` draws its deals and streams from ``(seed, m)``, so the
rows of matches ``[a, b)`` are the same whoever plays them and in whatever chunks.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from simulator.reference.exchange import GiveBack, give_back_of, run_steps
from simulator.reference.match import MAX_ROUNDS, MoveAsk, RoundRecord, match_steps
from simulator.reference.moves import Named, Run
from simulator.reference.rng import PLAY_STREAM, Stream
from simulator.reference.round import Move, Observation, Round
from simulator.rules.options import Rules
from strategies.adapter import KernelStrategy, stream_array
from strategies.advice import PLAYS, VIEW, VIEW_SIZE, view_and_plays
from strategies.registry import get

VIEW_COLUMNS = [name for name, _ in VIEW]
PLAY_COLUMNS = [f"{name}_{part}" for name, _ in PLAYS for part in ("rank", "count")]
COLUMNS = ["match", "round", "move", "seat", *VIEW_COLUMNS, *PLAY_COLUMNS,
           "champion_rank", "champion_count", "simple_rank", "simple_count"]  # fmt: skip


@dataclass(frozen=True)
class Field:
    """Who plays the mined matches: ``champion`` (a spec name) against ``simple``; the
    moves recorded beside champion's are ``compared``'s (by default the simple player's;
    ``advised`` with the tips found so far, to learn what they still miss)."""

    rules: Rules
    seed: int
    rounds: int  # per match, when the rules have no target
    champion: str = "champion"
    simple: str = "rules-aware"
    compared: str = ""

    @cached_property
    def strategies(self) -> tuple[KernelStrategy, KernelStrategy, KernelStrategy]:
        """champion, the simple player and the compared one as kernel functions on the
        reference engine (made once, for every match mined)."""
        made = []
        for name in (self.champion, self.simple, self.compared or self.simple):
            spec = get(name, self.rules)
            made.append(KernelStrategy(spec.label, spec.kernel_id, spec.kernel_vector))
        return made[0], made[1], made[2]

    def seat(self, match: int) -> int:
        """The player ``champion`` is in match ``match``: each seat in turn."""
        return match % self.rules.players


def move_pair(move: Move | Named | Run) -> tuple[int, int]:
    """A move as ``(rank, count)``, the pass ``(0, 0)``; a sequence ``(low, -1)``."""
    if isinstance(move, Named):
        move = move.move
    if isinstance(move, Run):
        return move.low, -1
    return (move.rank, move.count) if move.count else (0, 0)


Visit = Callable[[MoveAsk, Observation, RoundRecord, Move | Named | Run], None]


def play(field: Field, match: int, visit: Visit) -> None:
    """Play match ``match``; ``visit(ask, obs, record, move)`` sees each of ``champion``'s
    decisions, what it sees, the round's record so far and the move it makes."""
    champ, simple, _ = field.strategies
    who = field.seat(match)
    rng = Stream.of(field.seed, match, PLAY_STREAM)
    current: list[RoundRecord] = []

    def observer(kind: str, payload: object) -> None:
        if kind == "round_start":
            current[:] = [payload]

    def answer(ask: GiveBack | MoveAsk) -> list[int] | Move | Named:
        if isinstance(ask, GiveBack):
            player = champ if ask.who == who else simple
            return give_back_of(player, ask.hand, ask.k, rng, ask.opens, ask)
        if ask.player != who:
            return simple.choose(ask.obs, rng)
        obs = ask.obs  # built once: champion and the visitor read the same
        move = champ.choose(obs, rng)
        visit(ask, obs, current[0], move)
        return move

    rounds = None if field.rules.target else field.rounds
    steps = match_steps(field.rules, field.seed, match, rounds, MAX_ROUNDS, observer=observer)
    run_steps(steps, answer)


def decisions(field: Field, lo: int, hi: int) -> pd.DataFrame:
    """The rows (:data:`COLUMNS`) of ``champion``'s decisions with a choice in matches
    ``[lo, hi)``."""
    _, _, simple = field.strategies
    rs = stream_array(Stream.of(0, 0, 0))  # the compared player draws nothing
    rows: list[list[int | float]] = []
    match = lo

    def visit(
        ask: MoveAsk, obs: Observation, record: RoundRecord, move: Move | Named | Run
    ) -> None:
        S, H, R, played, roles = simple.arrays(obs)
        view, plays = np.zeros(VIEW_SIZE), np.full((len(PLAYS) + 1, 2), -1, dtype=np.int64)
        view_and_plays(obs.seat, S, H, R, played, roles, view, plays)  # reads, writes no array
        if len({tuple(p) for p in plays[1:] if p[1] >= 0}) < 2:
            return  # one move or none a tip can tell apart: nothing to learn
        s_rank, s_count = simple.decide(obs.seat, S, H, R, played, roles, rs, simple.params)
        c_rank, c_count = move_pair(move)
        rows.append([match, record.index, len(record.moves), obs.seat, *view[1:],
                     *plays[1:].ravel(), c_rank, c_count, int(s_rank), int(s_count)])  # fmt: skip

    for match in range(lo, hi):
        play(field, match, visit)
    frame = pd.DataFrame(rows, columns=COLUMNS)
    ints = [c for c in COLUMNS if c not in VIEW_COLUMNS]
    return frame.astype({c: np.int32 for c in ints})


def position(field: Field, match: int, round_index: int, move: int) -> tuple[Round, RoundRecord]:
    """The round as it stands at ``champion``'s decision before move ``move`` of round
    ``round_index`` of match ``match`` (the match played again, as it was), with the
    round's record up to it."""
    found: list[tuple[Round, RoundRecord]] = []

    def visit(ask: MoveAsk, _: Observation, record: RoundRecord, __: Move | Named | Run) -> None:
        if not found and record.index == round_index and len(record.moves) == move:
            found.append((copy.deepcopy(ask.round), _copied(record)))

    play(field, match, visit)
    if not found:
        raise ValueError(f"match {match} has no decision at round {round_index}, move {move}")
    return found[0]


def _copied(record: RoundRecord) -> RoundRecord:
    """The record as it stands now (the match goes on appending to it)."""
    return RoundRecord(**{**vars(record), "moves": list(record.moves), "laid": list(record.laid),
                          "gifts": list(record.gifts), "events": []})  # fmt: skip
