"""The features ``linear`` weighs, by name, on the reference engine's observation: what a
reader or a test can check on a readable hand (:func:`move_features`).

Apart from :mod:`strategies.linear` because it builds the kernel's arrays with the
reference engine's adapter, which the kernel's dispatch must not import.
"""

from __future__ import annotations

from numba import njit

from simulator.kernel.bits import U0
from simulator.kernel.config import HOT
from simulator.kernel.knowledge import CARDS
from simulator.kernel.runs import is_run, run_move
from simulator.reference.moves import Run
from simulator.reference.round import Move, Observation
from strategies.adapter import KernelStrategy
from strategies.linear import features, situation
from strategies.linear_runs import reads_suits, run_features
from strategies.specs import LINEAR, LINEAR_FEATURES, LINEAR_PARAMS


@njit(**HOT)
def features_at(pos, S, H, R, played, r, c):
    """The feature vector of playing ``c`` cards of ``r`` (``c == 0``: the pass; a
    sequence's count: the sequence of :mod:`strategies.linear_runs`) for the player at
    ``pos`` (for :func:`move_features`)."""
    h, out, u, fewest, owner_cards, last = situation(pos, S, H, R, played)
    if is_run(c):
        return run_features(h, H[CARDS + pos], r, c, u, S, R, fewest)
    k = H[CARDS + pos] if reads_suits(R, H) else U0
    return features(h, r, c, out, u, S, R, fewest, owner_cards, last, k)


def move_features(obs: Observation, move: Move | Run) -> dict[str, float]:
    """The features of ``move`` (a play, the pass or a sequence) for the player of
    ``obs``, named as the weights are (``w_`` dropped): what ``linear`` weighs, readable
    from Python."""
    S, H, R, played, _ = KernelStrategy("linear", LINEAR, ()).arrays(obs)
    count = run_move(move.length, move.suit) if isinstance(move, Run) else move.count
    vector = features_at(obs.seat, S, H, R, played, move.rank, count)
    names = [p.name.removeprefix("w_") for p in LINEAR_PARAMS[:LINEAR_FEATURES]]
    return dict(zip(names, vector, strict=True))
