"""``h`` at ``president play``'s prompt: what ``champion`` would play, and which tip applies.

``champion`` plays through the kernel's own function on what the person sees
(:class:`strategies.adapter.KernelStrategy`, knowing of the exchange only the person's
hand), from a random stream of its own, so that asking for a hint changes nothing in
the match. The tips are those of a ``president advise`` run (``--tips OUT/tips.toml``):
the first whose conditions hold names the play it tells, in words.
"""

from __future__ import annotations

import numpy as np

from simulator.reference.moves import Named, Run
from simulator.reference.rng import Stream
from simulator.reference.round import Move, Observation
from simulator.rules.cards import card_name, combo_name, run_name
from simulator.rules.options import Rules
from simulator.runs.advice.learn import Tip, tips_of
from simulator.runs.advice.words import tip_words
from strategies.adapter import KernelStrategy
from strategies.advice import PLAYS, VIEW_SIZE, view_and_plays
from strategies.registry import get

HINT_WORDS = ("h", "hint")


def is_hint(text: str) -> bool:
    """``h`` or ``hint``: a hint instead of an answer."""
    return text in HINT_WORDS


def move_words(move: Move | Named | Run) -> str:
    """A move as the screen names it: ``pass``, ``pair of 7s``, ``7H 7S``, a sequence."""
    if isinstance(move, Named):
        return " ".join(card_name(c) for c in move.cards) or move_words(move.move)
    if isinstance(move, Run):
        return run_name(move.low, move.length)
    return "pass" if move.count == 0 else combo_name(move.rank, move.count)


class Hinter:
    """``champion`` under ``rules``, and the tips of ``tips`` (a tips file) if given."""

    def __init__(self, rules: Rules, tips: str | None = None) -> None:
        spec = get("champion", rules)
        self.champion = KernelStrategy(spec.label, spec.kernel_id, spec.kernel_vector)
        self.tips: list[Tip] = tips_of(get(tips, rules).vector) if tips else []
        self.asked = 0

    def lines(self, obs: Observation) -> list[str]:
        """What champion would play here, then the tip that applies (or that none does)."""
        self.asked += 1
        move = self.champion.choose(obs, Stream.of(self.asked, 0, 0))
        lines = [f"  champion would play: {move_words(move)}"]
        if not self.tips:
            return lines
        view = np.zeros(VIEW_SIZE)
        plays = np.full((len(PLAYS) + 1, 2), -1, dtype=np.int64)
        view_and_plays(obs.seat, *self.champion.arrays(obs), view, plays)
        for i, tip in enumerate(self.tips, start=1):
            held = all(c.lowest <= view[c.place] <= c.highest for c in tip.conditions)
            if held and plays[tip.play, 1] >= 0:
                r, c = plays[tip.play]
                named = move_words(Move(int(r), int(c)))
                return [*lines, f"  tip {i} applies: {tip_words(tip)} Here: {named}."]
        return [*lines, "  no tip applies here"]
