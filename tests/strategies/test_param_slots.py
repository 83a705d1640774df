"""The kernel reads each parameter at the slot its declaration gives, and every built-in
is reached by a compile tier: what a new strategy relies on without renumbering others.

Every list here is read from the declarations (strategies/specs.py): a new built-in is
checked without a line added to this file."""

from __future__ import annotations

import pytest

from simulator.kernel.legal import play_count, play_rank
from simulator.rules.cards import NUM_RANKS
from strategies import specs
from strategies.dispatch import REFERENCE_IDS, TIERS, tier_of
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
    if spec.kernel_id not in specs.SEARCH_IDS:  # it may be a search player's rollout or prior
        assert len(spec.params) <= specs.POLICY_PARAMS


def test_the_params_array_is_as_wide_as_the_longest_row() -> None:
    assert max(len(spec.kernel_vector) for spec in BUILT_IN) == specs.NPARAMS


def test_every_built_in_has_one_id_and_a_tier() -> None:
    ids = [spec.kernel_id for spec in BUILT_IN]
    assert len(set(ids)) == len(ids)
    assert set(ids) == TIERS[-1].sids
    for b in specs.BUILT_INS:  # the cheapest tier its declaration asks for
        kind = "heuristics" if b.heuristic else "search"
        kind = "reference" if b.kernel_id in REFERENCE_IDS else kind
        assert tier_of([b.kernel_id]).name == kind, b.name
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
    assert list(REGISTRY) == [*[n for n in declared if n not in search], *search]
    for name, b in declared.items():
        spec = REGISTRY[name]
        assert (spec.kernel_id, spec.description, spec.params) == (
            b.kernel_id,
            b.description,
            b.params,
        )
        # a search player's row goes on with its policies' parameters; no other's does
        assert (spec.extend is not None) == (b.kernel_id in specs.SEARCH_IDS), name
    # the heuristics are every built-in between the reference ones and the search players
    between = {b.kernel_id for b in specs.BUILT_INS} - REFERENCE_IDS - specs.SEARCH_IDS
    assert between == specs.HEURISTIC_IDS
    # a rollout's or a prior's slots hold the parameters of any policy, and no more
    policies = [b for b in specs.BUILT_INS if b.kernel_id not in specs.SEARCH_IDS]
    assert max(len(b.params) for b in policies) == specs.POLICY_PARAMS


def test_a_taken_or_users_kernel_id_is_refused() -> None:
    before = list(specs.BUILT_INS)
    for taken in (specs.PLANNER, specs.PLUGIN_BASE):
        with pytest.raises(ValueError, match="taken or a user's"):
            specs.heuristic(taken, "again", "A second strategy on a taken id.", ())
    assert before == specs.BUILT_INS
