"""An environment agent (docs/env.md): ``--strategies examples/agents/greedy_agent.py:Agent``.

It reads only what the environment gives it: the observation vector and the action
mask. It sheds as many cards as it may at once, of its weakest rank, and passes only
when it must (it never lays a sequence); in the exchange it gives back its weakest
cards. Under the rules that read suits its plays are actions by suits, whose rank and
count ``move_of`` tells; it takes the first set of suits the mask allows.
"""

from __future__ import annotations

import numpy as np

from simulator.env.encoding import OFFSETS, PASS_ACTION, as_named, family, move_of

PLAYS = ("play", "play_suits")  # the families of plays of one rank


class Agent:
    """Greedy: the most cards of the weakest rank (an environment agent)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        weakest_first = observation[OFFSETS["order_reversed"]] == 0
        if family(legal[0]) == "give":  # giving back: the weakest rank held
            return int(legal[0] if weakest_first else legal[-1])
        plays = [(as_named(move_of(a))[0], a) for a in legal if family(a) in PLAYS]
        if not plays:
            return PASS_ACTION
        rank_order = 1 if weakest_first else -1
        return int(min(plays, key=lambda play: (-play[0].count, rank_order * play[0].rank))[1])
