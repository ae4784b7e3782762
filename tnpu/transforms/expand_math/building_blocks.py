"""Small, exact steps the expansions are built from: rounding, scaling by 2^k, splitting
a float into a high part, sign handling, and sums and products carried in two parts."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.float_formats import F32, FloatFormat, format_of


def round_to_integer(b: ArithBuilder, x: SSAValue) -> SSAValue:
    """rint(x) for |x| < 2^(p-2), p the fraction bits: adding 1.5 * 2^p rounds away the fraction, to even."""
    magic = 1.5 * format_of(x).integral
    return b.sub(b.add(x, magic), magic)


def power_of_two(b: ArithBuilder, k: SSAValue, f: FloatFormat = F32) -> SSAValue:
    """2^k as a float of format `f` from an integer k of its width, in the normal range."""
    return b.bitcast(b.shli(b.addi(k, f.bias), f.fraction_bits), f.type)


def scale_by_power_of_two(b: ArithBuilder, x: SSAValue, k: SSAValue) -> SSAValue:
    """x * 2^k for k within twice the exponent range, in two exact steps and one final rounding.

    Two factors keep each 2^k normal, so the result underflows gradually and
    overflows to infinity as the exact product would.
    """
    f = format_of(x)
    half = b.shrsi(k, 1)
    return b.mul(b.mul(x, power_of_two(b, half, f)), power_of_two(b, b.subi(k, half), f))


def high_part(b: ArithBuilder, x: SSAValue, dropped_bits: int | None = None) -> SSAValue:
    """x with its low fraction bits cleared (the format's split by default): products of two such are exact."""
    f = format_of(x)
    dropped = f.split_bits if dropped_bits is None else dropped_bits
    return b.bitcast(b.andi(b.bits(x), -(1 << dropped)), f.type)


def at_most(b: ArithBuilder, x: SSAValue, high: float) -> SSAValue:
    """min(x, high), but NaN stays NaN (an ordered comparison is false for it)."""
    return b.select(b.compare("ogt", x, high), high, x)


def clamp_keeping_nan(b: ArithBuilder, x: SSAValue, low: float, high: float) -> SSAValue:
    """x limited to [low, high]; NaN stays NaN."""
    return b.select(b.compare("olt", x, low), low, at_most(b, x, high))


def copy_sign_bit(b: ArithBuilder, magnitude: SSAValue, sign_of: SSAValue) -> SSAValue:
    """`magnitude` (non-negative) with the sign bit of `sign_of`."""
    f = format_of(magnitude)
    sign = b.andi(b.bits(sign_of), f.sign_mask)
    return b.bitcast(b.ori(b.bits(magnitude), sign), f.type)


def keep_zero(b: ArithBuilder, x: SSAValue, result: SSAValue) -> SSAValue:
    """x itself where x is ±0, for the odd functions with f(±0) = ±0."""
    return b.select(b.compare("oeq", x, 0.0), x, result)


def absolute(b: ArithBuilder, x: SSAValue) -> SSAValue:
    """|x| by clearing the sign bit (NaN payloads kept)."""
    f = format_of(x)
    return b.bitcast(b.andi(b.bits(x), ~f.sign_mask), f.type)


def two_product(b: ArithBuilder, x: SSAValue, y: SSAValue) -> tuple[SSAValue, SSAValue]:
    """x * y as hi + lo exactly (Dekker's product, halves made by masking; no fma)."""
    product = b.mul(x, y)
    x1, y1 = high_part(b, x), high_part(b, y)
    x2, y2 = b.sub(x, x1), b.sub(y, y1)
    error = b.add(
        b.add(b.add(b.sub(b.mul(x1, y1), product), b.mul(x1, y2)), b.mul(x2, y1)),
        b.mul(x2, y2),
    )
    return product, error


def select_by_thresholds(
    b: ArithBuilder,
    reached: Sequence[SSAValue],
    values: Sequence[SSAValue | float],
    like: SSAValue,
) -> SSAValue:
    """values[i + 1] where threshold test i (of ascending thresholds) is the last to hold.

    values[0] where none holds, as for a NaN argument; numbers take `like`'s type.
    """
    result = values[0]
    for test, value in zip(reached, values[1:], strict=True):
        result = b.select(test, value, result, like=like)
    assert isinstance(result, SSAValue)
    return result


def fast_two_sum(b: ArithBuilder, big: SSAValue, small: SSAValue) -> tuple[SSAValue, SSAValue]:
    """big + small as hi + lo exactly, for |big| >= |small| or big = 0."""
    total = b.add(big, small)
    return total, b.sub(small, b.sub(total, big))
