"""lower-libdevice + expand-math meet the accuracy docs/math-accuracy.md claims.

Each test evaluates the IR the passes produce (bench/math_accuracy.py does
the measuring) on smaller f32 and f64 samples than the bench's, and on every
f16 and bf16 value.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from conftest import bench_script

from tnpu.diagnostics import CompileError

bench = bench_script("math_accuracy")

F32_POINTS = 1 << 15
F64_POINTS = 1 << 13
WITH_MATH_OP = [f for f in bench.FUNCTIONS if f.math_op is not None]
WITH_F64 = [f for f in bench.FUNCTIONS if f.claimed_f64_ulp is not None]


def ids(function) -> str:
    return function.name


@pytest.mark.parametrize("function", bench.FUNCTIONS, ids=ids)
def test_claim_is_within_cuda_bound(function):
    """NVIDIA documents no bound for pow with an integer exponent: it is held to powf's."""
    symbol = "__nv_powf" if function.name == "powi" else function.symbol
    assert function.claimed_ulp <= bench.LIBDEVICE[symbol].cuda_max_ulp


@pytest.mark.parametrize("function", WITH_F64, ids=ids)
def test_f64_claim_is_within_cuda_bound(function):
    symbol = "__nv_pow" if function.name == "powi" else function.symbol64
    assert function.claimed_f64_ulp <= bench.LIBDEVICE[symbol].cuda_max_ulp


@pytest.mark.parametrize("function", bench.FUNCTIONS, ids=ids)
def test_f32_within_claim(function):
    measured = bench.measure(function, "f32", F32_POINTS, seed=1)
    assert measured.max_ulp <= function.claimed_ulp, measured.worst


@pytest.mark.parametrize("dtype", ["f16", "bf16"])
@pytest.mark.parametrize("function", WITH_MATH_OP, ids=ids)
def test_narrow_floats_within_claim(function, dtype):
    measured = bench.measure(function, dtype, F32_POINTS)
    assert measured.max_ulp <= bench.NARROW_CLAIM, measured.worst


@pytest.mark.parametrize("function", WITH_F64, ids=ids)
def test_f64_within_claim(function):
    measured = bench.measure(function, "f64", F64_POINTS, seed=1)
    assert measured.max_ulp <= function.claimed_f64_ulp, measured.worst


def test_every_f64_function_is_measured():
    assert [f.name for f in bench.FUNCTIONS if f.symbol64 and f.claimed_f64_ulp is None] == []


@pytest.mark.parametrize("name", ["sqrt", "rsqrt", "asin", "hypot"])
def test_f64_square_root_must_be_native(name):
    """f64 sqrt has no expansion (every f64 target has one): refused, naming it, not done in f32."""
    function = next(f for f in bench.FUNCTIONS if f.name == name)
    with pytest.raises(CompileError, match="'math.sqrt' op has no arith expansion for f64; the target must execute"):
        bench.lowered(function, "f64", ("fma",), 16)


@pytest.mark.parametrize(
    ("function", "dtype"),
    [(f, "f32") for f in bench.FUNCTIONS] + [(f, "f64") for f in WITH_F64],
    ids=lambda v: v if isinstance(v, str) else v.name,
)
def test_special_values_exact(function, dtype):
    """Where the answer is ±0, ±inf or NaN, the result is exactly it (sign included)."""
    operands = bench.special_operands(function, dtype)
    if function.integer_exponent:
        operands[1] = operands[1].astype(np.int32)
    native = bench.NATIVE.get(dtype, ("fma",))
    module = bench.lowered(function, dtype, native, bench.tensor_size(len(operands[0])))
    result = bench.evaluate(module, operands)
    with np.errstate(all="ignore"):
        expected = bench.evaluate_reference(function, operands, dtype).astype(bench.DTYPES[dtype])
    if not function.zero_sign_matters:
        result, expected = result + 0.0, expected + 0.0
    exact = (expected == 0) | np.isinf(expected) | np.isnan(expected)
    mismatched = [
        (tuple(float(o[i]) for o in operands), float(result[i]), float(expected[i]))
        for i in np.nonzero(exact)[0]
        if result[i].tobytes() != expected[i].tobytes()
        and not (math.isnan(result[i]) and math.isnan(expected[i]))
    ]
    assert mismatched == []


def test_ulp_distance_counts_representable_values():
    """The error measure itself: neighbours are 1 apart, across zero too, NaN is far."""
    x = np.array([1.0, -0.0, 1e-45, np.nan], np.float32)
    neighbours = np.array(
        [np.nextafter(np.float32(1), np.float32(2)), 0.0, -1e-45, 1.0], np.float32
    )
    assert bench.ulp_errors(x, neighbours.astype(np.float64), "f32").tolist() == [1, 1, 3, 2**40]
