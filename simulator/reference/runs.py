"""Sequences on the reference engine (``sequences``, docs/rules.md): whether one may land
on the top, and what laying one does. Kept apart from :mod:`simulator.reference.round`
(which calls these for its :class:`~simulator.reference.moves.Run` moves) so that the
engine's file stays the rule book of sets; a sequence's cards are
:mod:`simulator.reference.suits`'. The kernel's twin is :mod:`simulator.kernel.runs`.
"""

from __future__ import annotations

from typing import Any

from simulator.reference.moves import Event, Run, Top
from simulator.rules.cards import EIGHT, JOKER, TWO, card_rank

Round = Any  # a simulator.reference.round.Round (which imports this module: no cycle)


def run_effect(rnd: Round, run: Run) -> str | None:
    """Whether a sequence may land on the current top (None), or the key of the rule it
    breaks (:func:`simulator.reference.refusals.explain`); its cards are the suits'
    business. Above the top's strongest card (``above_highest``) or its weakest
    (``above_lowest``), under the order in force."""
    top = rnd.top
    if not rnd.rules.sequenced:
        return "no_sequences"
    if top is None:
        return None
    if not top.run:
        return "run_on_set"
    if run.length != top.count:
        return "run_length"
    strengths = [rnd.strength(r) for r in range(top.rank, top.rank + top.count)]
    highest = rnd.rules.sequences == "above_highest"
    bar = max(strengths) if highest else min(strengths)
    if min(rnd.strength(r) for r in range(run.low, run.high + 1)) <= bar:
        return "run_not_above_highest" if highest else "run_not_above_lowest"
    return None


def play_run(rnd: Round, seat: int, run: Run) -> list[Event]:
    """``seat`` lays a legal sequence: its cards leave the hand, it tops the trick; of the
    rules of ranks only the 8 acts on it, going out on it with a 2 or a joker is going out
    on 2s, and a long one turns the order (``sequence_revolution``). Returns the events."""
    assert rnd.suits is not None
    cards = rnd.suits.run_cards(seat, run) or []
    rnd.suits.play(seat, cards)
    ranks = [card_rank(card) for card in cards]
    for rank in ranks:
        rnd.hands[seat][rank] -= 1
        rnd.played[rank] += 1
    rnd.cards_left[seat] -= run.length
    rnd.run = 0  # a sequence breaks a run of one rank (accumulation_burns)
    rnd.top = Top(run.low, run.length, seat, run=True)
    rnd.answered = [False] * rnd.n
    rnd.skipped_seats, rnd.skipped_by = (), ""
    rnd.plays += 1
    events = [Event("play", seat, run.low, run.length, cards=tuple(cards), ids=True, run=True)]
    rules = rnd.rules
    if rules.sequence_revolution and run.length >= rules.sequence_revolution:
        rnd.reversed = not rnd.reversed  # in force from the next play on
    eights = rules.eights_end_sequences and run.low <= EIGHT <= run.high
    at_once = rnd.ends_trick_at_once(EIGHT, 1) if eights else ""  # as a play of one 8
    on_two = run.high == TWO or JOKER in ranks
    if not rnd.ends_now(seat, on_two, at_once, events):
        rnd.continue_trick(seat, events)
    return events
