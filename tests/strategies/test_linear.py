"""``linear``: the features it weighs, read on hands a reader can check, and its choices.

Move-for-move agreement of the kernel and the reference engine (temperature 0 and above)
is in ``test_strategies_vs_reference.py``, which plays it with the other heuristics.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from simulator.kernel.bits import U0
from simulator.kernel.layout import MAX_PLAYERS, S_SIZE, S_TURN, rules_array
from simulator.kernel.legal import legal_plays
from simulator.matchloop.api import KernelJob, trace_match
from simulator.reference.rng import Stream
from simulator.reference.round import PASS, Move, Round
from simulator.rules.cards import counts_from_cards, parse_card
from simulator.rules.files import load_rules
from simulator.rules.options import Rules
from simulator.rules.presets import preset
from strategies import registry
from strategies.adapter import KernelStrategy
from strategies.linear import features, finite_weights, move_score, scored_move, situation
from strategies.linear_features import move_features
from strategies.linear_rough import rough_on_state, weight_scale
from strategies.linear_terms import control_kept
from strategies.specs import (
    LINEAR,
    LINEAR_FEATURES,
    LINEAR_PARAMS,
    LINEAR_W_PASS,
    NPARAMS,
    PLANNER_PARAMS,
)

THREE, FOUR, FIVE, SEVEN, EIGHT, NINE, KING, ACE, TWO = 0, 1, 2, 4, 5, 6, 10, 11, 12


def counts(text: str) -> list[int]:
    return counts_from_cards(parse_card(c) for c in text.split())


def position(rules: Rules, hands: list[str], script: list[tuple[int, int]]) -> Round:
    rnd = Round(rules, [counts(h) for h in hands], 0)
    for rank, count in script:
        rnd.apply(Move(rank, count))
    return rnd


def test_every_weight_has_its_feature() -> None:
    rnd = position(Rules(), ["5 Q", "7 7 9 2", "K A"], [(FIVE, 1)])
    features = move_features(rnd.observation(), Move(SEVEN, 1))
    assert len(features) == LINEAR_FEATURES == len(LINEAR_PARAMS) - 1
    assert list(features) == [p.name.removeprefix("w_") for p in LINEAR_PARAMS[:-1]]


def test_features_of_plays_and_the_pass() -> None:
    """On a single 5, seat 1 holds 7 7 9 2: a 7 breaks the pair, the 2 cannot be beaten
    (no joker, no other 2 out there? three are: but none stronger), the pass keeps all."""
    rnd = position(Rules(), ["5 Q", "7 7 9 2", "K A"], [(FIVE, 1)])
    obs = rnd.observation()
    seven = move_features(obs, Move(SEVEN, 1))
    assert (seven["breaks"], seven["cards"], seven["groups"], seven["weakest"]) == (1, 1, 3, 1)
    assert seven["pass"] == 0 and seven["out"] == 0 and seven["lead_strength"] == 0
    two = move_features(obs, Move(TWO, 1))
    assert two["two"] == 1 and two["wins"] == 1 and two["strength"] == 1.0
    assert two["groups"] == 2 and two["breaks"] == 0
    passing = move_features(obs, PASS)
    assert passing["pass"] == 1 and passing["cards"] == 0 and passing["groups"] == 3
    assert passing["sure"] == 1  # the 2 is a group nobody can beat
    assert passing["need"] == 2  # the 7s and the 9 are not
    assert passing["pass_threat"] == 1  # seat 0 holds 1 card (the Q) after its 5
    assert passing["pass_owner"] == 1


def test_features_of_going_out_and_the_table_rules() -> None:
    nofin2 = Rules(no_finish_on_two=True, eight_ends_trick=True)
    rnd = position(nofin2, ["5 Q Q", "2 2", "8 K"], [(FIVE, 1)])
    assert move_features(rnd.observation(), Move(TWO, 1))["only_twos"] == 1
    rnd = position(nofin2, ["5 Q Q", "9 9", "8 K"], [(FIVE, 1)])
    rnd.apply(PASS)
    eight = move_features(rnd.observation(), Move(EIGHT, 1))
    assert eight["ends"] == 1 and eight["out"] == 0
    rnd = position(nofin2, ["5 Q Q", "2", "8 K"], [(FIVE, 1)])
    out = move_features(rnd.observation(), Move(TWO, 1))
    assert out["out"] == 1 and out["out_on_two"] == 1
    lead = position(Rules(revolution=True), ["4 4 4 4 5 6", "9 9", "8 K"], [])
    four = move_features(lead.observation(), Move(FOUR, 4))
    assert four["revolt"] > 0 and four["lead_cards"] == 4 and four["lead_strength"] > 0


def test_a_control_spent_costs_by_the_cards_it_keeps() -> None:
    """On a single 5, seat 1 holds 7 9 K A A 2: an ace keeps 5 cards, the 2 keeps 5, the
    king is no control (0); reversed, the 3 is a control and the ace is not."""
    rnd = position(Rules(), ["5 Q", "7 9 K A A 2", "K 4"], [(FIVE, 1)])
    obs = rnd.observation()
    assert move_features(obs, Move(ACE, 1))["control_kept"] == 5 / 13
    assert move_features(obs, Move(ACE, 2))["control_kept"] == 4 / 13
    assert move_features(obs, Move(TWO, 1))["control_kept"] == 5 / 13
    assert move_features(obs, Move(KING, 1))["control_kept"] == 0
    assert move_features(obs, PASS)["control_kept"] == 0
    seven = np.uint64(0b1111111)  # any seven cards kept
    assert control_kept(THREE, True, seven) == 7 / 13  # reversed, a 3 is a control
    assert control_kept(ACE, True, seven) == 0 and control_kept(ACE, False, seven) == 7 / 13


def test_how_beatable_a_play_is_and_what_breaking_keeps() -> None:
    """On a single 5, seat 1 holds 7 7 9 K A: a 9 can still be beaten by six ranks (10 to
    2: some of each is out there), an ace by one (the 2s), a pair of 7s by the eight
    ranks above with two cards out (the 8s to the 2s); a 7 breaks the pair and keeps 4
    cards, the 9 breaks nothing; the pass keeps the 5 cards."""
    rnd = position(Rules(), ["5 Q", "7 7 9 K A", "K 4"], [(FIVE, 1)])
    obs = rnd.observation()
    nine, ace, seven = (move_features(obs, Move(r, 1)) for r in (NINE, ACE, SEVEN))
    assert (nine["beaters"], ace["beaters"]) == (6 / 13, 1 / 13)
    assert move_features(obs, Move(SEVEN, 2))["beaters"] == 8 / 13
    assert (seven["breaks_kept"], nine["breaks_kept"]) == (4 / 13, 0)
    passing = move_features(obs, PASS)
    assert passing["pass_cards"] == 5 / 13 and nine["pass_cards"] == 0
    assert passing["beaters"] == 0 and passing["breaks_kept"] == 0
    rnd = position(Rules(), ["5 Q", "7 7 9 K 2", "K 4"], [(FIVE, 1)])
    assert move_features(rnd.observation(), Move(TWO, 1))["beaters"] == 0  # wins


def test_a_lead_the_player_nearest_to_going_out_cannot_follow() -> None:
    """Seat 1 leads while seat 0 holds one card: a pair of 7s is a lead over him, the 9
    is not; following is never a lead."""
    rnd = Round(Rules(), [counts(h) for h in ["Q", "7 7 9 K", "K 4 4"]], 1)
    obs = rnd.observation()
    assert move_features(obs, Move(SEVEN, 2))["lead_over"] == 1
    assert move_features(obs, Move(NINE, 1))["lead_over"] == 0
    rnd.apply(Move(NINE, 1))
    assert move_features(rnd.observation(), Move(KING, 1))["lead_over"] == 0


def test_the_pass_that_ends_the_trick() -> None:
    """On seat 0's 5, seat 1 passes: seat 2's pass is the last answer (the trick ends,
    seat 0 leads); seat 1's was not (seat 2 was still to answer)."""
    rnd = position(Rules(), ["5 Q", "7 7 9 K A", "K 4"], [(FIVE, 1)])
    assert move_features(rnd.observation(), PASS)["pass_last"] == 0
    rnd.apply(PASS)
    assert move_features(rnd.observation(), PASS)["pass_last"] == 1
    assert move_features(rnd.observation(), Move(KING, 1))["pass_last"] == 0


def choice(rules: Rules, hands: list[str], script: list[tuple[int, int]], name: str) -> Move:
    return registry.make(name).choose(position(rules, hands, script).observation(), Stream(1))


def test_it_keeps_its_pair_and_goes_out_when_it_can() -> None:
    rules = Rules()
    assert choice(rules, ["5 Q", "7 7 9 K", "K A"], [(FIVE, 1)], "linear") == Move(NINE, 1)
    calm = ["5 Q J 10", "7 7", "K A 4"]  # nobody is about to go out
    assert choice(rules, calm, [(FIVE, 1)], "linear:w_breaks=-1") == PASS
    assert choice(rules, calm, [(FIVE, 1)], "linear") == Move(SEVEN, 1)  # a pass costs more
    assert choice(rules, ["5 Q", "2", "K A"], [(FIVE, 1)], "linear") == Move(TWO, 1)


def test_a_temperature_samples_other_moves() -> None:
    obs = position(Rules(), ["5 Q", "7 7 9 K", "K A"], [(FIVE, 1)]).observation()
    hot = registry.make("linear:temperature=5")
    moves = {hot.choose(obs, Stream(seed)) for seed in range(40)}
    assert len(moves) > 1
    cold = registry.make("linear")
    assert {cold.choose(obs, Stream(seed)) for seed in range(10)} == {Move(NINE, 1)}


def test_it_gives_back_its_weakest_singles() -> None:
    linear = registry.make("linear")
    assert sorted(linear.give_back(counts("3 3 5 9 9 K A 2"), 2, Stream(1))) == [FIVE, KING]


def planner_weights() -> str:
    """linear's parameters that make its score planner's value, negated: planner's own
    costs on the features it counts, every other weight 0 (going out kept)."""
    planner = dict(
        zip((p.name for p in PLANNER_PARAMS), registry.get("planner").vector, strict=True)
    )
    weights = {p.name: 0.0 for p in LINEAR_PARAMS if p.name not in ("w_out", "w_out_on_two")}
    weights |= {"w_pass": -planner["pass_cost"], "w_cards": planner["per_card"],
                "w_groups": -planner["per_group"], "w_need": -1.0,
                "w_wins": planner["lead_bonus"]}  # fmt: skip
    return ",".join(f"{name}={value:g}" for name, value in weights.items())


def test_with_the_planners_weights_it_plays_like_planner() -> None:
    """The planner's value of a move is a weighted sum of four of the features: with
    those weights (its defaults) and the others 0, the two play the same moves."""
    rules = Rules(players=4)
    for match in range(4):
        traces = [
            trace_match(KernelJob.build(rules, [name] * 4, 3, 5, 200), match)[1].tolist()
            for name in ("planner", f"linear:{planner_weights()}")
        ]
        assert traces[0] == traces[1]
        default = KernelJob.build(rules, ["linear"] * 4, 3, 5, 200)
        assert trace_match(default, match)[1].tolist() != traces[0]


def test_docs_list_every_weight_with_its_default() -> None:
    text = (Path(__file__).parents[2] / "docs" / "strategies.md").read_text()
    for param in LINEAR_PARAMS:
        assert f"| `{param.name}` | {param.help} | {param.default:g} |" in text, param.name


def random_positions(seed: int):  # type: ignore[no-untyped-def]
    """Positions of random rounds under five rule sets, each with a row of weights: in
    tenths on a first pass over the rule sets, then at full precision, then five in
    tenths and the others 0 (ties and near ties between moves are common). Yields
    ``(weights, params, observation, kernel arrays, legal moves)``."""
    rng = np.random.default_rng(seed)
    names = ("french", "regles-jeu", "spade", "scum")
    tables = [preset(name) for name in names] + [
        load_rules("examples/rules/daifugo-without-suits.toml")
    ]
    strategy = KernelStrategy("linear", LINEAR, ())
    for k, rules in enumerate(tables * 3):
        weights = np.round(rng.normal(0, 1, LINEAR_FEATURES), 9 if k // len(tables) == 1 else 1)
        if k // len(tables) == 2:
            weights[rng.permutation(LINEAR_FEATURES)[5:]] = 0.0
        params = np.zeros((MAX_PLAYERS, NPARAMS))
        params[:, :LINEAR_FEATURES] = weights
        deck = rng.permutation(np.repeat(np.arange(14), [4] * 13 + [rules.jokers]))
        hands = [np.bincount(part, minlength=14).tolist() for part in np.array_split(deck, 4)]
        rnd = Round(rules.with_options(players=4), hands, 0)
        while not rnd.over:
            obs = rnd.observation()
            moves = rnd.legal_moves()
            yield weights, params, obs, strategy.arrays(obs), moves
            rnd.apply(moves[rng.integers(len(moves))])


def dot_products(weights, params, arrays, moves):  # type: ignore[no-untyped-def]
    """Each move's score as the definition has it (its features' dot product with the
    weights, one term after the other), and as ``move_score`` gives it."""
    S, H, R, played, _ = arrays
    seat = int(S[S_TURN])
    h, out, u, fewest, owner_cards, last = situation(seat, S, H, R, played)
    exact, fast = [], []
    for move in moves:
        f = features(h, move.rank, move.count, out, u, S, R, fewest, owner_cards, last, U0)
        dot = 0.0
        for w, x in zip(weights, f, strict=True):
            dot += w * x
        exact.append(dot)
        args = (h, move.rank, move.count, out, u, S, R, fewest, owner_cards, last, params, 0)
        fast.append(move_score(*args, finite_weights(params, 0), U0))
    return exact, fast


def test_the_fast_score_is_the_dot_product_to_the_last_bit() -> None:
    """``move_score`` under finite weights (which sums only the features that are not 0)
    gives every legal move of random rounds the very float the dot product of its
    features gives; a weight that is not finite takes the dot product."""
    checked = 0
    for weights, params, obs, arrays, moves in random_positions(5):
        exact, fast = dot_products(weights, params, arrays, moves)
        assert fast == exact, (obs, moves)
        checked += len(moves)
    assert checked > 500


def test_a_weight_that_is_not_finite_is_told() -> None:
    """Such a weight sends every move to the dot product (``finite_weights``) and keeps
    the rough scores out (``weight_scale`` is then not finite; else the weights' sum in
    size, the scale of their rounding)."""
    params = np.zeros((MAX_PLAYERS, NPARAMS))
    params[0, :3] = (0.25, -5.0, 1.5)
    params[0, LINEAR_FEATURES] = 1e6  # the temperature: not a weight
    assert finite_weights(params, 0)
    assert weight_scale(params, np.uint64(0)) == 6.75
    for bad in (np.inf, -np.inf, np.nan):
        params[0, LINEAR_FEATURES - 1] = bad
        assert not finite_weights(params, 0)
        assert not weight_scale(params, np.uint64(0)) < np.inf


def test_linear_plays_the_first_best_move_of_the_definition_ties_included() -> None:
    """``linear``'s move — found by rough scores summed in a tree, checked against the
    exact ones only on a near tie — is at every position of random rounds the first
    move, in its canonical order (the pass, then by count and rank), of the highest dot
    product of features and weights: the moves of the definition, ties and near ties
    (scores a rounding apart) included; and the rough margin between the two best moves
    is the exact one within a thousandth of the rounding the check allows."""
    decided, ties = 0, 0
    for weights, params, obs, arrays, moves in random_positions(11):
        exact, _ = dot_products(weights, params, arrays, moves)
        order = sorted(range(len(moves)), key=lambda i: (moves[i].count, moves[i].rank))
        best = max(order, key=lambda i: exact[i])  # the first of the highest, in that order
        ties += sum(abs(v - exact[best]) < 1e-9 for v in exact) > 1
        S, H, R, played, roles = arrays
        rs = np.zeros(3, np.uint64)
        rank, count = KernelStrategy("linear", LINEAR, ()).decide(
            obs.seat, S, H, R, played, roles, rs, params
        )
        move = PASS if count == 0 else Move(rank, count)
        assert move == moves[best], (obs, moves, exact)
        decided += 1
        if len(moves) > 1:  # the rough margin is the exact one but for rounding
            h, out, u, fewest, owner_cards, last = situation(obs.seat, S, H, R, played)
            seat = np.uint64(obs.seat)  # the row of params, as linear_choice reads it
            m = np.uint64(legal_plays(h, S, R))
            *_, margin = rough_on_state(h, m, out, u, S, R, fewest, owner_cards, last, params, seat)
            top, second = sorted(exact)[-1], sorted(exact)[-2]
            assert abs(margin - (top - second)) <= 1e-12 * weight_scale(params, seat)
    assert decided > 500 and ties > 20


@njit
def _score_from_constants(S, R, params):
    """A caller of literal constants, as a loop's first pass types its variables."""
    return move_score(U0, 0, 0, U0, U0, S, R, 99, 99, False, params, 0, True, U0)


def test_the_score_compiled_apart_is_not_compiled_again_for_constants() -> None:
    """``scored_move`` is compiled once for plain values, whatever its callers pass."""
    S, params = np.zeros(S_SIZE, np.int64), np.zeros((MAX_PLAYERS, NPARAMS))
    params[0, LINEAR_W_PASS] = -0.5
    assert _score_from_constants(S, rules_array(Rules()), params) == -0.5
    assert not [sig for sig in scored_move.signatures if "Literal" in str(sig)]
