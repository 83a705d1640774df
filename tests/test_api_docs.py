"""docs/api.md's examples, run as written: a page whose examples fail is a page that lies."""

from __future__ import annotations

from simulator.api import Compared, Report, Simulation, Tournament, Tuned
from tests.conftest import ROOT
from tests.docs_code import code_blocks, run_python_blocks

PAGE = ROOT / "docs" / "api.md"


def test_every_example_of_the_api_page_runs(tmp_path):
    assert len(code_blocks(PAGE, "python")) >= 6
    found = run_python_blocks(PAGE, tmp_path)
    assert isinstance(found["run"], Simulation)
    assert isinstance(found["cmp"], Compared)
    assert isinstance(found["ranked"], Tournament)
    assert isinstance(found["page"], Report)
    tuned = found["tuned"]
    assert isinstance(tuned, Tuned) and len(tuned.generations) == 3
    assert tuned.tuned_file.is_file() and list(tuned.held_out["measure"]) == [
        "tuned",
        "default",
        "tuned - default",
    ]
    assert (tmp_path / "mine" / "report.html").is_file()
    ranked = found["ranked"].ranking
    assert ranked["strategy"].iloc[0] == "rules-aware"  # it places best by far at this size
