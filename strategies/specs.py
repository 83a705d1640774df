"""What a strategy is, the kernel ids of the built-ins and their parameters: the leaf of
the strategies layer.

Built-in strategies are dispatched inside the kernel by an integer id (passing jitted
functions as arguments would disable numba's on-disk cache); the ids below are the one
place they are written. User strategies loaded from files get ids from
:data:`PLUGIN_BASE` on.

Each built-in's parameters are declared here once (name, default, meaning), and the
kernel reads them through slot constants unpacked from the declaration
(``params[pos, PLANNER_PASS_COST]``): plain ints, which numba compiles as constants.
A constant is named ``<STRATEGY>_<PARAMETER>`` (``tests/strategies/test_param_slots.py``
checks each against its declaration).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from simulator.errors import PresidentError

if TYPE_CHECKING:
    from strategies.base import Strategy

LOWEST = 0
RANDOM = 1
KEEP_SETS = 2
CONTROL = 3
SHED_MAX = 4
PLANNER = 5
RULES_AWARE = 6
MONTECARLO = 7
LINEAR = 8
CHAMPION = 9  # the search players built on linear (strategies.champion)
CLAIRVOYANT = 10
PLUGIN_BASE = 100  # user functions from files: 100, 101, …
# The heuristics: the kernel strategies between the reference ones and the search player
# (strategies.dispatch compiles them as a tier). A new one takes the next free id, 9.
HEURISTIC_IDS = frozenset({KEEP_SETS, CONTROL, SHED_MAX, PLANNER, RULES_AWARE, LINEAR})
# rules-aware's ``knows``: which of the second catalogue's table rules it plays, as bits
KNOWS_EIGHTS = 1  # 8s count as controls; lead them when they leave one group
KNOWS_BURNS = 2  # complete a run of 4 to burn the pile
KNOWS_JACKS = 4  # lay jacks when the reversed order makes a weak group a winner
KNOWS_OUT_ENDS = 8  # keep a strong card a player could go out on (measured: a small loss)
KNOWS_CLUBS = 16  # keep the last 3 while holding the opening 3 of clubs (measured: a loss)
KNOWS_DEFAULT = KNOWS_EIGHTS | KNOWS_BURNS | KNOWS_JACKS  # the ones that measured no loss


class StrategyError(PresidentError):
    """An unknown or unusable strategy."""


@dataclass(frozen=True)
class Param:
    """One parameter of a strategy: its name, default value and meaning."""

    name: str
    default: float
    help: str


def slots(params: tuple[Param, ...]) -> range:
    """The kernel slots of ``params``, in declaration order, to unpack into constants."""
    return range(len(params))


KEEP_SETS_PARAMS = (
    Param("break_at", 2, "cards held at or below which it breaks groups like lowest"),
)
(KEEP_SETS_BREAK_AT,) = slots(KEEP_SETS_PARAMS)

CONTROL_PARAMS = (
    Param("strength", 11, "strength from which a rank is a control (11 = A, 12 = 2)"),
    Param("spend_at", 3, "cards held at or below which controls are spent freely"),
    Param("threat_at", 2, "top owner's cards at or below which a control is spent to stop him"),
)
CONTROL_STRENGTH, CONTROL_SPEND_AT, CONTROL_THREAT_AT = slots(CONTROL_PARAMS)

SHED_MAX_PARAMS = (Param("end_groups", 2, "groups held at or below which it plays strong first"),)
(SHED_MAX_END_GROUPS,) = slots(SHED_MAX_PARAMS)

PLANNER_PARAMS = (
    Param("per_group", 0.3, "cost of each group still held"),
    Param("per_card", 0.05, "cost of each card still held"),
    Param("lead_bonus", 0.4, "bonus for a play nobody can beat (keeps the lead)"),
    Param("pass_cost", 0.2, "cost of passing"),
)
PLANNER_PER_GROUP, PLANNER_PER_CARD, PLANNER_LEAD_BONUS, PLANNER_PASS_COST = slots(PLANNER_PARAMS)

RULES_AWARE_PARAMS = (
    Param("strength", 12, "strength from which a rank is a control (12 = 2)"),
    Param("spend_at", 99, "cards held at or below which controls are spent freely"),
    Param("revolt_below", 5.5, "mean card strength under which it leads a four to revolt"),
    Param("twos_at", 2, "other groups at or below which it sheds its 2s (no_finish_on_two)"),
    Param("burn_at", 3, "groups held at or below which a four burns the trick"),
    CONTROL_PARAMS[CONTROL_THREAT_AT],
    Param(
        "knows",
        KNOWS_DEFAULT,
        "table rules it plays, as bits: 1 8s, 2 burns, 4 jacks, 8 out ends, 16 keep the 3 of clubs; 0: none, 31: all",
    ),
)
(
    RULES_AWARE_STRENGTH,
    RULES_AWARE_SPEND_AT,
    RULES_AWARE_REVOLT_BELOW,
    RULES_AWARE_TWOS_AT,
    RULES_AWARE_BURN_AT,
    RULES_AWARE_THREAT_AT,
    RULES_AWARE_KNOWS,
) = slots(RULES_AWARE_PARAMS)

# linear's weights, one per feature of a move (strategies.linear computes them in this
# order; docs/strategies.md says what each means), then its softmax temperature
LINEAR_FEATURES_VERSION = 1  # bump when a feature is added, removed or changes meaning
LINEAR_PARAMS = (
    Param("w_pass", -0.2, "the pass, when a play was legal"),
    Param("w_cards", 0.05, "cards played"),
    Param("w_strength", -0.1, "strength of the rank played in the order in force, 2 = 1"),
    Param("w_lead_strength", -0.1, "the same, when leading"),
    Param("w_breaks", -0.1, "plays fewer cards than held of its rank"),
    Param("w_groups", -0.3, "groups (ranks) held after the move"),
    Param("w_need", -1.0, "groups held after the move that nobody is sure not to beat"),
    Param("w_sure", 0.0, "groups held after the move that nobody can beat (controls)"),
    Param("w_wins", 0.4, "a play nobody can beat by rank (it keeps the lead)"),
    Param("w_out", 1000.0, "the play goes out"),
    Param("w_out_on_two", -2000.0, "goes out on 2s or a joker under no_finish_on_two"),
    Param("w_only_twos", -3.0, "leaves only 2s and jokers under no_finish_on_two"),
    Param("w_two", -0.2, "plays 2s"),
    Param("w_joker", -0.3, "plays jokers"),
    Param("w_weakest", 0.1, "plays its weakest rank"),
    Param("w_pass_threat", -0.3, "the pass while another player holds 2 cards or fewer"),
    Param("w_pass_owner", -0.3, "the pass while the top's owner holds 2 cards or fewer"),
    Param("w_wins_threat", 0.3, "an unbeatable play while another player holds 2 cards or fewer"),
    Param("w_ends", 0.4, "ends the trick by a table rule: 8s, 2s under two_ends_trick, a burn"),
    Param("w_jack", 0.0, "plays jacks under jack_back (the order reverses for the trick)"),
    Param("w_revolt", 1.0, "a four under revolution, times how weak the hand left is (0..1)"),
    Param("w_skip", 0.2, "an equal play under equal_rank = skip (skips the next player)"),
    Param("w_lead_cards", 0.0, "cards played, when leading"),
    Param("temperature", 0.0, "softmax temperature of the choice (0: the best-scored move)"),
)
(
    LINEAR_W_PASS,
    LINEAR_W_CARDS,
    LINEAR_W_STRENGTH,
    LINEAR_W_LEAD_STRENGTH,
    LINEAR_W_BREAKS,
    LINEAR_W_GROUPS,
    LINEAR_W_NEED,
    LINEAR_W_SURE,
    LINEAR_W_WINS,
    LINEAR_W_OUT,
    LINEAR_W_OUT_ON_TWO,
    LINEAR_W_ONLY_TWOS,
    LINEAR_W_TWO,
    LINEAR_W_JOKER,
    LINEAR_W_WEAKEST,
    LINEAR_W_PASS_THREAT,
    LINEAR_W_PASS_OWNER,
    LINEAR_W_WINS_THREAT,
    LINEAR_W_ENDS,
    LINEAR_W_JACK,
    LINEAR_W_REVOLT,
    LINEAR_W_SKIP,
    LINEAR_W_LEAD_CARDS,
    LINEAR_TEMPERATURE,
) = slots(LINEAR_PARAMS)
LINEAR_FEATURES = LINEAR_TEMPERATURE  # the weights come first, one slot per feature

# montecarlo's rollout policy and its prior get this many slots each in its row: the most
# any other built-in declares (tests/strategies/test_param_slots.py checks the registry)
POLICY_PARAMS = max(
    len(params)
    for params in (
        KEEP_SETS_PARAMS,
        CONTROL_PARAMS,
        SHED_MAX_PARAMS,
        PLANNER_PARAMS,
        RULES_AWARE_PARAMS,
        LINEAR_PARAMS,
    )
)

MONTECARLO_PARAMS = (
    Param(
        "samples", 32, "most sampled deals per candidate move (fewer for those the search drops)"
    ),
    Param("rollout", LOWEST, "kernel id of the policy that plays the rounds out (0 = lowest)"),
    Param(
        "prior", RULES_AWARE, "kernel id of the policy whose move is kept unless search beats it"
    ),
    Param("margin", 0.1, "mean-place gain the search needs to overrule the prior's move"),
)
MONTECARLO_SAMPLES, MONTECARLO_ROLLOUT, MONTECARLO_PRIOR, MONTECARLO_MARGIN = slots(
    MONTECARLO_PARAMS
)
CHAMPION_PARAMS = (
    Param("budget", 96, "playouts per decision, shared among the candidate moves by UCB1"),
    Param(
        "explore",
        0.4,
        "UCB1's exploration constant (a playout scores 1 for the best place, 0 the worst)",
    ),
    Param(
        "guesses",
        16,
        "hand guesses per decision, resampled by the likelihood of the current trick's passes",
    ),
    Param("temperature", 0.3, "softmax temperature of linear's scores in that likelihood"),
    Param("margin", 0.05, "mean-place gain a move needs over linear's move to be played instead"),
    Param("solve", 2000, "most positions the two-player endgame solver visits per guess and move"),
)
(
    CHAMPION_BUDGET,
    CHAMPION_EXPLORE,
    CHAMPION_GUESSES,
    CHAMPION_TEMPERATURE,
    CHAMPION_MARGIN,
    CHAMPION_SOLVE,
) = slots(CHAMPION_PARAMS)
CLAIRVOYANT_PARAMS = CHAMPION_PARAMS  # the same search, given every hand
(
    CLAIRVOYANT_BUDGET,
    CLAIRVOYANT_EXPLORE,
    CLAIRVOYANT_GUESSES,
    CLAIRVOYANT_TEMPERATURE,
    CLAIRVOYANT_MARGIN,
    CLAIRVOYANT_SOLVE,
) = slots(CLAIRVOYANT_PARAMS)
# champion's row goes on with linear's parameters (its rollouts and its prior)
CHAMPION_POLICY_SLOT = len(CHAMPION_PARAMS)

# montecarlo's row goes on with the rollout policy's parameters, then the prior's
ROLLOUT_SLOT = len(MONTECARLO_PARAMS)
PRIOR_SLOT = ROLLOUT_SLOT + POLICY_PARAMS
NPARAMS = PRIOR_SLOT + POLICY_PARAMS  # a row of the kernel's ``params``: the longest, montecarlo's


@dataclass(frozen=True)
class StrategySpec:
    """A registered strategy, with the parameter values it is played with."""

    name: str
    description: str
    make_python: Callable[[StrategySpec], Strategy] | None
    kernel_id: int
    params: tuple[Param, ...] = ()
    values: tuple[float, ...] = ()  # parameter values, defaults when empty
    python_note: str = ""  # why there is no plain-Python implementation, when there is none
    extend: Callable[[tuple[float, ...]], tuple[float, ...]] | None = None  # more kernel slots

    @property
    def kernel_vector(self) -> tuple[float, ...]:
        """The kernel's ``params`` row: the values, and any slots they imply."""
        return self.extend(self.vector) if self.extend else self.vector

    @property
    def vector(self) -> tuple[float, ...]:
        """The parameter values in order (the kernel's ``params`` row)."""
        return self.values or tuple(p.default for p in self.params)

    @property
    def label(self) -> str:
        """The name with every parameter that differs from its default."""
        changed = [
            f"{p.name}={v:g}"
            for p, v in zip(self.params, self.vector, strict=True)
            if v != p.default
        ]
        return f"{self.name}:{','.join(changed)}" if changed else self.name

    def make(self) -> Strategy:
        """A fresh plain-Python instance, for the reference engine."""
        if self.make_python is None:
            raise StrategyError(
                f"strategy {self.name!r} has no reference-engine version: {self.python_note}"
            )
        return self.make_python(self)

    def with_values(self, text: str) -> StrategySpec:
        """This strategy with parameters ``key=value,…`` changed."""
        values = list(self.vector)
        names = [p.name for p in self.params]
        for item in filter(None, text.split(",")):
            key, eq, raw = item.partition("=")
            key = key.strip()
            if key not in names or not eq:
                allowed = ", ".join(names) or "none"
                raise StrategyError(
                    f"strategy {self.name!r}: bad parameter {item!r} (allowed: {allowed}, as key=value)"
                )
            try:
                values[names.index(key)] = float(raw)
            except ValueError:
                raise StrategyError(
                    f"strategy {self.name!r}: parameter {key} must be a number, not {raw!r}"
                ) from None
        return replace(self, values=tuple(values))
