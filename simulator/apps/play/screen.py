"""Terminal play, the output side: the table as the person sees it, following the match.

:class:`Table` is the match's observer (:func:`simulator.reference.match.play_match`):
everything the screen shows beyond the :class:`~simulator.reference.round.Observation`
(names, the plays since the person's last move, who was skipped, places) comes from the
events; the standing after each round and at the end is drawn here, from the numbers
of :mod:`simulator.apps.play.standing`. Names are padded to the longest one at the
table, so columns stay aligned whatever the strategies are called.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator.apps.play.input import Console
from simulator.apps.play.standing import (
    by_places,
    mean_place,
    ordinal,
    presidencies,
    rounds_text,
    scored,
)
from simulator.reference.exchange import best_cards, clubs_three_leads
from simulator.reference.match import RoundRecord
from simulator.reference.round import Event, Observation, Round
from simulator.reference.suits import SUIT_WORDS, suits_note
from simulator.rules.cards import counts_from_cards, format_cards, format_hand
from simulator.rules.options import AT_TABLE, Rules
from simulator.rules.roles import ROLE_TITLES, exchange_pairs, role_of


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
    log: list[str] = field(default_factory=list)  # the plays since the person's last move
    moved: bool = False  # the person has moved this round (the log starts at his move)
    skipped: set[int] = field(default_factory=set)  # positions skipped since the top was laid
    owner: int = -1  # position that laid the top
    totals: list[int] = field(default_factory=list)
    rounds_done: int = 0
    prev_places: list[int] = field(default_factory=list)
    places: list[list[int]] = field(default_factory=list)  # by round, by player
    given_back: list[int] = field(default_factory=list)
    dealt: list[list[int]] = field(default_factory=list)  # this round's dealt hands, by player
    name_width: int = field(init=False, default=0)  # the longest "P2 (name)" at the table

    def __post_init__(self) -> None:
        self.totals = [0] * self.rules.players
        self.name_width = max(len(f"P{p} ({name})") for p, name in enumerate(self.names))

    # ------------------------------------------------------------ names

    def label(self, player: int) -> str:
        """``P0 (you)``, ``P2 (lowest)``: the person's own name stands out in colour."""
        text = f"P{player} ({self.names[player]})"
        return self.console.palette.paint(text, "cyan") if player == self.human else text

    def padded_label(self, player: int) -> str:
        """The label padded to the longest at the table (colour codes take no room)."""
        plain = f"P{player} ({self.names[player]})"
        return self.label(player) + " " * (self.name_width - len(plain))

    def player_at(self, pos: int) -> int:
        """The player at table position ``pos`` in the current round."""
        assert self.record is not None
        return self.record.seating[pos]

    def received(self, player: int, k: int) -> list[int]:
        """The ``k`` cards ``player`` gives in this round's exchange: his best dealt."""
        return counts_from_cards(best_cards(self.dealt[player], k))

    # ------------------------------------------------------------ observer

    def observe(self, kind: str, payload: Any) -> None:
        """The ``observer`` of :func:`play_match`."""
        if kind == "deal":
            self.dealt = payload
        elif kind == "round_start":
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
        self.moved = False
        self.skipped.clear()
        c = self.console
        c.say()
        c.say(c.palette.paint(f"=== Round {record.index + 1} ===", "bold"))
        three = f"the 3 of {SUIT_WORDS[self.rules.opening_card]}"
        why = f" (holds {three})" if self._clubs_open(record) else ""
        c.say(f"{self.label(record.dealer)} dealt; {self.label(record.leader)} leads{why}.")
        for line in self._exchange_lines(record):
            c.say(line)

    def _clubs_open(self, record: RoundRecord) -> bool:
        """Whether the 3 that opens (of clubs, or ``opening_three``'s) chose this round's
        leader."""
        return clubs_three_leads(self.rules, record.index)

    def _exchange_lines(self, record: RoundRecord) -> list[str]:
        """Who gave what in the exchange; the person sees his own cards, not the others'."""
        if not self.prev_places:
            return []
        n = self.rules.players
        by_place = {place: p for p, place in enumerate(self.prev_places)}
        lines = []
        for i, k in exchange_pairs(self.rules):
            better, worse = by_place[i], by_place[n + 1 - i]
            given = self.received(worse, k)
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
        """One engine event into the log (and the skipped set the screen reads).

        The person's own play or pass starts the log anew: it then holds his last move
        and everything since, however many plays that is (a skip of his turn included).
        """
        if event.kind in ("play", "pass") and self.player_at(event.seat) == self.human:
            self.log.clear()
            self.moved = True
        if event.kind == "play":
            self.skipped.clear()
            self.owner = event.seat
            cards = " ".join(event.card_names())
            self.log.append(f"{self.label(self.player_at(event.seat))}: {cards}")
        elif event.kind == "pass":
            self.log.append(f"{self.label(self.player_at(event.seat))}: pass")
        elif event.kind == "skip":
            self.skipped.add(event.seat)
            self.log.append(f"{self.label(self.player_at(event.seat))}: skipped")
        elif event.kind == "out":
            who = self.label(self.player_at(event.seat))
            self.log.append(f"{who} is out: {ordinal(event.place)} place")
        elif event.kind in ("give", "discard"):
            self.log.append(self._hand_over_line(event))
        elif event.kind == "falls":
            who = self.label(self.player_at(event.seat))
            place = ordinal(event.place)
            self.log.append(f"-- the capital falls: {who}, the President, is last ({place} place)")
        elif event.kind == "trick_end":
            self.skipped.clear()
            self.log.append(self._trick_end_line(event.next_leader))

    def _hand_over_line(self, event: Event) -> str:
        """Cards handed over after 7s or 10s: a discard is seen by all, a gift only by its
        giver and its receiver (the person sees its cards when he is one of them)."""
        who = self.label(self.player_at(event.seat))
        shown = " ".join(event.card_names())
        k = len(event.cards)
        cards = f"{k} card{'s' if k > 1 else ''}"
        why = AT_TABLE[event.rule]
        if event.kind == "discard":
            return f"{who} discards {cards} ({why}): {shown}"
        to = self.label(self.player_at(event.to))
        line = f"{who} gives {cards} to {to} ({why})"
        seen = self.human in (self.player_at(event.seat), self.player_at(event.to))
        return f"{line}: {shown}" if seen else line

    def _trick_end_line(self, next_leader: int) -> str:
        """The end of a trick in the log: why it ended at once, and why its leader leads
        when the top's owner went out."""
        leader = self.label(self.player_at(next_leader))
        why = self.rnd.ended_by if self.rnd is not None else "passes"
        head = f"-- trick over ({AT_TABLE[why]})" if why in AT_TABLE else "-- trick over"
        if why == "last_in_trick":
            owner = self.label(self.player_at(self.owner))
            return f"{head}; {leader} leads: the last player left in it after {owner} went out"
        if next_leader != self.owner and self.owner >= 0:
            owner = self.label(self.player_at(self.owner))
            return (
                f"{head}; {leader} leads: the next player holding cards after {owner}, who went out"
            )
        return f"{head}; {leader} leads"

    def _round_end(self, record: RoundRecord) -> None:
        self.totals = list(record.totals)
        self.rounds_done = record.index + 1
        self.prev_places = list(record.places)
        self.places.append(list(record.places))
        c = self.console
        n = self.rules.players
        c.say()
        c.say(c.palette.paint(f"=== Round {record.index + 1} over ===", "bold"))
        for line in round_table(self, record):
            c.say(line)
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
        header = f"--- Round {self.record.index + 1}, trick {tricks}" + obs.order_note()
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
            top = paint(obs.top.name, "yellow")
            lines.append(f"Top: {top}, laid by {owner}{suits_note(obs)}")
        if self.log:
            lines.append("Since your last move:" if self.moved else "This round so far:")
            lines += [f"  {line}" for line in self.log]
        hand = format_cards(obs.cards) if obs.cards else format_hand(obs.hand)
        lines.append(f"Your hand: {paint(hand, 'green')}")
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


def round_table(table: Table, record: RoundRecord) -> list[str]:
    """The round's places and roles with the standing so far, one aligned line a player."""
    n = table.rules.players
    width = table.name_width
    if scored(table.rules):
        head = f"{'points':>6}  {'total':>5}"
    else:
        head = f"{'Presidencies':>12}  {'mean place':>10}"
    lines = [f"  {'place':<5}  {'player':<{width}} {'role':<15} {head}"]
    for player in sorted(range(n), key=lambda p: record.places[p]):
        place = record.places[player]
        role = ROLE_TITLES[role_of(place, n)]
        if scored(table.rules):
            standing = f"{record.points[player]:>+6}  {record.totals[player]:>5}"
        else:
            standing = (
                f"{presidencies(table.places, player):>12}  "
                f"{mean_place(table.places, player):>10.2f}"
            )
        lines.append(f"  {ordinal(place):<5}  {table.padded_label(player)} {role:<15} {standing}")
    return lines


def final_lines(table: Table, result: PlayResult) -> list[str]:
    """The score at the end of the match, or so far when the person quit."""
    paint = table.console.palette.paint
    rounds = rounds_text(result.rounds)
    title = f"You quit after {rounds}" if result.quit else f"Match over after {rounds}"
    lines = ["", paint(f"=== {title} ===", "bold")]
    n = len(result.totals)
    if scored(table.rules):
        lines.append("Score so far:" if result.quit else "Score:")
        order = sorted(range(n), key=lambda p: (-result.totals[p], p))
        lines += [f"  {table.label(p)}: {result.totals[p]}" for p in order]
    elif result.rounds:
        lines.append(("Standing so far" if result.quit else "Standing") + " (by mean place):")
        order = sorted(range(n), key=lambda p: (by_places(result.places, p), p))
        for p in order:
            times = presidencies(result.places, p)
            lines.append(
                f"  {table.padded_label(p)}  mean place {mean_place(result.places, p):.2f}, "
                f"President {times} time{'s' if times != 1 else ''}"
            )
    if result.rounds == 0:
        lines.append("No round was finished.")
    elif result.winner >= 0:
        verb = "leads" if result.quit else "wins"
        why = "" if scored(table.rules) else " (best mean place)"
        lines.append(f"{table.label(result.winner)} {verb}{why}.")
    else:
        lines.append("Tied at the top.")
    return lines
