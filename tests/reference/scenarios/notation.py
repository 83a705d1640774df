"""A small readable notation for scripted scenarios, worked out by hand from docs/rules.md.

Hands are strings of card names (``"3 3 7 K"``). Moves and expected events are one short
line each, so that a scenario reads like the worked example of a rule book:

=====================  ==============================================================
``"0: 7 7"``           seat 0 plays a pair of 7s (a scripted move, or a ``play`` event)
``"0: 7 7 give 3 4"``  seat 0 plays a pair of 7s and hands over a 3 and a 4 (a move)
``"0 gives 1: 3 4"``   seat 0 gives a 3 and a 4 to seat 1 (``seven_passes``; an event)
``"0 discards: 3"``    seat 0 discards a 3 (``ten_discards``; an event)
``"1: pass"``          seat 1 passes (a scripted move, or a ``pass`` event)
``"2: skip"``          seat 2 is skipped (event only)
``"trick_end -> 0"``   the trick ends, seat 0 leads the next one
``"out 0 #1"``         seat 0 has no cards left and takes place 1
``"falls 3 #4"``       seat 3, the President, falls to place 4 (``capital_falls``)
``"round_end 1 4 2 3"``  the round is over; places by seat
=====================  ==============================================================

:func:`check` plays a game three times — on the reference engine through the library
(``parse_game`` + ``replay``), through ``president replay FILE``, and on the kernel
(:func:`tests.kernel.scripted.play_scripted_round`, the kernel's own ``step`` on
its own state) — and compares each *whole* event list with the expected one, exactly (as
JSON dicts) and line by line (for a readable diff).
"""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from simulator.apps.replay import Game, parse_game, replay
from simulator.kernel.runs import run_move
from simulator.reference.moves import Run
from tests.conftest import run_cli
from tests.kernel.scripted import play_scripted_round

_PLAY = re.compile(r"^(\d+): (.+)$")
_TRICK_END = re.compile(r"^trick_end -> (\d+)$")
_OUT = re.compile(r"^(out|falls) (\d+) #(\d+)$")
_ROUND_END = re.compile(r"^round_end( \d+)+$")
_GIVES = re.compile(r"^(\d+) gives (\d+): (.+)$")
_DISCARDS = re.compile(r"^(\d+) discards: (.+)$")
SUIT_LETTERS = "CDHS"


def cards(text: str) -> list[str]:
    """``"3 3 7 K"`` → ``["3", "3", "7", "K"]``."""
    return text.split()


def move(line: str) -> dict[str, Any]:
    """``"0: 7 7"`` or ``"1: pass"`` → a scripted move of docs/formats.md §2."""
    m = _PLAY.match(line.strip())
    if not m:
        raise ValueError(f"not a move: {line!r}")
    seat, what = int(m.group(1)), m.group(2).strip()
    if what == "pass":
        return {"seat": seat, "pass": True}
    play, _, gift = what.partition(" give ")
    if gift:
        return {"seat": seat, "play": cards(play), "give": cards(gift)}
    return {"seat": seat, "play": cards(what)}


def event(line: str) -> dict[str, Any]:
    """One line of the notation → the event dict ``president replay`` prints."""
    text = line.strip()
    if m := _TRICK_END.match(text):
        return {"event": "trick_end", "next_leader": int(m.group(1))}
    if m := _OUT.match(text):
        return {"event": m.group(1), "seat": int(m.group(2)), "place": int(m.group(3))}
    if _ROUND_END.match(text):
        return {"event": "round_end", "places": [int(p) for p in text.split()[1:]]}
    if m := _GIVES.match(text):
        seat, to = int(m.group(1)), int(m.group(2))
        return {"event": "give", "seat": seat, "to": to, "cards": cards(m.group(3))}
    if m := _DISCARDS.match(text):
        return {"event": "discard", "seat": int(m.group(1)), "cards": cards(m.group(2))}
    if m := _PLAY.match(text):
        seat, what = int(m.group(1)), m.group(2).strip()
        if what in ("pass", "skip"):
            return {"event": what, "seat": seat}
        return {"event": "play", "seat": seat, "cards": cards(what)}
    raise ValueError(f"not an event: {line!r}")


def _rank(card: str) -> str:
    """A card name without its suit letter (the output may append suits, docs/formats.md §2)."""
    if len(card) >= 2 and card[-1] in SUIT_LETTERS and card != "JK":
        return card[:-1]
    return card


def _normalise(ev: Mapping[str, Any], suits: bool = False) -> dict[str, Any]:
    """An event as the notation compares it: cards by rank, or with their suits under
    rules that read them (``suits``)."""
    out = dict(ev)
    if "cards" in out and not suits:
        out["cards"] = [_rank(c) for c in out["cards"]]
    return out


def line_of(ev: Mapping[str, Any]) -> str:
    """An event dict written back in the notation (for readable assertion diffs)."""
    kind = ev.get("event")
    if kind == "play":
        return f"{ev['seat']}: {' '.join(ev['cards'])}"
    if kind in ("pass", "skip"):
        return f"{ev['seat']}: {kind}"
    if kind == "give":
        return f"{ev['seat']} gives {ev['to']}: {' '.join(ev['cards'])}"
    if kind == "discard":
        return f"{ev['seat']} discards: {' '.join(ev['cards'])}"
    if kind == "trick_end":
        return f"trick_end -> {ev['next_leader']}"
    if kind in ("out", "falls"):
        return f"{kind} {ev['seat']} #{ev['place']}"
    if kind == "round_end":
        return "round_end " + " ".join(str(p) for p in ev["places"])
    return repr(dict(ev))


def game(
    rules: str | Mapping[str, Any],
    hands: Sequence[str],
    leader: int = 0,
    script: Sequence[str] = (),
    strategies: Sequence[str] | None = None,
    roles: Sequence[str] = (),
) -> dict[str, Any]:
    """A game file (docs/formats.md §2) from readable hands and scripted moves."""
    data: dict[str, Any] = {
        "rules": rules if isinstance(rules, str) else dict(rules),
        "hands": [cards(h) for h in hands],
        "leader": leader,
        "moves": [move(m) for m in script],
    }
    if strategies is not None:
        data["strategies"] = list(strategies)
    if roles:
        data["roles"] = list(roles)
    return data


def library_events(data: Mapping[str, Any], seed: int = 0) -> list[dict[str, Any]]:
    """The events of a game through ``parse_game`` + ``replay``."""
    parsed = parse_game(data)
    return [_normalise(e.to_json(), parsed.rules.suited) for e in replay(parsed, seed=seed)]


def kernel_moves(parsed: Game) -> list[tuple[Any, ...]]:
    """A parsed game's scripted moves as the kernel takes them: ``(seat, rank, count)``,
    the ranks handed over when the script gives them, and under rules that read suits
    the card ids the play and the gift name."""
    moves: list[tuple[Any, ...]] = []
    for seat, m, gift, named, gift_named in parsed.moves:
        count = run_move.py_func(m.length, m.suit) if isinstance(m, Run) else m.count
        move: tuple[Any, ...] = (seat, max(m.rank, 0), count)
        if parsed.rules.suited:
            move += (gift, named, gift_named)
        elif gift is not None:
            move += (gift,)
        moves.append(move)
    return moves


def kernel_events(data: Mapping[str, Any], seed: int = 0) -> list[dict[str, Any]]:
    """The events of a game played on the kernel (scripted moves, then the strategies)."""
    parsed = parse_game(data)
    events = play_scripted_round(
        parsed.rules,
        parsed.hands,
        parsed.leader,
        parsed.strategies,
        kernel_moves(parsed),
        seed,
        parsed.roles,
        parsed.cards,
    )
    return [_normalise(e, parsed.rules.suited) for e in events]


def cli_replay(data: Mapping[str, Any], *args: str):
    """``president replay FILE ARGS`` on a game dict written to a temporary file."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_text(json.dumps(data), encoding="utf-8")
        return run_cli("replay", str(path), *args)


def check(
    rules: str | Mapping[str, Any],
    hands: Sequence[str],
    leader: int,
    script: Sequence[str],
    expected: Sequence[str],
    strategies: Sequence[str] | None = None,
    roles: Sequence[str] = (),
) -> None:
    """Play a scripted game (library, CLI and kernel) and compare every event, in order."""
    data = game(rules, hands, leader, script, strategies, roles)
    want = [event(line) for line in expected]
    got = library_events(data)
    assert [line_of(e) for e in got] == list(expected)
    assert got == want
    result = cli_replay(data)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    suits = parse_game(data).rules.suited
    assert [_normalise(e, suits) for e in result.events()] == want
    on_kernel = kernel_events(data)
    assert [line_of(e) for e in on_kernel] == list(expected), "the kernel disagrees"
    assert on_kernel == want
