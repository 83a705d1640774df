"""Why the reference engine refuses a move, in one line that names the rule: the words of
``president replay``'s refusals (docs/formats.md §2), the play screen's and the
environment's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from simulator.reference.moves import Move, Run, Top
from simulator.reference.runs import run_effect
from simulator.reference.suits import Suits, suits_in_words, why_not_run
from simulator.rules.cards import NUM_RANKS, RANK_NAMES, combo_name


class Position(Protocol):
    """What a refusal reads of a round in progress (a
    :class:`~simulator.reference.round.Round`, which imports this module)."""

    over: bool
    n: int
    turn: int
    top: Top | None
    hands: list[list[int]]
    cards_left: list[int]
    out_of_trick: list[bool]
    answered: list[bool]

    suits: Suits | None

    def order_note(self) -> str: ...

    def play_effect(self, rank: int, count: int) -> tuple[int, bool] | str: ...

    def owes(self, move: Move) -> int: ...

    def receiver(self, seat: int, rank: int) -> int | None: ...


def why_illegal(
    rnd: Position, seat: int, move: Move | Run, cards: Sequence[int] = ()
) -> str | None:
    """The rule a move breaks, or ``None`` when it is legal; ``cards``, the card ids a
    play names (rules that read suits), must be cards it may lay."""
    if rnd.over:
        return "the round is over"
    if not 0 <= seat < rnd.n:
        return f"there is no seat {seat} (seats are 0 to {rnd.n - 1})"
    if seat != rnd.turn:
        return _wrong_seat(rnd, seat)
    if move.is_pass:
        return "a leader may not pass" if rnd.top is None else None
    if isinstance(move, Run):
        return _why_run_illegal(rnd, seat, move, cards)
    if not 1 <= move.count <= 4 or not 0 <= move.rank < NUM_RANKS:
        return "a combination is 1 to 4 cards of the same rank"
    if rnd.hands[seat][move.rank] < move.count:
        held = rnd.hands[seat][move.rank]
        return (
            f"seat {seat} holds {held} card{'s' if held != 1 else ''} of rank "
            f"{RANK_NAMES[move.rank]}, not {move.count}"
        )
    effect = rnd.play_effect(move.rank, move.count)
    if isinstance(effect, str):
        return explain(rnd, effect)
    if rnd.suits is None:
        return None
    if cards:
        return rnd.suits.why_not(seat, move.rank, move.count, rnd.top, list(cards))
    if rnd.suits.cards_for(seat, move.rank, move.count, rnd.top) is None:
        return _suits_refuse(rnd.suits, move, rnd.top)
    return None


def _why_run_illegal(rnd: Position, seat: int, run: Run, named: Sequence[int]) -> str | None:
    """The rule a sequence breaks (its cards, the top, the lock), or None; ``named``, the
    cards it names but its jokers, must be the ones it lays."""
    effect = run_effect(rnd, run)  # type: ignore[arg-type]
    if effect is not None:
        return explain(rnd, effect)
    assert rnd.suits is not None  # sequences read suits
    if rnd.suits.lock and rnd.suits.lock != 1 << run.suit:
        return f"the trick is locked to {suits_in_words(rnd.suits.lock)} (suit_lock)"
    if rnd.suits.run_cards(seat, run) is None:
        return (
            f"seat {seat} cannot make the {run} (a sequence is 3 or more cards of one suit in "
            "a row, 3 … 2, with at least one card that is not a joker; a joker stands in for "
            "a card he lacks)"
        )
    return why_not_run(rnd.suits.cards[seat], run, named)


def _suits_refuse(suits: Suits, move: Move, top: Top | None) -> str:
    """Why the suits a player holds do not allow a play its ranks allow."""
    if suits.spade_return(move.rank, move.count, top):
        return "only the 3 of spades beats the lone joker (spade_three_return); you do not hold it"
    held = suits_in_words(suits.lock)
    return (
        f"the trick is locked to {held} (suit_lock): a play of "
        f"{suits.lock.bit_count()} card{'s' if suits.lock.bit_count() > 1 else ''} of these "
        "suits (or jokers)"
    )


def explain(rnd: Position, key: str) -> str:
    """The rule a play breaks, in words, from a key of ``Round.play_effect``."""
    if key == "no_sequences":
        return 'a play is 1 to 4 cards of one rank (sequences = "off")'
    assert rnd.top is not None
    on = f"the {rnd.top.name} on the table"
    return {
        "set_on_run": f"only a sequence of {rnd.top.count} cards beats {on}",
        "run_on_set": f"a sequence beats only a sequence (not {on})",
        "run_length": f"a sequence beats only a sequence as long ({rnd.top.count} cards) as {on}",
        "run_not_above_highest": (
            f"its weakest card is not above the strongest card of {on}{rnd.order_note()}"
        ),
        "run_not_above_lowest": (
            f"its weakest card is not above the weakest card of {on}{rnd.order_note()}"
        ),
        "equal": 'equal rank does not beat (equal_rank = "off")',
        "not_higher": f"not a higher rank than {on}{rnd.order_note()}",
        "fewer": f"fewer cards than {on} (same number needed)",
        "larger_not_higher": (
            f'more cards beat {on} only with a higher rank (larger_sets = "higher_rank")'
        ),
        "more": f'more cards than {on} (same number needed; larger_sets = "off")',
    }[key]


def _wrong_seat(rnd: Position, seat: int) -> str:
    if rnd.cards_left[seat] == 0:
        return f"seat {seat} has no cards left (it went out); it is seat {rnd.turn}'s turn"
    if rnd.out_of_trick[seat]:
        return (
            f"seat {seat} passed earlier in this trick and, under passing = "
            f'"out_of_trick", may not play until the next trick; '
            f"it is seat {rnd.turn}'s turn"
        )
    if rnd.answered[seat] and rnd.top is not None:
        return (
            f"seat {seat} was skipped or passed on the {rnd.top.name}"
            f" on the table; it is seat {rnd.turn}'s turn"
        )
    return f"it is seat {rnd.turn}'s turn, not seat {seat}'s"


def why_gift_illegal(
    rnd: Position,
    move: Move,
    gift: Sequence[int],
    named: Sequence[int] = (),
    laid: Sequence[int] = (),
) -> str | None:
    """What is wrong with the cards ``gift`` (ranks) handed over right after ``move`` of
    the player to move (a legal move), or ``None``: exactly as many as the play obliges
    (``seven_passes``, ``ten_discards``), each held once the play has left his hand;
    ``named``, their card ids when a play names them (rules that read suits), held once
    the cards ``laid`` have left."""
    k, seat = rnd.owes(move), rnd.turn
    if k == 0:
        if not gift:
            return None
        return "the play hands over no cards (only 7s under seven_passes, 10s under ten_discards)"
    to = rnd.receiver(seat, move.rank)
    cards = f"{k} card{'s' if k > 1 else ''}"
    what = f"give {cards} to seat {to}" if to is not None else f"discard {cards}"
    if len(gift) != k:
        return f"the {combo_name(move.rank, move.count)} obliges seat {seat} to {what}, not {len(gift)}"
    after = list(rnd.hands[seat])
    after[move.rank] -= move.count
    for rank in sorted(set(gift)):
        if not 0 <= rank < NUM_RANKS or gift.count(rank) > after[rank]:
            name = RANK_NAMES[rank] if 0 <= rank < NUM_RANKS else str(rank)
            held = after[rank] if 0 <= rank < NUM_RANKS else 0
            return (
                f"seat {seat} holds {held} card{'s' if held != 1 else ''} of rank {name} "
                f"after the play, not {gift.count(rank)}: {what} of the cards left"
            )
    if named and rnd.suits is not None:
        laid = list(laid) or rnd.suits.cards_for(seat, move.rank, move.count, rnd.top) or []
        return rnd.suits.why_not_gift(seat, laid, named)
    return None
