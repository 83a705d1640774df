"""What a strategy is, and each built-in declared once: the leaf of the strategies layer.

A built-in is declared here with its kernel id, name, one-line description and parameters
(:func:`built_in`, :func:`heuristic`); the registry (:mod:`strategies.registry`), the
compile tiers (:mod:`strategies.dispatch`) and the figures' colours read it from here.
Built-in strategies are dispatched inside the kernel by an integer id (passing jitted
functions as arguments would disable numba's on-disk cache); the ids below are the one
place they are written, and a declaration returns its id as a plain int, which numba
compiles as a constant. User strategies loaded from files get ids from
:data:`PLUGIN_BASE` on.

Each built-in's parameters are declared once (name, default, meaning); the kernel reads
them through slot constants unpacked from the declaration (``params[pos,
PLANNER_PASS_COST]``, plain ints numba compiles as constants), each named
``<STRATEGY>_<PARAMETER>`` (``tests/strategies/test_param_slots.py`` checks them)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from simulator.errors import PresidentError

if TYPE_CHECKING:
    from strategies.base import Strategy

PLUGIN_BASE = 100  # user functions from files: 100, 101, …
# rules-aware's ``knows``: which of the second catalogue's table rules it plays, as bits
KNOWS_EIGHTS = 1  # 8s count as controls; lead them when they leave one group
KNOWS_BURNS = 2  # complete a run of 4 to burn the pile
KNOWS_JACKS = 4  # lay jacks when the reversed order makes a weak group a winner
KNOWS_OUT_ENDS = 8  # keep a strong card a player could go out on (measured: a small loss)
KNOWS_CLUBS = 16  # keep the last 3 while holding the opening 3 of clubs (measured: a loss)
KNOWS_SEVENS = 32  # lay whole groups of 7s that give weak single cards away
KNOWS_TENS = 64  # lay whole groups of 10s that discard weak single cards (measured: mixed)
KNOWS_LOCKS = 128  # lay the top's suits when it can, locking the trick (suit_lock)
KNOWS_DEFAULT = KNOWS_EIGHTS | KNOWS_BURNS | KNOWS_JACKS | KNOWS_SEVENS | KNOWS_LOCKS  # measured


class StrategyError(PresidentError):
    """An unknown or unusable strategy."""


@dataclass(frozen=True)
class Param:
    """One parameter of a strategy: its name, default value and meaning, and — for one
    that ``president tune`` may search — the range it is searched in (``bounds``) and
    whether it only takes whole values (``integer``: a candidate is rounded)."""

    name: str
    default: float
    help: str
    bounds: tuple[float, float] | None = None  # None: not tuned (an id, a set of bits)
    integer: bool = False


def slots(params: tuple[Param, ...]) -> range:
    """The kernel slots of ``params``, in declaration order, to unpack into constants."""
    return range(len(params))


@dataclass(frozen=True)
class BuiltIn:
    """A built-in strategy as declared: its kernel id, name, one-line description and
    parameters, and whether it is a heuristic (compiled in the heuristics' tier)."""

    kernel_id: int
    name: str
    description: str
    params: tuple[Param, ...] = ()
    heuristic: bool = False
    params_version: int = 1  # raised when the parameters' meaning changes (a tuned file's check)


BUILT_INS: list[BuiltIn] = []  # in declaration order: the order the registry lists them in


def built_in(kernel_id: int, name: str, description: str, params: tuple[Param, ...] = (),
             heuristic: bool = False, params_version: int = 1) -> int:  # fmt: skip
    """Declare a built-in strategy; returns its kernel id (ids are never renumbered: a
    new strategy takes the next free one)."""
    if kernel_id >= PLUGIN_BASE or any(b.kernel_id == kernel_id for b in BUILT_INS):
        raise ValueError(f"kernel id {kernel_id} of {name!r} is taken or a user's")
    BUILT_INS.append(BuiltIn(kernel_id, name, description, params, heuristic, params_version))
    return kernel_id


def heuristic(kernel_id: int, name: str, description: str, params: tuple[Param, ...],
              params_version: int = 1) -> int:  # fmt: skip
    """Declare a heuristic: a kernel strategy that :func:`strategies.policies.choose`
    reaches, compiled in the heuristics' tier (:data:`HEURISTIC_IDS`)."""
    return built_in(kernel_id, name, description, params, True, params_version)


LOWEST = built_in(0, "lowest", "Weakest legal play; leads all cards of its weakest rank.")
RANDOM = built_in(1, "random", "Uniform choice among the legal moves (pass included).")


KEEP_SETS_PARAMS = (
    Param("break_at", 2, "cards held at or below which it breaks groups like lowest", (0, 8), True),
)
(KEEP_SETS_BREAK_AT,) = slots(KEEP_SETS_PARAMS)
KEEP_SETS = heuristic(
    2,
    "keep-sets",
    "Never breaks a pair/three/four to follow (passes instead); leads its weakest group.",
    KEEP_SETS_PARAMS,
)

CONTROL_PARAMS = (
    Param(
        "strength", 11, "strength from which a rank is a control (11 = A, 12 = 2)", (8, 12), True
    ),
    Param("spend_at", 3, "cards held at or below which controls are spent freely", (0, 13), True),
    Param(
        "threat_at",
        2,
        "top owner's cards at or below which a control is spent to stop him",
        (0, 8),
        True,
    ),
)
CONTROL_STRENGTH, CONTROL_SPEND_AT, CONTROL_THREAT_AT = slots(CONTROL_PARAMS)
CONTROL = heuristic(
    3,
    "control",
    "Keeps aces and 2s to win tricks and regain the lead; cashes unbeatable groups to go out.",
    CONTROL_PARAMS,
)

SHED_MAX_PARAMS = (
    Param("end_groups", 2, "groups held at or below which it plays strong first", (0, 8), True),
)
(SHED_MAX_END_GROUPS,) = slots(SHED_MAX_PARAMS)
SHED_MAX = heuristic(
    4,
    "shed-max",
    "Plays the combination shedding most cards; strongest first when few groups remain.",
    SHED_MAX_PARAMS,
)

PLANNER_PARAMS = (
    Param("per_group", 0.3, "cost of each group still held", (0, 2)),
    Param("per_card", 0.05, "cost of each card still held", (0, 1)),
    Param("lead_bonus", 0.4, "bonus for a play nobody can beat (keeps the lead)", (0, 2)),
    Param("pass_cost", 0.2, "cost of passing", (-1, 2)),
)
PLANNER_PER_GROUP, PLANNER_PER_CARD, PLANNER_LEAD_BONUS, PLANNER_PASS_COST = slots(PLANNER_PARAMS)
PLANNER = heuristic(
    5,
    "planner",
    "Values each move by the plays its hand still needs to go out, minus sure winners.",
    PLANNER_PARAMS,
)

RULES_AWARE_PARAMS = (
    Param("strength", 12, "strength from which a rank is a control (12 = 2)", (8, 12), True),
    Param("spend_at", 99, "cards held at or below which controls are spent freely", (0, 99), True),
    Param("revolt_below", 5.5, "mean card strength under which it leads a four to revolt", (0, 12)),
    Param(
        "twos_at",
        2,
        "other groups at or below which it sheds its 2s (no_finish_on_two)",
        (0, 8),
        True,
    ),
    Param("burn_at", 3, "groups held at or below which a four burns the trick", (0, 8), True),
    CONTROL_PARAMS[CONTROL_THREAT_AT],
    Param(
        "knows",
        KNOWS_DEFAULT,
        "table rules it plays, as bits: 1 8s, 2 burns, 4 jacks, 8 out ends, 16 keep the 3 of clubs, 32 7s that give cards away, 64 10s that discard, 128 lock the trick (suit_lock); 0: none, 255: all",
    ),
)
(
    RULES_AWARE_STRENGTH, RULES_AWARE_SPEND_AT, RULES_AWARE_REVOLT_BELOW, RULES_AWARE_TWOS_AT,
    RULES_AWARE_BURN_AT, RULES_AWARE_THREAT_AT, RULES_AWARE_KNOWS,
) = slots(RULES_AWARE_PARAMS)  # fmt: skip

RULES_AWARE = heuristic(
    6,
    "rules-aware",
    "Never passes when it can play (whole groups first, 2s last); sheds 2s under no_finish_on_two, skips, burns, revolts, cuts with 8s and jacks.",
    RULES_AWARE_PARAMS,
)

# linear's weights, one per feature of a move (strategies.linear computes them in this
# order; docs/strategies.md says what each means), then its softmax temperature
LINEAR_FEATURES_VERSION = 4  # bump when a feature is added, removed or changes meaning
# the range president tune searches each weight in (going out, and out on 2s, are rules
# of play written as weights: they stay fixed)
WEIGHT_RANGE = (-4.0, 4.0)


def weight(name: str, default: float, help: str) -> Param:
    """A weight of ``linear``, searched in ``WEIGHT_RANGE`` by president tune."""
    return Param(name, default, help, WEIGHT_RANGE)


LINEAR_PARAMS = (
    weight("w_pass", -0.2, "the pass, when a play was legal"),
    weight("w_cards", 0.05, "cards played"),
    weight("w_strength", -0.1, "strength of the rank played in the order in force, 2 = 1"),
    weight("w_lead_strength", -0.1, "the same, when leading"),
    weight("w_breaks", -0.1, "plays fewer cards than held of its rank"),
    weight("w_groups", -0.3, "groups (ranks) held after the move"),
    weight("w_need", -1.0, "groups held after the move that nobody is sure not to beat"),
    weight("w_sure", 0.0, "groups held after the move that nobody can beat (controls)"),
    weight("w_wins", 0.6, "a play nobody can beat by rank (it keeps the lead)"),
    Param("w_out", 1000.0, "the play goes out"),
    Param("w_out_on_two", -2000.0, "goes out on 2s or a joker under no_finish_on_two"),
    weight("w_only_twos", -3.0, "leaves only 2s and jokers under no_finish_on_two"),
    weight("w_two", -0.2, "plays 2s"),
    weight("w_joker", -0.3, "plays jokers"),
    weight("w_weakest", 0.1, "plays its weakest rank"),
    weight("w_pass_threat", -0.3, "the pass while another player holds 2 cards or fewer"),
    weight("w_pass_owner", -0.3, "the pass while the top's owner holds 2 cards or fewer"),
    weight("w_wins_threat", 0.3, "an unbeatable play while another player holds 2 cards or fewer"),
    weight("w_ends", 0.4, "ends the trick by a table rule: 8s, 2s under two_ends_trick, a burn"),
    weight("w_jack", 0.8, "plays jacks under jack_back (the order reverses for the trick)"),
    weight(
        "w_revolt",
        1.0,
        "a four under revolution, times 1 - mean strength left / 6 (weak hand: up to 1)",
    ),
    weight("w_skip", 0.2, "an equal play under equal_rank = skip (skips the next player)"),
    weight("w_lead_cards", 0.1, "cards played, when leading"),
    weight("w_control_kept", 0.0, "an ace or stronger played, times cards kept / 13"),
    weight("w_beaters", 0.0, "ranks stronger than the play with as many cards out there, / 13"),
    weight("w_lead_over", 0.0, "a lead of more cards than the player nearest to going out holds"),
    weight("w_breaks_kept", 0.0, "breaks a group, times cards kept / 13"),
    weight("w_pass_cards", 0.0, "the pass, times cards held / 13"),
    weight("w_pass_last", 0.0, "the pass as the last answer to the top (then the trick ends)"),
    weight("w_sequence", 0.0, "lays a sequence (sequences)"),
    weight("w_locks", 0.0, "locks the trick to the top's suits (suit_lock)"),
    weight(
        "w_runs_left", 0.0, "cards left in sequences of 3 or more of one suit, / 13 (sequences)"
    ),
    Param("temperature", 0.0, "softmax temperature of the choice (0: the best-scored move)"),
)
(
    LINEAR_W_PASS, LINEAR_W_CARDS, LINEAR_W_STRENGTH, LINEAR_W_LEAD_STRENGTH, LINEAR_W_BREAKS,
    LINEAR_W_GROUPS, LINEAR_W_NEED, LINEAR_W_SURE, LINEAR_W_WINS, LINEAR_W_OUT,
    LINEAR_W_OUT_ON_TWO, LINEAR_W_ONLY_TWOS, LINEAR_W_TWO, LINEAR_W_JOKER, LINEAR_W_WEAKEST,
    LINEAR_W_PASS_THREAT, LINEAR_W_PASS_OWNER, LINEAR_W_WINS_THREAT, LINEAR_W_ENDS,
    LINEAR_W_JACK, LINEAR_W_REVOLT, LINEAR_W_SKIP, LINEAR_W_LEAD_CARDS, LINEAR_W_CONTROL_KEPT,
    LINEAR_W_BEATERS, LINEAR_W_LEAD_OVER, LINEAR_W_BREAKS_KEPT, LINEAR_W_PASS_CARDS,
    LINEAR_W_PASS_LAST, LINEAR_W_SEQUENCE, LINEAR_W_LOCKS, LINEAR_W_RUNS_LEFT,
    LINEAR_TEMPERATURE,
) = slots(LINEAR_PARAMS)  # fmt: skip
LINEAR_FEATURES = LINEAR_TEMPERATURE  # the weights come first, one slot per feature
LINEAR = heuristic(
    8,
    "linear",
    "Scores each move by a weighted sum of its features (cards, strength, groups left, sure winners, table rules); plays the best.",
    LINEAR_PARAMS,
    LINEAR_FEATURES_VERSION,
)


# advised: rules-aware (its parameters first, in its slots, so that rules-aware's code reads
# them there) and up to ADVISED_TIPS tips of `president advise`, TIP_WIDTH slots each:
# the play (strategies.advice.PLAYS, from 1; 0 ends the tips), then two conditions, each
# the place of what it reads (strategies.advice.VIEW, from 1; 0: none) and its bounds.
ADVISED_TIPS = 10
TIP_FIELDS = (
    ("", "play (strategies/advice.py PLAYS, from 1; 0: no tip)"),
    ("_if", "what the first condition reads (VIEW, from 1; 0: none)"),
    ("_from", "its lowest value"),
    ("_to", "its highest value"),
    ("_and", "what the second condition reads (0: none)"),
    ("_and_from", "its lowest value"),
    ("_and_to", "its highest value"),
)
TIP_WIDTH = len(TIP_FIELDS)
TIP_SLOT = len(RULES_AWARE_PARAMS)
ADVISED_PARAMS = RULES_AWARE_PARAMS + tuple(
    Param(f"tip{i}{suffix}", 0, f"tip {i}: {meaning}")
    for i in range(1, ADVISED_TIPS + 1)
    for suffix, meaning in TIP_FIELDS
)
# its slot constants, ADVISED_STRENGTH … ADVISED_TIP10_AND_TO, as every parameter has one
# (advice.py reads the tips from TIP_SLOT by TIP_WIDTH; rules-aware its own constants)
globals().update({f"ADVISED_{p.name.upper()}": slot for slot, p in enumerate(ADVISED_PARAMS)})
ADVISED = heuristic(
    11,
    "advised",
    "rules-aware following the tips of a `president advise` run (its tips.toml); with none, rules-aware.",
    ADVISED_PARAMS,
)

# montecarlo's rollout policy and its prior get this many slots each in its row: the most
# any built-in declared before it declares (tests/strategies/test_param_slots.py checks it)
POLICY_PARAMS = max(len(b.params) for b in BUILT_INS)

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
MONTECARLO = built_in(
    7,
    "montecarlo",
    "Search: samples the unseen cards, plays each move out with a fast policy, best mean place.",
    MONTECARLO_PARAMS,
)
CHAMPION_PARAMS = (
    Param("budget", 48, "most playouts per decision, shared among the candidate moves"),
    Param(
        "explore",
        0.4,
        "UCB1's exploration constant (a playout scores 1 for the best place, 0 the worst)",
    ),
    Param(
        "guesses",
        12,
        "hand guesses per decision, resampled by the likelihood of the current trick's passes",
    ),
    Param("temperature", 0.3, "softmax temperature of linear's scores in that likelihood"),
    Param("margin", 0.2, "mean-place gain a move needs over linear's move to be played instead"),
    Param("solve", 200, "most positions the two-player endgame solver visits per guess and move"),
    Param("plies", 2, "moves of a playout by linear for all, then keep-sets for the others"),
    Param("race", 1, "1: drop the moves that cannot beat linear's (montecarlo's race); 0: UCB1"),
    Param("dose", 0, "chance of a uniformly random legal move instead (a dose of skill: 0 none)"),
)
(
    CHAMPION_BUDGET, CHAMPION_EXPLORE, CHAMPION_GUESSES, CHAMPION_TEMPERATURE, CHAMPION_MARGIN,
    CHAMPION_SOLVE, CHAMPION_PLIES, CHAMPION_RACE, CHAMPION_DOSE,
) = slots(CHAMPION_PARAMS)  # fmt: skip
CHAMPION = built_in(
    9,
    "champion",
    "Search: hand guesses weighted by the opponents' passes, playouts by UCB1 with linear, exact endgames.",
    CHAMPION_PARAMS,
)
CLAIRVOYANT_PARAMS = CHAMPION_PARAMS  # the same search, given every hand
(
    CLAIRVOYANT_BUDGET, CLAIRVOYANT_EXPLORE, CLAIRVOYANT_GUESSES, CLAIRVOYANT_TEMPERATURE,
    CLAIRVOYANT_MARGIN, CLAIRVOYANT_SOLVE, CLAIRVOYANT_PLIES, CLAIRVOYANT_RACE, CLAIRVOYANT_DOSE,
) = slots(CLAIRVOYANT_PARAMS)  # fmt: skip
CLAIRVOYANT = built_in(
    10,
    "clairvoyant",
    "SEES EVERY HAND (a yardstick, never in a default line-up): champion's search on the true deal.",
    CLAIRVOYANT_PARAMS,
)
# the strategies that search, which no rollout or prior may be (strategies.policies
# dispatches every other one): the search tier of strategies.dispatch
SEARCH_IDS = frozenset({MONTECARLO, CHAMPION, CLAIRVOYANT})
# champion's row goes on with linear's parameters (its rollouts and its prior)
CHAMPION_POLICY_SLOT = len(CHAMPION_PARAMS)
# The heuristics: the kernel strategies between the reference ones and the search player
# (strategies.dispatch compiles them as a tier), by their declarations.
HEURISTIC_IDS = frozenset(b.kernel_id for b in BUILT_INS if b.heuristic)
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
    # the version of ``params`` (its built-in's declaration): a tuned file
    # (strategies.tuned) made for another version is refused rather than misread
    params_version: int = 1
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
    def tunable(self) -> tuple[Param, ...]:
        """The parameters ``president tune`` searches: those declared with bounds."""
        return tuple(p for p in self.params if p.bounds is not None)

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
