"""The Dask engine: on a cluster started here (a scheduler and 2 worker processes), runs
write the very files of the local engine — whether the workers write the parts or send
their rows, also when a worker is killed mid-run."""

from __future__ import annotations

import logging
import os
import signal
from pathlib import Path

import dask
import pytest
from distributed import Client, LocalCluster

import simulator.runs.job as job
import simulator.runs.simulate as simulate
from simulator.matchloop.api import KernelJob, run_matches
from simulator.rules.presets import preset
from simulator.runs.folder import OutputFolder, WorkerTarget
from simulator.runs.job import default_strategies
from simulator.runs.parts import Part, settle
from tests.cli.test_bad_input import assert_refused
from tests.conftest import run_cli
from tests.runs.test_resume import folder_bytes, table_of

SMALL_PARTS = 100  # rounds per part: a small job still makes many parts
JOBS = {
    "matches": ["--rules", "french", "--players", "5", "--matches", "300"],
    "rounds-under-a-target": ["--rules", "spade", "--rounds", "1500", "--duplicate"],
}


@pytest.fixture(autouse=True)
def small_parts(monkeypatch):
    monkeypatch.setattr(job, "PART_ROUNDS", SMALL_PARTS)


@pytest.fixture(scope="module")
def cluster():
    """A scheduler and two single-threaded worker processes, closed after the tests.

    The kernel is compiled here first, so the workers load numba's cache, not compile.
    """
    job = KernelJob.build(preset("french"), ["lowest"] * 4, 0, 1, 10)
    run_matches(job, 0, 1)
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        ) as local,
        Client(local) as client,
    ):
        yield client


def run_to(out: Path, *args: str) -> str:
    result = run_cli("simulate", *args, "--seed", "5", "--quiet", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    return table_of(result.stdout)


@pytest.mark.parametrize("job", sorted(JOBS))
def test_dask_engine_writes_the_local_engine_files(cluster, tmp_path, job):
    address = cluster.scheduler.address
    dask_table = run_to(tmp_path / "dask", *JOBS[job], "--engine", "dask", "--scheduler", address)
    local_table = run_to(tmp_path / "local", *JOBS[job], "--workers", "2")
    assert len(list((tmp_path / "local" / "rounds.parquet").iterdir())) >= 10
    assert folder_bytes(tmp_path / "dask") == folder_bytes(tmp_path / "local")
    assert dask_table == local_table


def test_a_worker_killed_mid_run_costs_only_its_parts(cluster, tmp_path):
    """SIGKILL on a worker that holds parts of the run (running or finished, not yet
    gathered) once the first part is back: its parts are computed again elsewhere."""
    config = job.make_config(
        preset("french").with_options(players=5), default_strategies(5), 5, matches=600
    )
    killed: list[int] = []

    def kill_a_busy_worker(done: int, expected: int | None, seconds: float) -> None:
        if killed:
            return
        held = {w: set(keys) for w, keys in cluster.has_what().items()}
        for w, keys in cluster.processing().items():
            held.setdefault(w, set()).update(keys)
        worker = max(held, key=lambda w: len([k for k in held[w] if "part_task" in str(k)]))
        killed.append(len([k for k in held[worker] if "part_task" in str(k)]))
        pid = cluster.run(os.getpid, workers=[worker])[worker]
        os.kill(pid, signal.SIGKILL)

    address = cluster.scheduler.address
    result = simulate.run(
        config, tmp_path / "dask", engine="dask", scheduler=address, progress=kill_a_busy_worker
    )
    assert killed and killed[0] >= 1, "the killed worker must hold parts of the run"
    local = simulate.run(config, tmp_path / "local", workers=2)
    assert folder_bytes(tmp_path / "dask") == folder_bytes(tmp_path / "local")
    assert result.table == local.table
    cluster.wait_for_workers(2, timeout=60)  # the nanny restarts the killed worker


def test_dask_engine_without_a_scheduler_starts_a_local_cluster(tmp_path):
    job = JOBS["matches"]
    dask_table = run_to(tmp_path / "dask", *job, "--engine", "dask", "--workers", "2")
    local_table = run_to(tmp_path / "local", *job)
    assert folder_bytes(tmp_path / "dask") == folder_bytes(tmp_path / "local")
    assert dask_table == local_table


def test_an_unreachable_scheduler_is_one_line(tmp_path):
    out = tmp_path / "out"
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = run_cli(
            "simulate", "--matches", "10", "--engine", "dask", "--scheduler", "tcp://127.0.0.1:9",
            "--out", str(out),
        )  # fmt: skip
    assert_refused(result, "tcp://127.0.0.1:9", "Dask scheduler")
    assert not (out / "summary.json").exists()


def test_a_scheduler_needs_the_dask_engine():
    result = run_cli("simulate", "--matches", "10", "--scheduler", "tcp://127.0.0.1:8786")
    assert_refused(result, "--scheduler", "--engine dask")


def test_workers_that_reach_the_folder_write_the_parts(cluster, tmp_path, monkeypatch):
    """On one machine every worker sees the run's mark: the parts come back staged, only
    their tallies travel, and the client lists them."""
    settled: list[Part] = []
    monkeypatch.setattr(
        simulate, "settle", lambda c, part, f: settled.append(part) or settle(c, part, f)
    )
    config = job.make_config(preset("french"), default_strategies(4), 5, matches=300)
    simulate.run(config, tmp_path / "dask", engine="dask", scheduler=cluster.scheduler.address)
    assert len(settled) >= 10
    assert all(part.staged is not None and part.rows is None for part in settled)
    simulate.run(config, tmp_path / "local", workers=2)
    assert folder_bytes(tmp_path / "dask") == folder_bytes(tmp_path / "local")


def test_workers_that_cannot_reach_the_folder_send_their_rows(cluster, tmp_path, monkeypatch):
    """A worker that does not see the run's mark (a folder of the same name on another
    machine) sends its rows, and the client writes the very same files."""
    elsewhere = WorkerTarget(tmp_path / "elsewhere", ".live-0")
    monkeypatch.setattr(OutputFolder, "open_to_workers", lambda self: elsewhere)
    settled: list[Part] = []
    monkeypatch.setattr(
        simulate, "settle", lambda c, part, f: settled.append(part) or settle(c, part, f)
    )
    config = job.make_config(preset("spade"), default_strategies(4), 5, rounds=1500)
    simulate.run(config, tmp_path / "dask", engine="dask", scheduler=cluster.scheduler.address)
    assert settled and all(part.staged is None and part.rows is not None for part in settled)
    simulate.run(config, tmp_path / "local", workers=2)
    assert folder_bytes(tmp_path / "dask") == folder_bytes(tmp_path / "local")


def test_without_a_folder_only_the_tallies_travel(cluster, monkeypatch):
    settled: list[Part] = []
    monkeypatch.setattr(
        simulate, "settle", lambda c, part, f: settled.append(part) or settle(c, part, f)
    )
    config = job.make_config(preset("spade"), default_strategies(4), 5, rounds=1500)
    dask = simulate.run(config, None, engine="dask", scheduler=cluster.scheduler.address)
    assert settled and all(part.rows is None and part.staged is None for part in settled)
    assert dask.table == simulate.run(config, None, workers=2).table
