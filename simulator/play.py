"""Interactive play: a person at one seat of a match against registry bots, in a terminal.

The person is just another strategy of :func:`simulator.match.play_match`: his
:meth:`Human.choose` draws the screen and reads a line, so the match runs on the
reference engine with exactly the rules, deal streams and scoring of the simulator.
Everything the screen shows beyond the :class:`~simulator.engine.Observation` (names,
the log of the last plays, who was skipped, places) comes from the match's observer.

Input and output are two plain callables (read a line, write text), so the whole
match can be driven by scripted keystrokes in tests and needs no curses. Colour is a
:class:`Palette` that the caller switches on only for a terminal (see :func:`use_color`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TextIO

from simulator.cards import RANK_NAMES, CardError, counts_from_cards, format_hand, parse_card
from simulator.engine import PASS, Event, Move, Observation, Round
from simulator.match import RoundRecord, best_cards, play_match, role_of
from simulator.rng import Stream
from simulator.rules import Rules

if TYPE_CHECKING:
    from strategies.base import Strategy

NAME_WIDTH = 15  # "P7 (vice_scum…)": room for the registry's usual strategy names
LOG_LINES = 6  # plays shown under "Last plays": enough to follow one trick at 8 players
MATCH = 0  # an interactive match is match 0 of its seed, like the first match of a run
ROLE_TITLES = {
    "president": "President",
    "vice_president": "Vice-President",
    "neutral": "Neutral",
    "vice_scum": "Vice-Scum",
    "scum": "Scum",
}
PROMPT = 'Your move ("7 7", p, ?, q):'
QUIT_WORDS = ("q", "quit")
ANSI = {
    "bold": "\x1b[1m",
    "red": "\x1b[31m",
    "green": "\x1b[32m",
    "yellow": "\x1b[33m",
    "cyan": "\x1b[36m",
}
ANSI_RESET = "\x1b[0m"


class QuitGame(Exception):
    """The person typed ``q`` or closed standard input: stop the match, keep the score."""


def use_color(stream: TextIO, environ: Mapping[str, str]) -> bool:
    """Colour only on a terminal, never under ``NO_COLOR`` (no-color.org) or ``TERM=dumb``.

    Pipes, files and test runners get plain text, so transcripts stay readable.
    """
    if environ.get("NO_COLOR") or environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@dataclass(frozen=True)
class Palette:
    """Paints text with ANSI styles, or leaves it alone when colour is off."""

    color: bool = False

    def paint(self, text: str, style: str) -> str:
        """``text`` in ``style`` (a key of :data:`ANSI`)."""
        return f"{ANSI[style]}{text}{ANSI_RESET}" if self.color else text


@dataclass(frozen=True)
class Console:
    """The terminal as two callables: ``read()`` gives a line or ``None`` at end of input."""

    read: Callable[[], str | None]
    write: Callable[[str], None]
    palette: Palette = Palette()

    def say(self, text: str = "") -> None:
        """Write one line."""
        self.write(text + "\n")

    def ask(self, prompt: str) -> str:
        """The stripped answer to ``prompt``; end of input quits the match like ``q``."""
        self.write(self.palette.paint(prompt, "bold") + " ")
        line = self.read()
        if line is None:
            self.say()
            raise QuitGame("end of input")
        return line.strip()

    def error(self, text: str) -> None:
        """An explanation of why the last answer was refused."""
        self.say(self.palette.paint(f"  ! {text}", "red"))


# ---------------------------------------------------------------- reading moves


class MoveError(ValueError):
    """Typed text that is not a move; the message says what to type instead."""


def ordinal(place: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th`` … (places are 1 to 8)."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
    return f"{place}{suffix}"


def combo_name(rank: int, count: int) -> str:
    """A combination in words: ``single K``, ``pair of 7s``, ``three 9s``, ``four 3s``."""
    name = RANK_NAMES[rank]
    return {1: f"single {name}", 2: f"pair of {name}s", 3: f"three {name}s"}.get(
        count, f"four {name}s"
    )


def is_quit(text: str) -> bool:
    """``q`` or ``quit`` in lower case: a capital ``Q`` alone is a queen, not a quit."""
    return text in QUIT_WORDS


def parse_cards(text: str) -> list[int]:
    """The ranks of typed cards (``"7 7"``, ``"7,7"``, ``"10h 10s"``), or a MoveError."""
    tokens = text.replace(",", " ").split()
    if not tokens:
        raise MoveError('nothing typed (ranks such as "7 7", p = pass, ? = legal moves, q = quit)')
    try:
        return [parse_card(token) for token in tokens]
    except CardError as exc:
        raise MoveError(str(exc)) from None


def parse_move(text: str) -> Move:
    """A typed move: ``p``/``pass`` or the cards of one rank (``"7 7"``), or a MoveError."""
    if text.lower() in ("p", "pass"):
        return PASS
    ranks = parse_cards(text)
    if len(set(ranks)) > 1:
        typed = " ".join(RANK_NAMES[r] for r in ranks)
        raise MoveError(f'a combination is cards of one rank, not {typed} (a pair of 7s is "7 7")')
    return Move(ranks[0], len(ranks))


def _not_held(hand: Sequence[int], rank: int, wanted: int) -> str:
    """``you hold no 3`` / ``you hold 1 × 7, not 2``."""
    held, name = hand[rank], RANK_NAMES[rank]
    return f"you hold no {name}" if held == 0 else f"you hold {held} × {name}, not {wanted}"


def why_refused(move: Move, obs: Observation, rnd: Round | None) -> str | None:
    """Why the person may not make ``move`` now (``None`` when it is legal).

    The rule's own wording comes from the engine (:meth:`Round.why_illegal`) when the
    live round is known; before the round's first move the person leads, and a leader
    may play anything he holds, so holding and passing are all there is to check.
    """
    if move.is_pass and obs.top is None:
        return "you lead this trick, and a leader may not pass"
    if not move.is_pass and obs.hand[move.rank] < move.count:
        return _not_held(obs.hand, move.rank, move.count)
    if move in obs.legal:
        return None
    reason = rnd.why_illegal(obs.seat, move) if rnd is not None else None
    return reason or "that is not a legal move now"


def legal_text(legal: Sequence[Move]) -> str:
    """The legal moves as the person would type them: ``3 | 7 7 | pass``."""
    return " | ".join("p" if m.is_pass else str(m) for m in legal)


def parse_give_back(text: str, hand: Sequence[int], k: int) -> list[int]:
    """The ``k`` typed cards to give back, checked against ``hand``, or a MoveError."""
    ranks = parse_cards(text)
    if len(ranks) != k:
        raise MoveError(f"give back exactly {k} card{'s' if k > 1 else ''}, not {len(ranks)}")
    for rank in set(ranks):
        if ranks.count(rank) > hand[rank]:
            raise MoveError(_not_held(hand, rank, ranks.count(rank)))
    return sorted(ranks)


# ---------------------------------------------------------------- the table


@dataclass
class PlayResult:
    """How an interactive match ended, by player (starting seat), over the rounds finished."""

    rounds: int
    totals: list[int]
    winner: int  # player with the best total alone, -1 on a tie or before any round
    quit: bool
    places: list[list[int]] = field(default_factory=list)  # places[round][player]


@dataclass
class Table:
    """What the person sees: follows the match as its observer and draws the screens.

    Players are named by the seat they held at the start of the match (``P2``); the
    engine's seats are table positions, turned into players through the round's seating.
    """

    rules: Rules
    names: list[str]  # by player: "you" or the bot's strategy name
    human: int
    console: Console
    reveal: bool = False
    record: RoundRecord | None = None
    rnd: Round | None = None
    log: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    skipped: set[int] = field(default_factory=set)  # positions skipped since the top was laid
    totals: list[int] = field(default_factory=list)
    rounds_done: int = 0
    prev_places: list[int] = field(default_factory=list)
    places: list[list[int]] = field(default_factory=list)  # by round, by player
    given_back: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.totals = [0] * self.rules.players

    # ------------------------------------------------------------ names

    def label(self, player: int) -> str:
        """``P0 (you)``, ``P2 (lowest)``: the person's own name stands out in colour."""
        text = f"P{player} ({self.names[player]})"
        return self.console.palette.paint(text, "cyan") if player == self.human else text

    def padded_label(self, player: int) -> str:
        """The label padded to a column of :data:`NAME_WIDTH` (colour codes take no room)."""
        plain = f"P{player} ({self.names[player]})"
        return self.label(player) + " " * max(0, NAME_WIDTH - len(plain))

    def player_at(self, pos: int) -> int:
        """The player at table position ``pos`` in the current round."""
        assert self.record is not None
        return self.record.seating[pos]

    # ------------------------------------------------------------ observer

    def observe(self, kind: str, payload: Any) -> None:
        """The ``observer`` of :func:`play_match`."""
        if kind == "round_start":
            self._round_start(payload)
        elif kind == "events":
            rnd, events = payload
            self.rnd = rnd
            for event in events:
                self._note(event)
        elif kind == "round_end":
            self._round_end(payload)

    def _round_start(self, record: RoundRecord) -> None:
        self.record, self.rnd = record, None
        self.log.clear()
        self.skipped.clear()
        c = self.console
        c.say()
        c.say(c.palette.paint(f"=== Round {record.index + 1} ===", "bold"))
        c.say(f"{self.label(record.dealer)} dealt; {self.label(record.leader)} leads.")
        for line in self._exchange_lines(record):
            c.say(line)

    def _exchange_lines(self, record: RoundRecord) -> list[str]:
        """Who gave what in the exchange; the person sees his own cards, not the others'."""
        if not self.prev_places:
            return []
        n = self.rules.players
        by_place = {place: p for p, place in enumerate(self.prev_places)}
        lines = []
        for i, k in enumerate(self.rules.exchange, start=1):
            if 2 * i > n:
                break
            if k == 0:
                continue
            better, worse = by_place[i], by_place[n + 1 - i]
            given = counts_from_cards(best_cards(record.dealt[worse], k))
            if better == self.human:
                back = format_hand(counts_from_cards(self.given_back))
                lines.append(
                    f"Exchange: you received {format_hand(given)} from {self.label(worse)} "
                    f"and gave back {back}."
                )
            elif worse == self.human:
                # what came back = hand after the exchange - (dealt hand - cards given)
                got = [
                    h - d + g
                    for h, d, g in zip(record.hands[worse], record.dealt[worse], given, strict=True)
                ]
                lines.append(
                    f"Exchange: you gave your best {format_hand(given)} to {self.label(better)} "
                    f"and received {format_hand(got)}."
                )
            else:
                lines.append(
                    f"Exchange: {self.label(worse)} gave {k} card{'s' if k > 1 else ''} to "
                    f"{self.label(better)} and got as many back."
                )
        return lines

    def _note(self, event: Event) -> None:
        """One engine event into the log (and the skipped set the screen reads)."""
        if event.kind == "play":
            self.skipped.clear()
            cards = str(Move(event.rank, event.count))
            self.log.append(f"{self.label(self.player_at(event.seat))}: {cards}")
        elif event.kind == "pass":
            self.log.append(f"{self.label(self.player_at(event.seat))}: pass")
        elif event.kind == "skip":
            self.skipped.add(event.seat)
            self.log.append(f"{self.label(self.player_at(event.seat))}: skipped")
        elif event.kind == "out":
            who = self.label(self.player_at(event.seat))
            self.log.append(f"{who} is out: {ordinal(event.place)} place")
        elif event.kind == "trick_end":
            self.skipped.clear()
            leader = self.label(self.player_at(event.next_leader))
            self.log.append(f"-- trick over; {leader} leads")

    def _round_end(self, record: RoundRecord) -> None:
        self.totals = list(record.totals)
        self.rounds_done = record.index + 1
        self.prev_places = list(record.places)
        self.places.append(list(record.places))
        c = self.console
        n = self.rules.players
        c.say()
        c.say(c.palette.paint(f"=== Round {record.index + 1} over ===", "bold"))
        c.say("  place  player          role            points  total")
        for player in sorted(range(n), key=lambda p: record.places[p]):
            place = record.places[player]
            role = ROLE_TITLES[role_of(place, n)]
            name = self.padded_label(player)
            c.say(
                f"  {ordinal(place):<5}  {name} {role:<15} {record.points[player]:>+6}"
                f"  {record.totals[player]:>5}"
            )
        if self.reveal:
            c.say("Bots' hands at the start of play:")
            for player in range(n):
                if player != self.human:
                    c.say(f"  {self.label(player)}: {format_hand(record.hands[player])}")

    # ------------------------------------------------------------ the screen

    def screen(self, obs: Observation) -> list[str]:
        """The person's screen when he must move: the table, the top, the log, his hand."""
        paint = self.console.palette.paint
        tricks = self.rnd.tricks if self.rnd is not None else 1
        assert self.record is not None
        header = f"--- Round {self.record.index + 1}, trick {tricks}"
        if obs.reversed:
            header += " (revolution: 2 weakest, 3 strongest)"
        lines = [paint(header + " ---", "bold")]
        for pos in range(len(obs.cards_left)):
            player = self.player_at(pos)
            mark = ">" if pos == obs.seat else " "
            name = self.padded_label(player)
            role = obs.roles[pos] if obs.roles else ""
            role_title = ROLE_TITLES.get(role, "-")
            left = obs.cards_left[pos]
            lines.append(
                f" {mark} {name} {role_title:<15} {left:>2} card{'s' if left != 1 else ' '}"
                f"  {self._status(obs, pos)}".rstrip()
            )
        if obs.top is None:
            lines.append("Top: none, you lead (play any combination)")
        else:
            owner = self.label(self.player_at(obs.top.owner))
            top = paint(combo_name(obs.top.rank, obs.top.count), "yellow")
            lines.append(f"Top: {top}, laid by {owner}")
        if self.log:
            lines.append("Last plays:")
            lines += [f"  {line}" for line in self.log]
        lines.append(f"Your hand: {paint(format_hand(obs.hand), 'green')}")
        return lines

    def _status(self, obs: Observation, pos: int) -> str:
        if obs.cards_left[pos] == 0:
            place = self.rnd.places[pos] if self.rnd is not None else 0
            return f"out, {ordinal(place)}"
        if pos == obs.seat:
            return "to play"
        if pos in self.skipped:
            return "skipped"
        return "passed" if obs.passed[pos] else ""


# ---------------------------------------------------------------- the person


@dataclass
class Human:
    """The person as a strategy: each decision is a screen and a typed line."""

    table: Table
    name: str = "human"

    def choose(self, obs: Observation, rng: Stream) -> Move:
        """Draw the screen, then ask until the typed move is legal (``?`` lists them)."""
        console = self.table.console
        console.say()
        for line in self.table.screen(obs):
            console.say(line)
        while True:
            text = console.ask(PROMPT)
            if is_quit(text):
                raise QuitGame("quit")
            if text == "?":
                console.say(f"  legal moves: {legal_text(obs.legal)}")
                console.say("  (type one as shown; p = pass, q = quit, a queen is Q)")
                continue
            try:
                move = parse_move(text)
            except MoveError as exc:
                console.error(str(exc))
                continue
            reason = why_refused(move, obs, self.table.rnd)
            if reason is None:
                return move
            console.error(f"{reason} (type ? for the legal moves)")

    def give_back(self, hand: Sequence[int], k: int, rng: Stream) -> list[int]:
        """Ask for the ``k`` cards to give back to the partner of the exchange."""
        table, console = self.table, self.table.console
        n = table.rules.players
        place = table.prev_places[table.human]
        partner = table.prev_places.index(n + 1 - place)
        role = ROLE_TITLES[role_of(place, n)]
        plural = "s" if k > 1 else ""
        console.say()
        console.say(console.palette.paint("=== Exchange ===", "bold"))
        console.say(f"You are {role}: {table.label(partner)} gave you their best card{plural}.")
        console.say(f"Your hand: {console.palette.paint(format_hand(hand), 'green')}")
        while True:
            text = console.ask(f'Give back {k} card{plural} (ranks such as "3 4", q = quit):')
            if is_quit(text):
                raise QuitGame("quit")
            try:
                table.given_back = parse_give_back(text, hand, k)
            except MoveError as exc:
                console.error(str(exc))
                continue
            return list(table.given_back)


# ---------------------------------------------------------------- a match


def _rounds(count: int) -> str:
    return f"{count} round{'s' if count != 1 else ''}"


def final_lines(table: Table, result: PlayResult) -> list[str]:
    """The score at the end of the match, or so far when the person quit."""
    paint = table.console.palette.paint
    rounds = _rounds(result.rounds)
    title = f"You quit after {rounds}" if result.quit else f"Match over after {rounds}"
    lines = ["", paint(f"=== {title} ===", "bold"), "Score so far:" if result.quit else "Score:"]
    order = sorted(range(len(result.totals)), key=lambda p: (-result.totals[p], p))
    lines += [f"  {table.label(p)}: {result.totals[p]}" for p in order]
    if result.rounds == 0:
        lines.append("No round was finished.")
    elif result.winner >= 0:
        verb = "leads" if result.quit else "wins"
        lines.append(f"{table.label(result.winner)} {verb}.")
    else:
        lines.append("Tied at the top.")
    return lines


def leader_alone(totals: Sequence[int]) -> int:
    """The player with the best total alone, or -1 on a tie."""
    best = max(totals)
    return totals.index(best) if list(totals).count(best) == 1 else -1


def play_session(
    rules: Rules,
    bots: Sequence[Strategy],
    human_seat: int,
    seed: int,
    rounds: int,
    console: Console,
    reveal: bool = False,
) -> PlayResult:
    """Play one match with the person at ``human_seat`` and ``bots`` (strategies) elsewhere.

    ``bots`` holds one strategy per other seat, in seat order. ``rounds`` is the match
    length when the rules have no target; under a target the target rule ends it. The
    match is match 0 of ``seed``, so a bot-only run with the same seed deals the same
    first round. Quitting (``q`` or end of input) ends it with the totals so far.
    """
    n = rules.players
    if len(bots) != n - 1:
        raise ValueError(f"{len(bots)} bots for {n - 1} seats")
    others = iter(bots)
    names = ["you" if p == human_seat else next(others).name for p in range(n)]
    table = Table(rules, names, human_seat, console, reveal)
    others = iter(bots)
    players = [Human(table) if p == human_seat else next(others) for p in range(n)]
    console.say(
        f"President: you are P{human_seat} of {n} players; "
        + (f"first to {rules.target} points." if rules.target else f"{_rounds(rounds)}.")
    )
    quit_ = False
    try:
        record = play_match(rules, players, seed, MATCH, rounds=rounds, observer=table.observe)
        winner = record.winner if rules.target else leader_alone(table.totals)
    except QuitGame:
        quit_ = True
        winner = leader_alone(table.totals) if table.rounds_done else -1
    result = PlayResult(table.rounds_done, list(table.totals), winner, quit_, table.places)
    for line in final_lines(table, result):
        console.say(line)
    return result
