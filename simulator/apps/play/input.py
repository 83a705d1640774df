"""Terminal play, the input side: the console, typed moves and give-backs, and why one is refused.

Input and output are two plain callables (read a line, write text), so a whole match can
be driven by scripted keystrokes in tests and needs no curses. Colour is a
:class:`Palette` that the caller switches on only for a terminal (see :func:`use_color`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TextIO

from simulator.errors import PresidentError
from simulator.reference.moves import Named, Run
from simulator.reference.round import PASS, Move, Observation, Round
from simulator.reference.suits import run_cards, run_of_names, why_not_run
from simulator.rules.cards import (
    RANK_NAMES,
    CardError,
    card_name,
    named_ids,
    parse_card,
)

PROMPT = 'Your move ("7 7", p, ?, q):'
SUITED_PROMPT = 'Your move ("7H 7S" or "7 7", p, ?, q):'  # rules that read suits
QUIT_WORDS = ("q", "quit")
HELP_WORDS = ("?", "help")
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


class MoveError(PresidentError):
    """Typed text that is not a move; the message says what to type instead."""


def is_quit(text: str) -> bool:
    """``q`` or ``quit`` in lower case: a capital ``Q`` alone is a queen, not a quit."""
    return text in QUIT_WORDS


def is_help(text: str) -> bool:
    """``?`` or ``help``: the prompt's help instead of an answer."""
    return text.lower() in HELP_WORDS


def _tokens(text: str) -> list[str]:
    """The typed cards, apart: ``"7h 7s"``, ``"7,7"``."""
    return text.replace(",", " ").split()


def parse_cards(text: str) -> list[int]:
    """The ranks of typed cards (``"7 7"``, ``"7,7"``, ``"10h 10s"``), or a MoveError."""
    tokens = _tokens(text)
    if not tokens:
        raise MoveError('nothing typed (ranks such as "7 7", p = pass, ? = legal moves, q = quit)')
    try:
        return [parse_card(token) for token in tokens]
    except CardError as exc:
        raise MoveError(str(exc)) from None


def parse_move(text: str, suited: bool = False) -> Move | Named:
    """A typed move: ``p``/``pass`` or the cards of one rank (``"7 7"``), or a MoveError.
    Under the rules that read suits (``suited``) cards typed with their suits
    (``"7h 7s"``) are a :class:`Named` play of those cards; without suits the rules'
    default cards are laid."""
    if text.lower() in ("p", "pass"):
        return PASS
    ranks = parse_cards(text)
    if len(set(ranks)) > 1 and suited:  # a sequence (sequences), or no play
        try:
            run, named = run_of_names(_tokens(text))
            return Named(run, named)
        except CardError as exc:
            raise MoveError(str(exc).replace('["4S", "JK", "6S"]', '"4s jk 6s"')) from None
    if len(set(ranks)) > 1:
        typed = " ".join(RANK_NAMES[r] for r in ranks)
        raise MoveError(f'a combination is cards of one rank, not {typed} (a pair of 7s is "7 7")')
    move = Move(ranks[0], len(ranks))
    if not suited:
        return move
    try:
        named = named_ids(_tokens(text))
    except CardError as exc:
        raise MoveError(str(exc)) from None
    return Named(move, named) if named else move


def _not_held(hand: Sequence[int], rank: int, wanted: int) -> str:
    """``you hold no 3`` / ``you hold 1 × 7, not 2``."""
    held, name = hand[rank], RANK_NAMES[rank]
    return f"you hold no {name}" if held == 0 else f"you hold {held} × {name}, not {wanted}"


def why_refused(answer: Move | Named, obs: Observation, rnd: Round | None) -> str | None:
    """Why the person may not make ``answer`` now (``None`` when it is legal).

    The rule's own wording comes from the engine (:meth:`Round.why_illegal`) when the
    live round is known; before the round's first move the person leads, and a leader
    may play anything he holds, so holding and passing are all there is to check.
    """
    move, named = answer if isinstance(answer, Named) else (answer, ())
    if isinstance(move, Run):  # a sequence: the engine's words
        if rnd is not None:
            return rnd.why_illegal(obs.seat, move, named)
        if move not in obs.legal:
            return f"you cannot make the {move} (you lack its cards and have no joker for them)"
        return why_not_run(obs.cards, move, named)
    if move.is_pass and obs.top is None:
        return "you lead this trick, and a leader may not pass"
    if not move.is_pass and obs.hand[move.rank] < move.count:
        return _not_held(obs.hand, move.rank, move.count)
    missing = [card_name(c) for c in named if c not in obs.cards]
    if missing:
        return f"you do not hold {' '.join(missing)}"
    reason = rnd.why_illegal(obs.seat, move, named) if rnd is not None else None
    if reason is None and move in obs.legal:
        return None
    return reason or "that is not a legal move now"


LEGAL = "  legal moves: "
WIDTH = 80  # the terminal's columns the play screen keeps to


def legal_lines(legal: Sequence[Move | Run], cards: Sequence[int] = ()) -> list[str]:
    """The legal moves as the person would type them, ``  legal moves: 3 | 7 7 | p``,
    wrapped between moves to :data:`WIDTH` columns (continued under the first move); a
    sequence with its suits, ``JK`` where a joker of his ``cards`` stands in."""
    lines, line, on_line = [], LEGAL, 0
    for i, move in enumerate(legal):
        shown = "p" if move.is_pass else str(move)
        if isinstance(move, Run):
            shown = " ".join(card_name(c) for c in run_cards(cards, move) or ())
        text = shown + (" |" if i < len(legal) - 1 else "")
        if on_line and len(line) + 1 + len(text) > WIDTH:
            lines.append(line)
            line, on_line = " " * len(LEGAL), 0
        line += (" " if on_line else "") + text
        on_line += 1
    return [*lines, line]


def give_back_help(hand: Sequence[int], k: int, partner: str) -> list[str]:
    """The give-back prompt's help: what to type and which cards may go back."""
    cards = [rank for rank, held in enumerate(hand) for _ in range(held)]
    example = " ".join(RANK_NAMES[rank] for rank in cards[:k])
    plural = "s" if k > 1 else ""
    return [
        f"  type {k} card{plural} of your hand for {partner}, e.g. {example}",
        f"  allowed: any {k} of {' '.join(RANK_NAMES[rank] for rank in cards)}",
        "  (the cards you received too; a queen is Q, q = quit)",
    ]


def parse_give_back(text: str, hand: Sequence[int], k: int, verb: str = "give back") -> list[int]:
    """The ``k`` typed cards to give back (or to ``verb``: give, discard), checked against
    ``hand``, or a MoveError."""
    ranks = parse_cards(text)
    if len(ranks) != k:
        raise MoveError(f"{verb} exactly {k} card{'s' if k > 1 else ''}, not {len(ranks)}")
    for rank in set(ranks):
        if ranks.count(rank) > hand[rank]:
            raise MoveError(_not_held(hand, rank, ranks.count(rank)))
    return sorted(ranks)
