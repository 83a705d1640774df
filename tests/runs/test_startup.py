"""A short ``president simulate`` imports only what it uses (docs/performance.md, start-up)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from simulator.runs.schema import arrow_array, arrow_strings


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.bool_])
@pytest.mark.parametrize("size", [0, 1, 7, 8, 9, 1000])
def test_arrow_arrays_are_those_pa_array_makes(dtype, size):
    """The run's columns built from their buffers equal ``pa.array``'s (booleans as bits,
    a length that is no multiple of 8 included), strided input too."""
    values = np.random.default_rng(size).integers(-3, 4, 2 * size).astype(dtype)[::2]
    built = arrow_array(values)
    built.validate(full=True)
    assert built.type == pa.array(values).type
    assert built.equals(pa.array(values))
    assert built.null_count == 0


def test_arrow_strings_are_those_pa_array_makes():
    names = ["lowest", "", "rules-aware", "é-ü"]
    built = arrow_strings(names)
    built.validate(full=True)
    assert built.equals(pa.array(names, pa.string()))
    assert arrow_strings([]).equals(pa.array([], pa.string()))
