"""The expansions of `erf` and `erfc`, pieced together from three ranges of |x|."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import math
from xdsl.ir import SSAValue

from tnpu.dialects.math import ErfcOp
from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.building_blocks import (
    absolute,
    at_most,
    copy_sign_bit,
    scale_by_power_of_two,
    two_product,
)
from tnpu.transforms.expand_math.coefficients import (
    ERF_NEAR_ONE,
    ERF_NEAR_ZERO,
    ERF_ONE,
    ERFC_SCALED,
    ERFC_ZERO_FROM,
)
from tnpu.transforms.expand_math.expansion import MathExpansion
from tnpu.transforms.expand_math.float_formats import F64, by_width, format_of
from tnpu.transforms.expand_math.range_reductions import exponential_parts


@dataclass(frozen=True)
class ErrorFunction:
    """erf and erfc of x pieced together from three ranges of |x| (after fdlibm's erf).

    * |x| < 0.84375: erf = x + x y(x^2);
    * |x| < 1.25: erf = erf(1) + P(|x| - 1);
    * beyond: erfc = e^(-a^2) g(a) / a, with a^2 exact in two parts, both
      in e^(-a^2)'s reduced argument.
    """

    x: SSAValue
    magnitude: SSAValue
    near_zero_tail: SSAValue
    """x y(x^2): erf x = x + this."""
    near_one: SSAValue
    """P(|x| - 1): erf|x| = ERF_ONE + this."""
    far_complement: SSAValue
    """erfc|x| for |x| >= 1.25."""
    is_near_zero: SSAValue
    is_near_one: SSAValue


def error_function(b: ArithBuilder, x: SSAValue) -> ErrorFunction:
    f = format_of(x)
    a = absolute(b, x)
    near_zero_tail = b.mul(x, b.polynomial(b.mul(x, x), ERF_NEAR_ZERO[f.bits]))
    near_one = b.polynomial(b.sub(a, 1.0), ERF_NEAR_ONE[f.bits])
    zero_from = ERFC_ZERO_FROM[f.bits]
    bounded = at_most(b, b.select(b.compare("olt", a, 1.25), 1.25, a), zero_from)
    inverse = b.div(1.0, bounded) if f is F64 else None
    v = inverse if inverse is not None else b.div(1.0, b.mul(bounded, bounded))
    pieces = ERFC_SCALED[f.bits]
    scaled = b.polynomial(b.sub(v, pieces[-1][1]), pieces[-1][2])
    for upper, center, coefficients in reversed(pieces[:-1]):
        scaled = b.select(
            b.compare("olt", bounded, upper), b.polynomial(b.sub(v, center), coefficients), scaled
        )
    scaled = b.div(scaled, bounded) if inverse is None else b.mul(scaled, inverse)  # g(a) / a
    square, square_error = two_product(b, bounded, bounded)
    exponential = exponential_parts(b, b.neg(square), b.neg(square_error))
    far_complement = scale_by_power_of_two(
        b, b.mul(exponential.mantissa, scaled), exponential.exponent
    )
    far_complement = b.select(b.compare("ogt", a, zero_from), 0.0, far_complement)
    return ErrorFunction(
        x,
        a,
        near_zero_tail,
        near_one,
        far_complement,
        b.compare("olt", a, 0.84375),
        b.compare("olt", a, 1.25),
    )


class ExpandErf(MathExpansion):
    """erf x from `error_function`'s three ranges; beyond 1.25, 1 - erfc|x| with the sign of x."""

    op_type = math.ErfOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        e = error_function(b, x)
        erf_one = by_width(x, ERF_ONE)
        outer = b.select(e.is_near_one, b.add(e.near_one, erf_one), b.sub(1.0, e.far_complement))
        return b.select(e.is_near_zero, b.add(x, e.near_zero_tail), copy_sign_bit(b, outer, x))


class ExpandErfc(MathExpansion):
    """erfc x from `error_function`'s three ranges, each written to avoid cancellation.

    Near zero, 1/2 - ((x - 1/2) + x y) (or 1 - (x + x y) below 1/4); near one,
    (1 - erf(1)) - P for positive x; for negative x, 2 - erfc|x|.
    """

    op_type = ErfcOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        e = error_function(b, x)
        near_zero = b.select(
            b.compare("olt", x, 0.25),
            b.sub(1.0, b.add(x, e.near_zero_tail)),
            b.sub(0.5, b.add(b.sub(x, 0.5), e.near_zero_tail)),
        )
        erf_one = by_width(x, ERF_ONE)
        positive = b.select(e.is_near_one, b.sub(1.0 - erf_one, e.near_one), e.far_complement)
        negative = b.select(
            e.is_near_one, b.add(b.add(e.near_one, erf_one), 1.0), b.sub(2.0, e.far_complement)
        )
        outer = b.select(b.compare("olt", x, 0.0), negative, positive)
        return b.select(e.is_near_zero, near_zero, outer)
