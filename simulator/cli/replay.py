"""``president replay GAME.json``: one round from a given deal, as JSON Lines."""

from __future__ import annotations

import json
import sys

import click

from simulator.apps.replay import load_game, replay
from simulator.cli.common import seed_option


@click.command("replay")
@click.argument("game_file", metavar="GAME.json", type=click.Path(dir_okay=False))
@seed_option
def replay_command(game_file: str, seed: int) -> None:
    """Replay one round from GAME.json and print its events as JSON Lines.

    Scripted moves are played first, then each seat's strategy. An illegal scripted move
    stops the replay with exit code 2 and names the move's index and the rule it breaks.
    """
    events = replay(load_game(game_file), seed=seed)
    sys.stdout.write("".join(json.dumps(e.to_json()) + "\n" for e in events))
