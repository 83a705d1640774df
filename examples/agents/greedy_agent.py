"""An environment agent (docs/env.md): ``--strategies examples/agents/greedy_agent.py:Agent``.

It reads only what the environment gives it: the observation vector and the action
mask. It sheds as many cards as it may at once, of its weakest rank, and passes only
when it must; in the exchange it gives back its weakest cards.
"""

from __future__ import annotations

import numpy as np

from simulator.env.encoding import GIVE_BASE, N_PLAYS, OFFSETS, PASS_ACTION


class Agent:
    """Greedy: the most cards of the weakest rank (an environment agent)."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        weakest_first = observation[OFFSETS["order_reversed"]] == 0
        if legal[0] >= GIVE_BASE:  # giving back: the weakest rank held
            return int(legal[0] if weakest_first else legal[-1])
        plays = [a for a in legal if a < N_PLAYS]
        if not plays:
            return PASS_ACTION
        rank_order = 1 if weakest_first else -1
        return int(min(plays, key=lambda a: (-(a % 4), rank_order * (a // 4))))
