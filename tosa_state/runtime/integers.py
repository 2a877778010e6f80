"""Values handed to a device that computes in other integers than the model declares (device
`iree`'s 64-bit integers demoted to 32, a TOSA artifact's integer types): converted, every
value checked to fit first."""

from __future__ import annotations

import numpy as np

from tosa_state.diagnostics import InferenceError


def fitted(array: np.ndarray, dtype: np.dtype, what: str, computed: str) -> np.ndarray:
    """`array` in `dtype` (itself when it has that dtype); an `InferenceError` naming `what`
    when an integer value does not fit an integer `dtype` (`computed`: in what the device
    computes it, for the message)."""
    if array.dtype == dtype:
        return array
    if array.dtype.kind in "iu" and np.dtype(dtype).kind in "iu":
        limits = np.iinfo(dtype)
        if array.size and (array.min() < limits.min or array.max() > limits.max):
            raise InferenceError(f"error: {what} has values beyond {dtype}, in which {computed}")
    return array.astype(dtype)


__all__ = ["fitted"]
