"""The expansions of `exp`, `exp2` and `expm1`."""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.ir import SSAValue

from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.building_blocks import (
    clamp_keeping_nan,
    power_of_two,
    round_to_integer,
    scale_by_power_of_two,
)
from tnpu.transforms.expand_math.coefficients import LN2, LOG2_E
from tnpu.transforms.expand_math.expansion import MathExpansion
from tnpu.transforms.expand_math.float_formats import format_of
from tnpu.transforms.expand_math.range_reductions import exponential_parts, power_of_two_parts


class ExpandExp(MathExpansion):
    """exp(x) = 2^k e^r, k = rint(x / ln 2), r = x - k ln 2 (`exponential_parts`)."""

    op_type = math.ExpOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        parts = exponential_parts(b, operands[0])
        return scale_by_power_of_two(b, parts.mantissa, parts.exponent)


class ExpandExp2(MathExpansion):
    """2^x = 2^k 2^r, k = rint(x), r = x - k exactly; 2^r = 1 + r p(r) on |r| <= 1/2."""

    op_type = math.Exp2Op

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        parts = power_of_two_parts(b, operands[0])
        return scale_by_power_of_two(b, parts.mantissa, parts.exponent)


class ExpandExpm1(MathExpansion):
    """expm1(x) = 2^k (expm1(r) + 1) - 1, r = x - k ln 2 and its rounding error (fdlibm's expm1).

    expm1(r) comes from a rational form in r^2/2 (two coefficients in f32,
    seven in f64); how the 2^k is folded in depends on k (k = 0, -1, 1,
    [2, SPLIT), [SPLIT, 56], else), each form avoiding the cancellation of
    the others.  x is clamped to `RANGE`, beyond which the result is -1 or
    infinity anyway.
    """

    op_type = math.ExpM1Op

    COEFFICIENTS = {
        32: (float.fromhex("-0x1.1110dp-5"), float.fromhex("0x1.9e602p-10")),
        64: (
            float.fromhex("-0x1.1111111111111p-5"),
            float.fromhex("0x1.a01a01a01a01ap-10"),
            float.fromhex("-0x1.4ce19ae67b224p-14"),
            float.fromhex("0x1.0cfeb60f23256p-18"),
            float.fromhex("-0x1.b3c0897471df5p-23"),
            float.fromhex("0x1.61205e0cc22f3p-27"),
            float.fromhex("-0x1.1b327f8eb40a0p-31"),
        ),
    }
    """(R1(r^2) - 1) / (r^2/2), R1(r^2) = 6/r ((e^r + 1)/(e^r - 1) - 2/r): f32 fdlibm's Q1, Q2;
    f64 fitted on |r| <= 0.347 (relative error 2^-56)."""
    RANGE = {32: (-25.0, 89.0), 64: (-40.0, 710.0)}
    SPLIT = {32: 23, 64: 20}
    """The k from which 2^-k is folded in after the subtraction (fdlibm's)."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        fmt = format_of(operands[0])
        x = clamp_keeping_nan(b, operands[0], *self.RANGE[fmt.bits])
        ln2_hi, ln2_lo = LN2[fmt.bits]
        k = round_to_integer(b, b.mul(x, LOG2_E[fmt.bits]))
        hi = b.sub(x, b.mul(k, ln2_hi))
        lo = b.mul(k, ln2_lo)
        r = b.sub(hi, lo)
        c = b.sub(b.sub(hi, r), lo)
        half_r = b.mul(r, 0.5)
        r_half_square = b.mul(r, half_r)
        r1 = b.add(b.mul(r_half_square, b.polynomial(r_half_square, self.COEFFICIENTS[fmt.bits])), 1.0)
        t = b.sub(3.0, b.mul(r1, half_r))
        e = b.mul(r_half_square, b.div(b.sub(r1, t), b.sub(6.0, b.mul(r, t))))
        k_is_zero = b.sub(r, b.sub(b.mul(r, e), r_half_square))
        e = b.sub(b.sub(b.mul(r, b.sub(e, c)), c), r_half_square)
        k_int = b.to_int(k)
        k_is_minus_one = b.sub(b.mul(b.sub(r, e), 0.5), 0.5)
        k_is_one = b.select(
            b.compare("olt", r, -0.25),
            b.mul(b.sub(e, b.add(r, 0.5)), -2.0),
            b.add(b.mul(b.sub(r, e), 2.0), 1.0),
        )
        far = b.sub(scale_by_power_of_two(b, b.sub(1.0, b.sub(e, r)), k_int), 1.0)
        # 2^-k for the two middle ranges; k clamped so the exponent field stays valid.
        small_k = b.select(b.compare_int("slt", k_int, 2), b.constant(2, k_int.type), k_int)
        small_k = b.select(b.compare_int("sgt", small_k, 56), b.constant(56, k_int.type), small_k)
        inverse = power_of_two(b, b.subi(0, small_k), fmt)
        middle = scale_by_power_of_two(b, b.sub(b.sub(1.0, inverse), b.sub(e, r)), k_int)
        high = scale_by_power_of_two(b, b.add(b.sub(r, b.add(e, inverse)), 1.0), k_int)
        result = b.select(b.compare_int("slt", k_int, self.SPLIT[fmt.bits]), middle, high)
        far_k = b.ori(b.compare_int("sle", k_int, -2), b.compare_int("sgt", k_int, 56))
        result = b.select(far_k, far, result)
        result = b.select(b.compare_int("eq", k_int, 1), k_is_one, result)
        result = b.select(b.compare_int("eq", k_int, -1), k_is_minus_one, result)
        return b.select(b.compare_int("eq", k_int, 0), k_is_zero, result)
