"""The hand-worked scenarios of the rule book: a round, an option at a time, illegal moves,
the match-level helpers.

Each scenario's expected events were derived by hand from docs/rules.md and
docs/READINGS.md (never by running an engine); the comments give the reasoning. Unless
a scenario says otherwise every seat plays ``lowest`` once the script runs out: it leads
all cards of its weakest rank and follows with the weakest legal play (fewest cards on a
tie), passing only when nothing is legal.

Scenarios are written in a readable notation (:mod:`tests.reference.scenarios.notation`);
each is played on the reference engine, through ``president replay`` and on the kernel
(:mod:`tests.kernel.scripted`), and each must give exactly the expected events.
The options have one file each (``test_jokers.py``, ``test_equal_rank.py``, …); a
scenario that sets several options lives with its main subject.
"""

import pytest

# The helpers assert: let pytest show readable diffs for them too.
pytest.register_assert_rewrite("tests.reference.scenarios.notation")
