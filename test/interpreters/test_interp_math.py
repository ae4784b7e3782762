"""The numpy evaluator of `math` rounds each result once to its element type."""

from __future__ import annotations

import math

import numpy as np
import pytest
from evaluate import evaluate


def test_fma_rounds_once_even_where_float64_would_round_twice():
    a = np.float32(1 + 2**-12)
    # a*a + 2^-60 = 1 + 2^-11 + 2^-24 + 2^-60: just above the f32 midpoint, so it
    # rounds up; through a float64 sum (2^-60 lost) it would tie to even, down.
    fused = evaluate(
        "%r = math.fma %a, %a, %c : f32", "%a: f32, %c: f32 -> f32", a, np.float32(2**-60)
    )
    assert fused == np.float32(1 + 2**-11 + 2**-23)
    separate = evaluate(
        "%p = arith.mulf %a, %a : f32\n%r = arith.addf %p, %c : f32",
        "%a: f32, %c: f32 -> f32", a, np.float32(-1),
    )
    exact = evaluate(
        "%r = math.fma %a, %a, %c : f32", "%a: f32, %c: f32 -> f32", a, np.float32(-1)
    )
    assert separate == np.float32(2**-11) and exact == np.float32(2**-11 + 2**-24)


def test_float64_fma_is_exact_before_its_one_rounding():
    a, b, c = np.float64(1 + 2**-30), np.float64(1 - 2**-30), np.float64(-1)
    fused = evaluate("%r = math.fma %a, %b, %c : f64", "%a: f64, %b: f64, %c: f64 -> f64", a, b, c)
    assert fused == -(2.0**-60)


@pytest.mark.parametrize(
    "name, reference",
    [("exp", math.exp), ("log", math.log), ("tanh", math.tanh), ("erf", math.erf),
     ("sin", math.sin), ("rsqrt", lambda x: 1 / math.sqrt(x)), ("log1p", math.log1p)],
)
def test_transcendental_f32_results_are_within_half_an_ulp(name, reference):
    inputs = np.linspace(0.01, 7.5, 101, dtype=np.float32)
    result = evaluate(
        f"%r = math.{name} %a : tensor<101xf32>", "%a: tensor<101xf32> -> tensor<101xf32>", inputs
    )
    assert result.dtype == np.float32
    exact = np.array([reference(float(x)) for x in inputs])
    ulp = np.spacing(np.abs(result).astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(result - exact) <= 0.5 * ulp * (1 + 1e-6))


def test_rounding_functions():
    values = np.array([2.5, -2.5, 0.49999997, -0.5, 3.7], np.float32)
    signature = "%a: tensor<5xf32> -> tensor<5xf32>"
    assert evaluate("%r = math.round %a : tensor<5xf32>", signature, values).tolist() == [3, -3, 0, -1, 4]
    assert evaluate("%r = math.roundeven %a : tensor<5xf32>", signature, values).tolist() == [2, -2, 0, -0.0, 4]
    assert evaluate("%r = math.trunc %a : tensor<5xf32>", signature, values).tolist() == [2, -2, 0, -0.0, 3]


def test_integer_power_wraps_and_handles_negative_exponents():
    bases = np.array([3, -1, -1, 2, 1, 0], np.int32)
    exponents = np.array([40, 3, -3, -2, -5, 0], np.int32)
    result = evaluate(
        "%r = math.ipowi %a, %b : tensor<6xi32>",
        "%a: tensor<6xi32>, %b: tensor<6xi32> -> tensor<6xi32>", bases, exponents,
    )
    wrapped = pow(3, 40, 1 << 32)
    assert result.tolist() == [wrapped - (1 << 32) if wrapped >> 31 else wrapped, -1, -1, 0, 1, 1]


def test_bit_counts():
    values = np.array([1, 0, -1, 0x00F0], np.int32)
    signature = "%a: tensor<4xi32> -> tensor<4xi32>"
    assert evaluate("%r = math.ctlz %a : tensor<4xi32>", signature, values).tolist() == [31, 32, 0, 24]
    assert evaluate("%r = math.cttz %a : tensor<4xi32>", signature, values).tolist() == [0, 32, 0, 4]
    assert evaluate("%r = math.ctpop %a : tensor<4xi32>", signature, values).tolist() == [1, 0, 32, 4]
