"""Président as a PettingZoo AEC environment, for any rules of the rule book (docs/env.md).

An episode is a match of the reference engine (:func:`simulator.reference.match.match_steps`,
the same loop as :func:`simulator.reference.match.play_match`), so the environment is
the game exactly, draws its deals from the run's streams by ``(seed, match, purpose)``,
and an agent's match is the simulator's match for the same seed and moves. Each decision
is one step: a move of the player to move, or one card of a give-back (the forced gifts
of the best cards are automatic). Agents are ``player_0`` … by the seat they start the
match at (players who change seats between rounds move; the observation is always from
the player's seat).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np
from gymnasium import Space
from gymnasium.logger import warn
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from simulator.env.encoding import (
    GIVE_BASE,
    N_ACTIONS,
    as_named,
    family,
    give_mask,
    give_observation,
    move_of,
    play_mask,
    play_observation,
    rules_vector,
    wrong_family,
)
from simulator.env.options import (
    EPISODES,
    NAME,
    REWARDS,
    ROUNDS,
    action_space,
    check_choice,
    check_count,
    observation_space,
    resolve_rules,
)
from simulator.reference.exchange import GiveBack
from simulator.reference.match import (
    MAX_ROUNDS,
    MatchRecord,
    MoveAsk,
    RoundRecord,
    match_steps,
)
from simulator.reference.round import Round
from simulator.rules.cards import format_hand
from simulator.rules.options import Rules


def env(**kwargs: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's own are: an illegal action ends the
    episode for its agent with a reward of -1 (a warning says so), and the order of
    calls is checked."""
    wrapped = raw_env(**kwargs)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped environment
    """Président for 3 to 8 agents; see docs/env.md for the spaces and the options."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Path | Rules = "french",
        players: int | None = None,
        episode: str = "match",
        rounds: int = ROUNDS,
        max_rounds: int = MAX_ROUNDS,
        reward: str = "places",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = resolve_rules(rules, players)
        check_choice("episode", episode, EPISODES)
        check_choice("reward", reward, REWARDS)
        check_choice("render_mode", render_mode, (None, *self.metadata["render_modes"]))
        check_count("rounds", rounds)
        check_count("max_rounds", max_rounds)
        self.episode, self.rounds, self.max_rounds = episode, rounds, max_rounds
        self.reward, self.render_mode = reward, render_mode
        self.possible_agents = [f"player_{p}" for p in range(self.rules.players)]
        self._rules_vec = rules_vector(self.rules)
        self._obs_space = observation_space()
        self._act_space = action_space()
        self.run_seed, self.match = int(np.random.SeedSequence().entropy % 2**63), -1

    def observation_space(self, agent: str) -> Space:
        return self._obs_space

    def action_space(self, agent: str) -> Space:
        return self._act_space

    # ------------------------------------------------------------ an episode

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start match ``options["match"]`` of the run seeded ``seed`` (by default the
        next match: reset(seed=s) then reset() plays matches 0, 1, … of seed s)."""
        if seed is not None:
            self.run_seed, self.match = seed, -1
        self.match = (options or {}).get("match", self.match + 1)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._ended: list[RoundRecord] = []
        self._round: Round | None = None
        self.record: MatchRecord | None = None
        one = self.episode == "round"
        self._steps = match_steps(
            self.rules, self.run_seed, self.match, rounds=1 if one else self.rounds,
            max_rounds=1 if one else self.max_rounds, observer=self._observe_match,
        )  # fmt: skip
        self._next(next(self._steps))

    def step(self, action: int | None) -> None:
        """Play the selected agent's action: a move, or one card of his give-back."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        reason = self._why_illegal(int(action))
        if reason:
            raise ValueError(f"action {action} of {agent} is illegal: {reason}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if isinstance(self.decision, GiveBack):
            self._given.append(int(action) - GIVE_BASE)
            if len(self._given) == self.decision.k:
                self._send(self._given)
        else:
            self._send(move_of(int(action)))
        self._accumulate_rewards()

    def _why_illegal(self, action: int) -> str | None:
        """What is wrong with an action of the agent deciding (the engine's own words for
        a move), or ``None``: checked before the engine, which would stop the match."""
        ask = self.decision
        if not 0 <= action < N_ACTIONS:
            return f"actions are 0 to {N_ACTIONS - 1}"
        if isinstance(ask, GiveBack):
            rank = action - GIVE_BASE
            held = family(action) == "give" and ask.hand[rank] - self._given.count(rank) > 0
            return None if held else "give back a card held"
        misplaced = wrong_family(action, self.rules.suited)
        if misplaced:
            return misplaced
        move, cards = as_named(move_of(action))
        return ask.round.why_illegal(ask.round.turn, move, cards)

    def _send(self, answer: Any) -> None:
        try:
            ask = self._steps.send(answer)
        except StopIteration as stop:
            self._finish(stop.value)
        else:
            self._next(ask)
        for record in self._ended:
            for p, place in enumerate(record.places):
                self.rewards[self.possible_agents[p]] += self._reward(place, record.points[p])
        self._ended.clear()

    def _next(self, ask: GiveBack | MoveAsk) -> None:
        """Select the agent the match asks next. ``decision`` is the engine's question
        (a ``GiveBack`` or a ``MoveAsk``): what a strategy of the simulator would be told,
        for driving the environment with them."""
        self.decision, self._given = ask, []
        if isinstance(ask, MoveAsk):
            self._round = ask.round
        self.agent_selection = self.possible_agents[
            ask.who if isinstance(ask, GiveBack) else ask.player
        ]

    def _finish(self, record: MatchRecord) -> None:
        """The match is over; cut short (truncated) when a target was not settled."""
        self.record = record
        cut = self.rules.target > 0 and record.winner < 0 and self.episode == "match"
        for agent in self.agents:
            self.terminations[agent] = not cut
            self.truncations[agent] = cut

    def _observe_match(self, kind: str, payload: object) -> None:
        """Follow the match: the seating of each round, the places of each round ended."""
        if kind == "round_start":
            assert isinstance(payload, RoundRecord)
            self._seating = payload.seating
        elif kind == "round_end":
            assert isinstance(payload, RoundRecord)
            self._ended.append(payload)

    def _reward(self, place: int, points: int) -> float:
        """A round's reward: +1 for first place to -1 for last, or the rules' points."""
        n = self.rules.players
        return float(points) if self.reward == "points" else (n + 1 - 2 * place) / (n - 1)

    # ------------------------------------------------------------ what agents see

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation and action mask (all 0 unless it is his decision)."""
        player = self.possible_agents.index(agent)
        ask = self.decision
        deciding = self.record is None and agent == self.agent_selection
        if deciding and isinstance(ask, GiveBack):
            hand = list(ask.hand)
            for rank in self._given:
                hand[rank] -= 1
            vec = give_observation(hand, ask.k - len(self._given), ask.opens, self._rules_vec)
            return {"observation": vec, "action_mask": give_mask(hand)}
        assert self._round is not None, "a match's first question is a move"
        obs = self._round.observation(self._seating.index(player))
        mask = play_mask(obs) if deciding else np.zeros(N_ACTIONS, np.int8)
        return {"observation": play_observation(obs, self._rules_vec), "action_mask": mask}

    def render(self) -> str | None:
        """The decision at hand in one line (``ansi`` returns it, ``human`` prints it)."""
        if self.render_mode is None:
            warn("render() called without a render_mode (allowed: human, ansi)")
            return None
        if self.record is not None:
            text = f"match over: places of the last round {self.record.rounds[-1].places}"
        elif isinstance(self.decision, GiveBack):
            text = (f"{self.agent_selection} gives back {self.decision.k - len(self._given)} more "
                    f"card(s) from {format_hand(self.decision.hand)}")  # fmt: skip
        else:
            obs = self.decision.round.observation()
            top = "leads" if obs.top is None else f"plays on a {obs.top.name}"
            text = f"{self.agent_selection} {top}, holding {format_hand(obs.hand)}"
        if self.render_mode == "human":
            print(text)
        return text

    def close(self) -> None:
        """Drop the match in play, if any."""
        if hasattr(self, "_steps"):
            self._steps.close()
