"""examples/notebook.py, run small as a user would run it: it plays through the API and
draws its figure."""

from __future__ import annotations

import subprocess
import sys

from tests.conftest import ROOT


def test_the_notebook_example_runs_and_draws(tmp_path):
    done = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "notebook.py"), "--rounds", "800",
         "--out", str(tmp_path)],
        capture_output=True, text=True, cwd=tmp_path, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    figure = tmp_path / "mean_place.png"
    assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "rules-aware" in done.stdout and f"figure: {figure}" in done.stdout
