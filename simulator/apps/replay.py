"""One round from a given deal (``president replay GAME.json``, docs/formats.md §2).

A game file fixes the rules, the hands, the leader, a strategy per seat and optional
scripted moves. Scripted moves are played first and checked against the rules; then the
strategies finish the round. Every problem with the file is a :class:`GameError` whose
one-line message says what is wrong and what is allowed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, NamedTuple

from simulator.errors import PresidentError
from simulator.reference.exchange import give_back_of
from simulator.reference.match import hand_over_ask
from simulator.reference.moves import Named, Run
from simulator.reference.rng import PLAY_STREAM, Stream
from simulator.reference.round import PASS, Event, IllegalMove, Move, Round
from simulator.reference.suits import run_of_names
from simulator.rules.cards import (
    JOKER,
    JOKER_IDS,
    MAX_COPIES,
    NUM_RANKS,
    RANK_NAMES,
    SUITS,
    CardError,
    card_name,
    named_ids,
    parse_card,
    parse_suited_card,
)
from simulator.rules.files import rules_from_mapping
from simulator.rules.options import Rules, RulesError
from simulator.rules.presets import PRESETS, preset
from simulator.rules.roles import role_of
from strategies import registry
from strategies.guard import Guarded

GAME_KEYS = ("rules", "hands", "leader", "strategies", "moves", "roles")


class GameError(PresidentError):
    """A game file that cannot be replayed, or a scripted move the rules refuse."""


class Scripted(NamedTuple):
    """A scripted move: ``seat`` plays ``move``, hands over the ranks ``gift`` after 7s or
    10s (None: his strategy chooses), and, under rules that read suits, the card ids it
    names for the play (``cards``) and for the gift (``gift_cards``), when it names them."""

    seat: int
    move: Move | Run
    gift: tuple[int, ...] | None
    cards: tuple[int, ...] = ()
    gift_cards: tuple[int, ...] = ()


@dataclass(frozen=True)
class Game:
    """A validated game file."""

    rules: Rules
    hands: tuple[tuple[int, ...], ...]
    leader: int
    strategies: tuple[str, ...]
    moves: tuple[Scripted, ...]
    roles: tuple[str, ...] = ()  # the previous round's roles by seat; () : none
    cards: tuple[tuple[int, ...], ...] | None = None  # card ids by seat (rules that read suits)


def _rules_of(spec: Any, players: int) -> Rules:
    if isinstance(spec, str):
        if spec not in PRESETS:
            raise GameError(
                f"game: unknown rules preset {spec!r} (allowed: {', '.join(PRESETS)},"
                " or an object with the keys of a rules file)"
            )
        base = preset(spec)
        return replace(base, players=players)
    if isinstance(spec, Mapping):
        data = {k: v for k, v in spec.items() if k != "players"}
        return replace(rules_from_mapping(data), players=players)
    raise GameError('game: "rules" must be a preset name or an object of rules-file keys')


def _parse_hands(raw: Any) -> list[list[int]]:
    if not isinstance(raw, list) or not all(isinstance(h, list) for h in raw):
        raise GameError('game: "hands" must be a list of lists of cards, one list per seat')
    if not 3 <= len(raw) <= 8:
        raise GameError(f"game: {len(raw)} hands given (allowed: 3 to 8 players, one hand each)")
    hands = []
    for seat, cards in enumerate(raw):
        if not cards:
            raise GameError(f"game: the hand of seat {seat} is empty (every hand needs a card)")
        counts = [0] * NUM_RANKS
        for card in cards:
            try:
                counts[parse_card(card)] += 1
            except CardError as exc:
                raise GameError(f"game: seat {seat}: {exc}") from None
        hands.append(counts)
    return hands


def _card_ids(raw: list[list[Any]], rules: Rules) -> tuple[tuple[int, ...], ...] | None:
    """The hands as card ids, under rules that read suits (None under the others): every
    card named with its suit, none twice; the jokers are the deck's first, then second."""
    if not rules.suited:
        return None
    seen: set[int] = set()
    hands = []
    for seat, names in enumerate(raw):
        ids = []
        for name in names:
            if parse_card(name) == JOKER:
                card = JOKER_IDS[0] if JOKER_IDS[0] not in seen else JOKER_IDS[1]
            else:
                try:
                    card = parse_suited_card(name)
                except CardError:
                    raise GameError(
                        f"game: seat {seat}: card {name!r} has no suit, and these rules read "
                        f'suits (name each card with its suit {" ".join(SUITS)}, e.g. "7H")'
                    ) from None
                if card in seen:
                    raise GameError(f"game: the hands hold the {card_name(card)} twice")
            seen.add(card)
            ids.append(card)
        hands.append(tuple(sorted(ids)))
    return tuple(hands)


def _named(where: str, cards: list[Any]) -> tuple[int, ...]:
    """The card ids a play or a gift names (:func:`~simulator.rules.cards.named_ids`)."""
    try:
        return named_ids(cards)
    except CardError as exc:
        raise GameError(f"{where}: {exc}") from None


def _check_deck(hands: Sequence[Sequence[int]], rules: Rules) -> None:
    for rank in range(NUM_RANKS):
        total = sum(h[rank] for h in hands)
        if total > MAX_COPIES[rank]:
            raise GameError(
                f"game: the hands hold {total} cards of rank {RANK_NAMES[rank]} "
                f"(allowed: at most {MAX_COPIES[rank]})"
            )
        if rank == NUM_RANKS - 1 and total > rules.jokers:
            raise GameError(
                f"game: the hands hold {total} joker{'s' * (total > 1)} but the rules have jokers = "
                f"{rules.jokers} (allowed: at most {rules.jokers} in the hands)"
            )


def _parse_move(index: int, raw: Any, players: int) -> Scripted:
    where = f"move {index} is not a valid move"
    if not isinstance(raw, Mapping):
        raise GameError(
            f'{where}: expected an object {{"seat": S, "play": [...]}} '
            'or {"seat": S, "pass": true}'
        )
    unknown = set(raw) - {"seat", "play", "pass", "give"}
    if unknown:
        raise GameError(
            f"{where}: unknown key {sorted(unknown)[0]!r} (allowed: seat, play, pass, give)"
        )
    seat = raw.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
        raise GameError(f"{where}: seat {seat!r} does not exist (allowed: 0 to {players - 1})")
    if ("play" in raw) == ("pass" in raw):
        raise GameError(f'{where}: give either "play": [cards] or "pass": true')
    if "pass" in raw:
        if raw["pass"] is not True:
            raise GameError(f'{where}: "pass" must be true')
        if "give" in raw:
            raise GameError(
                f'{where}: a pass gives no cards ("give" goes with a "play" of 7s or 10s)'
            )
        return Scripted(seat, PASS, None)
    cards = raw["play"]
    if not isinstance(cards, list) or not cards:
        raise GameError(f'{where}: "play" must be a non-empty list of cards')
    try:
        ranks = {parse_card(c) for c in cards}
    except CardError as exc:
        raise GameError(f"{where}: {exc}") from None
    if len(ranks) > 1:  # cards of several ranks, or jokers with cards: a sequence
        run, named = _parse_run(f"{where}: seat {seat} plays {' '.join(map(str, cards))}", cards)
        gift, gift_cards = _parse_gift(where, raw)
        return Scripted(seat, run, gift, named, gift_cards)
    if len(cards) > 4:
        raise GameError(
            f"{where}: seat {seat} plays {' '.join(map(str, cards))}: a combination "
            "is 1 to 4 cards of the same rank"
        )
    gift, gift_cards = _parse_gift(where, raw)
    return Scripted(seat, Move(ranks.pop(), len(cards)), gift, _named(where, cards), gift_cards)


def _parse_run(where: str, cards: list[Any]) -> tuple[Run, tuple[int, ...]]:
    """A scripted sequence (``sequences``) and the card ids it names, its jokers aside."""
    try:
        return run_of_names(cards)
    except CardError as exc:
        raise GameError(f"{where}: {exc}") from None


def _parse_gift(
    where: str, raw: Mapping[str, Any]
) -> tuple[tuple[int, ...] | None, tuple[int, ...]]:
    """The cards a scripted play of 7s or 10s hands over (``"give"``): their ranks, or
    ``None`` (then the seat's strategy chooses them), and the card ids it names."""
    if "give" not in raw:
        return None, ()
    cards = raw["give"]
    if not isinstance(cards, list):
        raise GameError(
            f'{where}: "give" must be a list of cards (those handed over after 7s or 10s)'
        )
    try:
        return tuple(parse_card(c) for c in cards), _named(where, cards)
    except CardError as exc:
        raise GameError(f"{where}: {exc}") from None


def parse_game(data: Any) -> Game:
    """Validate a parsed game file."""
    if not isinstance(data, Mapping):
        raise GameError("game: expected a JSON object with keys " + ", ".join(GAME_KEYS))
    unknown = set(data) - set(GAME_KEYS)
    if unknown:
        raise GameError(
            f"game: unknown key {sorted(unknown)[0]!r} (allowed: {', '.join(GAME_KEYS)})"
        )
    for key in ("rules", "hands", "leader"):
        if key not in data:
            raise GameError(f"game: missing key {key!r} (required: rules, hands, leader)")
    hands = _parse_hands(data["hands"])
    n = len(hands)
    try:
        rules = _rules_of(data["rules"], n)
    except RulesError as exc:
        raise GameError(f"game: {exc}") from None
    _check_deck(hands, rules)
    cards = _card_ids(data["hands"], rules)
    leader = data["leader"]
    if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < n:
        raise GameError(f"game: leader {leader!r} is out of range (allowed: 0 to {n - 1})")
    names = data.get("strategies", ["lowest"] * n)
    if not isinstance(names, list) or len(names) != n:
        given = len(names) if isinstance(names, list) else "no list of"
        raise GameError(f"game: {given} strategies for {n} seats (allowed: exactly one per seat)")
    for name in names:
        if not isinstance(name, str):
            raise GameError(
                f"game: unknown strategy {name!r} (allowed: {', '.join(registry.names())})"
            )
        try:
            registry.get(name)  # a user's FILE.py:name too, relative to the current folder
        except registry.StrategyError as exc:
            raise GameError(f"game: {exc}") from None
    raw_moves = data.get("moves", [])
    if not isinstance(raw_moves, list):
        raise GameError('game: "moves" must be a list of scripted moves')
    moves = tuple(_parse_move(i, m, n) for i, m in enumerate(raw_moves))
    roles = _parse_roles(data.get("roles", []), n)
    return Game(rules, tuple(map(tuple, hands)), leader, tuple(names), moves, roles, cards)


def _parse_roles(raw: Any, n: int) -> tuple[str, ...]:
    """The previous round's roles by seat (what strategies and ``capital_falls`` read): a
    name per seat, each place's role once, as after a round of ``n`` players."""
    if raw == []:
        return ()
    places = [role_of(place, n) for place in range(1, n + 1)]
    if not isinstance(raw, list) or sorted(map(str, raw)) != sorted(places):
        raise GameError(
            f'game: "roles" must name one role per seat, the roles of {n} players once each '
            f"(allowed: {', '.join(dict.fromkeys(places))})"
        )
    return tuple(raw)


def load_game(path: str | Path) -> Game:
    """Read and validate a game file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise GameError(f"game: cannot read {path}: {exc.strerror}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise GameError(f"game: {path} is not valid JSON: {exc}") from None
    return parse_game(data)


def replay(game: Game, seed: int = 0) -> list[Event]:
    """The events of the whole round, scripted moves first.

    An illegal scripted move raises GameError before anything is returned, so a caller
    never prints half a replay.
    """
    playable = [name for name in registry.names() if registry.get(name).make_python]
    for name in game.strategies:
        if not registry.get(name).make_python:  # montecarlo: the kernel only
            raise GameError(
                f"game: strategy {name!r} has no reference-engine version, so it cannot "
                f"replay a round (allowed: {', '.join(playable)})"
            )
    rnd = Round(game.rules, game.hands, game.leader, game.roles, game.cards)
    events: list[Event] = []
    rng = Stream.of(seed, 0, PLAY_STREAM)
    try:
        players = [Guarded(name, registry.make(name, game.rules)) for name in game.strategies]
        for index, (seat, move, gift, cards, gift_cards) in enumerate(game.moves):
            if gift is None and rnd.why_illegal(seat, move) is None:
                gift = _chosen_gift(rnd, move, players[seat], rng)
            if game.cards is None:
                cards, gift_cards = (), ()  # suits do not matter: matched on rank only
            try:
                events += rnd.apply(move, seat, gift or (), cards, gift_cards)
            except IllegalMove as exc:
                shown = "passes" if move.is_pass else f"plays {_written(move, cards) or move}"
                raise GameError(f"move {index} (seat {seat} {shown}) is illegal: {exc}") from None
        while not rnd.over:
            answer = players[rnd.turn].choose(rnd.observation(), rng)
            move, cards = answer if isinstance(answer, Named) else (answer, ())
            gift = _chosen_gift(rnd, move, players[rnd.turn], rng)
            events += rnd.apply(move, gift=gift, cards=cards)
    except registry.StrategyError as exc:  # a user's strategy failed: one line
        raise GameError(str(exc)) from None
    return events


def _written(move: Move | Run, cards: Sequence[int]) -> str:
    """A scripted play's cards as the game file names them ("" when it names none): a
    sequence's in rank order, a joker where it names no card."""
    if not cards:
        return ""
    if isinstance(move, Run):
        ids = [4 * rank + move.suit for rank in range(move.low, move.high + 1)]
        return " ".join(card_name(c) if c in cards else "JK" for c in ids)
    return " ".join(map(card_name, cards))


def _chosen_gift(rnd: Round, move: Move, player: Guarded, rng: Stream) -> tuple[int, ...]:
    """The cards the player to move hands over after his legal ``move`` (7s, 10s): his
    strategy's give-back, as in a match; none when the play obliges him to nothing."""
    if not rnd.owes(move):
        return ()
    ask = hand_over_ask(rnd, move, range(rnd.n))
    return tuple(give_back_of(player, ask.hand, ask.k, rng, False, ask))
