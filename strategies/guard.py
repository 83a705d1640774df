"""The one guard around a plain-Python strategy: every move and give-back is checked.

Strategies may be users' code. One that raises, answers with something that is not a
move, makes a move the rules forbid or gives back cards it does not hold stops the run
with one line naming it, the situation and the move — instead of a traceback from deep
in the engine or, for an illegal move, a round that could go on forever. An exception is
named with where it was raised (file, line, function: :func:`raise_site`), numba's
compiled code included. Nothing is ever substituted silently.
"""

from __future__ import annotations

import inspect
import operator
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from simulator.reference.moves import Named, Run
from simulator.reference.rng import Stream
from simulator.reference.round import PASS, Move, Observation
from simulator.reference.suits import why_not_named, why_not_run
from simulator.rules.cards import DECK_IDS, card_names, format_cards, format_hand
from strategies.specs import StrategyError
from strategies.user import is_plugin, plugin_file


def situation(obs: Observation) -> str:
    """Where a strategy was asked to move, in words."""
    top = (
        "leading" if obs.top is None else f"on {' '.join(card_names(obs.top.rank, obs.top.count))}"
    )
    allowed = ", ".join(str(m) for m in obs.legal)
    return f"seat {obs.seat} {top}, holding {format_hand(obs.hand)} (allowed: {allowed})"


def raise_site(exc: BaseException, files: Iterable[str] = ()) -> str | None:
    """``FILE, line N, in FUNC``: where ``exc`` was raised — the innermost frame of its
    traceback that lies in one of ``files`` (the strategy's own code, rather than the
    library it called), else the innermost frame; None without a traceback.

    numba gives an exception raised in compiled code a frame at the ``raise`` of the
    user's function, so this names it as it names plain Python.
    """
    frames = traceback.extract_tb(exc.__traceback__)
    if not frames:
        return None
    own = {str(Path(f).resolve()) for f in files}
    mine = [f for f in frames if str(Path(f.filename).resolve()) in own]
    frame = (mine or frames)[-1]
    return f"{frame.filename}, line {frame.lineno}, in {frame.name}"


def raised(label: str, exc: BaseException, files: Iterable[str] = ()) -> str:
    """``strategy 'X' raised ValueError at FILE, line N, in FUNC: …``: an exception of a
    strategy's code in one line (the message's own line breaks are joined)."""
    text = " ".join(str(exc).split()) or "(no message)"
    site = raise_site(exc, files)
    return f"strategy {label!r} raised {type(exc).__name__}{f' at {site}' if site else ''}: {text}"


def _own_files(label: str, inner: Any) -> list[str]:
    """The file a strategy's code lies in: its user file (``FILE.py:name``, a numba
    function's too), else its class's."""
    if is_plugin(label):
        return [plugin_file(label)]
    try:
        return [inspect.getfile(type(inner))]
    except TypeError:  # a class of no file (built in)
        return []


class Guarded:
    """A strategy whose faults stop the run as a :class:`StrategyError` naming it."""

    def __init__(self, label: str, inner: Any) -> None:
        self.label, self.inner = label, inner
        self.name = label
        self.files = _own_files(label, inner)

    def choose(self, obs: Observation, rng: Stream) -> Move | Named | Run:
        """The inner strategy's move, checked against the legal moves, and the cards it
        names, if any, against its hand (:meth:`_named`); a sequence must be a legal one."""
        try:
            answer = self.inner.choose(obs, rng)
        except Exception as exc:  # the strategy's code: report, never crash the run
            raise StrategyError(
                f"{raised(self.label, exc, self.files)} ({situation(obs)})"
            ) from None
        run, named = answer if isinstance(answer, Named) else (answer, ())
        if isinstance(run, Run):  # a sequence (sequences): one of the legal moves
            reason = why_not_run(obs.cards, run, named) if run in obs.legal else "illegal"
            if reason is not None:
                raise StrategyError(
                    f"strategy {self.label!r} made the illegal move {run} (a sequence): "
                    f"{'the rules forbid it' if reason == 'illegal' else reason} "
                    f"({situation(obs)})"
                )
            return answer
        move, cards = answer if isinstance(answer, Named) else (answer, ())
        try:
            move = Move(int(move[0]), int(move[1]))
        except (TypeError, ValueError, IndexError):
            raise StrategyError(
                f"strategy {self.label!r} returned {answer!r}, not a move (rank, count) "
                f"({situation(obs)})"
            ) from None
        if move.count == 0:
            move = PASS
        if move not in obs.legal:
            raise StrategyError(
                f"strategy {self.label!r} made the illegal move {move} (rank {move.rank}, "
                f"count {move.count}), which the rules forbid ({situation(obs)})"
            )
        return self._named(obs, move, cards)

    def _named(self, obs: Observation, move: Move, cards: Sequence[int]) -> Move | Named:
        """``move`` with the cards the strategy named for it (:class:`Named`), when the
        rules read suits and it named some; they must be cards of its hand that the rules
        allow for the play (:func:`~simulator.reference.suits.why_not_cards`). Under
        rules without suits, and for a pass, the names are ignored: no card has a suit."""
        if move.is_pass or not cards or not obs.rules.suited:
            return move
        try:
            named = tuple(operator.index(card) for card in cards)
        except TypeError:
            named = ()
        if not named or not all(0 <= card < DECK_IDS for card in named):
            reason: str | None = f"{cards!r} are not card ids"
        else:
            reason = why_not_named(obs, move.rank, move.count, named)
        if reason is not None:
            raise StrategyError(
                f"strategy {self.label!r} named cards that cannot be those of its play "
                f"{move}: {reason} ({situation(obs)}, cards {format_cards(obs.cards)})"
            )
        return Named(move, named)

    def give_back(self, hand: Sequence[int], k: int, rng: Stream) -> list[int]:
        """The inner strategy's ``k`` cards to give back, checked against ``hand``."""
        where = f"giving back {k} of {format_hand(hand)}"
        try:
            back = [int(r) for r in self.inner.give_back(hand, k, rng)]
        except Exception as exc:  # the strategy's code: report, never crash the run
            raise StrategyError(f"{raised(self.label, exc, self.files)} ({where})") from None
        left = list(hand)
        for r in back:
            if not 0 <= r < len(left) or left[r] == 0:
                raise StrategyError(
                    f"strategy {self.label!r} gave back a card it does not hold: {back} ({where})"
                )
            left[r] -= 1
        if len(back) != k:
            raise StrategyError(
                f"strategy {self.label!r} gave back {len(back)} cards, not {k} ({where})"
            )
        return back
