"""The numpy evaluator of `math`: each result rounded once to its element type.

Two kinds of op, one rule (a result is the exact value rounded once, to
nearest even, to the element type):

* exact or correctly rounded in the element type: `absf`, `copysign`,
  `ceil`, `floor`, `trunc`, `round`, `roundeven`, `sqrt` (IEEE square root)
  and `fma` (one rounding of a*b+c, not two);
* transcendental (`exp`, `log`, `sin`, `erf`, `powf`, `rsqrt`, ...): the
  float64 result (numpy's, or Python's `math.erf`) rounded once to the
  element type.  For f32 and narrower this is the correctly rounded value
  but in the rare double-rounding case; for f64 it is numpy's float64
  function.  These are the reference values an approximation (expand-math,
  libdevice) is measured against.

Integer ops (`absi`, `ipowi`, `ctlz`, `cttz`, `ctpop`) wrap at the width.
"""

from __future__ import annotations

import math as pymath
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
from xdsl.dialects import math
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.ir import Attribute, Operation

from tnpu.interpreters.arith import quietly
from tnpu.interpreters.values import (
    Value,
    as_unsigned,
    as_value,
    from_bits,
    integer_width,
    numpy_dtype,
    round_from_float64,
)


def _in_float64(function: Callable[..., Any], type_: Attribute, *args: Value) -> Value:
    """`function` evaluated in float64 on the operands, rounded once to `type_`."""
    wide = (np.asarray(a, dtype=np.float64) for a in args)
    return round_from_float64(quietly(function, *wide), type_)


def _transcendental(op: Operation, function: Callable[..., Any], args: PythonValues) -> PythonValues:
    return (_in_float64(function, op.results[0].type, *args),)


def _exact(op: Operation, function: Callable[..., Any], args: PythonValues) -> PythonValues:
    return (as_value(quietly(function, *args), op.results[0].type),)


erf = np.vectorize(pymath.erf, otypes=[np.float64])
"""Error function on float64 (numpy has none)."""


def rsqrt(x: Any) -> Any:
    return 1.0 / np.sqrt(x)


def round_half_away(x: Any) -> Any:
    """Round to nearest, ties away from zero (C `round`); exact in any float type."""
    truncated = np.trunc(x)
    return np.where(np.abs(x - truncated) >= 0.5, truncated + np.sign(x), truncated)


def fused_multiply_add(a: Value, b: Value, c: Value, type_: Attribute) -> Value:
    """a*b+c rounded once to `type_`."""
    if numpy_dtype(type_).itemsize >= 8:
        return as_value(exact_fma_float64(a, b, c), type_)
    return as_value(fma_round_to_odd(a, b, c).astype(numpy_dtype(type_)), type_)


def fma_round_to_odd(a: Value, b: Value, c: Value) -> Any:
    """a*b+c in float64 rounded to odd, so that one more rounding is correct.

    The product of two values of at most 24-bit significand is exact in
    float64; the sum is rounded to odd (an inexact result gets its last bit
    set), and rounding a round-to-odd result of p+2 or more bits to p bits
    equals rounding the exact value once (Boldo and Melquiond).
    """
    product = np.asarray(a, np.float64) * np.asarray(b, np.float64)
    addend = np.asarray(c, np.float64)
    total = product + addend
    # TwoSum: the exact rounding error of `total`.
    virtual = total - product
    error = (product - (total - virtual)) + (addend - virtual)
    inexact = np.isfinite(error) & (error != 0)
    even = (np.asarray(total).view(np.int64) & 1) == 0
    toward = np.where(error > 0, np.inf, -np.inf)
    return np.where(inexact & even, np.nextafter(total, toward), total)


def _fma_one(a: float, b: float, c: float) -> float:
    if not (pymath.isfinite(a) and pymath.isfinite(b) and pymath.isfinite(c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:
        return a * b + c  # the sign of an exact zero follows IEEE addition
    try:
        return float(exact)  # correctly rounded
    except OverflowError:
        return pymath.copysign(pymath.inf, exact)


exact_fma_float64 = np.vectorize(_fma_one, otypes=[np.float64])
"""float64 fma through exact rationals (float64 has no wider type to round to odd in)."""


def integer_power(base: Value, exponent: Value, type_: Attribute) -> Value:
    """base ** exponent wrapped at the width; a negative exponent gives 0 unless |base| = 1."""
    base = np.asarray(base)
    exponent = np.asarray(exponent)
    result = np.ones(np.broadcast(base, exponent).shape, base.dtype)
    square = np.broadcast_to(base, result.shape).copy()
    remaining = np.broadcast_to(np.maximum(exponent, 0), result.shape).copy()
    with np.errstate(all="ignore"):
        while np.any(remaining):
            odd = (remaining & 1) == 1
            result = np.where(odd, result * square, result)
            square = square * square
            remaining = remaining >> 1
        negative_exponent = np.where(
            base == 1, 1, np.where(base == -1, np.where(exponent % 2 == 0, 1, -1), 0)
        )
    return as_value(np.where(exponent < 0, negative_exponent, result), type_)


def _count_bits(value: Value, type_: Attribute, count: Callable[[Any, int], Any]) -> Value:
    bits = np.asarray(as_unsigned(value, type_)).astype(np.uint64)
    return from_bits(count(bits, integer_width(type_)), type_)


def leading_zeros(bits: Any, width: int) -> Any:
    zeros = np.full(bits.shape, width, np.int64)
    for position in range(width):
        zeros = np.where((bits >> np.uint64(position)) & np.uint64(1), width - 1 - position, zeros)
    return zeros


def trailing_zeros(bits: Any, width: int) -> Any:
    zeros = np.full(bits.shape, width, np.int64)
    for position in reversed(range(width)):
        zeros = np.where((bits >> np.uint64(position)) & np.uint64(1), position, zeros)
    return zeros


def population_count(bits: Any, width: int) -> Any:
    return sum(((bits >> np.uint64(p)) & np.uint64(1)).astype(np.int64) for p in range(width))


@register_impls
class MathFunctions(InterpreterFunctions):
    """numpy implementations of `math`; see the module docstring for the semantics."""

    # Exact, or correctly rounded in the element type.

    @impl(math.AbsFOp)
    def run_absf(self, interpreter: Interpreter, op: math.AbsFOp, args: PythonValues):
        return _exact(op, np.abs, args)

    @impl(math.CopySignOp)
    def run_copysign(self, interpreter: Interpreter, op: math.CopySignOp, args: PythonValues):
        return _exact(op, np.copysign, args)

    @impl(math.CeilOp)
    def run_ceil(self, interpreter: Interpreter, op: math.CeilOp, args: PythonValues):
        return _exact(op, np.ceil, args)

    @impl(math.FloorOp)
    def run_floor(self, interpreter: Interpreter, op: math.FloorOp, args: PythonValues):
        return _exact(op, np.floor, args)

    @impl(math.TruncOp)
    def run_trunc(self, interpreter: Interpreter, op: math.TruncOp, args: PythonValues):
        return _exact(op, np.trunc, args)

    @impl(math.RoundEvenOp)
    def run_roundeven(self, interpreter: Interpreter, op: math.RoundEvenOp, args: PythonValues):
        return _exact(op, np.rint, args)

    @impl(math.RoundOp)
    def run_round(self, interpreter: Interpreter, op: math.RoundOp, args: PythonValues):
        return _exact(op, round_half_away, args)

    @impl(math.SqrtOp)
    def run_sqrt(self, interpreter: Interpreter, op: math.SqrtOp, args: PythonValues):
        return _exact(op, np.sqrt, args)

    @impl(math.FmaOp)
    def run_fma(self, interpreter: Interpreter, op: math.FmaOp, args: PythonValues):
        return (quietly(fused_multiply_add, *args, op.result.type),)

    # Transcendental: float64, rounded once.

    @impl(math.RsqrtOp)
    def run_rsqrt(self, interpreter: Interpreter, op: math.RsqrtOp, args: PythonValues):
        return _transcendental(op, rsqrt, args)

    @impl(math.CbrtOp)
    def run_cbrt(self, interpreter: Interpreter, op: math.CbrtOp, args: PythonValues):
        return _transcendental(op, np.cbrt, args)

    @impl(math.ExpOp)
    def run_exp(self, interpreter: Interpreter, op: math.ExpOp, args: PythonValues):
        return _transcendental(op, np.exp, args)

    @impl(math.Exp2Op)
    def run_exp2(self, interpreter: Interpreter, op: math.Exp2Op, args: PythonValues):
        return _transcendental(op, np.exp2, args)

    @impl(math.ExpM1Op)
    def run_expm1(self, interpreter: Interpreter, op: math.ExpM1Op, args: PythonValues):
        return _transcendental(op, np.expm1, args)

    @impl(math.LogOp)
    def run_log(self, interpreter: Interpreter, op: math.LogOp, args: PythonValues):
        return _transcendental(op, np.log, args)

    @impl(math.Log2Op)
    def run_log2(self, interpreter: Interpreter, op: math.Log2Op, args: PythonValues):
        return _transcendental(op, np.log2, args)

    @impl(math.Log10Op)
    def run_log10(self, interpreter: Interpreter, op: math.Log10Op, args: PythonValues):
        return _transcendental(op, np.log10, args)

    @impl(math.Log1pOp)
    def run_log1p(self, interpreter: Interpreter, op: math.Log1pOp, args: PythonValues):
        return _transcendental(op, np.log1p, args)

    @impl(math.SinOp)
    def run_sin(self, interpreter: Interpreter, op: math.SinOp, args: PythonValues):
        return _transcendental(op, np.sin, args)

    @impl(math.CosOp)
    def run_cos(self, interpreter: Interpreter, op: math.CosOp, args: PythonValues):
        return _transcendental(op, np.cos, args)

    @impl(math.TanOp)
    def run_tan(self, interpreter: Interpreter, op: math.TanOp, args: PythonValues):
        return _transcendental(op, np.tan, args)

    @impl(math.SinhOp)
    def run_sinh(self, interpreter: Interpreter, op: math.SinhOp, args: PythonValues):
        return _transcendental(op, np.sinh, args)

    @impl(math.CoshOp)
    def run_cosh(self, interpreter: Interpreter, op: math.CoshOp, args: PythonValues):
        return _transcendental(op, np.cosh, args)

    @impl(math.TanhOp)
    def run_tanh(self, interpreter: Interpreter, op: math.TanhOp, args: PythonValues):
        return _transcendental(op, np.tanh, args)

    @impl(math.AsinOp)
    def run_asin(self, interpreter: Interpreter, op: math.AsinOp, args: PythonValues):
        return _transcendental(op, np.arcsin, args)

    @impl(math.AcosOp)
    def run_acos(self, interpreter: Interpreter, op: math.AcosOp, args: PythonValues):
        return _transcendental(op, np.arccos, args)

    @impl(math.AtanOp)
    def run_atan(self, interpreter: Interpreter, op: math.AtanOp, args: PythonValues):
        return _transcendental(op, np.arctan, args)

    @impl(math.Atan2Op)
    def run_atan2(self, interpreter: Interpreter, op: math.Atan2Op, args: PythonValues):
        return _transcendental(op, np.arctan2, args)

    @impl(math.AsinhOp)
    def run_asinh(self, interpreter: Interpreter, op: math.AsinhOp, args: PythonValues):
        return _transcendental(op, np.arcsinh, args)

    @impl(math.AcoshOp)
    def run_acosh(self, interpreter: Interpreter, op: math.AcoshOp, args: PythonValues):
        return _transcendental(op, np.arccosh, args)

    @impl(math.AtanhOp)
    def run_atanh(self, interpreter: Interpreter, op: math.AtanhOp, args: PythonValues):
        return _transcendental(op, np.arctanh, args)

    @impl(math.ErfOp)
    def run_erf(self, interpreter: Interpreter, op: math.ErfOp, args: PythonValues):
        return _transcendental(op, erf, args)

    @impl(math.PowFOp)
    def run_powf(self, interpreter: Interpreter, op: math.PowFOp, args: PythonValues):
        return _transcendental(op, np.power, args)

    @impl(math.FPowIOp)
    def run_fpowi(self, interpreter: Interpreter, op: math.FPowIOp, args: PythonValues):
        return _transcendental(op, np.power, args)

    # Integers, wrapping at the width.

    @impl(math.AbsIOp)
    def run_absi(self, interpreter: Interpreter, op: math.AbsIOp, args: PythonValues):
        return _exact(op, np.abs, args)

    @impl(math.IPowIOp)
    def run_ipowi(self, interpreter: Interpreter, op: math.IPowIOp, args: PythonValues):
        return (integer_power(*args, op.result.type),)  # pyright: ignore[reportCallIssue]

    @impl(math.CountLeadingZerosOp)
    def run_ctlz(self, interpreter: Interpreter, op: math.CountLeadingZerosOp, args: PythonValues):
        return (_count_bits(args[0], op.result.type, leading_zeros),)

    @impl(math.CountTrailingZerosOp)
    def run_cttz(self, interpreter: Interpreter, op: math.CountTrailingZerosOp, args: PythonValues):
        return (_count_bits(args[0], op.result.type, trailing_zeros),)

    @impl(math.CtPopOp)
    def run_ctpop(self, interpreter: Interpreter, op: math.CtPopOp, args: PythonValues):
        return (_count_bits(args[0], op.result.type, population_count),)
