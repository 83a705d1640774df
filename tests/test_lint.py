"""The code stays ruff-clean (lint and format), as the project's standards require."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.conftest import ROOT


@pytest.mark.parametrize("args", [["check", "."], ["format", "--check", "."]],
                         ids=["lint", "format"])  # fmt: skip
def test_ruff_is_clean(args):
    ruff = shutil.which("ruff")
    assert ruff, "ruff is part of the test extra: pip install -e '.[test]'"
    result = subprocess.run([ruff, *args], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
