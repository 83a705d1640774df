"""The oracle names every option of the rule spec, and plays each value the spec allows.

The oracle is written from the docs alone (it imports nothing of the simulator), so a
rule added to the spec is not in it until someone writes it there; before, it ignored a
key it did not know and agreed with an engine that played the new rule wrong. Now it
refuses such a key, and these tests fail as soon as the spec has an option or a value
that the oracle does not name.
"""

from __future__ import annotations

import pytest

from simulator.rules.options import BOOL_KEYS, CHOICES, KEYS, Rules
from tests.reference import oracle
from tests.reference.test_oracle_diff import OPTION_VALUES


def test_the_oracle_names_every_option_of_the_spec() -> None:
    round_keys, match_keys = set(oracle.ROUND_DEFAULTS), set(oracle.MATCH_KEYS)
    assert not round_keys & match_keys
    assert round_keys | match_keys == set(KEYS), "keys the oracle does not name"
    assert set(oracle.ALLOWED) == round_keys


@pytest.mark.parametrize("key", sorted(oracle.ROUND_DEFAULTS))
def test_the_oracle_allows_the_values_of_the_spec(key: str) -> None:
    """Its values and its default are the spec's (a yes/no rule: false, true)."""
    values = CHOICES.get(key, (False, True) if key in BOOL_KEYS else ())
    assert values, f"{key}: an option that is neither yes/no nor a choice (say its values)"
    assert set(oracle.ALLOWED[key]) == set(values) == set(OPTION_VALUES[key])
    assert oracle.ROUND_DEFAULTS[key] == getattr(Rules(), key)


def test_the_oracle_refuses_a_key_it_does_not_know() -> None:
    everything = Rules().to_dict()
    assert oracle.resolve_rules(everything) == oracle.ROUND_DEFAULTS  # every key is named
    with pytest.raises(ValueError, match="does not know the rule 'sevens_pass'"):
        oracle.resolve_rules({**everything, "sevens_pass": True})
