"""A kernel strategy played on the reference engine: observation → kernel arrays → move.

The reference engine's strategies see an :class:`~simulator.reference.round.Observation`; kernel
strategies read arrays. :class:`KernelStrategy` builds the kernel's observation arrays
from the Observation and calls the *same* compiled function the kernel calls, so both
engines play these strategies move for move (``test_strategies_vs_reference.py`` checks it).
The other players' hands are not in an Observation: they are filled with placeholder
cards of the right number, which is all an honest strategy may read of them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simulator.kernel.bits import RANKS
from simulator.kernel.knowledge import ALLOWED, CARDS, H_SIZE
from simulator.kernel.layout import (
    MAX_PLAYERS,
    NO_ROLE,
    OUT_OF_TRICK,
    R_FLAGS,
    R_TRICK_FLAGS,
    ROLE_INDEX,
    S_ACTIVE,
    S_ANSWERED,
    S_JACK,
    S_LOCK,
    S_N,
    S_OOT,
    S_OWNER,
    S_PICK_AT,
    S_PLAYS,
    S_PRESIDENT,
    S_REV,
    S_RUN,
    S_SIZE,
    S_SKIP_BY,
    S_SKIP_PLAY,
    S_SKIPPED,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    S_TURN,
    SUITED,
    flag_code,
    rules_array,
)
from simulator.kernel.runs import is_run, run_length, run_move, run_suit
from simulator.kernel.suits import fitting_pick, write_allowed
from simulator.reference.moves import Named, Run, Top
from simulator.reference.rng import Stream
from simulator.reference.round import PASS, Move, Observation
from simulator.rules.cards import DECK_IDS
from simulator.rules.options import Rules
from simulator.rules.roles import president_seat
from strategies.specs import NPARAMS


def hand_mask(counts: Sequence[int]) -> int:
    """A hand of 14 rank counts as the kernel's bitmask."""
    h = 0
    for rank, count in enumerate(counts):
        for level in range(count):
            h |= 1 << (16 * level + rank)
    return h


def placeholder(cards: int) -> int:
    """A bitmask holding ``cards`` cards, for a hand the observer cannot see."""
    h = 0
    for i in range(cards):
        h |= 1 << (16 * (i // 13) + i % 13)
    return h


def top_count(top: Top) -> int:
    """The kernel's count of the top on the table: a sequence's is its length's
    (:func:`~simulator.kernel.runs.run_move` of suit 0), a set's its cards."""
    return int(run_move(top.count, 0)) if top.run else top.count


def stream_array(rng: Stream) -> np.ndarray:
    """A Python stream as the kernel's ``uint64[3]`` stream state."""
    return np.array([rng.state, rng.buf, int(rng.have)], dtype=np.uint64)


def stream_back(rng: Stream, rs: np.ndarray) -> None:
    """Carry the kernel's draws back into the Python stream."""
    rng.state, rng.buf, rng.have = int(rs[0]), int(rs[1]), bool(rs[2])


class KernelStrategy:
    """A registered kernel strategy (id ``kernel_id``, parameters ``values``) on the
    reference engine."""

    reads_club_three = True  # told when its give-back hand holds the 3 of clubs that opens
    answers_sequences = True  # asked on a sequence (a user's kernel strategy is not)

    def __init__(self, name: str, kernel_id: int, values: Sequence[float]) -> None:
        self.name = name
        self.kernel_id = kernel_id
        self.params = np.zeros((MAX_PLAYERS, NPARAMS), dtype=np.float64)
        self.params[:, : len(values)] = values
        self._rules: Rules | None = None
        self._R = np.zeros(0, dtype=np.int64)

    def _rules_array(self, rules: Rules) -> np.ndarray:
        if rules is not self._rules:
            self._rules, self._R = rules, rules_array(rules)
        return self._R

    def arrays(self, obs: Observation) -> tuple[np.ndarray, ...]:
        """The kernel's observation ``(S, H, R, played, roles)`` of the player to move."""
        n = len(obs.cards_left)
        R = self._rules_array(obs.rules)
        S = np.zeros(S_SIZE, dtype=np.int64)
        S[S_N] = n
        S[S_TURN] = obs.seat
        S[S_TOP_RANK] = -1 if obs.top is None else obs.top.rank
        S[S_TOP_COUNT] = 0 if obs.top is None else top_count(obs.top)
        S[S_OWNER] = -1 if obs.top is None else obs.top.owner
        S[S_REV] = obs.reversed
        S[S_JACK] = obs.jack_back
        S[S_RUN] = obs.run
        if not obs.skipped_seats:
            S[S_SKIPPED], S[S_SKIP_PLAY] = 0, -1
        else:  # the skips of the top on the table: at its play (S_PLAYS, here 0)
            S[S_SKIPPED] = sum(1 << s for s in obs.skipped_seats)
            S[S_SKIP_PLAY] = S[S_PLAYS]
            S[S_SKIP_BY] = flag_code(obs.skipped_by)
        passed = sum(1 << s for s in range(n) if obs.passed[s])
        S[S_ANSWERED] = passed
        S[S_OOT] = passed if R[R_FLAGS] & OUT_OF_TRICK else 0
        S[S_ACTIVE] = sum(1 << s for s in range(n) if obs.cards_left[s])
        S[S_PRESIDENT] = president_seat(obs.roles)
        S[S_PICK_AT] = -1  # no cards chosen yet
        H = np.zeros(H_SIZE, dtype=np.uint64)
        H[ALLOWED:CARDS] = RANKS  # nothing is known of the others' hands beyond their counts
        for s in range(n):
            H[s] = hand_mask(obs.hand) if s == obs.seat else placeholder(obs.cards_left[s])
        if R[R_TRICK_FLAGS] & SUITED:  # his cards, and what their suits allow now
            H[CARDS + obs.seat] = sum(1 << card for card in obs.cards)
            unseen = list(obs.unseen)  # the others' cards as placeholders: their union is known
            for s in range(n):
                if s != obs.seat:
                    taken, unseen = unseen[: obs.cards_left[s]], unseen[obs.cards_left[s] :]
                    H[CARDS + s] = sum(1 << card for card in taken)
            S[S_TOP_SUITS], S[S_LOCK] = obs.top_suits, obs.lock
            write_allowed(S, H[CARDS + obs.seat], S[S_TOP_RANK], S[S_TOP_COUNT], R[R_TRICK_FLAGS])
        played = np.array(obs.played, dtype=np.int64)
        roles = np.full(MAX_PLAYERS, NO_ROLE, dtype=np.int64)
        for s, role in enumerate(obs.roles):
            roles[s] = ROLE_INDEX[role]
        return S, H, R, played, roles

    def decide(self, pos: int, *arrays: np.ndarray) -> tuple[int, int]:
        """The kernel function's move on the observation arrays."""
        from strategies.dispatch import decider

        return decider([self.kernel_id], [self.name])(self.kernel_id, pos, *arrays)

    def give_ranks(
        self, h: np.uint64, k: int, rs: np.ndarray, out: np.ndarray, opens: bool = False
    ) -> None:
        """The kernel function's give-back: the ranks into ``out`` (``opens``: the hand
        holds the 3 of clubs that opens the round)."""
        from strategies.dispatch import give_back, give_back_opening

        if opens:
            give_back_opening(self.kernel_id, h, k, rs, self.params, out, 0)
        else:
            give_back(self.kernel_id, h, k, rs, self.params, out)

    def choose(self, obs: Observation, rng: Stream) -> Move | Run | Named:
        """The kernel function's move, with the cards it chose if any
        (:func:`~simulator.kernel.suits.pick_cards`: a :class:`Named` play); a sequence
        as a :class:`Run`. A user's kernel strategy, whose moves are sets, passes on a
        sequence, and draws nothing (as in the kernel's suited loop)."""
        if obs.top is not None and obs.top.run and not self.answers_sequences:
            return PASS
        S, H, R, played, roles = self.arrays(obs)
        rs = stream_array(rng)
        rank, count = self.decide(obs.seat, S, H, R, played, roles, rs, self.params)
        stream_back(rng, rs)
        if count == 0:
            return PASS
        if is_run(count):
            return Run(int(rank), int(run_length(count)), int(run_suit(count)))
        move = Move(int(rank), int(count))
        p = self.named_cards(S, H, R, obs.seat, int(rank), int(count))
        return Named(move, tuple(c for c in range(DECK_IDS) if p >> c & 1)) if p else move

    def named_cards(self, S: np.ndarray, H: np.ndarray, R: np.ndarray, seat: int, rank: int,
                    count: int) -> int:  # fmt: skip
        """The cards the function chose for its play, as the kernel lays them: when they fit
        it (:func:`~simulator.kernel.suits.fitting_pick`; a search player's move may not be
        its prior's, whose cards then stay unused), else none (the rules' cards)."""
        k, t, tc = H[CARDS + seat], S[S_TOP_RANK], S[S_TOP_COUNT]
        return int(fitting_pick(S, k, rank, count, t, tc, R[R_TRICK_FLAGS]))

    def give_back(self, hand: Sequence[int], k: int, rng: Stream, opens: bool = False) -> list[int]:
        out = np.zeros(8, dtype=np.int64)
        rs = stream_array(rng)
        self.give_ranks(np.uint64(hand_mask(hand)), k, rs, out, opens)
        stream_back(rng, rs)
        return [int(r) for r in out[:k]]
