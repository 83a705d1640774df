"""The kernel reads each parameter at the slot its declaration gives, and every built-in
is reached by a compile tier: what a new strategy relies on without renumbering others."""

from __future__ import annotations

import pytest

from simulator.kernel.legal import play_count, play_rank
from simulator.rules.cards import NUM_RANKS
from strategies import specs
from strategies.dispatch import TIERS, tier_of
from strategies.registry import REGISTRY

BUILT_IN = [spec for spec in REGISTRY.values() if spec.kernel_id < specs.PLUGIN_BASE]


@pytest.mark.parametrize("spec", BUILT_IN, ids=lambda spec: spec.name)
def test_each_slot_constant_names_its_declared_parameter(spec: specs.StrategySpec) -> None:
    prefix = spec.name.upper().replace("-", "_")
    for slot, param in enumerate(spec.params):
        assert getattr(specs, f"{prefix}_{param.name.upper()}") == slot


@pytest.mark.parametrize("spec", BUILT_IN, ids=lambda spec: spec.name)
def test_each_row_fits_the_params_array(spec: specs.StrategySpec) -> None:
    assert len(spec.kernel_vector) <= specs.NPARAMS
    if spec.kernel_id != specs.MONTECARLO:  # it may be montecarlo's rollout or prior
        assert len(spec.params) <= specs.POLICY_PARAMS


def test_montecarlo_row_is_the_longest() -> None:
    assert len(REGISTRY["montecarlo"].kernel_vector) == specs.NPARAMS


def test_every_built_in_has_one_id_and_a_tier() -> None:
    ids = [spec.kernel_id for spec in BUILT_IN]
    assert len(set(ids)) == len(ids)
    assert set(ids) == TIERS[-1].sids
    heuristics = {REGISTRY[name].kernel_id for name in ("keep-sets", "planner", "rules-aware")}
    assert heuristics <= specs.HEURISTIC_IDS
    assert tier_of(specs.HEURISTIC_IDS).name == "heuristics"


def test_a_play_bit_gives_its_rank_and_count() -> None:
    for count in range(1, 5):
        for rank in range(NUM_RANKS):
            bit = 16 * (count - 1) + rank
            assert (play_rank(bit), play_count(bit)) == (rank, count)


def test_the_registry_and_the_heuristics_follow_the_declarations() -> None:
    """A built-in is declared once (strategies.specs): the registry lists each with its
    declared id, description and parameters, the search players last, and the heuristics'
    ids are those declared as heuristics."""
    declared = {b.name: b for b in specs.BUILT_INS}
    search = [b.name for b in specs.BUILT_INS if b.kernel_id in specs.SEARCH_IDS]
    assert search == ["montecarlo", "champion", "clairvoyant"]
    assert list(REGISTRY) == [*[n for n in declared if n not in search], *search]
    for name, b in declared.items():
        spec = REGISTRY[name]
        assert (spec.kernel_id, spec.description, spec.params) == (
            b.kernel_id,
            b.description,
            b.params,
        )
    heuristics = {
        specs.KEEP_SETS,
        specs.CONTROL,
        specs.SHED_MAX,
        specs.PLANNER,
        specs.RULES_AWARE,
        specs.LINEAR,
    }
    assert heuristics == specs.HEURISTIC_IDS
    assert len(specs.LINEAR_PARAMS) == specs.POLICY_PARAMS  # the most before montecarlo


def test_a_taken_or_users_kernel_id_is_refused() -> None:
    before = list(specs.BUILT_INS)
    for taken in (specs.PLANNER, specs.PLUGIN_BASE):
        with pytest.raises(ValueError, match="taken or a user's"):
            specs.heuristic(taken, "again", "A second strategy on a taken id.", ())
    assert before == specs.BUILT_INS
