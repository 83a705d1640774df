"""Readable notation for the hand-worked scenario tests (see :mod:`tests.scenarios.notation`)."""

import pytest

# The helpers assert: let pytest show readable diffs for them too.
pytest.register_assert_rewrite("tests.scenarios.notation")
