"""A short ``president simulate`` imports only what it uses (docs/performance.md, start-up)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

from simulator.runs.schema import arrow_array, arrow_strings
from tests.conftest import ROOT


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.bool_])
@pytest.mark.parametrize("size", [0, 1, 7, 8, 9, 1000])
def test_arrow_arrays_are_those_pa_array_makes(dtype, size):
    """The run's columns built from their buffers equal ``pa.array``'s (booleans as bits,
    a length that is no multiple of 8 included), strided input too."""
    values = np.random.default_rng(size).integers(-3, 4, 2 * size).astype(dtype)[::2]
    built = arrow_array(values)
    built.validate(full=True)
    assert built.type == pa.array(values).type
    assert built.equals(pa.array(values))
    assert built.null_count == 0


def test_arrow_strings_are_those_pa_array_makes():
    names = ["lowest", "", "rules-aware", "é-ü"]
    built = arrow_strings(names)
    built.validate(full=True)
    assert built.equals(pa.array(names, pa.string()))
    assert arrow_strings([]).equals(pa.array([], pa.string()))


PROBE = """
import sys
from simulator.cli import main
try:
    main(["simulate", "--rules", "french", "--rounds", "200", "--seed", "3", "--quiet",
          "--strategies", "lowest,random,lowest,random", "--out", sys.argv[1]])
except SystemExit as exit:
    assert not exit.code, exit.code
print(" ".join(sorted(sys.modules)))
"""
# what a run of built-in strategies on the numba engine never uses: pandas (its table goes
# to parquet through Arrow alone), the figures, and users' strategies with the reference
# engine's replay of their faults
UNUSED = (
    "pandas",
    "matplotlib",
    "strategies.user",
    "strategies.agent",
    "strategies.guard",
    "simulator.env",
    "simulator.matchloop.userchain",
    "simulator.matchloop.replay",
)


def test_a_simulate_of_built_ins_imports_none_of_what_it_does_not_use(tmp_path):
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "run")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr
    loaded = set(out.stdout.split())
    assert "simulator.runs.schema" in loaded  # it did write its parts
    assert (tmp_path / "run" / "rounds.parquet" / "part-00000.parquet").exists()
    assert sorted(loaded & set(UNUSED)) == []
