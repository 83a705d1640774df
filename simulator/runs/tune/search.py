"""The generations of a tune: ask CMA-ES for candidates, play them, tell it their places.

Each generation is kept (:class:`TuneStore`) as soon as it is told, so a tune stopped at
any moment goes on from its last generation and ends exactly as if it had never stopped.
The optimiser itself is not stored: ``cmaes``' public interface cannot set its evolution
paths, and its pickle is code from data (a folder from someone else would run their
code). It is rebuilt instead (:func:`replayed`): every draw of a generation comes from the
tune's seed, so asking a fresh optimiser again and telling it the fitness each generation
recorded brings it, bit for bit, to where it was; the candidates it asks must be those
recorded, and its generation and mean those the manifest holds, or the folder is refused.
The tuned parameters are the final CMA mean — the centre of the search, which averages
the noise of many candidates — not the luckiest candidate.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from cmaes import CMA

from simulator.rules.options import Rules
from simulator.runs.tune.play import (
    DEALS,
    SAMPLING,
    SIGMA,
    Evaluate,
    HeldOut,
    Space,
    TuneConfig,
    groups_for,
    held_out,
    lineup_of,
    rounds_per_group,
    stream_seed,
    tuned_spec,
)

Progress = Callable[[int, int, float, float], None]  # done, total, best so far, mean


@dataclass
class TuneState:
    """Where a tune is: the optimiser and every generation played (JSON records); once
    the generations are over, the tuned values (the optimiser is then no longer needed)
    and the held-out check."""

    optimizer: CMA | None
    generations: list[dict[str, Any]] = field(default_factory=list)
    tuned: tuple[float, ...] | None = None
    held_out: HeldOut | None = None

    @property
    def population(self) -> int:
        """Candidates per generation."""
        return len(self.generations[0]["candidates"]) if self.generations else 0


class TuneStore(Protocol):
    """Where a tune keeps its state after each generation
    (:class:`simulator.runs.tune.folder.TuneFolder`)."""

    def save(self, state: TuneState) -> None:
        """Keep ``state`` (atomically: the old state or the new, never half)."""
        ...


def new_state(config: TuneConfig, space: Space) -> TuneState:
    """The optimiser at the defaults, seeded by the tune's seed."""
    population = config.population or None
    optimizer = CMA(mean=space.start(), sigma=SIGMA, bounds=space.bounds(),
                    seed=config.seed % 2**32, population_size=population)  # fmt: skip
    return TuneState(optimizer)


def as_resumed(optimizer: CMA, seed: int) -> CMA:
    """The optimiser as every generation starts from it: a copy reseeded by the
    generation. The copy goes through ``cmaes``' own state protocol, which keeps half the
    covariance matrix (the other half mirrored back, which may change the last bits) and
    no random generator; the tunes of earlier versions, which stored the optimiser, went
    through that form between generations, and their results stay those of today."""
    duplicate = copy.deepcopy(optimizer)
    duplicate.reseed_rng(seed % 2**32)
    return duplicate


def optimizer_record(optimizer: CMA) -> dict[str, Any]:
    """What a stopped tune's manifest keeps of its optimiser, to check its replay: the
    generation and the mean (JSON numbers: Python's floats read back exactly)."""
    return {"generation": int(optimizer.generation),
            "mean": [float(m) for m in optimizer.mean]}  # fmt: skip


def replayed(config: TuneConfig, generations: list[dict[str, Any]], record: dict[str, Any]) -> CMA:
    """The optimiser after ``generations`` (a tune's records), rebuilt by asking a fresh
    one again and telling it each generation's recorded fitness; a ValueError when a
    generation's candidates are not those it asks (the records are not this tune's) or
    it does not end at ``record`` (:func:`optimizer_record`)."""
    space = Space(tuned_spec(config.strategy))
    optimizer = new_state(config, space).optimizer
    assert optimizer is not None
    for index, generation in enumerate(generations):
        optimizer, points = _ask(optimizer, config, index)
        candidates = generation["candidates"]
        if [list(space.values(z)) for z in points] != [c["values"] for c in candidates]:
            raise ValueError(
                f"generation {index}'s candidates are not those the tune's seed draws "
                "(a foreign or edited record)"
            )
        optimizer.tell([(z, float(c["fitness"])) for z, c in zip(points, candidates, strict=True)])
    if optimizer_record(optimizer) != record:
        raise ValueError("the recorded fitness does not lead to the optimiser it holds")
    return optimizer


def _ask(optimizer: CMA, config: TuneConfig, index: int) -> tuple[CMA, list[np.ndarray]]:
    """Generation ``index``'s optimiser (:func:`as_resumed`) and the candidates it asks."""
    optimizer = as_resumed(optimizer, stream_seed(config.seed, SAMPLING, index))
    return optimizer, [optimizer.ask() for _ in range(optimizer.population_size)]


def measured(state: TuneState) -> float:
    """The rounds per deal group of the last generation played (0 before the first)."""
    return rounds_per_group(state.generations[-1]) if state.generations else 0.0


def best_so_far(state: TuneState) -> float:
    """The lowest mean place of any candidate so far (each on its generation's deals)."""
    return min(c["fitness"] for g in state.generations for c in g["candidates"])


def play_generation(
    rules: Rules, config: TuneConfig, space: Space, state: TuneState, evaluate: Evaluate
) -> None:
    """Play one generation: every candidate on the same deals against the field, whose
    MEAN seats play the CMA mean as it stands before the generation; tell the optimiser."""
    index = len(state.generations)
    assert state.optimizer is not None
    mean = space.values(state.optimizer.mean)  # as_resumed copies it exactly
    opt, points = _ask(state.optimizer, config, index)
    state.optimizer = opt
    values = [space.values(z) for z in points]
    seed = stream_seed(config.seed, DEALS, index)
    groups = groups_for(rules, config, config.rounds_per_candidate, measured(state))
    lineups = [lineup_of(space.name(v), config.field, space.name(mean)) for v in values]
    sums = evaluate(rules, config, lineups, seed, groups)
    opt.tell([(z, s.mean_place) for z, s in zip(points, sums, strict=True)])
    candidates = [
        {"values": list(v), "fitness": s.mean_place,
         "places": s.places.astype(int).tolist(), "rounds": s.rounds.astype(int).tolist()}
        for v, s in zip(values, sums, strict=True)
    ]  # fmt: skip
    state.generations.append(
        {"generation": index, "seed": seed, "groups": groups, "mean": list(mean),
         "candidates": candidates}
    )  # fmt: skip


def run_tune(
    rules: Rules,
    config: TuneConfig,
    state: TuneState | None,
    store: TuneStore | None,
    evaluate: Evaluate,
    progress: Progress | None = None,
) -> TuneState:
    """Play the generations ``state`` lacks (all of them without one), keeping each in
    ``store``; then the held-out check of the final mean against the defaults."""
    space = Space(tuned_spec(config.strategy))
    if state is None:
        state = new_state(config, space)
        if store:  # a tune stopped before its first generation goes on from here
            store.save(state)
    while len(state.generations) < config.generations:
        play_generation(rules, config, space, state, evaluate)
        if store:
            store.save(state)
        if progress:
            mean = float(np.mean([c["fitness"] for c in state.generations[-1]["candidates"]]))
            progress(len(state.generations), config.generations, best_so_far(state), mean)
    if state.tuned is None:
        assert state.optimizer is not None
        state.tuned = space.values(state.optimizer.mean)
    if state.held_out is None:
        state.held_out = held_out(rules, config, space, state.tuned, evaluate, measured(state))
        if store:
            store.save(state)
    return state


@contextmanager
def dask_evaluator(workers: int) -> Any:
    """An :data:`Evaluate` that plays a generation's candidates side by side on a local
    Dask cluster of ``workers`` single-threaded workers (threads of this process): the
    same sums as on this machine's kernel, since each depends on its line-up and seed
    alone."""
    import logging

    from distributed import Client, LocalCluster

    from simulator.runs.tune.play import play_sums

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=False,
                           dashboard_address=":0", silence_logs=logging.ERROR)  # fmt: skip
    client = Client(cluster)

    def evaluate(rules: Rules, config: TuneConfig, lineups: list[list[str]], seed: int,
                 groups: int) -> list:  # fmt: skip
        futures = [client.submit(play_sums, rules, config, lineup, seed, groups, pure=False)
                   for lineup in lineups]  # fmt: skip
        return client.gather(futures)

    try:
        yield evaluate
    finally:
        client.close()
        cluster.close()
