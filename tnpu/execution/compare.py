"""Comparing two rungs' outputs, with every tolerance stated here.

Both rungs start from the same storage, so elements neither writes are
equal by construction and elements only one writes differ: comparing the
whole storage of every tensor the kernel may write checks exactly the
elements the kernel may write.  An element matches when both are NaN, both
are the same infinity, or |a - b| <= atol + rtol * |b| for its dtype.
Integers and booleans must be equal.

Why these numbers: rungs evaluate the same operations but may sum in a
different order (a tree, numpy's pairwise sum, a sequential loop) and
transcendentals may differ by an ulp or two; a wrong index or a wrong op
is off by far more.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import ml_dtypes
import numpy as np

TOLERANCES: dict[np.dtype, tuple[float, float]] = {
    np.dtype(np.float64): (1e-9, 1e-12),
    np.dtype(np.float32): (1e-4, 1e-5),
    np.dtype(np.float16): (1e-2, 1e-3),
    np.dtype(ml_dtypes.bfloat16): (2e-2, 1e-2),
}
"""dtype -> (rtol, atol)."""


@dataclass
class Comparison:
    match: bool
    max_abs_err: float
    """Largest |a - b| over finite elements of float outputs (0 for exact types)."""
    mismatches: int
    compared: int
    """Elements of storage compared."""
    first_mismatch: str | None
    """`name[index]: a vs b` of the first element out of tolerance."""


def compare_outputs(
    expected: Mapping[str, np.ndarray], actual: Mapping[str, np.ndarray]
) -> Comparison:
    max_abs_err = 0.0
    mismatches = compared = 0
    first: str | None = None
    for name, want in expected.items():
        got = actual[name]
        bad, error = _mismatched(want, got)
        compared += want.size
        max_abs_err = max(max_abs_err, error)
        if np.any(bad):
            mismatches += int(np.count_nonzero(bad))
            if first is None:
                index = int(np.argmax(bad))
                first = f"{name}[{index}]: {got[index]} vs {want[index]}"
    return Comparison(mismatches == 0, max_abs_err, mismatches, compared, first)


def _mismatched(expected: np.ndarray, actual: np.ndarray) -> tuple[np.ndarray, float]:
    """A mask of elements out of tolerance, and the largest finite |difference|."""
    if expected.dtype not in TOLERANCES:
        return expected != actual, 0.0
    rtol, atol = TOLERANCES[expected.dtype]
    want = expected.astype(np.float64)
    got = actual.astype(np.float64)
    both_nan = np.isnan(want) & np.isnan(got)
    same_infinity = np.isinf(want) & (want == got)
    finite = np.isfinite(want) & np.isfinite(got)
    with np.errstate(invalid="ignore"):
        difference = np.abs(got - want)
    close = finite & (difference <= atol + rtol * np.abs(want))
    largest = float(np.max(difference[finite])) if np.any(finite) else 0.0
    return ~(both_nan | same_infinity | close), largest
