"""The expansions of `powf` and `fpowi`: 2^(y log2|x|), log2|x| and the product in two parts."""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.dialects.builtin import IntegerType
from xdsl.ir import SSAValue

from tnpu.dialects.arith import ExtSIOp
from tnpu.dialects.shapes import with_element_type
from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.building_blocks import (
    absolute,
    clamp_keeping_nan,
    fast_two_sum,
    scale_by_power_of_two,
    two_product,
)
from tnpu.transforms.expand_math.coefficients import (
    LOG2_ODD_COEFFICIENTS,
    POWER_RANGE,
    TWO_OVER_3_LN2,
    TWO_OVER_LN2,
)
from tnpu.transforms.expand_math.expansion import MathExpansion
from tnpu.transforms.expand_math.float_formats import INF, NAN, by_width, format_of
from tnpu.transforms.expand_math.range_reductions import normalize, power_of_two_parts


def extended_log2(b: ArithBuilder, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """log2 x as hi + lo to about 10 bits more than the format's, for finite x > 0.

    x = m 2^k; log2 m = (2/ln 2) atanh s = (2/ln 2)(s + s^3/3) + s^5 Q(s^2)
    with s = (m - 1)/(m + 1) carried as s_hi + s_lo (the division's residual
    computed exactly); the two leading terms are carried in two parts.
    """
    two_over_ln2, two_over_3_ln2 = by_width(x, TWO_OVER_LN2), by_width(x, TWO_OVER_3_LN2)
    normalized = normalize(b, x)
    f = b.sub(normalized.mantissa, 1.0)
    denominator, denominator_lo = fast_two_sum(b, b.constant(2.0, x.type), f)
    s = b.div(f, denominator)
    product, product_error = two_product(b, s, denominator)
    residual = b.sub(b.sub(b.sub(f, product), product_error), b.mul(s, denominator_lo))
    s_lo = b.div(residual, denominator)
    square, square_error = two_product(b, s, s)
    cube, cube_error = two_product(b, square, s)
    cube_error = b.add(cube_error, b.mul(square_error, s))
    linear, linear_error = two_product(b, b.constant(two_over_ln2[0], x.type), s)
    cubic, cubic_error = two_product(b, b.constant(two_over_3_ln2[0], x.type), cube)
    tail = b.add(
        b.add(
            # s_lo enters through the derivative of the two leading terms, (2/ln 2)(1 + s^2).
            b.add(
                b.mul(s, two_over_ln2[1]),
                b.mul(b.mul(s_lo, two_over_ln2[0]), b.add(square, 1.0)),
            ),
            b.add(b.mul(cube, two_over_3_ln2[1]), b.mul(cube_error, two_over_3_ln2[0])),
        ),
        b.mul(b.mul(cube, square), b.polynomial(square, by_width(x, LOG2_ODD_COEFFICIENTS))),
    )
    head, head_lo = fast_two_sum(b, linear, cubic)
    head_lo = b.add(head_lo, b.add(b.add(linear_error, cubic_error), tail))
    head, head_lo2 = fast_two_sum(b, head, head_lo)
    hi, hi_lo = fast_two_sum(b, b.to_float(normalized.exponent, format_of(x).type), head)
    return hi, b.add(hi_lo, head_lo2)


def positive_power(
    b: ArithBuilder, x: SSAValue, y: SSAValue, y_lo: SSAValue | None = None
) -> SSAValue:
    """x^(y + y_lo) = 2^((y + y_lo) log2 x) for finite x > 0, the product in two parts.

    y is clamped to `POWER_RANGE` (2^32 in magnitude in f32, 2^64 in f64):
    beyond, x^y over- or underflows for every x != 1 anyway, and the exact
    products cannot overflow.
    """
    y_limit, low_limit, high_limit = by_width(x, POWER_RANGE)
    y = clamp_keeping_nan(b, y, -y_limit, y_limit)
    log_hi, log_lo = extended_log2(b, x)
    product, product_error = two_product(b, y, log_hi)
    low = b.add(product_error, b.mul(y, log_lo))
    if y_lo is not None:
        low = b.add(low, b.mul(y_lo, log_hi))
    # Clamped (the result over- or underflows), the low part no longer belongs.
    bounded = clamp_keeping_nan(b, product, low_limit, high_limit)
    low = b.select(b.compare("oeq", bounded, product), low, 0.0)
    parts = power_of_two_parts(b, bounded, low)
    return scale_by_power_of_two(b, parts.mantissa, parts.exponent)


def power_of_zero_or_infinity(
    b: ArithBuilder, magnitude: SSAValue, exponent_positive: SSAValue
) -> SSAValue:
    """|x|^y for |x| in {0, inf}: infinity when (|x| = inf) == (y > 0), else 0."""
    infinite = b.compare("oeq", magnitude, INF)
    return b.select(b.xori(infinite, exponent_positive), 0.0, INF, like=magnitude)


def negate_if(b: ArithBuilder, condition: SSAValue, x: SSAValue) -> SSAValue:
    """-x where `condition` holds (flipping the sign bit, so 0 and infinity too)."""
    f = format_of(x)
    sign = b.select(condition, b.constant(f.sign_mask, b.bits(x).type), b.constant(0, b.bits(x).type))
    return b.bitcast(b.xori(b.bits(x), sign), f.type)


class ExpandPowf(MathExpansion):
    """x^y = 2^(y log2|x|), log2|x| and the product carried in two parts.

    Special cases follow C99 Annex F: x^0 = 1 and 1^y = 1 even for NaN,
    (-1)^±inf = 1, a negative x to a non-integer y is NaN, to an odd integer
    y negative; 0 and infinity to any y, and infinite y, come out exactly.
    """

    op_type = math.PowFOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x, y = operands
        fmt = format_of(x)
        magnitude = absolute(b, x)
        y_magnitude = absolute(b, y)
        integral = b.ori(
            b.compare("oge", y_magnitude, fmt.integral),
            b.compare("oeq", b.call(math.RoundEvenOp, y), y),
        )
        # From 2^(p+1) on every float is even.
        below_even = b.compare("olt", y_magnitude, 2 * fmt.integral)
        y_int = b.to_int(b.select(below_even, y, 0.0))
        odd = b.andi(b.andi(integral, below_even), b.trunci(b.andi(y_int, 1), IntegerType(1)))
        result = positive_power(b, magnitude, y)
        edge = b.ori(b.compare("oeq", magnitude, 0.0), b.compare("oeq", magnitude, INF))
        result = b.select(
            edge, power_of_zero_or_infinity(b, magnitude, b.compare("ogt", y, 0.0)), result
        )
        result = negate_if(b, b.andi(odd, b.compare_int("slt", b.bits(x), 0)), result)
        finite_negative = b.andi(b.compare("olt", x, 0.0), b.compare("ogt", x, -INF))
        not_integral = b.xori(integral, b.constant(1, integral.type))
        result = b.select(b.andi(finite_negative, not_integral), NAN, result)
        result = b.select(b.ori(b.is_nan(x), b.is_nan(y)), NAN, result)
        one = b.ori(
            b.ori(b.compare("oeq", y, 0.0), b.compare("oeq", x, 1.0)),
            b.andi(b.compare("oeq", x, -1.0), b.compare("oeq", y_magnitude, INF)),
        )
        return b.select(one, 1.0, result)


class ExpandFpowi(MathExpansion):
    """x^n for an integer n = 2^(n log2|x|), n carried as hi + lo so no bit of it is lost.

    The sign comes from n's parity; x^0 = 1 (even for NaN), 0 and infinity
    to the n come out exactly.
    """

    op_type = math.FPowIOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x, n = operands
        fmt = format_of(x)
        wide = b.insert(ExtSIOp(n, with_element_type(n.type, IntegerType(64))))  # pyright: ignore[reportArgumentType]  # with_element_type returns an Attribute; the op takes the exact type
        n_hi = b.to_float(wide, fmt.type)
        n_lo = b.to_float(b.subi(wide, b.to_int(n_hi, IntegerType(64))), fmt.type)
        magnitude = absolute(b, x)
        result = positive_power(b, magnitude, n_hi, n_lo)
        edge = b.ori(b.compare("oeq", magnitude, 0.0), b.compare("oeq", magnitude, INF))
        result = b.select(
            edge, power_of_zero_or_infinity(b, magnitude, b.compare_int("sgt", n, 0)), result
        )
        odd = b.compare_int("ne", b.andi(n, 1), 0)
        result = negate_if(b, b.andi(odd, b.compare_int("slt", b.bits(x), 0)), result)
        result = b.select(b.is_nan(x), x, result)
        return b.select(b.compare_int("eq", n, 0), 1.0, result, like=x)
