"""A tune's resume state is data, never code: nothing is pickled, the optimiser is
rebuilt from the seed and the recorded fitness bit for bit, and a tampered folder is
refused in one line. The candidates here are scored by a hash of their names (no kernel):
what is tested is the optimiser's bookkeeping, not the play."""

from __future__ import annotations

import copy
import json
import pickle
import re
import zlib
from pathlib import Path

import numpy as np
import pytest

from simulator.rules.presets import preset
from simulator.runs.tune.folder import GENERATIONS_FILE, TuneFolder
from simulator.runs.tune.play import MEAN, Space, Sums, TuneConfig, TuneError
from simulator.runs.tune.search import (
    as_resumed,
    new_state,
    optimizer_record,
    replayed,
    run_tune,
)
from strategies import registry

RULES = preset("french")
CONFIG = TuneConfig("planner", ("rules-aware", MEAN, "control"), generations=4, population=4,
                    rounds_per_candidate=60, held_out_rounds=120, rounds_per_match=3,
                    seed=9)  # fmt: skip
ROOT = Path(__file__).resolve().parents[2]


def hashed(rules, config, lineups, seed, groups) -> list[Sums]:
    """A candidate's 'places': a hash of its name and the seed, spread over the groups."""
    sums = []
    for lineup in lineups:
        h = zlib.crc32(f"{lineup[0]}|{seed}".encode())
        sums.append(Sums(np.full(groups, 1.0 + (h % 1000) / 400), np.ones(groups)))
    return sums


class Stop(Exception):
    """Raised by the progress callback: the tune stops as a kill would."""


def stopped_after(path: Path, generations: int) -> TuneFolder:
    """A tune folder stopped once ``generations`` generations were kept."""
    folder = TuneFolder.create(path, RULES, CONFIG)

    def progress(done, total, best, mean):
        if done == generations:
            raise Stop

    with pytest.raises(Stop):
        run_tune(RULES, CONFIG, None, folder, hashed, progress)
    return folder


def test_the_package_neither_pickles_nor_unpickles():
    forbidden = re.compile(
        r"^\s*(import|from)\s+(c?pickle|cloudpickle|dill|shelve|marshal)\b|"
        r"pickle\.loads?\(|allow_pickle\s*=\s*True",
        re.MULTILINE,
    )
    found = [
        str(path.relative_to(ROOT))
        for package in ("simulator", "strategies")
        for path in (ROOT / package).rglob("*.py")
        if forbidden.search(path.read_text("utf-8"))
    ]
    assert found == []


def test_as_resumed_is_the_form_the_stored_optimiser_had():
    """Earlier versions stored the optimiser's pickle and went through it between
    generations; the copy that replaces it asks the very same candidates."""
    optimizer = new_state(CONFIG, Space(registry.get("planner"))).optimizer
    for _ in range(3):  # a few generations, so that the covariance is no longer diagonal
        points = [optimizer.ask() for _ in range(optimizer.population_size)]
        optimizer.tell([(z, float(np.sum(z**2))) for z in points])
    through_pickle = pickle.loads(pickle.dumps(optimizer))
    through_pickle.reseed_rng(77)
    copied = as_resumed(optimizer, 77)
    for _ in range(6):
        assert np.array_equal(copied.ask(), through_pickle.ask())


def test_a_replay_rebuilds_the_optimiser_bit_for_bit():
    kept = []

    class Store:
        def save(self, state):
            kept.append((len(state.generations), copy.deepcopy(state.optimizer)))

    state = run_tune(RULES, CONFIG, None, Store(), hashed)
    for count, live in kept[:-1]:  # the last save adds the held-out check only
        record = json.loads(json.dumps(optimizer_record(live)))  # as the manifest holds it
        rebuilt = replayed(CONFIG, state.generations[:count], record)
        assert optimizer_record(rebuilt) == optimizer_record(live)
        a, b = as_resumed(rebuilt, 5), as_resumed(live, 5)
        assert all(np.array_equal(a.ask(), b.ask()) for _ in range(CONFIG.population))


def test_a_stopped_tune_resumes_to_the_unbroken_one(tmp_path):
    unbroken = run_tune(RULES, CONFIG, None, None, hashed)
    stopped_after(tmp_path / "t", 2)
    manifest = json.loads((tmp_path / "t" / "manifest.json").read_text())
    assert set(manifest["optimizer"]) == {"generation", "mean"}  # numbers, no code
    folder = TuneFolder.reopen(tmp_path / "t")
    resumed = run_tune(RULES, CONFIG, folder.state, folder, hashed)
    assert resumed.generations == unbroken.generations
    assert resumed.tuned == unbroken.tuned and resumed.held_out == unbroken.held_out


def edit_fitness(path: Path) -> None:
    lines = (path / GENERATIONS_FILE).read_text().splitlines(keepends=True)
    first = json.loads(lines[0])
    best = min(first["candidates"], key=lambda c: c["fitness"])
    best["fitness"] = 100.0  # the best becomes the worst (CMA-ES reads ranks only)
    (path / GENERATIONS_FILE).write_text(json.dumps(first) + "\n" + "".join(lines[1:]))


def edit_mean(path: Path) -> None:
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["optimizer"]["mean"][0] += 1e-9
    (path / "manifest.json").write_text(json.dumps(manifest))


def edit_record(path: Path) -> None:
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["optimizer"] = "gASVAAAAAAAAAAB9lC4="  # a pickle, base64: data, never read as code
    (path / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize(
    ("tamper", "message"),
    [(edit_fitness, "generation 1's candidates are not those the tune's seed draws"),
     (edit_mean, "the recorded fitness does not lead to the optimiser it holds"),
     (edit_record, "do not rebuild the tune's optimiser")],
)  # fmt: skip
def test_a_tampered_state_is_refused_in_one_line(tmp_path, tamper, message):
    path = tmp_path / "t"
    stopped_after(path, 2)
    tamper(path)
    with pytest.raises(TuneError) as refused:
        TuneFolder.reopen(path)
    line = str(refused.value)
    assert "\n" not in line and message in line
    assert f"its {GENERATIONS_FILE} and manifest.json" in line and str(path) in line


def test_a_folder_of_the_pickling_format_is_refused_by_its_version(tmp_path):
    path = tmp_path / "t"
    stopped_after(path, 1)
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["format"] = "president-sim/tune/1"
    manifest["cma"] = "gASVAAAAAAAAAAB9lC4="
    (path / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(TuneError, match=r"of format president-sim/tune/1, and this version"):
        TuneFolder.reopen(path)
