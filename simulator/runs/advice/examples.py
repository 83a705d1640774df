"""How often a tip's situation arises, and an example of it from a real game.

The example is one of ``champion``'s decisions where the tip applies and it made the
tip's play, shown with readable cards, and written as a replay file
(``president replay``, docs/formats.md §2): the round's hands after the exchange, its
leader and roles, and every move before the decision as scripted moves, so that the
replay stops where the tip applies and the simple player finishes the round.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd

from simulator.reference.match import RoundRecord
from simulator.reference.round import Round
from simulator.rules.cards import card_names, combo_name, format_hand
from simulator.rules.files import to_toml
from simulator.runs.advice.learn import Tip, made
from simulator.runs.advice.mine import Field, position
from strategies.advice import PLAYS


def applies(frame: pd.DataFrame, tip: Tip) -> np.ndarray:
    """The decisions where the tip applies and names another move than the simple player's."""
    name = PLAYS[tip.play - 1][0]
    mask = (frame[f"{name}_count"].to_numpy() >= 0) & ~made(frame, "simple", name)
    for c in tip.conditions:
        values = frame[c.name].to_numpy()
        mask &= (values >= c.lowest) & (values <= c.highest)
    return mask


def per_round(frame: pd.DataFrame, tip: Tip, rounds: int) -> float:
    """How many times a round the tip applies to the player (mined rounds ``rounds``)."""
    return float(applies(frame, tip).sum()) / rounds


def example(frame: pd.DataFrame, tip: Tip, field: Field, path: Path | None) -> dict:
    """The first decision where the tip applies and ``champion`` followed it: a readable
    description, and (``path``) its replay file, where the rules allow one."""
    name = PLAYS[tip.play - 1][0]
    rows = frame[applies(frame, tip) & made(frame, "champion", name)]
    if rows.empty:
        return {}
    row = rows.iloc[0]
    rnd, record = position(field, int(row["match"]), int(row["round"]), int(row["move"]))
    seat = int(row["seat"])
    shown = describe(rnd, seat)
    move = (int(row[f"{name}_rank"]), int(row[f"{name}_count"]))
    shown["move"] = "pass" if move[1] == 0 else combo_name(*move)
    shown["where"] = f"match {int(row['match'])}, round {int(row['round']) + 1}"
    if path is not None and not (field.rules.suited or record.gifts):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(game(field, rnd, record)) + "\n", encoding="utf-8")
        shown["replay"] = str(path)
    return shown


def describe(rnd: Round, seat: int) -> dict:
    """The position as the player at ``seat`` sees it, in words."""
    top = rnd.top
    others = [f"seat {s}: {rnd.cards_left[s]}" for s in range(rnd.n) if s != seat]
    return {
        "hand": format_hand(rnd.hands[seat]),
        "to_beat": "nothing: you lead"
        if top is None
        else f"{combo_name(top.rank, top.count)} (seat {top.owner})",
        "others": ", ".join(others),
        "seat": seat,
    }


def game(field: Field, rnd: Round, record: RoundRecord) -> dict:
    """The round up to the decision as a replay game file (docs/formats.md §2)."""
    seating = record.seating
    hands = [[name for r, k in enumerate(record.hands[p]) for name in card_names(r, k)]
             for p in seating]  # fmt: skip
    moves = []
    for player, move in record.moves:
        at = seating.index(player)
        if move.count == 0:
            moves.append({"seat": at, "pass": True})
        else:
            moves.append({"seat": at, "play": card_names(move.rank, move.count)})
    rules = to_toml(field.rules)
    return {
        "rules": _rules_object(rules),
        "hands": hands,
        "leader": seating.index(record.leader),
        "strategies": [field.simple] * len(seating),
        "moves": moves,
        **({"roles": list(rnd.roles)} if any(rnd.roles) else {}),
    }


def _rules_object(text: str) -> dict:
    """The rules as a replay file's ``rules`` object (the keys of a rules file)."""
    data = tomllib.loads(text)
    data.pop("players", None)
    return data
