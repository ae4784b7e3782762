"""Triton's `test_cast` kernel (python/test/unit/language/test_core.py), written for tnpu's tests.

`cast` loads, converts to the output's element type and stores, as
test_cast does; `scaled_cast` multiplies by a constant first, which takes
standard normal float inputs past the range of a narrower type.
`test_narrowing_casts.py` runs them through every rung.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def cast(X, Z, SIZE: tl.constexpr):
    x = tl.load(X + tl.arange(0, SIZE))
    z = x.to(Z.dtype.element_ty)
    tl.store(Z + tl.arange(0, SIZE), z)


@triton.jit
def scaled_cast(X, Z, SCALE: tl.constexpr, SIZE: tl.constexpr):
    x = tl.load(X + tl.arange(0, SIZE)) * SCALE
    z = x.to(Z.dtype.element_ty)
    tl.store(Z + tl.arange(0, SIZE), z)
