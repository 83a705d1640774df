"""Write a pip constraints file pinning every dependency of pyproject.toml (the run-time
ones and the given extras) to its declared lower bound: the oldest versions the project
claims to support, which CI installs and tests (`.ci/run`).

Usage: python .ci/lower_bounds.py EXTRA [EXTRA ...] > constraints.txt

A requirement without a ``>=`` bound, or pinned exactly (``==``), is written as it is.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

REQUIREMENT = re.compile(r"^\s*([A-Za-z0-9_.\-]+)(\[[^\]]*\])?\s*(.*)$")


def lower_bound(requirement: str) -> str:
    """``numpy>=1.26,<3`` -> ``numpy==1.26``; ``ruff==0.17.6`` stays as it is."""
    name, _extras, spec = REQUIREMENT.match(requirement).groups()
    for clause in spec.split(","):
        clause = clause.strip()
        if clause.startswith("=="):
            return f"{name}{clause}"
        if clause.startswith(">="):
            return f"{name}=={clause[2:].strip()}"
    raise SystemExit(f"{requirement!r} declares no lower bound (>=): every dependency needs one")


def main(extras: list[str]) -> None:
    project = tomllib.loads(Path("pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    for extra in extras:
        requirements += project["optional-dependencies"][extra]
    print("\n".join(lower_bound(r) for r in requirements))


if __name__ == "__main__":
    main(sys.argv[1:])
