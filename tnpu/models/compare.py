"""Compiled against eager: each output judged against a float64 evaluation of the same program.

Running a program compiled by tnpu changes the order of its sums and the
code of its transcendental functions, so its floats are not eager's bits;
a fixed tolerance is either too tight for a model that sums thousands of
products or too loose to catch a wrong element of a small one.  So every
floating output is also computed in float64 (the program and its inputs
converted), and the compiled output matches when

* it is within eager's tolerance of eager's output, element by element
  (`FALLBACK`, per dtype, the harness's: `execution.tolerance`), or
* it is no farther from the float64 output than eager itself is, to a
  factor: at every element |compiled - f64| <= 4 max|eager - f64| + atol,
  and over the whole output rms(compiled - f64) <= 2 rms(eager - f64) + atol/10.

The second rule is the float64-reference rule PyTorch's own benchmark
harness uses for models: eager's distance from float64 measures how much
rounding the computation carries.  NaN and infinities must sit at the
same places with the same signs; integer and boolean outputs must be
equal.  One element far off (a wrong index, a dropped bias) fails both.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import ml_dtypes
import numpy as np
import torch

from tnpu.execution.tolerance import FALLBACK

_NUMPY_DTYPES = {
    torch.float64: np.dtype(np.float64), torch.float32: np.dtype(np.float32),
    torch.float16: np.dtype(np.float16), torch.bfloat16: np.dtype(ml_dtypes.bfloat16),
}  # fmt: skip

ELEMENT_FACTOR = 4.0
RMS_FACTOR = 2.0


@dataclass(frozen=True)
class OutputComparison:
    name: str
    """Where the output sits in the program's result: `out`, `out[1]`, `out.grad[w]`."""
    shape: tuple[int, ...]
    dtype: str
    match: bool
    max_error: float
    """max |compiled - eager| over finite elements."""
    eager_error: float
    """max |eager - float64|: the rounding the computation carries."""
    compiled_error: float
    """max |compiled - float64|."""
    detail: str | None = None
    """Why it does not match: the first bad element, or the shape/dtype/NaN difference."""


def leaves(value: Any, name: str = "out") -> list[tuple[str, torch.Tensor]]:
    """The tensors of a (nested) result, each with its place: tuples, lists, dicts, named tuples."""
    if isinstance(value, torch.Tensor):
        return [(name, value)]
    if isinstance(value, tuple | list):
        return [leaf for index, item in enumerate(value) for leaf in leaves(item, f"{name}[{index}]")]
    if isinstance(value, dict):
        return [leaf for key, item in value.items() for leaf in leaves(item, f"{name}[{key!r}]")]
    return []


def compare(name: str, compiled: torch.Tensor, eager: torch.Tensor, exact: torch.Tensor) -> OutputComparison:
    """`compiled` against `eager`, with `exact` the float64 evaluation of the same output."""
    shape, dtype = tuple(eager.shape), str(eager.dtype).removeprefix("torch.")

    def verdict(match: bool, max_error=0.0, eager_error=0.0, compiled_error=0.0, detail=None) -> OutputComparison:
        return OutputComparison(name, shape, dtype, match, max_error, eager_error, compiled_error, detail)

    if compiled.shape != eager.shape or compiled.dtype != eager.dtype:
        return verdict(False, detail=f"{tuple(compiled.shape)} {compiled.dtype} where eager has {shape} {eager.dtype}")
    if not eager.is_floating_point():
        equal = torch.equal(compiled, eager)
        return verdict(equal, detail=None if equal else _first_difference(compiled != eager, compiled, eager))
    got, want, truth = compiled.double(), eager.double(), exact.double()
    special = ~torch.isfinite(want) | ~torch.isfinite(got)
    if not torch.equal(got[special].nan_to_num(0.0), want[special].nan_to_num(0.0)) or not torch.equal(
        got.isnan(), want.isnan()
    ):
        return verdict(False, detail=_first_difference(special & ~((got == want) | (got.isnan() & want.isnan())), compiled, eager))
    finite = ~special
    difference, eager_off, compiled_off = ((a - b)[finite].abs() for a, b in ((got, want), (want, truth), (got, truth)))

    def largest(t: torch.Tensor) -> float:
        return float(t.max()) if t.numel() else 0.0

    def rms(t: torch.Tensor) -> float:
        return float(t.square().mean().sqrt()) if t.numel() else 0.0

    rtol, atol = FALLBACK[_NUMPY_DTYPES[eager.dtype]]
    near_eager = bool((difference <= atol + rtol * want[finite].abs()).all())
    near_exact = largest(compiled_off) <= ELEMENT_FACTOR * largest(eager_off) + atol and rms(compiled_off) <= (
        RMS_FACTOR * rms(eager_off) + atol / 10
    )
    match = near_eager or near_exact
    detail = None
    if not match:
        bad = torch.zeros_like(finite)
        bad[finite] = difference > atol + rtol * want[finite].abs()
        detail = _first_difference(bad, compiled, eager)
    return verdict(match, largest(difference), largest(eager_off), largest(compiled_off), detail)


def _first_difference(bad: torch.Tensor, compiled: torch.Tensor, eager: torch.Tensor) -> str:
    index = tuple(int(i) for i in torch.nonzero(bad)[0]) if bad.any() else ()
    return f"at {list(index)}: {compiled[index].item()} where eager has {eager[index].item()}"
