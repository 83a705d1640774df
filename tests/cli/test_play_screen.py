"""``president play``: what the screen shows between moves and how a match's standing reads.

The typist of tests/cli/test_play.py plays ``lowest`` from the screen alone, so the match
is the bot-only match and its events are known: every event since the person's last
move must be on his next screen, however many there are. Rules without points show the
standing by places and roles; names of any length keep the columns aligned; Ctrl-C ends
the match with the standing so far, like ``q``.
"""

from __future__ import annotations

import re

import pytest

from simulator.apps.play.input import Console
from simulator.apps.play.session import play_session
from simulator.apps.play.standing import leader
from simulator.reference.match import play_match
from simulator.rules.files import load_rules
from strategies import registry
from strategies.lowest import Lowest
from tests.cli.test_play import GAME, GIVE_BACK, ROUND_1, LowestTypist, play, typist_session

LOGGED = ("play", "pass", "skip", "out", "trick_end")  # the events the screen's log shows


def player_of(event, seating: list[int]) -> int:
    """The player an event names first on its log line (the next leader for a trick's end)."""
    return seating[event.next_leader if event.kind == "trick_end" else event.seat]


def log_players(screen: str) -> list[int]:
    """The player each line of a screen's log names first (``P3 (you): 7`` → 3)."""
    if "Since your last move:\n" in screen:
        log = screen.split("Since your last move:\n", 1)[1]
    elif "This round so far:\n" in screen:
        log = screen.split("This round so far:\n", 1)[1]
    else:
        return []
    lines = log.split("Your hand:", 1)[0].splitlines()
    return [int(re.search(r"P(\d)", line)[1]) for line in lines]


@pytest.mark.parametrize("seed", [0, 4, 9])
def test_every_play_since_your_last_move_is_on_your_next_screen(seed):
    """8 players under french: skips and out-of-trick passes make long stretches between
    two moves of the person (more than the 6 lines the log used to keep)."""
    rules = load_rules("french").with_options(players=8)
    seat = 3
    typist = LowestTypist()
    typist_session(rules, typist, seat, seed, rounds=2)
    bots = play_match(rules, [Lowest() for _ in range(8)], seed, 0, rounds=2, keep_events=True)
    text = "".join(typist.out)
    longest = 0
    for index, record in enumerate(bots.rounds):
        body = text.split(f"=== Round {index + 1} ===\n", 1)[1]
        body = body.split(f"=== Round {index + 1} over ===", 1)[0]
        screens = body.split("\n--- Round ")[1:]
        expected: list[list[int]] = [[]]  # per screen, the players its log names
        for event in record.events:
            if event.kind not in LOGGED:
                continue
            mine = event.kind in ("play", "pass") and player_of(event, record.seating) == seat
            if mine:
                expected.append([])  # the person's move starts the next screen's log
            expected[-1].append(player_of(event, record.seating))
        moves = len(expected) - 1
        assert len(screens) == moves
        for screen, names in zip(screens, expected, strict=False):
            assert log_players(screen) == names
            longest = max(longest, len(names))
    assert longest > 6
    assert f"P{seat} (you): skipped" in text


def test_without_points_the_standing_is_by_places_and_presidencies():
    rules = load_rules("french")  # no points, no target
    typist = LowestTypist()
    result = typist_session(rules, typist, 0, 5, rounds=4)
    text = "".join(typist.out)
    assert "+0" not in text
    assert "Tied at the top" not in text
    table = text.split("=== Round 4 over ===\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert table[0] == "  place  player      role            Presidencies  mean place"
    for line in table[1:]:
        player = int(re.search(r"P(\d)", line)[1])
        wins = sum(places[player] == 1 for places in result.places)
        mean = sum(places[player] for places in result.places) / 4
        assert line.endswith(f"{wins:>12}  {mean:>10.2f}")
    ending = text.split("=== Match over after 4 rounds ===\n", 1)[1].splitlines()
    assert ending[0] == "Standing (by mean place):"
    means = [float(re.search(r"mean place (\d\.\d\d)", line)[1]) for line in ending[1:5]]
    assert means == sorted(means)
    winner = leader(rules, result.places, result.totals)
    assert winner >= 0 and result.winner == winner
    name = "you" if winner == 0 else "lowest"
    assert ending[5] == f"P{winner} ({name}) wins (best mean place)."


def test_the_leader_by_places_breaks_ties_by_presidencies_then_shares_them():
    rules = load_rules("french").with_options(players=3)
    assert leader(rules, [], [0, 0, 0]) == -1
    assert leader(rules, [[1, 2, 3], [2, 1, 3]], [0, 0, 0]) == -1  # same sums, one each
    assert leader(rules, [[1, 3, 2], [3, 2, 1], [2, 1, 3]], [0, 0, 0]) == -1
    assert leader(rules, [[1, 2, 3], [3, 1, 2], [2, 3, 1]], [0, 0, 0]) == -1
    assert leader(rules, [[1, 2, 3], [2, 1, 3], [1, 3, 2]], [0, 0, 0]) == 0
    assert leader(rules, [[2, 1, 3], [2, 3, 1], [2, 3, 1]], [0, 0, 0]) == 2  # 5 < 6, 7
    assert leader(rules, [[1, 3, 2], [2, 1, 3], [2, 1, 3]], [0, 0, 0]) == 1  # 5 < 6 < 7
    scum = load_rules("scum").with_options(players=3)
    assert leader(scum, [[1, 2, 3]], [2, 0, -2]) == 0  # with points: the total decides


def columns(lines: list[str], word: str) -> set[int]:
    return {line.index(word) for line in lines}


def test_columns_stay_aligned_with_long_strategy_names():
    rules = load_rules("scum").with_options(players=3)
    bots = [registry.make("rules-aware"), Lowest()]
    typist = LowestTypist()
    play_session(rules, bots, 1, 4, 2, Console(typist.read, typist.write))
    text = "".join(typist.out)
    assert "P0 (rules-aware)" in text
    for screen in text.split("\n--- Round ")[1:]:
        rows = [line for line in screen.splitlines() if re.match(r" [> ] P\d", line)]
        assert len(rows) == 3
        assert len(columns(rows, " card")) == 1, rows
    table = text.split("=== Round 2 over ===\n", 1)[1].splitlines()[:4]
    assert len({len(line) for line in table}) == 1, table  # the totals end in one column
    starts = {re.search(r"(President|Neutral|Scum|role)", line).start() for line in table}
    assert len(starts) == 1, table


def test_ctrl_c_ends_the_match_with_the_score_like_q():
    keys = iter([*ROUND_1, *GIVE_BACK, "5"])
    out: list[str] = []

    def read() -> str:
        key = next(keys, None)
        if key is None:
            raise KeyboardInterrupt
        return key + "\n"

    rules = load_rules("scum").with_options(players=3)
    result = play_session(rules, [Lowest(), Lowest()], 1, 4, 3, Console(read, out.append))
    assert result.quit and result.rounds == 1
    text = "".join(out)
    assert text.endswith(
        "\n\n=== You quit after 1 round ===\n"
        "Score so far:\n"
        "  P1 (you): 2\n"
        "  P0 (lowest): 0\n"
        "  P2 (lowest): -2\n"
        "P1 (you) leads.\n"
    )


def test_q_without_points_shows_the_standing_so_far():
    """Through the command line: one round of french typed as ``lowest`` would, then q."""
    rules = load_rules("french").with_options(players=3)
    typist = LowestTypist()
    first = typist_session(rules, typist, 1, 4, rounds=1)
    me = first.places[0][1]
    result = play("--rules", "french", *GAME[2:], "--rounds", "3", keys=[*typist.typed, "q"])
    assert result.exit_code == 0
    assert "\n=== You quit after 1 round ===\nStanding so far (by mean place):\n" in result.stdout
    times = "1 time" if me == 1 else "0 times"
    assert f"  P1 (you)     mean place {me:.2f}, President {times}\n" in result.stdout
    winner = first.places[0].index(1)
    name = "you" if winner == 1 else "lowest"
    assert result.stdout.endswith(f"P{winner} ({name}) leads (best mean place).\n")


def test_sevens_and_tens_ask_the_person_and_are_told_on_the_screen():
    """Under ``seven_passes`` and ``ten_discards`` the person is asked for the cards after his
    own 7s and 10s (the typist gives its weakest, as ``lowest`` does: the match is the
    bots' match), and the log tells every gift and discard: a gift's cards only to its
    giver and its receiver."""
    rules = load_rules("spade").with_options(players=4, seven_passes=True, ten_discards=True)
    typist = LowestTypist()
    result = typist_session(rules, typist, 1, 3, rounds=3)
    bots = play_match(rules, [Lowest() for _ in range(4)], 3, 0, rounds=3, keep_events=True)
    assert result.places == [record.places for record in bots.rounds]
    text = "".join(typist.out)
    events = [e for record in bots.rounds for e in record.events if e.kind in ("give", "discard")]
    gifts = re.findall(
        r"P(\d)(?: \(you\))? gives (\d) cards? to P(\d).*? \(7-pass[^)]*\)(:?)", text
    )
    discards = re.findall(r"P\d(?: \(you\))? discards \d cards? \(10-discard[^)]*\): ", text)
    assert gifts and discards
    assert len(gifts) + len(discards) <= len(events)  # the log shows each once, at most
    for giver, _, receiver, shown in gifts:
        assert (shown == ":") == ("1" in (giver, receiver))
    assert re.search(r"Your (7|10)s: (give|discard) \d cards? of your choice", text)


def test_a_fallen_capital_is_told_on_the_screen():
    """Under ``capital_falls`` the log says who fell, and to which place."""
    rules = load_rules("french").with_options(players=5, capital_falls=True)
    typist = LowestTypist()
    typist_session(rules, typist, 2, 1, rounds=3)
    bots = play_match(rules, [Lowest() for _ in range(5)], 1, 0, rounds=3, keep_events=True)
    falls = [e for record in bots.rounds for e in record.events if e.kind == "falls"]
    assert falls  # the bots' match (the person plays as lowest) has one to show
    told = re.findall(r"-- the capital falls: P(\d).*, the President, is last \((\d)th place\)",
                      "".join(typist.out))  # fmt: skip
    assert told and all(place == "5" for _, place in told)
