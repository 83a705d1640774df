"""docs/strategies.md's tutorial, run as written: its strategy file is written from the
page, ranked in the page's tournament, and must beat ``lowest`` there."""

from __future__ import annotations

import pytest

from simulator.api import Simulation, Tournament
from tests.conftest import ROOT
from tests.docs_code import code_blocks, run_python_blocks

PAGE = ROOT / "docs" / "strategies.md"
MINE = "sets_first.py:sets_first"


@pytest.fixture(scope="module")
def tutorial(tmp_path_factory):
    """What the page's examples computed, run once from a fresh folder."""
    folder = tmp_path_factory.mktemp("tutorial")
    return folder, run_python_blocks(PAGE, folder)


def test_the_tutorial_runs_and_its_strategy_beats_lowest(tutorial):
    assert any(
        block.startswith("# examples/strategies/sets_first.py")
        for block in code_blocks(PAGE, "python")
    )
    tmp_path, found = tutorial
    ranked = found["ranked"]
    assert isinstance(ranked, Tournament)
    assert (tmp_path / "sets-first" / "tournament.html").is_file()
    rows = {(r.a, r.b): r for r in ranked.pairwise.itertuples()}
    if (MINE, "lowest") in rows:
        r = rows[(MINE, "lowest")]
        high = r.diff_hi
    else:  # the pair held the other way round: its interval changes sign
        r = rows[("lowest", MINE)]
        high = -r.diff_lo
    assert high < 0, "the tutorial's strategy no longer places better than lowest"
    assert list(ranked.ranking["strategy"]) == [MINE, "lowest"]


def test_the_tutorial_plain_python_strategy_plays_on_the_reference_engine(tutorial):
    _, found = tutorial
    tried = found["tried"]
    assert isinstance(tried, Simulation)
    assert list(tried.standings["strategy"]) == ["keep_pairs.py:KeepPairs", "lowest", "random"]
    assert tried.result.rounds >= 400
