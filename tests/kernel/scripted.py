"""One round of the kernel from a given deal, scripted moves first: the kernel's replay.

:func:`play_scripted_round` is the kernel's twin of :func:`simulator.apps.replay.replay`.
It takes the same game — rules, the hands as rank counts per seat, the leader, one
strategy per seat and scripted moves ``(seat, rank, count)`` (count 0: a pass) — and
plays it on the kernel's own state (``S``, the ``H`` bitmasks, ``played``, ``places``)
with the kernel's own :func:`simulator.kernel.step.step`, one move per call from a
Python loop (speed does not matter here). It lives in the tests, not in the package, so
that it keys no compile cache of the package (:data:`simulator.kernel.sources.SOURCES`);
its two small compiled functions are compiled once per test session, never cached on
disk: numba would key their cache by this file only, and a kernel edit would leave them
holding the old, inlined ``step``. Scripted moves are checked first with the kernel's
:func:`simulator.kernel.legal.legal_mask` and whose turn ``S`` says it is; an illegal one
raises ValueError naming its index. Then each seat's strategy chooses through
:func:`strategies.dispatch.decider`'s entry point, by kernel id, drawing from the stream the
reference replay draws from (the seed's match 0, purpose 0): even ``random`` plays the
same moves on both engines.

The events are read off the kernel's state after each move, never from an engine's
event list: the ``play`` or ``pass`` is the move; ``out`` when the mover's hand is empty,
with the place the kernel wrote; ``round_end`` when ``over`` is set, with the places by
seat; ``skip`` for each seat ``S_SKIPPED`` names when the skips counter went up, clockwise
from the mover; ``trick_end`` when the tricks counter went
up, the next leader being the player to move. They are the replay's JSON events
(docs/formats.md §2), in its order, so both engines' events compare exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit

from simulator.kernel.bits import U0, add_card, count_of, popc, remove_cards, seed_key, stream_init
from simulator.kernel.config import JIT
from simulator.kernel.knowledge import CARDS, H_SIZE, forget
from simulator.kernel.layout import (
    MAX_PLAYERS,
    NO_ROLE,
    R_TRICK_FLAGS,
    ROLE_INDEX,
    RUNS,
    S_ACTIVE,
    S_LOCK,
    S_N,
    S_OVER,
    S_PRESIDENT,
    S_REV,
    S_SIZE,
    S_SKIPPED,
    S_SKIPS,
    S_TOP_COUNT,
    S_TOP_RANK,
    S_TOP_SUITS,
    S_TRICKS,
    S_TURN,
    SPADE3,
    SUITED,
    rules_array,
)
from simulator.kernel.legal import legal_mask
from simulator.kernel.runs import (
    JOKERS,
    MIN_RUN,
    is_run,
    legal_run,
    run_cards,
    run_length,
    run_suit,
    run_suits,
)
from simulator.kernel.step import (
    ST_SKIPS,
    hand_over,
    load_state,
    president_of,
    rule_flags,
    run_step,
    start_round,
    step,
    store_state,
    trick_rule_flags,
)
from simulator.kernel.suits import (
    after_play,
    chosen_cards,
    move_cards,
    play_cards,
    suits_of_rank,
    write_allowed,
)
from simulator.kernel.trick import gift_receiver, owed_cards
from simulator.reference.rng import PLAY_STREAM
from simulator.rules.cards import (
    MAX_COPIES,
    NUM_RANKS,
    RANK_NAMES,
    SEVEN,
    card_name,
    card_names,
    combo_name,
    counts_from_cards,
    run_name,
)
from simulator.rules.options import Rules
from strategies.adapter import hand_mask
from strategies.dispatch import decider, tier_of
from strategies.registry import get
from strategies.specs import NPARAMS, PLUGIN_BASE, StrategyError

# compiled per session, never cached (see the module's docstring)
SCRIPTED_JIT = {**JIT, "cache": False}

# What scripted_check answers: the move is legal, or why it is not.
LEGAL = 0
ROUND_OVER = 1
NOT_YOUR_TURN = 2
LEADER_PASSES = 3
NOT_HELD = 4
DOES_NOT_BEAT = 5


@njit(**SCRIPTED_JIT)
def scripted_check(S, H, R, pos, r, c):
    """Whether ``pos`` may now play ``c`` cards of rank ``r`` (``c == 0``: pass): LEGAL,
    or the reason it may not. ``r`` and ``c`` are in range (0..13, 0..4, or a sequence's
    count, :mod:`simulator.kernel.runs`)."""
    if S[S_OVER] != 0:
        return ROUND_OVER
    if pos != S[S_TURN]:
        return NOT_YOUR_TURN
    if c == 0:
        return LEADER_PASSES if S[S_TOP_COUNT] == 0 else LEGAL
    if is_run(c):  # a sequence: its cards, the top, the lock
        k, length, suit = H[CARDS + pos], run_length(c), run_suit(c)
        legal = R[R_TRICK_FLAGS] & RUNS != 0 and legal_run(
            k, r, length, suit, S[S_TOP_RANK], S[S_TOP_COUNT], S[S_REV], S[S_LOCK], R[R_TRICK_FLAGS]
        )
        return LEGAL if legal else DOES_NOT_BEAT
    if count_of(H[pos], r) < c:
        return NOT_HELD
    if (legal_mask(H[pos], c, S, R) >> np.uint64(r)) & np.uint64(1) == U0:
        return DOES_NOT_BEAT
    return LEGAL


@njit(**SCRIPTED_JIT)
def scripted_step(S, H, R, played, places, pos, r, c, gift, cards, gift_cards):
    """The kernel's :func:`~simulator.kernel.step.step` of one legal move on the state
    arrays, handing over the cards of ``gift`` (a hand). Returns the seats the move
    skipped, a bit each (0: none), read off the state: the skips counter went up, and
    ``S_SKIPPED`` holds whom the move skipped; then the cards the play laid and those it
    handed over (card masks, under rules that read suits: ``cards`` and ``gift_cards``
    when the script names them, else the strategy's or the kernel's own choice, as the
    suited round loop moves them; 0 under the others)."""
    skips = S[S_SKIPS]
    st = load_state(S)
    trick_rules = trick_rule_flags(R)
    suited = trick_rules & SUITED != 0
    if is_run(c):  # a sequence: its own cards, and its step
        k = H[CARDS + pos]
        cards = run_cards(k, r, c)
        H[CARDS + pos] = k & ~cards
        S[S_TOP_SUITS], S[S_LOCK] = run_suits(S[S_TOP_SUITS], S[S_LOCK], c, trick_rules)
        st = run_step(st, rule_flags(R), trick_rules, pos, r, c, cards, H, R, played, places, S)
        store_state(S, st)
        return after_move(S, H, trick_rules, st, skips), cards, gift_cards
    if suited and c > 0:
        k = H[CARDS + pos]
        if cards == U0:  # the strategy's (its pick, if it fits) or the rules' default
            cards = chosen_cards(S, k, r, c, st[1], st[2], trick_rules)
        H[CARDS + pos] = k & ~cards
        S[S_TOP_SUITS], S[S_LOCK] = after_play(S[S_TOP_SUITS], S[S_LOCK], cards, r, trick_rules)
    if gift != U0:
        to = gift_receiver(S[S_N], pos, r, S[S_ACTIVE])
        if suited and gift_cards == U0:
            k = H[CARDS + pos]
            move_cards(H, pos, to, gift, -1, 0)
            gift_cards = k & ~H[CARDS + pos]
        elif suited:  # the cards named, then the default ones of the ranks left (jokers)
            H[CARDS + pos] &= ~gift_cards
            if to >= 0:
                H[CARDS + to] |= gift_cards
            rest = U0
            for rank in range(NUM_RANKS):
                for _ in range(count_of(gift, rank) - popc(suits_of_rank(gift_cards, rank))):
                    rest = add_card(rest, rank)
            k = H[CARDS + pos]
            move_cards(H, pos, to, rest, -1, 0)
            gift_cards |= k & ~H[CARDS + pos]
        hand_over(gift, pos, r, S[S_N], S[S_ACTIVE], H, played)
    st = step(st, rule_flags(R), trick_rules, pos, r, c, H, played, places, S)
    store_state(S, st)
    return after_move(S, H, trick_rules, st, skips), cards, gift_cards


@njit(**SCRIPTED_JIT)
def after_move(S, H, trick_rules, st, skips):
    """After a move, under rules that read suits: a new trick has no suits, a hand gone
    has no cards, and what the next player's suits allow is written; returns the seats
    the move skipped, a bit each (0: none)."""
    if trick_rules & SUITED != 0:
        if st[2] == 0:
            S[S_TOP_SUITS], S[S_LOCK] = 0, 0
        for q in range(S[S_N]):
            if H[q] == U0:
                H[CARDS + q] = U0
        if S[S_OVER] == 0:
            t = S[S_TURN]
            write_allowed(S, H[CARDS + t], S[S_TOP_RANK], S[S_TOP_COUNT], trick_rules)
    return S[S_SKIPPED] if st[ST_SKIPS] != skips else 0


def _a_count(count: int) -> bool:
    """Whether ``count`` is a move's: 0 to 4 cards, or a sequence's (``is_run``)."""
    return 0 <= count <= 4 or (is_run(count) and run_length(count) >= MIN_RUN)


def _kernel_ids(strategies: Sequence[str], n: int, rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """Kernel ids and parameter rows (by seat) of the strategies' names under ``rules``."""
    if len(strategies) != n:
        raise ValueError(f"{len(strategies)} strategies for {n} seats (one per seat)")
    sids = np.zeros(n, dtype=np.int64)
    params = np.zeros((MAX_PLAYERS, NPARAMS), dtype=np.float64)
    for seat, name in enumerate(strategies):
        spec = get(name, rules)
        if not 0 <= spec.kernel_id < PLUGIN_BASE:
            raise StrategyError(
                f"strategy {spec.name!r}: a scripted kernel round plays built-in kernel "
                "strategies only"
            )
        sids[seat] = spec.kernel_id
        params[seat, : len(spec.kernel_vector)] = spec.kernel_vector
    return sids, params


def _refusal(why: int, S: np.ndarray, H: np.ndarray, seat: int, rank: int, count: int) -> str:
    """The reason of scripted_check in words."""
    if why == ROUND_OVER:
        return "the round is over"
    if why == NOT_YOUR_TURN:
        return f"it is seat {S[S_TURN]}'s turn, not seat {seat}'s"
    if why == LEADER_PASSES:
        return "a leader may not pass"
    if why == NOT_HELD:
        held = sum(int(H[seat]) >> (16 * level + rank) & 1 for level in range(4))
        cards = "card" if held == 1 else "cards"
        return f"seat {seat} holds {held} {cards} of rank {RANK_NAMES[rank]}, not {count}"
    t, tc = int(S[S_TOP_RANK]), int(S[S_TOP_COUNT])
    if tc == 0:
        return "the cards do not make this sequence under these rules"
    top = run_name(t, run_length(tc)) if is_run(tc) else combo_name(t, tc)
    return f"it does not beat the {top} on the table under these rules"


def _ids(mask: int) -> list[int]:
    """The card ids of a card mask, in order."""
    return [i for i in range(54) if mask >> i & 1]


def _mask(cards: Sequence[int]) -> np.uint64:
    """A card mask of card ids."""
    return np.uint64(sum(1 << card for card in cards))


def _events(
    S,
    H,
    R,
    played,
    places,
    n: int,
    pos: int,
    r: int,
    c: int,
    gift: Sequence[int] = (),
    named: Sequence[int] = (),
    gift_named: Sequence[int] = (),
) -> list[dict[str, Any]]:
    """Play one legal move, handing over the ranks of ``gift``; its events, read off the
    state it leaves (and, under rules that read suits, off the card masks: ``named``
    and ``gift_named`` are the card ids the script names, if any)."""
    tricks = int(S[S_TRICKS])
    holding = H[:n] != U0
    suited = bool(R[R_TRICK_FLAGS] & SUITED)
    mask = np.uint64(hand_mask(counts_from_cards(gift)))
    step_out = scripted_step(
        S, H, R, played, places, pos, r, c, mask, _mask(named), _mask(gift_named)
    )
    skipped, laid, given = (int(x) for x in step_out)
    skipped_seats = [(pos + k) % n for k in range(1, n) if skipped >> ((pos + k) % n) & 1]
    if c == 0:
        events: list[dict[str, Any]] = [{"event": "pass", "seat": pos}]
    else:
        events = [{"event": "play", "seat": pos, "cards": _laid_names(r, c, laid)}]
        names = [RANK_NAMES[rank] for rank in sorted(gift)]
        if suited and not is_run(c):  # the cards that left the hand, with their suits
            events[0]["cards"] = [card_name(i) for i in _ids(laid)]
            names = [card_name(i) for i in _ids(given)]
        if gift and r == SEVEN:  # to the next holder clockwise
            to = next((pos + k) % n for k in range(1, n) if holding[(pos + k) % n])
            events.append({"event": "give", "seat": pos, "to": to, "cards": names})
        elif gift:
            events.append({"event": "discard", "seat": pos, "cards": names})
        if H[pos] == U0:
            events.append({"event": "out", "seat": pos, "place": int(places[pos])})
            fallen = int(S[S_PRESIDENT])  # capital_falls: he has lost his cards and a place
            if fallen not in (-1, pos) and holding[fallen] and H[fallen] == U0:
                events.append({"event": "falls", "seat": fallen, "place": int(places[fallen])})
    if S[S_OVER]:
        events.append({"event": "round_end", "places": [int(p) for p in places[:n]]})
        return events
    events += [{"event": "skip", "seat": seat} for seat in skipped_seats]  # in turn
    if S[S_TRICKS] != tricks:
        events.append({"event": "trick_end", "next_leader": int(S[S_TURN])})
    return events


def _laid_names(r: int, c: int, laid: int) -> list[str]:
    """A play's cards as its event writes them: a set's ranks, a sequence's cards in rank
    order, a joker in the place of each card it stands for."""
    if not is_run(c):
        return card_names(r, c)
    suit = run_suit(c)
    ids = [4 * rank + suit for rank in range(r, r + run_length(c))]
    return [card_name(i) if laid >> i & 1 else "JK" for i in ids]


def _named_refusal(S, H, R, seat: int, rank: int, count: int, named: Sequence[int]) -> str:
    """Why the cards a legal scripted play names cannot be its cards ("" when they can), by
    the kernel's card masks: held, of the rank, as many as the play, and the very cards
    the kernel would take when a rule imposes them (a lock, the 3 of spades)."""
    if not named:
        return ""
    held = int(H[CARDS + seat])
    if is_run(count):  # a sequence lays his own cards: they must be the ones named
        own = int(run_cards(np.uint64(held), rank, count)) & ~int(JOKERS)
        return "" if own == int(_mask(named)) else "the cards named are not this sequence's"
    if any(not held >> card & 1 or card >> 2 != rank for card in named) or len(named) != count:
        return "the cards named are not cards of this play in the hand"
    lock, trick_rules = int(S[S_LOCK]), int(R[R_TRICK_FLAGS])
    imposed = int(play_cards(np.uint64(held), rank, count, S[S_TOP_RANK], S[S_TOP_COUNT], lock,
                             trick_rules))  # fmt: skip
    spade = rank == 0 and count == 1 and S[S_TOP_RANK] == 13 and S[S_TOP_COUNT] == 1
    if (lock or (spade and trick_rules & SPADE3)) and int(_mask(named)) != imposed:
        return "the suits of the cards named are not the ones the rules allow"
    return ""


def _owed(H: np.ndarray, R: np.ndarray, pos: int, rank: int, count: int) -> int:
    """The cards a legal move obliges its player to hand over (the kernel's rule)."""
    if count == 0 or is_run(count):
        return 0
    left = int(H[pos]).bit_count() - count
    return int(owed_cards(rank, count, left, trick_rule_flags(R)))


def _gift(give: Any, sid: int, h: np.uint64, rank: int, count: int, owed: int, rs) -> list[int]:
    """The ranks a seat's strategy hands over after its play (its give-back from the hand
    left, by the tier's compiled give-back, drawing from ``rs``), or none."""
    if owed == 0:
        return []
    out = np.zeros(8, dtype=np.int64)
    give(np.int64(sid), remove_cards(h, np.int64(rank), np.int64(count)), np.int64(owed), rs,
         np.zeros((MAX_PLAYERS, NPARAMS)), out)  # fmt: skip
    return [int(x) for x in out[:owed]]


def play_scripted_round(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    leader: int,
    strategies: Sequence[str],
    moves: Sequence[tuple[int, ...]] = (),
    seed: int = 0,
    roles: Sequence[str] = (),
    cards: Sequence[Sequence[int]] | None = None,
) -> list[dict[str, Any]]:
    """The events of one kernel round: ``moves`` first, then the strategies to the end.

    ``hands[seat]`` are the seat's rank counts (up to 14, 3 … 2 then the joker);
    ``strategies`` one registered name per seat (built-in kernel strategies);
    ``moves`` are ``(seat, rank, count)`` with count 0 for a pass (its rank is ignored),
    or ``(seat, rank, count, gift)`` with the ranks a play of 7s or 10s hands over (else
    the seat's strategy gives them, as in a match; None: the same), and under rules that
    read suits ``(seat, rank, count, gift, named, gift_named)`` with the card ids the
    play and the gift name (empty: the kernel's own choice);
    ``roles`` the previous round's roles by seat (none by default); ``cards`` each
    seat's card ids, under rules that read suits.
    Raises ValueError for a game the kernel cannot start and for an illegal scripted
    move (``"move INDEX (…) is illegal: …"``), RuntimeError if a strategy's move is not
    legal or the round does not end.
    """
    n = len(hands)
    if rules.players != n:
        raise ValueError(f"{n} hands for rules of {rules.players} players")
    if not 0 <= leader < n:
        raise ValueError(f"leader {leader} is out of range (0 to {n - 1})")
    sids, params = _kernel_ids(strategies, n, rules)
    H = np.zeros(H_SIZE, dtype=np.uint64)
    forget(H)
    for seat, counts in enumerate(hands):
        if len(counts) > NUM_RANKS or any(
            not 0 <= k <= most for k, most in zip(counts, MAX_COPIES, strict=False)
        ):
            raise ValueError(f"the hand of seat {seat} is not a hand of rank counts")
        H[seat] = np.uint64(hand_mask(counts))
        if cards is not None:
            H[CARDS + seat] = _mask(cards[seat])
    if H[leader] == U0:
        raise ValueError(f"the leader, seat {leader}, holds no cards")
    if sum(1 for seat in range(n) if H[seat] != U0) < 2:
        raise ValueError("a round needs at least two players holding cards")
    R = rules_array(rules)
    S = np.zeros(S_SIZE, dtype=np.int64)
    played = np.zeros(NUM_RANKS, dtype=np.int64)
    places = np.zeros(MAX_PLAYERS, dtype=np.int64)
    at = np.full(MAX_PLAYERS, NO_ROLE, dtype=np.int64)  # by default no previous roles
    at[: len(roles)] = [ROLE_INDEX[role] for role in roles]
    roles = at
    rs = np.zeros(3, dtype=np.uint64)
    stream_init(rs, seed_key(np.uint64(seed % 2**64)), 0, np.uint64(PLAY_STREAM))
    start_round(S, H, n, leader, played, places, president_of.py_func(roles, n))
    if R[R_TRICK_FLAGS] & SUITED:  # what the leader's suits allow (nothing is restricted)
        write_allowed(S, H[CARDS + leader], -1, 0, R[R_TRICK_FLAGS])

    events: list[dict[str, Any]] = []
    give = tier_of(sids).give_back
    for index, (seat, rank, count, *given) in enumerate(moves):
        named, gift_named = (given[1], given[2]) if len(given) > 1 else ((), ())
        shown = "passes" if count == 0 else f"plays {count} of rank {rank}"
        if not (0 <= seat < n and _a_count(count) and (count == 0 or 0 <= rank < NUM_RANKS)):
            raise ValueError(f"move {index} (seat {seat} {shown}) is not a move of this game")
        rank = 0 if count == 0 else rank
        why = scripted_check(S, H, R, seat, rank, count)
        if why != LEGAL:
            if count:
                shown = "plays " + " ".join(card_names(rank, count))
            reason = _refusal(why, S, H, seat, rank, count)
            raise ValueError(f"move {index} (seat {seat} {shown}) is illegal: {reason}")
        reason = _named_refusal(S, H, R, seat, rank, count, named)
        if reason:
            raise ValueError(f"move {index} (seat {seat} {shown}) is illegal: {reason}")
        owed = _owed(H, R, seat, rank, count)
        if given and given[0] is not None:
            gift = list(given[0])
        else:
            gift = _gift(give, sids[seat], H[seat], rank, count, owed, rs)
        if len(gift) != owed:
            raise ValueError(
                f"move {index} (seat {seat} {shown}) hands over {len(gift)}, not {owed}"
            )
        events += _events(S, H, R, played, places, n, seat, rank, count, gift, named, gift_named)

    limit = n * (int(sum(map(sum, hands))) + 1)  # a trick ends after n - 1 passes at most
    decide_once = decider(sids, strategies)
    for _ in range(limit):
        if S[S_OVER]:
            return events
        pos = int(S[S_TURN])
        if is_run(int(S[S_TOP_COUNT])) and sids[pos] >= PLUGIN_BASE:
            rank, count = 0, 0  # a user's moves are sets: he passes on one, unasked
        else:
            rank, count = (
                int(x) for x in decide_once(sids[pos], pos, S, H, R, played, roles, rs, params)
            )
        rank = 0 if count == 0 else rank
        if (
            not (_a_count(count) and 0 <= rank < NUM_RANKS)
            or scripted_check(S, H, R, pos, rank, count) != LEGAL
        ):
            raise RuntimeError(
                f"strategy {strategies[pos]!r} at seat {pos} chose an illegal move "
                f"(rank {rank}, count {count})"
            )
        gift = _gift(give, sids[pos], H[pos], rank, count, _owed(H, R, pos, rank, count), rs)
        events += _events(S, H, R, played, places, n, pos, rank, count, gift)
    if not S[S_OVER]:
        raise RuntimeError(f"the round did not end within {limit} moves")
    return events
