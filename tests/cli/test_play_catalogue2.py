"""``president play`` under the second catalogue: the screen says what the table rules do.

The header says when jack-back is on (and what order is then in force); the log says
why a trick ended at once (a burn, 8s, going out), and who leads after a player went
out and why (the next holder, or the last player left in the trick); the first lines of
a round say when the 3 of clubs chose the leader, and the exchange tells the person who
holds it that giving back his last 3 gives the lead away. A typist reading only the
screen and playing ``lowest`` plays the bot match exactly at the example tables.
"""

from __future__ import annotations

import pytest

from simulator.apps.play.input import Console
from simulator.apps.play.screen import Table
from simulator.apps.play.session import play_session
from simulator.reference.match import RoundRecord, play_match
from simulator.reference.round import Move, Round
from simulator.rules.cards import counts_from_cards, parse_card
from simulator.rules.files import load_rules
from simulator.rules.options import Rules
from strategies.lowest import Lowest
from tests.cli.test_play import LowestTypist
from tests.conftest import ROOT


def counts(text: str) -> list[int]:
    return counts_from_cards(parse_card(c) for c in text.split())


def table_for(rules: Rules, leader: int = 0, index: int = 0) -> tuple[Table, list[str]]:
    """A Table following round ``index`` of a bot-only match (nobody typing)."""
    out: list[str] = []
    names = ["lowest"] * rules.players
    table = Table(rules, names, -1, Console(lambda: None, out.append))
    n = rules.players
    record = RoundRecord(
        index=index, seating=list(range(n)), dealer=0, leader=leader, club=leader, dealt=[],
        strength=[], hands=[], places=[], points=[], totals=[],
    )  # fmt: skip
    table.observe("round_start", record)
    return table, out


def play_out(table: Table, rnd: Round, moves: list[tuple[int, int]]) -> None:
    for rank, count in moves:
        table.observe("events", (rnd, rnd.apply(Move(rank, count))))


PASS = (-1, 0)


def test_the_header_gives_the_order_in_force_under_jack_back():
    rnd = Round(Rules(jack_back=True, revolution=True), [counts("J 5"), counts("9 K")], 0)
    assert rnd.observation().order_note() == ""
    rnd.apply(Move(8, 1))  # a J: jack-back on
    assert "jack-back: 2 weakest, 3 strongest" in rnd.observation().order_note()
    rnd = Round(Rules(jack_back=True, revolution=True), [counts("6 6 6 6 J 5"), counts("9 K")], 0)
    rnd.apply(Move(3, 4))  # a revolution
    rnd.apply(Move(-1, 0))
    assert rnd.observation().order_note() == " (revolution: 2 weakest, 3 strongest)"
    rnd.apply(Move(8, 1))  # a J during the revolution: the normal order for the trick
    assert "turned back by jack-back: normal order" in rnd.observation().order_note()


def test_a_burn_by_accumulation_is_said_in_the_log():
    rules = Rules(players=3, equal_rank="allow", accumulation_burns=True)
    table, _ = table_for(rules)
    rnd = Round(rules, [counts("7 7 K"), counts("7 7 4"), counts("9 5")], 0)
    play_out(table, rnd, [(4, 2), (4, 2)])
    assert table.log[-1] == (
        "-- trick over (the pile burns: 4 cards of one rank in a row); P1 (lowest) leads"
    )


def test_who_leads_after_an_out_and_why():
    rules = Rules(players=3, eight_ends_trick=True)
    table, _ = table_for(rules)
    rnd = Round(rules, [counts("5 J"), counts("8"), counts("7 9")], 0)
    play_out(table, rnd, [(2, 1), (5, 1)])  # 5, then an 8 that is the last card
    assert table.log[-1] == (
        "-- trick over (8s end the trick); P2 (lowest) leads: the next player holding "
        "cards after P1 (lowest), who went out"
    )
    rules = load_rules("french").with_options(players=4, after_out_lead="last_in_trick")
    table, _ = table_for(rules)
    rnd = Round(rules, [counts("5 10"), counts("3 4"), counts("9 K"), counts("7 8")], 0)
    play_out(table, rnd, [(2, 1), PASS, (6, 1), PASS, (7, 1)])
    assert table.log[-1] == (
        "-- trick over; P2 (lowest) leads: the last player left in it after P0 (lowest) went out"
    )


@pytest.mark.parametrize(("value", "index", "said"), [
    ("first_round", 0, True), ("first_round", 1, False), ("every_round", 3, True),
    ("off", 0, False)])  # fmt: skip
def test_the_round_start_says_when_the_three_of_clubs_chose_the_leader(value, index, said):
    _, out = table_for(Rules(clubs_three_opens=value), leader=2, index=index)
    line = next(text for text in out if "dealt" in text)
    assert ("P2 (lowest) leads (holds the 3 of clubs)." in line) is said


class TableTypist(LowestTypist):
    """:class:`LowestTypist` at the table rules' screens, whose header says "2 weakest"
    whenever the order in force is reversed (a revolution or a jack-back)."""

    REVERSED = "2 weakest"


@pytest.mark.parametrize("table_file", ["american", "daifugo", "french-cafe"])
@pytest.mark.parametrize(("players", "seat"), [(4, 1), (5, 3)])
def test_typing_lowest_plays_the_bot_match_at_the_example_tables(table_file, players, seat):
    rules = load_rules(ROOT / "examples" / "rules" / f"{table_file}.toml")
    rules = rules.with_options(players=players)
    typist = TableTypist()
    bots = [Lowest() for _ in range(players - 1)]
    console = Console(typist.read, typist.write)
    result = play_session(rules, bots, seat, 5, 3, console)
    expected = play_match(rules, [Lowest() for _ in range(players)], 5, 0, rounds=3)
    assert result.places == [r.places for r in expected.rounds]
    assert not result.quit
