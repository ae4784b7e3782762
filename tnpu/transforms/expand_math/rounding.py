"""The expansions of `absf`, `copysign`, `trunc`, `floor`, `ceil`, `round` and `roundeven`."""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.ir import SSAValue

from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.building_blocks import absolute, copy_sign_bit
from tnpu.transforms.expand_math.expansion import MathExpansion
from tnpu.transforms.expand_math.float_formats import format_of


class ExpandAbsf(MathExpansion):
    """|x| by clearing the sign bit (exact; NaN stays NaN)."""

    op_type = math.AbsFOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        return absolute(b, operands[0])


class ExpandCopysign(MathExpansion):
    """copysign(x, y): the bits of |x| with the sign bit of y (exact)."""

    op_type = math.CopySignOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x, y = operands
        return copy_sign_bit(b, absolute(b, x), y)


def truncated(b: ArithBuilder, x: SSAValue) -> SSAValue:
    """trunc x, keeping x's sign (trunc(-0.5) = -0); |x| >= 2^p, inf and NaN are their own."""
    f = format_of(x)
    magnitude = absolute(b, x)
    toward_zero = copy_sign_bit(b, b.to_float(b.to_int(magnitude), f.type), x)
    return b.select(b.compare("olt", magnitude, f.integral), toward_zero, x)


class ExpandTrunc(MathExpansion):
    """trunc x through an integer conversion where x has a fraction (|x| < 2^p), exact."""

    op_type = math.TruncOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        return truncated(b, operands[0])


class ExpandFloor(MathExpansion):
    """floor x = trunc x, minus 1 where that is above x (negative non-integers); exact."""

    op_type = math.FloorOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        t = truncated(b, x)
        return b.select(b.compare("ogt", t, x), b.sub(t, 1.0), t)


class ExpandCeil(MathExpansion):
    """ceil x = trunc x, plus 1 where that is below x (positive non-integers); exact."""

    op_type = math.CeilOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        t = truncated(b, x)
        return b.select(b.compare("olt", t, x), b.add(t, 1.0), t)


class ExpandRound(MathExpansion):
    """round x (halves away from zero) = trunc x ± 1 where |x - trunc x| >= 1/2; exact."""

    op_type = math.RoundOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        t = truncated(b, x)
        away = b.add(t, copy_sign_bit(b, b.constant(1.0, x.type), x))
        return b.select(b.compare("oge", absolute(b, b.sub(x, t)), 0.5), away, t)


class ExpandRoundeven(MathExpansion):
    """roundeven x: |x| + 2^p - 2^p rounds to the nearest integer, ties to even; exact.

    x's sign is put back (so -0.4 gives -0); |x| >= 2^p (p = 23 or 52), inf
    and NaN are their own.
    """

    op_type = math.RoundEvenOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        integral = format_of(x).integral
        magnitude = absolute(b, x)
        rounded = copy_sign_bit(b, b.sub(b.add(magnitude, integral), integral), x)
        return b.select(b.compare("olt", magnitude, integral), rounded, x)
