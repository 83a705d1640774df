"""``president atlas``'s last words (simulator/cli/atlas.py, ``say_verdicts``): the
verdicts that hold in words, the level-dependent ones by name, and the page, from a
synthetic atlas.parquet (tests/reports/atlas_frame.py)."""

from __future__ import annotations

from simulator.cli.atlas import say_verdicts
from tests.reports.atlas_frame import DEPENDS, LUCK_CLAIMS, SKILL_CLAIMS, atlas_frame


def test_the_run_ends_with_the_held_claims_in_words(tmp_path, capsys):
    parquet = tmp_path / "atlas.parquet"
    atlas_frame().to_parquet(parquet)
    say_verdicts(parquet, tmp_path / "atlas.html", 100)
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 100
    said = " ".join(out.split())
    skill, luck = (said.index(f"- {n} makes the game more about") for n in (*SKILL_CLAIMS,
                                                                            *LUCK_CLAIMS))  # fmt: skip
    assert skill < luck < said.index("Depends on the level of play")
    assert f"(no verdict): {', '.join(DEPENDS)}." in said
    assert said.endswith(f"the luck measures: {tmp_path / 'atlas.html'}")


def test_no_held_claim_is_said_so(tmp_path, capsys):
    frame = atlas_frame()
    frame.loc[frame["measure"] == "skill_gap_linear_vs_base", "p_holm"] = 0.5
    parquet = tmp_path / "atlas.parquet"
    frame.to_parquet(parquet)
    say_verdicts(parquet, tmp_path / "atlas.html", 80)
    assert "(every level of play agrees):\n  none\n" in capsys.readouterr().out
