"""``president play``: a whole match driven through the text interface.

A scripted "typist" reads the screen and types what the reference strategy ``lowest``
would play; the match it plays must be exactly the bot-only match. Scripted keystrokes
through the real command line check the screen text, illegal moves, quitting and the
one-line errors of bad options.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from click.testing import CliRunner

from simulator.apps.play.input import (
    Console,
    MoveError,
    Palette,
    legal_lines,
    parse_give_back,
    parse_move,
    use_color,
)
from simulator.apps.play.screen import PlayResult
from simulator.apps.play.session import play_session
from simulator.reference.match import play_match
from simulator.reference.round import PASS, Move
from simulator.rules.cards import RANK_NAMES, parse_card
from simulator.rules.files import load_rules
from simulator.rules.presets import PRESET_NAMES
from strategies.lowest import Lowest
from tests.conftest import Result, _entry

# ---------------------------------------------------------------- a typist playing lowest


class LowestTypist:
    """Types ``lowest``'s choices, reading only the screen (``?`` gives the legal moves).

    This drives the person's side as a user would: everything it knows comes from the
    text the program wrote. ``REVERSED`` is what the round's header line says when the
    order in force is reversed.
    """

    REVERSED = "(revolution"

    def __init__(self) -> None:
        self.out: list[str] = []
        self.typed: list[str] = []
        self.seen = 0

    def write(self, text: str) -> None:
        self.out.append(text)

    def read(self) -> str | None:
        text = "".join(self.out)
        new, self.seen = text[self.seen :], len(text)
        line = self._answer(text, new)
        self.typed.append(line)
        return line + "\n"

    def _answer(self, text: str, new: str) -> str:
        if asked := re.match(r"(Give back|Give|Discard) (\d+) card", new.rsplit("\n", 1)[-1]):
            k = int(asked[2])  # the exchange, or after the person's 7s or 10s
            hand = text.rsplit("Your hand: ", 1)[1].split("\n", 1)[0].split()
            return " ".join(hand[:k])  # the k weakest: the hand is shown weakest first
        if "legal moves: " not in new:
            return "?"
        listed = new.rsplit("legal moves: ", 1)[1].split("\n  (type", 1)[0]  # wrapped lines
        legal = [m.strip() for m in listed.split("|")]
        screen = text.rsplit("--- Round", 1)[1]
        reversed_order = self.REVERSED in screen.split("\n", 1)[0]

        def strength(rank: int) -> int:
            return rank if rank == 13 or not reversed_order else 12 - rank

        runs = [m for m in legal if m != "p" and len({parse_card(c) for c in m.split()}) > 1]
        if runs and "Top: none" not in screen:  # on a sequence: the weakest weakest card
            return min(runs, key=lambda m: weakest_card(m.split(), strength))
        sets = [m for m in legal if m != "p" and m not in runs]  # lowest never leads one
        plays = [(parse_card(m.split()[0]), len(m.split())) for m in sets]
        if not plays:
            return "p"

        if "Top: none" in screen:  # lead all the cards of the weakest rank
            rank = min((r for r, _ in plays), key=strength)
            count = max(c for r, c in plays if r == rank)
        else:
            rank, count = min(plays, key=lambda m: (strength(m[0]), m[1]))
        return " ".join([RANK_NAMES[rank]] * count)


def weakest_card(cards: list[str], strength: Callable[[int], int]) -> int:
    """The strength of a shown sequence's weakest card (its cards in rank order, ``JK``
    where a joker stands in)."""
    i, first = next((i, c) for i, c in enumerate(cards) if c != "JK")
    low = parse_card(first) - i
    return min(strength(rank) for rank in range(low, low + len(cards)))


def typist_session(rules, typist: LowestTypist, seat: int, seed: int, rounds: int) -> PlayResult:
    """A match with the typist at ``seat`` and ``lowest`` bots everywhere else."""
    bots = [Lowest() for _ in range(rules.players - 1)]
    return play_session(rules, bots, seat, seed, rounds, Console(typist.read, typist.write))


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize(("players", "seat"), [(3, 0), (5, 2), (8, 7)])
def test_typing_lowest_plays_the_bot_match_exactly(preset, players, seat):
    rules = load_rules(preset).with_options(players=players)
    seed = 11 + players
    typist = LowestTypist()
    result = typist_session(rules, typist, seat, seed, rounds=3)
    bots = play_match(rules, [Lowest() for _ in range(players)], seed, 0, rounds=3)
    assert result.places == [r.places for r in bots.rounds]
    assert result.totals == bots.rounds[-1].totals
    assert result.rounds == len(bots.rounds)
    assert not result.quit
    if rules.target:
        assert result.winner == bots.winner


# ---------------------------------------------------------------- keystrokes through the CLI

# scum rules, 3 players, the person at seat 1, seed 4: the moves ``lowest`` would type.
GAME = ("--rules", "scum", "--players", "3", "--bots", "lowest", "--seat", "1", "--seed", "4")
ROUND_1 = ["5", "8", "Q", "2", "3 3", "K K", "9", "Q", "p", "p", "10 10", "J", "2", "A A", "2"]
GIVE_BACK = ["6"]
ROUND_2 = ["7 7", "Q Q", "p", "8 8", "10 10", "6", "9", "A", "8", "2", "J", "2", "Q", "A"]


def play(*args: str, keys: list[str]) -> Result:
    """``president play ARGS`` with ``keys`` typed one per line on standard input."""
    text = "".join(key + "\n" for key in keys)
    result = CliRunner().invoke(_entry, ["play", *args], input=text, catch_exceptions=False)
    return Result(result.exit_code, result.stdout, result.stderr)


FIRST_SCREEN = """\
=== Round 1 ===
P2 (lowest) dealt; P0 (lowest) leads.

--- Round 1, trick 1 ---
   P0 (lowest) -               17 cards
 > P1 (you)    -               17 cards  to play
   P2 (lowest) -               17 cards
Top: single 3, laid by P0 (lowest)
This round so far:
  P0 (lowest): 3
Your hand: 3 3 5 8 9 10 10 J Q Q K K A A 2 2 2
"""
ROUND_1_OVER = """\
=== Round 1 over ===
  place  player      role            points  total
  1st    P1 (you)    President           +2      2
  2nd    P0 (lowest) Neutral             +0      0
  3rd    P2 (lowest) Scum                -2     -2
"""
PROMPT = 'Your move ("7 7", p, ?, q): '
GIVE_BACK_PROMPT = 'Give back 1 card ("3 4", ?, q): '


def test_a_round_with_illegal_and_unreadable_moves():
    keys = ["?", "help", "7 8", "xyz", "", "K K", "4", *ROUND_1[:4], "p", *ROUND_1[4:]]
    result = play(*GAME, "--rounds", "1", keys=keys)
    assert result.exit_code == 0
    assert result.stderr == ""
    out = result.stdout
    assert out.startswith("President: you are P1 of 3 players; 1 round.\n\n" + FIRST_SCREEN)
    answers = out.split(FIRST_SCREEN, 1)[1].split("\n")[:16]
    legal = [
        "  legal moves: 5 | 8 | 9 | 10 | J | Q | K | A | 2 | p",
        "  (type one as shown; p = pass, h = hint, q = quit, a queen is Q)",
    ]
    assert answers == [
        PROMPT + "?",
        *legal,
        PROMPT + "help",
        *legal,
        PROMPT + "7 8",
        '  ! a combination is cards of one rank, not 7 8 (a pair of 7s is "7 7")',
        PROMPT + "xyz",
        "  ! unknown card 'xyz' (a card is a rank 3 4 5 6 7 8 9 10 J Q K A 2 JK, optionally "
        'followed by a suit C D H S, e.g. "7H")',
        PROMPT,
        '  ! nothing typed (ranks such as "7 7", p = pass, ? = legal moves, q = quit)',
        PROMPT + "K K",
        '  ! more cards than the single 3 on the table (same number needed; larger_sets = "off")'
        " (type ? for the legal moves)",
        PROMPT + "4",
        "  ! you hold no 4 (type ? for the legal moves)",
    ]
    assert (
        "Top: none, you lead (play any combination)\n"
        "Since your last move:\n"
        "  P1 (you): 2\n"
        "  P2 (lowest): pass\n"
        "  P0 (lowest): pass\n"
        "  -- trick over; P1 (you) leads\n"
        "Your hand: 3 3 9 10 10 J Q K K A A 2 2\n"
        f"{PROMPT}p\n"
        "  ! you lead this trick, and a leader may not pass (type ? for the legal moves)\n"
        f"{PROMPT}3 3\n"
    ) in out
    assert "   P0 (lowest) -                5 cards  passed\n" in out
    assert out.endswith(
        f"{PROMPT}2\n\n" + ROUND_1_OVER + "\n=== Match over after 1 round ===\n"
        "Score:\n"
        "  P1 (you): 2\n"
        "  P0 (lowest): 0\n"
        "  P2 (lowest): -2\n"
        "P1 (you) wins.\n"
    )
    assert "Bots' hands" not in out
    assert "\x1b[" not in out  # not a terminal: no colour


def test_a_whole_match_with_the_exchange():
    keys = [*ROUND_1, "?", "2 2 2", "JK", "help", *GIVE_BACK, *ROUND_2]
    result = play(*GAME, "--rounds", "2", keys=keys)
    assert result.exit_code == 0
    out = result.stdout
    give_back_help = (
        "  type 1 card of your hand for P2 (lowest), e.g. 6\n"
        "  allowed: any 1 of 6 6 7 7 8 8 8 9 10 10 J Q Q Q A A 2 2\n"
        "  (the cards you received too; a queen is Q, q = quit)\n"
    )
    assert (
        "=== Exchange ===\n"
        "You are President: P2 (lowest) gave you their best card.\n"
        "You received: 2\n"
        "Your hand: 6 6 7 7 8 8 8 9 10 10 J Q Q Q A A 2 2\n"
        f"{GIVE_BACK_PROMPT}?\n" + give_back_help + f"{GIVE_BACK_PROMPT}2 2 2\n"
        "  ! give back exactly 1 card, not 3\n"
        f"{GIVE_BACK_PROMPT}JK\n"
        "  ! you hold no JK\n"
        f"{GIVE_BACK_PROMPT}help\n" + give_back_help + f"{GIVE_BACK_PROMPT}6\n"
        "\n=== Round 2 ===\n"
        "P1 (you) dealt; P2 (lowest) leads.\n"
        "Exchange: you received 2 from P2 (lowest) and gave back 6.\n"
        "\n--- Round 2, trick 1 ---\n"
        "   P0 (lowest) Neutral         15 cards\n"
        " > P1 (you)    President       17 cards  to play\n"
        "   P2 (lowest) Scum            16 cards\n"
    ) in out
    assert out.endswith(
        "\n=== Match over after 2 rounds ===\n"
        "Score:\n"
        "  P1 (you): 4\n"
        "  P0 (lowest): -2\n"
        "  P2 (lowest): -2\n"
        "P1 (you) wins.\n"
    )
    bots = play_match(load_rules("scum").with_options(players=3), [Lowest()] * 3, 4, 0, rounds=2)
    assert bots.rounds[-1].totals == [-2, 4, -2]


def test_q_quits_with_the_score_so_far():
    keys = [*ROUND_1, *GIVE_BACK, "5", "q"]
    result = play(*GAME, "--rounds", "3", keys=keys)
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout.endswith(
        f"{PROMPT}5\n"
        "  ! you hold no 5 (type ? for the legal moves)\n"
        f"{PROMPT}q\n"
        "\n=== You quit after 1 round ===\n"
        "Score so far:\n"
        "  P1 (you): 2\n"
        "  P0 (lowest): 0\n"
        "  P2 (lowest): -2\n"
        "P1 (you) leads.\n"
    )


def test_the_scum_gives_his_best_cards_and_sees_what_came_back():
    round_1 = ["10 10", "p", "p", "J J", "p", "p", "p", "K", "2", "3", "5", "Q", "A", "p"]
    round_1 += ["4", "6", "p", "p"]
    result = play(*GAME[:-1], "0", "--rounds", "2", keys=[*round_1, "q"])
    assert result.exit_code == 0
    assert "=== Exchange ===" not in result.stdout  # the Scum has no choice to make
    assert "3rd    P1 (you)    Scum                -2     -2\n" in result.stdout
    assert "Exchange: you gave your best 2 to P2 (lowest) and received 3.\n" in result.stdout


def test_end_of_input_quits_cleanly():
    result = play(*GAME, keys=ROUND_1[:3])
    assert result.exit_code == 0
    assert result.stderr == ""
    assert result.stdout.endswith(
        f"{PROMPT}\n"
        "\n=== You quit after 0 rounds ===\n"
        "Score so far:\n"
        "  P0 (lowest): 0\n"
        "  P1 (you): 0\n"
        "  P2 (lowest): 0\n"
        "No round was finished.\n"
    )


def test_reveal_shows_the_bots_hands_after_each_round():
    result = play(*GAME, "--rounds", "1", "--reveal", keys=ROUND_1)
    assert result.exit_code == 0
    assert (
        ROUND_1_OVER + "Bots' hands at the start of play:\n"
        "  P0 (lowest): 3 4 4 4 5 5 6 6 7 7 8 9 J J Q Q A 2\n"
        "  P2 (lowest): 3 4 5 6 6 7 7 8 8 9 9 10 10 J K K A\n"
    ) in result.stdout


def test_bots_are_taken_from_the_registry_one_per_seat():
    result = play(*GAME[:4], "--bots", "random,lowest", "--seat", "0", keys=["q"])
    assert result.exit_code == 0
    assert "   P1 (random) -" in result.stdout
    assert "   P2 (lowest) -" in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--bots", "nobody"), "error: --bots: unknown strategy 'nobody' (allowed: lowest, random"),
        (("--bots", "lowest,lowest"), "error: --bots: 2 names for 3 bots"),
        (("--seat", "4"), "error: --seat 4 is out of range (allowed: 0 to 3)"),
        (("--seat", "-1"), "error: --seat -1 is out of range (allowed: 0 to 3)"),
        (("--players", "2"), "error: --players 2 is not allowed (allowed: 3 to 8)"),
        (("--players", "9"), "error: --players 9 is not allowed (allowed: 3 to 8)"),
        (("--rounds", "0"), "error: --rounds 0 is not allowed (allowed: 1 or more)"),
        (("--rules", "nope"), "error: rules: 'nope' is neither a preset nor a rules file"),
        (("--seat", "x"), "error: Invalid value for '--seat'"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(args, message):
    result = play(*args, keys=[])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert len(result.stderr.splitlines()) == 1
    assert result.stderr.startswith(message)


def test_play_has_help():
    result = play("--help", keys=[])
    assert result.exit_code == 0
    assert "--bots" in result.stdout and "NO_COLOR" in result.stdout


# ---------------------------------------------------------------- pieces


@pytest.mark.parametrize(
    ("text", "move"),
    [("7 7", Move(4, 2)), ("10h,10s", Move(7, 2)), ("jk", Move(13, 1)), ("Q", Move(9, 1))],
)
def test_parse_move_reads_ranks(text, move):
    assert parse_move(text) == move


def test_the_legal_moves_wrap_at_80_columns_between_moves():
    moves = [Move(r, 1) for r in range(13)] + [Move(r, 2) for r in (1, 4, 6, 7, 12)] + [PASS]
    lines = legal_lines(moves)
    assert len(lines) == 2 and all(len(line) <= 80 for line in lines)
    assert lines[1].startswith(" " * len("  legal moves: ") + "9 9 |")  # under the first move
    listed = " ".join(lines).split("legal moves: ")[1]
    assert [m.strip() for m in listed.split("|")] == [str(m) if m != PASS else "p" for m in moves]
    assert legal_lines([Move(2, 1), PASS]) == ["  legal moves: 5 | p"]


def test_parse_move_pass_and_errors():
    assert parse_move("p") == PASS == parse_move("PASS")
    with pytest.raises(MoveError, match="one rank, not 7 8"):
        parse_move("7 8")
    with pytest.raises(MoveError, match="unknown card 'Z'"):
        parse_move("Z")


def test_parse_give_back_checks_count_and_holding():
    hand = [1, 0, 0, 0, 2] + [0] * 9  # 3 7 7
    assert parse_give_back("7 3", hand, 2) == [0, 4]
    with pytest.raises(MoveError, match="you hold 2 × 7, not 3"):
        parse_give_back("7 7 7", hand, 3)


class FakeStream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


@pytest.mark.parametrize(
    ("tty", "env", "expected"),
    [
        (True, {}, True),
        (False, {}, False),
        (True, {"NO_COLOR": "1"}, False),
        (True, {"NO_COLOR": ""}, True),  # no-color.org: only a non-empty value counts
        (True, {"TERM": "dumb"}, False),
    ],
)
def test_colour_only_on_a_terminal_without_no_color(tty, env, expected):
    assert use_color(FakeStream(tty), env) is expected


def test_colour_paints_the_screen():
    out: list[str] = []
    keys = iter(["q"])
    console = Console(lambda: next(keys) + "\n", out.append, Palette(color=True))
    rules = load_rules("scum").with_options(players=3)
    play_session(rules, [Lowest(), Lowest()], 1, 4, 1, console)
    text = "".join(out)
    assert " > \x1b[36mP1 (you)\x1b[0m    -" in text
    assert "Top: \x1b[33msingle 3\x1b[0m, laid by P0 (lowest)" in text
