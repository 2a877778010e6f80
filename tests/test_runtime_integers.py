"""`runtime.integers.fitted`: a value handed to a device that computes in narrower integers
(device `iree`'s demoted i64, a TOSA artifact's types) is converted only when every value
fits, else refused naming it; both devices use it."""

from __future__ import annotations

import numpy as np
import pytest

from tosa_state.diagnostics import InferenceError
from tosa_state.runtime.integers import fitted


def test_values_that_fit_are_converted_and_the_same_dtype_is_kept() -> None:
    values = np.array([-(2**31), 0, 2**31 - 1], np.int64)
    converted = fitted(values, np.dtype(np.int32), "input 'x'", "it computes")
    assert converted.dtype == np.int32
    np.testing.assert_array_equal(converted, values)
    assert fitted(converted, np.dtype(np.int32), "input 'x'", "it computes") is converted
    assert fitted(np.zeros(0, np.int64), np.dtype(np.int8), "x", "it computes").dtype == np.int8


@pytest.mark.parametrize("value", [2**31, -(2**31) - 1])
def test_a_value_beyond_the_device_integers_is_refused(value: int) -> None:
    with pytest.raises(InferenceError) as caught:
        fitted(np.array([1, value], np.int64), np.dtype(np.int32), "input 'x'",
               "the TOSA artifact computes it")
    assert str(caught.value) == ("error: input 'x' has values beyond int32, in which the TOSA "
                                 "artifact computes it")


def test_floats_are_converted_unchecked() -> None:
    assert fitted(np.array([1e10]), np.dtype(np.float32), "x", "it computes").dtype == np.float32
