"""``advised``: what a tip reads, the play it names, and the player that follows tips.

* Each play a tip may name (strategies.advice.PLAYS) picks the move its words say, on
  readable hands; what a tip reads of the table (VIEW) is what a person sees there.
* ``advised`` without tips is ``rules-aware`` move for move; with tips it makes a tip's
  play exactly where the tip's conditions hold, and plays the same moves on the
  reference engine as in the kernel (exchanges, table rules, 3 to 8 players).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import tests.strategies.test_strategies_vs_reference as twin
from simulator.matchloop.api import KernelJob, run_matches
from simulator.reference.rng import Stream
from simulator.reference.round import Move, Round
from simulator.rules.cards import counts_from_cards, parse_card
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from simulator.runs.advice.learn import Condition, Tip, tips_file
from simulator.runs.advice.mine import VIEW_COLUMNS
from strategies import registry
from strategies.adapter import KernelStrategy
from strategies.advice import PLAYS, VIEW_SIZE, view_and_plays

PLAY = {name: i for i, (name, _) in enumerate(PLAYS, start=1)}
PLACE = {name: i for i, name in enumerate(VIEW_COLUMNS, start=1)}


def counts(text: str) -> list[int]:
    return counts_from_cards(parse_card(c) for c in text.split())


def rank(text: str) -> int:
    return parse_card(text)


def position(rules: Rules, hands: list[str], script: list[tuple[str, int]]) -> Round:
    """A round from readable hands, seat 0 leading, after the scripted plays."""
    rnd = Round(rules, [counts(h) for h in hands], 0)
    for card, count in script:
        rnd.apply(Move(rank(card), count) if count else Move(0, 0))
    return rnd


def seen(rnd: Round) -> tuple[dict[str, float], dict[str, tuple[int, int]]]:
    """What the player to move sees, by name, and each play's move by name."""
    ks = KernelStrategy("rules-aware", registry.get("rules-aware").kernel_id, ())
    view, plays = np.zeros(VIEW_SIZE), np.full((len(PLAYS) + 1, 2), -1, dtype=np.int64)
    view_and_plays(rnd.turn, *ks.arrays(rnd.observation()), view, plays)
    named = {name: (int(plays[i, 0]), int(plays[i, 1])) for name, i in PLAY.items()}
    return dict(zip(VIEW_COLUMNS, view[1:], strict=True)), named


def test_each_play_names_the_move_its_words_say() -> None:
    """Answering a single 6 with 5 5 8 9 9 Q 2: the weakest is the 8, the strongest the
    2, the weakest whole group the 8 too, nobody can beat the 2 (no joker), and a lead of
    the largest group does not exist while answering; keeping the weakest, the next is a
    9 (breaking the pair: only singles go), and the weakest card held once the 8."""
    rules = Rules()
    rnd = position(rules, ["6 3 3", "5 5 8 9 9 Q 2", "4 4 J K"], [("6", 1)])
    _, plays = seen(rnd)
    assert plays["pass"] == (0, 0)
    assert plays["weakest"] == (rank("8"), 1)
    assert plays["strongest"] == (rank("2"), 1)
    assert plays["whole"] == (rank("8"), 1)
    assert plays["sure"] == (rank("2"), 1)
    assert plays["largest"][1] == -1
    assert plays["second"] == (rank("9"), 1)
    assert plays["lone"] == (rank("8"), 1)
    assert plays["revolt"][1] == -1 and plays["jacks"][1] == -1  # the rules are off


def test_a_lead_plays_whole_groups_and_breaks_are_seen() -> None:
    """Leading 5 5 8 9 9 9 Q: the weakest is both 5s, the largest group the three 9s.
    Answering a pair of 7s, the weakest pair that can go is two of the three 9s, which
    breaks them, and no whole group can go."""
    rules = Rules()
    lead = position(rules, ["5 5 8 9 9 9 Q", "3 4", "6 J"], [])
    view, plays = seen(lead)
    assert plays["weakest"] == (rank("5"), 2)
    assert plays["largest"] == (rank("9"), 3)
    assert plays["second"] == (rank("8"), 1) and plays["lone"] == (rank("8"), 1)
    assert plays["pass"][1] == -1  # a leader may not pass
    assert (view["leading"], view["size"], view["to_beat"], view["cards"]) == (1, 0, 0, 7)
    answer = position(rules, ["7 7 3", "5 5 8 9 9 9 Q", "6 J"], [("7", 2)])
    view, plays = seen(answer)
    assert plays["weakest"] == (rank("9"), 2)
    assert plays["whole"][1] == -1  # the only pair that beats 7s is part of the 9s
    assert plays["second"][1] == -1 and plays["lone"][1] == -1  # one rank goes, as a pair
    assert (view["size"], view["breaks"], view["cheapest"]) == (2, 1, rank("9") + 1)
    assert view["to_beat"] == rank("7") + 1 and view["owner"] == 1  # seat 0 holds the 3


def test_the_table_rules_plays_exist_only_under_their_rules() -> None:
    """8s end the trick, jacks reverse it, a four starts a revolution: each is named only
    where its rule is on."""
    hand = "8 J J 4 4 4 4 K"
    on = Rules(eight_ends_trick=True, jack_back=True, revolution=True)
    _, plays = seen(position(on, [hand, "3 5", "6 Q"], []))
    assert plays["ender"] == (rank("8"), 1)
    assert plays["jacks"] == (rank("J"), 2)
    assert plays["revolt"] == (rank("4"), 4)
    _, plays = seen(position(Rules(), [hand, "3 5", "6 Q"], []))
    assert [plays[p][1] for p in ("ender", "jacks", "revolt")] == [-1, -1, -1]


def test_a_lone_card_is_never_a_2_or_a_joker() -> None:
    """Leading 4 4 7 2 JK with two jokers in the deck: the only card held once below the 2s
    is the 7; holding 4 4 2 JK there is none. Keeping the 4s, the next weakest is the 7."""
    rules = Rules(jokers=2)
    _, plays = seen(position(rules, ["4 4 7 2 JK", "3 5", "6 Q"], []))
    assert plays["lone"] == (rank("7"), 1)
    assert plays["second"] == (rank("7"), 1)
    _, plays = seen(position(rules, ["4 4 2 JK", "3 5", "6 Q"], []))
    assert plays["lone"][1] == -1
    assert plays["second"] == (rank("2"), 1)


def pass_on_strong(tmp_path: Path, rules: Rules) -> str:
    """``advised`` with one tip: pass when the weakest cards that can go are an A or stronger."""
    tip = Tip(PLAY["pass"], (Condition(PLACE["cheapest"], rank("A") + 1, 99),), 1, 1, 0, "")
    return tips_file([tip], rules, tmp_path / "tips.toml", {"seed": 0})


def test_a_tip_is_followed_where_it_applies_and_only_there(tmp_path: Path) -> None:
    rules = Rules()
    tipped = registry.make(pass_on_strong(tmp_path, rules), rules)
    plain = registry.make("rules-aware", rules)
    strong = position(rules, ["K 3", "A 2 5", "6 Q"], [("K", 1)])  # only the A or the 2 go
    weak = position(rules, ["9 3", "A 2 10", "6 Q"], [("9", 1)])  # the 10 goes
    assert plain.choose(strong.observation(), Stream(1)) == Move(rank("A"), 1)
    assert tipped.choose(strong.observation(), Stream(1)).count == 0
    assert tipped.choose(weak.observation(), Stream(1)) == plain.choose(
        weak.observation(), Stream(1)
    )


def test_without_tips_it_is_rules_aware_move_for_move() -> None:
    rules = preset("french")
    rows = []
    for lineup in (["advised", *["rules-aware"] * 3], ["rules-aware"] * 4):
        job = KernelJob.build(rules, lineup, 3, 10, 200)
        rows.append(run_matches(job, 0, 64))
    assert np.array_equal(rows[0], rows[1])


@pytest.mark.parametrize("label", ["french", "daifugo"])
def test_tips_play_the_same_moves_on_both_engines(tmp_path: Path, monkeypatch, label) -> None:
    rules = preset("french") if label == "french" else Rules().with_options(
        jokers=2, revolution=True, eight_ends_trick=True, jack_back=True, exchange=(2, 1)
    )  # fmt: skip
    tips = [Tip(PLAY["pass"], (Condition(PLACE["cheapest"], 12, 99),), 1, 1, 0, ""),
            Tip(PLAY["largest"], (Condition(PLACE["ranks"], 4, 99),
                                  Condition(PLACE["fewest"], 3, 99)), 1, 1, 0, ""),
            Tip(PLAY["revolt"], (Condition(PLACE["low"], 4, 99),), 1, 1, 0, ""),
            Tip(PLAY["second"], (Condition(PLACE["leading"], 1, 1),
                                 Condition(PLACE["players"], 3, 99)), 1, 1, 0, ""),
            Tip(PLAY["lone"], (Condition(PLACE["size"], 1, 1),), 1, 1, 0, "")]  # fmt: skip
    name = tips_file(tips, rules, tmp_path / "tips.toml", {"seed": 0})
    monkeypatch.setattr(twin, "HEURISTICS", [name, name, "rules-aware"])
    twin.test_heuristics_replay_on_reference_engine(label, rules)
