"""``president atlas`` on a tiny atlas (two rule sets, few rounds): the parquet's schema
and measures, the same bytes again, on the Dask engine and after a kill and a resume,
and bad input in one line."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from simulator.runs.atlas.ladder import GAP_RUNGS, RUNGS, VERDICT_RUNGS
from simulator.runs.atlas.play import COLUMNS, FORMAT_VERSION, MATCH, MIX, TEST_STRATEGIES, part_of
from simulator.runs.atlas.windows import NEIGHBOURS
from simulator.runs.job import HEURISTICS
from tests.conftest import run_cli, without_compile_notice

pytestmark = pytest.mark.early  # plays a small atlas: every rung of the ladder

EXAMPLE = str(
    Path(__file__).resolve().parents[2] / "examples" / "rules" / "french-no-exchange.toml"
)
JOB = ["--rules", "french", "--rules", EXAMPLE, "--rounds", "40", "--min-batches", "2",
       "--max-batches", "2", "--max-edge-batches", "2", "--match-batches", "2", "--mix-batches", "2", "--seed", "3", "--workers", "1"]  # fmt: skip

MIXED = {*(f"rating_{r}" for r in RUNGS), "skill_depth", "rating_gain_top",
         *(f"{kind}_{a}_vs_{b}" for a, b in NEIGHBOURS for kind in ("edge", "n95"))}  # fmt: skip


def folder_bytes(path: Path) -> dict[str, bytes]:
    """The data files of an atlas's folder (the page's figures aside)."""
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))
            if p.is_file() and "figures" not in p.parts}  # fmt: skip


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> tuple[Path, dict[str, bytes]]:
    out = tmp_path_factory.mktemp("atlas") / "whole"
    result = run_cli("atlas", *JOB, "--out", str(out), "--quiet")
    assert result.exit_code == 0, result.stderr
    assert "2 rule sets" in result.stderr
    return out, folder_bytes(out)


def test_the_parquet_has_the_contract_columns_measures_and_format(whole):
    table = pq.read_table(whole[0] / "atlas.parquet")
    assert table.schema.metadata[b"atlas_format"] == FORMAT_VERSION.encode()
    frame = table.to_pandas()
    assert list(frame.columns) == list(COLUMNS)
    assert frame["rule_set"].unique().tolist() == ["french", EXAMPLE]
    base, variant = (frame[frame["rule_set"] == name] for name in ("french", EXAMPLE))
    expected = {"relative_skill", "relative_skill_champion_low", "relative_skill_champion_high",
                "relative_skill_linear", "top_convergence_rs", "top_convergence_gap",
                "edge_top_vs_heuristic", "edge_heuristic_vs_random", "n95_top_vs_heuristic",
                "n95_heuristic_vs_random", "deal_r2", "deal_r2_after_exchange",
                "president_stays", "president_stays_baseline", "exchange_effect",
                *(f"skill_gap_{r}" for r in GAP_RUNGS),
                *(f"mean_place_{s}" for s in TEST_STRATEGIES), *MIXED}  # fmt: skip
    assert set(base["measure"]) == expected
    differences = {"relative_skill_vs_base", "skill_depth_vs_base",
                   *(f"skill_gap_{r}_vs_base" for r in VERDICT_RUNGS)}  # fmt: skip
    assert set(variant["measure"]) == expected | differences
    paired = frame["measure"].str.endswith("_vs_base")
    assert frame.loc[paired, "p_holm"].between(0, 1).all()
    assert frame.loc[~paired, "p_holm"].isna().all()
    assert (frame["low"] <= frame["estimate"]).all() and (frame["estimate"] <= frame["high"]).all()
    assert frame["best_heuristic"].isin(HEURISTICS).all()
    # two batches of 40 rounds reach no precision target; the ordinary matches and the
    # mixed tables have none
    matches = frame["measure"].map(part_of).isin([MATCH, MIX])
    assert frame.loc[~matches, "capped"].all() and not frame.loc[matches, "capped"].any()
    assert (frame["field"] == "linear").all()
    # the field in the test seat places (n + 1) / 2 exactly: every seat is its own in turn
    linear = frame[frame["measure"] == "mean_place_linear"]
    assert np.allclose(linear[["estimate", "low", "high"]], 2.5)
    assert (whole[0] / "atlas.html").is_file()
    assert json.loads((whole[0] / "manifest.json").read_text())["complete"] is True


def test_the_same_seed_and_arguments_give_the_same_bytes_on_dask_too(whole, tmp_path):
    out = tmp_path / "dask"
    result = run_cli("atlas", *JOB, "--out", str(out), "--engine", "dask", "--quiet")
    assert result.exit_code == 0, result.stderr
    assert folder_bytes(out) == whole[1]


def test_a_finished_atlas_resumed_plays_nothing_and_writes_the_same(whole, tmp_path):
    out = tmp_path / "again"
    for name, data in whole[1].items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    result = run_cli("atlas", "--resume", str(out), "--quiet")
    assert result.exit_code == 0, result.stderr
    assert folder_bytes(out) == whole[1]


# The child's batches are slowed down, so that the kill lands between two of them.
CHILD = (
    "import sys, time, simulator.runs.atlas.batches as a\n"
    "def slowed(real):\n"
    "    def slow(*args):\n        out = real(*args)\n        time.sleep(1.0)\n        return out\n"
    "    return slow\n"
    "a.play_duels, a.play_pairs = slowed(a.play_duels), slowed(a.play_pairs)\n"
    "from simulator.cli import main; main(sys.argv[1:])"
)


def test_a_killed_atlas_resumes_to_the_uninterrupted_files(whole, tmp_path):
    out = tmp_path / "killed"
    command = [sys.executable, "-c", CHILD, "atlas", *JOB, "--out", str(out), "--quiet"]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 240
        while child.poll() is None and time.monotonic() < deadline:
            if (out / "batches").is_dir() and any((out / "batches").glob("*.npz")):
                break
            time.sleep(0.005)
        child.send_signal(signal.SIGKILL)
        _, stderr = child.communicate(timeout=60)
    finally:
        child.kill()
    assert child.returncode == -signal.SIGKILL, stderr
    kept = sorted(p.name for p in (out / "batches").glob("*.npz"))
    assert 1 <= len(kept) < 4, "the kill must land mid-atlas"
    assert not (out / "atlas.parquet").exists()
    resumed = run_cli("atlas", "--resume", str(out), "--quiet")
    assert resumed.exit_code == 0, resumed.stderr
    assert folder_bytes(out) == whole[1]


# ---------------------------------------------------------------- refused


def refused(*args: str) -> str:
    result = run_cli("atlas", *args)
    lines = without_compile_notice(result.stderr)
    assert result.exit_code == 2, result.stderr
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [(["--rules", "nowhere.toml"], "'nowhere.toml' is neither a preset nor a rules file"),
     (["--base", "belote"], "--base 'belote' is not a preset (allowed: french"),
     (["--rules", "french", "--field", "lowest,random"], "the field is one strategy"),
     (["--rules", "french", "--field", "nobody"], "--field: unknown strategy 'nobody'"),
     (["--rules", "french", "--field", "champion"], "not a search player"),
     (["--rules", "french", "--rounds", "0"], "--rounds must be a positive integer, not 0"),
     (["--rules", "french", "--max-batches", "0"], "--max-batches must be a positive"),
     (["--rules", "french", "--max-edge-batches", "0"], "--max-edge-batches must be a positive"),
     (["--rules", "french", "--match-batches", "0"], "--match-batches must be a positive"),
     (["--rules", "french", "--mix-batches", "0"], "--mix-batches must be a positive"),
     (["--rules", "french", "--min-batches", "4", "--max-edge-batches", "3"],
      "--min-batches 4 is above --max-edge-batches 3 (allowed: at most the cap)"),
     (["--rules", "french", "--rules", "french"], "names a rule set twice"),
     (["--rules", "french", "--budget-scale", "0"], "--budget-scale must be a number above 0"),
     (["--rules", "french", "--all"], "--all and --rules exclude each other")],
)  # fmt: skip
def test_bad_input_is_one_line_and_claims_no_folder(tmp_path, args, message):
    out = tmp_path / "out"
    assert message in refused(*args, "--out", str(out))
    assert not out.exists()


def test_a_foreign_resume_folder_is_refused(tmp_path):
    out = tmp_path / "tune"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps({"format": "president-sim/tune/2"}))
    assert "it holds a tune, not an atlas" in refused("--resume", str(out))
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no manifest.json there, so no atlas to finish" in refused("--resume", str(empty))


def test_an_atlas_of_an_older_format_is_refused_by_its_format(whole, tmp_path):
    """Format 3 played one search level (2 kept the ordinary matches in the edge batches):
    what it holds cannot be gone on with, and the message says so (not "not an atlas")."""
    out = tmp_path / "older"
    out.mkdir()
    manifest = json.loads(whole[1]["manifest.json"])
    (out / "manifest.json").write_text(json.dumps({**manifest, "format": "president-sim/atlas/3"}))
    message = refused("--resume", str(out))
    assert "its atlas is of format president-sim/atlas/3" in message
    assert "goes on with president-sim/atlas/4 only; start again with a new --out" in message


def test_the_api_returns_the_parquet_rows_and_raises_on_bad_input(whole, tmp_path):
    from simulator import atlas
    from simulator.errors import PresidentError
    from simulator.runs.atlas.folder import read_atlas

    out = tmp_path / "api"
    for name, data in whole[1].items():
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        (out / name).write_bytes(data)
    frame = atlas(resume=out)  # finished: nothing is played
    assert frame.equals(pq.read_table(whole[0] / "atlas.parquet").to_pandas())
    table = pq.read_table(out / "atlas.parquet")
    older = {**table.schema.metadata, b"atlas_format": b"2"}
    pq.write_table(table.replace_schema_metadata(older), out / "atlas.parquet")
    with pytest.raises(PresidentError, match="of format 2, and this version reads format 3"):
        read_atlas(out / "atlas.parquet")
    with pytest.raises(PresidentError, match="--field: unknown strategy 'nobody'"):
        atlas(rules=["french"], field="nobody")


def test_a_damaged_atlas_manifest_is_refused_in_one_line(whole, tmp_path):
    out = tmp_path / "damaged"
    out.mkdir()
    manifest = json.loads(whole[1]["manifest.json"])
    manifest["settings"]["batch_rounds"] = 0
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert "its manifest.json is damaged" in refused("--resume", str(out))


def test_an_atlas_started_by_other_code_is_refused_in_one_line(whole, tmp_path):
    out = tmp_path / "other-code"
    out.mkdir()
    manifest = json.loads(whole[1]["manifest.json"])
    manifest["code"] = "0" * 64  # the digest of sources that are not these
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert "was started by other code" in refused("--resume", str(out))


def test_the_budget_scale_is_kept_in_the_folder_for_a_resume(tmp_path):
    from simulator.runs.atlas.folder import AtlasFolder
    from simulator.runs.atlas.run import create_atlas

    out = tmp_path / "scaled"
    create_atlas(out, ["french"], "french", "linear", 40, 1, 1, 1, 1, 0, budget_scale=2.0)
    assert json.loads((out / "manifest.json").read_text())["settings"]["budget_scale"] == 2.0
    assert AtlasFolder.reopen(out).settings.budget_scale == 2.0
