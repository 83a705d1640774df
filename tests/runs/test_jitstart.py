"""numba's first load without scipy.linalg and cffi (simulator.runs.jitstart)."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT

PROBE = """
import sys
from simulator.runs.jitstart import UNUSED, load_numba
load_numba()
skipped = [name for name in UNUSED if name in sys.modules]
load_numba()  # a second call changes nothing

import numba
import numpy as np

@numba.njit(cache=False)
def dot(a, b):
    return np.dot(a, b)

print(skipped, dot(np.ones(3), np.arange(3.0)), "scipy.linalg" in sys.modules)
"""


def test_the_first_load_skips_the_probes_and_numba_still_does_linear_algebra():
    """The probes are refused only while numba loads: afterwards scipy.linalg imports as
    usual, and a jitted np.dot (which needs it) compiles and runs."""
    out = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, timeout=600
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["[]", "3.0", "True"]
