"""Python entry points to the kernel: validate, convert to arrays, call, collect.

Kernels never see pandas or click; these wrappers turn rules and strategy names into
the kernel's arrays, pick the match loop compiled for the job's strategies and rules
(:mod:`simulator.matchloop.specialise`), and gather the blocks' rows back into match
order, telling how many rounds are done while a long call runs (:func:`run_matches`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numba
import numpy as np

from simulator.kernel.bits import seed_key
from simulator.kernel.layout import SUITED, role_table, rules_array
from simulator.kernel.runs import RUN_TRACE
from simulator.kernel.step import trick_rule_flags
from simulator.matchloop.compilelock import compile_once
from simulator.matchloop.matches import (
    OUT_DEALER,
    OUT_LEADER,
    OUT_MATCH,
    OUT_PASSES,
    OUT_PLAYS,
    OUT_ROUND,
    OUT_SKIPS,
    OUT_TRICKS,
    OUT_WINNER,
    SEAT_PLACE,
    SEAT_POINTS,
    SEAT_POS,
    SEAT_STRENGTH,
    SEAT_TOTAL,
    make_workspace,
    out_cols,
    run_blocks,
    seats,
)
from simulator.matchloop.plain import simple_plays
from simulator.matchloop.seating import group_size
from simulator.matchloop.specialise import Specialisation, specialised_loop
from simulator.matchloop.suited import SUIT_SHIFT, suited_fast
from simulator.reference.match import MatchRecord
from simulator.reference.moves import Run
from simulator.reference.suits import suit_set
from simulator.rules.options import Rules
from strategies.registry import get
from strategies.specs import NPARAMS, PLUGIN_BASE, StrategyError

if TYPE_CHECKING:
    from simulator.matchloop.userchain import Runner
    from strategies.dispatch import Tier

MAX_MATCH = 2**31 - 1  # match numbers are stored as int32
TASKS_PER_THREAD = 32  # tasks of blocks per thread and call: load balance, progress
MAX_TASK_BLOCKS = 16  # blocks per task at most (1,024 matches): the bar moves often
RowsDone = Callable[[int], None]
_threads = [numba.config.NUMBA_NUM_THREADS]  # threads of the match loop (set_threads)


@dataclass(frozen=True)
class KernelJob:
    """What the kernel needs for a run, as arrays (built once, reused for every chunk)."""

    R: np.ndarray
    sids: np.ndarray
    params: np.ndarray
    role_tab: np.ndarray
    key: np.uint64
    rounds_limit: int
    expected_rounds: int
    duplicate: int = 0  # the duplicate group size (seating.group_size), 0 without duplicate deals
    runner: Runner = run_blocks  # the match loop compiled for the job (specialise.py)

    def workspace(self) -> tuple[np.ndarray, ...]:
        """The scratch arrays of one call of :attr:`runner` (each thread's own)."""
        return make_workspace(self.params.shape[1], self.R)

    @property
    def players(self) -> int:
        """The players at the table (one strategy each)."""
        return len(self.sids)

    @classmethod
    def build(
        cls,
        rules: Rules,
        seat_strategies: Sequence[str],
        seed: int,
        rounds_per_match: int | None,
        max_rounds: int,
        duplicate: bool = False,
        shared: Tier | None = None,
    ) -> KernelJob:
        """Arrays for a job; ``duplicate``: groups of matches share their deals while the
        line-up turns (:mod:`simulator.matchloop.seating`). The job runs on the loop
        compiled for its strategies and rules (or for the tier ``shared`` by the jobs of a
        study: :meth:`Specialisation.of`)."""
        n = rules.players
        if len(seat_strategies) != n:
            raise ValueError(f"{len(seat_strategies)} strategies for {n} players")
        specs = [get(s, rules) for s in seat_strategies]  # the row for the rules: once, here
        for spec in specs:
            if spec.kernel_id < 0:
                raise StrategyError(f"strategy {spec.name!r}: {spec.python_note}")
        sids = np.array([spec.kernel_id for spec in specs], dtype=np.int64)
        R = rules_array(rules)
        flags = trick_rule_flags.py_func(R)  # the kernel's own tests, in Python
        suits = bool(flags & SUITED)
        spec = Specialisation.of(sids, bool(flags), bool(simple_plays.py_func(R)), shared,
                                 suits, suits and bool(suited_fast.py_func(flags)))  # fmt: skip
        runner = specialised_loop(spec, seat_strategies)
        if any(spec.kernel_id >= PLUGIN_BASE for spec in specs):
            # the users' machinery (their files, the reference engine's replay of a
            # fault): imported by their jobs alone, not by every run's start
            from simulator.matchloop.userchain import FaultReplay, kernel_runner

            replay = FaultReplay(
                rules, tuple(seat_strategies), seed, rounds_per_match, max_rounds, duplicate
            )
            runner = kernel_runner(replay, runner)
        params = np.zeros((n, NPARAMS), dtype=np.float64)
        for seat, spec in enumerate(specs):
            params[seat, : len(spec.kernel_vector)] = spec.kernel_vector
        if rules.target:
            limit, expected = max_rounds, min(max_rounds, max(8, 4 * rules.target))
        else:
            if rounds_per_match is None or rounds_per_match < 1:
                raise ValueError("rounds per match must be at least 1 without a target")
            limit = expected = rounds_per_match
        key = np.uint64(seed_key(np.uint64(seed % 2**64)))  # always uint64: one signature
        return cls(
            R,
            sids,
            params,
            role_table(n),
            key,
            limit,
            expected,
            group_size(seat_strategies, duplicate) if duplicate else 0,
            runner,
        )


def run_matches(
    job: KernelJob,
    m_lo: int,
    m_hi: int,
    block: int = 64,
    on_rows: RowsDone | None = None,
    into: np.ndarray | None = None,
) -> np.ndarray:
    """Rows (``int32[rounds, out_cols(n)]``) of matches ``[m_lo, m_hi)``, in match order.

    A block whose buffer overflowed (a long match under a target) keeps the matches it
    finished; the match that did not fit is played again alone with room for the longest
    possible match, and the run goes on after it. Results never depend on this.
    ``on_rows(rows)`` is told, in the calling thread, of the rows each finished task of
    blocks computed (:func:`_run`), so a bar can move while a long part is computed.

    ``into``: an array of :func:`rows_room` rows (or more) that the rows are written in,
    for a caller that runs matches again and again. The rows returned are then a view of
    it, valid until its next use (a copy when the blocks' rows had to be gathered:
    matches of varying length). Why: fresh memory costs the system the zeroing of every
    page it faults in, 4 % of a 4 x ``lowest`` run (profile).
    """
    if not 0 <= m_lo <= m_hi <= MAX_MATCH:
        raise ValueError(f"match numbers must lie in [0, {MAX_MATCH}]")
    parts: list[np.ndarray] = []
    lo = m_lo
    while lo < m_hi:
        rows, finished = _run(job, lo, m_hi, block, block * job.expected_rounds, on_rows, into)
        into = None  # the rows just computed live in it
        parts.append(rows)
        lo += finished
        if lo < m_hi:  # match lo overflowed its block: play it alone
            rows, _ = _run(job, lo, lo + 1, 1, job.rounds_limit, on_rows)
            parts.append(rows)
            lo += 1
    if len(parts) == 1:
        return parts[0]  # the common case: no copy of what may be hundreds of megabytes
    return np.concatenate(parts) if parts else np.empty((0, out_cols(job.players)), np.int32)


def rows_room(job: KernelJob, matches: int, block: int = 64) -> int:
    """The rows :func:`run_matches` needs of ``into`` for ``matches`` matches in blocks of
    ``block``: room for the expected rounds of every block."""
    return -(-matches // block) * block * job.expected_rounds


def _run(
    job: KernelJob,
    lo: int,
    hi: int,
    block: int,
    cap: int,
    on_rows: RowsDone | None,
    into: np.ndarray | None = None,
) -> tuple[np.ndarray, int]:
    """Run blocks from ``lo``; the rows of the leading run of finished matches, and their count.

    The blocks are cut into tasks of a few blocks each (about :data:`TASKS_PER_THREAD` per
    thread), which threads take in turn: each task is one call of the compiled loop on
    its own rows of ``out`` (``into``'s when it has room), and the loop releases the GIL
    while it runs.
    """
    nblocks = (hi - lo + block - 1) // block
    shape = (nblocks * cap, out_cols(job.players))
    if into is None:
        out = np.empty(shape, np.int32)  # used rows: all written
    elif len(into) < shape[0] or into.shape[1:] != shape[1:] or into.dtype != np.int32:
        raise ValueError(
            f"into: {into.dtype}{list(into.shape)}, room for int32{list(shape)} needed"
        )
    else:
        out = into[: shape[0]]
    done = np.zeros(2 * nblocks, dtype=np.int64)
    step = max(1, min(MAX_TASK_BLOCKS, -(-nblocks // (_threads[0] * TASKS_PER_THREAD))))

    def arguments(b0: int, part: np.ndarray) -> tuple:
        """The loop's arguments for the task of blocks from ``b0`` (its counts in ``part``)."""
        b1 = min(nblocks, b0 + step)
        return (job.key, lo + b0 * block, min(hi, lo + b1 * block), block, cap, job.R,
                job.sids, job.params, job.duplicate, job.rounds_limit, job.role_tab,
                out[b0 * cap : b1 * cap], part, _NO_TRACE, job.workspace())  # fmt: skip

    def task(b0: int) -> int:
        b1 = min(nblocks, b0 + step)
        part = np.zeros(2 * (b1 - b0), dtype=np.int64)
        job.runner(*arguments(b0, part))
        done[b0:b1], done[nblocks + b0 : nblocks + b1] = part[: b1 - b0], part[b1 - b0 :]
        return int(part[b1 - b0 :].sum())

    compile_once(job.runner, lambda: arguments(0, np.zeros(2, np.int64)))  # one process at a time

    starts = range(0, nblocks, step)
    if _threads[0] == 1 or len(starts) == 1:
        for b0 in starts:
            written = task(b0)
            if on_rows:
                on_rows(written)
    else:
        with ThreadPoolExecutor(_threads[0]) as pool:
            try:
                for future in as_completed([pool.submit(task, b0) for b0 in starts]):
                    written = future.result()
                    if on_rows:
                        on_rows(written)
            except BaseException:  # a task failed (a user's strategy): the others are not wanted
                pool.shutdown(cancel_futures=True)
                raise
    finished, rows = done[:nblocks], done[nblocks:]
    if finished.sum() == hi - lo and np.all(rows[:-1] == cap):
        return out[: (nblocks - 1) * cap + rows[-1]], hi - lo  # contiguous: no copy
    kept = []
    count = 0
    for b in range(nblocks):
        kept.append(out[b * cap : b * cap + rows[b]])
        count += int(finished[b])
        if finished[b] < min(block, hi - lo - b * block):
            break
    return np.concatenate(kept), count


def record_trace(record: MatchRecord) -> list[int]:
    """A reference-engine match in :func:`trace_match`'s layout, to compare the engines:
    ``-1 - round`` before each round, then ``pos << 8 | count << 4 | rank`` per move (under
    rules that read suits, a play's suits ``<< 20`` too; a sequence: its lowest rank, its
    length and ``RUN_TRACE``), and ``1 << 16 | rank`` per card
    it hands over (7s, 10s), in the order chosen."""
    trace = []
    for rr in record.rounds:
        trace.append(-1 - rr.index)
        gifts = dict(rr.gifts)
        for i, (player, move) in enumerate(rr.moves):
            rank = 0 if move.is_pass else move.rank
            suits = suit_set(rr.laid[i]) if rr.laid else 0
            entry = (rr.seating.index(player) << 8) | (move.count << 4) | rank
            if isinstance(move, Run):  # a sequence: its length in the count's place
                entry |= RUN_TRACE
            trace.append(suits << SUIT_SHIFT | entry)
            trace += [1 << 16 | card for card in gifts.get(i, ())]
    return trace


def rows_of_record(match: int, record: MatchRecord, n: int) -> np.ndarray:
    """A reference-engine match as kernel output rows."""
    out = np.zeros((len(record.rounds), out_cols(n)), dtype=np.int32)
    last = len(record.rounds) - 1
    for i, rr in enumerate(record.rounds):
        row = out[i]
        row[[OUT_MATCH, OUT_ROUND, OUT_DEALER, OUT_LEADER]] = match, rr.index, rr.dealer, rr.leader
        row[[OUT_TRICKS, OUT_PLAYS, OUT_PASSES, OUT_SKIPS]] = (
            rr.tricks,
            rr.plays,
            rr.passes,
            rr.skips,
        )
        row[OUT_WINNER] = record.winner if i == last else -1
        seats(row, SEAT_PLACE, n)[:] = rr.places
        seats(row, SEAT_POINTS, n)[:] = rr.points
        seats(row, SEAT_TOTAL, n)[:] = rr.totals
        seats(row, SEAT_POS, n)[:] = [rr.seating.index(p) for p in range(n)]
        seats(row, SEAT_STRENGTH, n)[:] = rr.strength
    return out


def trace_match(
    job: KernelJob, match: int, capacity: int = 200_000
) -> tuple[np.ndarray, np.ndarray]:
    """One match with every move recorded: ``(rows, trace)`` (see ``play_round``)."""
    out = np.zeros((job.rounds_limit, out_cols(job.players)), dtype=np.int32)
    done = np.zeros(2, dtype=np.int64)
    trace = np.full(capacity, np.iinfo(np.int32).min, dtype=np.int32)
    args = (job.key, match, match + 1, 1, job.rounds_limit, job.R, job.sids, job.params,
            job.duplicate, job.rounds_limit, job.role_tab, out, done, trace,
            job.workspace())  # fmt: skip
    compile_once(job.runner, lambda: args)
    job.runner(*args)
    used = int(np.count_nonzero(trace != np.iinfo(np.int32).min))
    return out[: done[1]], trace[:used]


def set_threads(workers: int) -> None:
    """Use ``workers`` threads for the match loop (at most one per core numba sees)."""
    _threads[0] = max(1, min(workers, numba.config.NUMBA_NUM_THREADS))


_NO_TRACE = np.zeros(0, dtype=np.int32)
