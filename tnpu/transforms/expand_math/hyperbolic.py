"""The expansions of `tanh`, `sinh`, `cosh`, `asinh`, `acosh` and `atanh`."""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.ir import SSAValue

from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.building_blocks import (
    absolute,
    at_most,
    copy_sign_bit,
    keep_zero,
    scale_by_power_of_two,
)
from tnpu.transforms.expand_math.expansion import MathExpansion
from tnpu.transforms.expand_math.float_formats import F64, NAN, by_width, format_of
from tnpu.transforms.expand_math.range_reductions import exponential_parts


class ExpandTanh(MathExpansion):
    """tanh x = x + x^3 T(x^2) for |x| < 0.625; beyond, 1 - 2/(expm1(2|x|) + 2) with x's sign.

    Large |x| and infinity give exactly ±1 (fdlibm's tanh, with the small
    range by a polynomial rather than by expm1, which is more accurate).
    """

    op_type = math.TanhOp

    COEFFICIENTS = {
        32: (
            float.fromhex("-0x1.555556p-2"),
            float.fromhex("0x1.1110eap-3"),
            float.fromhex("-0x1.ba08c6p-5"),
            float.fromhex("0x1.64a992p-6"),
            float.fromhex("-0x1.116abcp-7"),
            float.fromhex("0x1.2c8666p-9"),
        ),
        64: (
            float.fromhex("-0x1.5555555555555p-2"),
            float.fromhex("0x1.1111111111111p-3"),
            float.fromhex("-0x1.ba1ba1ba1b99bp-5"),
            float.fromhex("0x1.664f4882bcedap-6"),
            float.fromhex("-0x1.226e355d4fe31p-7"),
            float.fromhex("0x1.d6d3d085a77dap-9"),
            float.fromhex("-0x1.7da35ab78fb03p-10"),
            float.fromhex("0x1.355774fd6397bp-11"),
            float.fromhex("-0x1.f56beacd843e6p-13"),
            float.fromhex("0x1.95dea8c30df35p-14"),
            float.fromhex("-0x1.45784f033d4b9p-15"),
            float.fromhex("0x1.f1b59ea7fc191p-17"),
            float.fromhex("-0x1.402a50ae5478dp-18"),
            float.fromhex("0x1.ec64d0ae70e69p-21"),
        ),
    }
    """T(z) ~ (tanh x - x)/x^3, z = x^2, |x| < 0.625 (f64: fitted, relative error 2^-53.7)."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        magnitude = absolute(b, x)
        z = b.mul(x, x)
        small = b.add(x, b.mul(b.mul(x, z), b.polynomial(z, by_width(x, self.COEFFICIENTS))))
        t = b.call(math.ExpM1Op, b.add(magnitude, magnitude))
        large = copy_sign_bit(b, b.sub(1.0, b.div(2.0, b.add(t, 2.0))), x)
        return keep_zero(b, x, b.select(b.compare("olt", magnitude, 0.625), small, large))


class ExpandSinh(MathExpansion):
    """sinh x = x + x^3 S(x^2) for |x| < 1; h (t + t/(t+1)), t = expm1|x|, h = ±1/2, to LARGE.

    Beyond LARGE (9 in f32, 22 in f64), ±e^|x|/2 (`half_exponential`),
    finite up to the true overflow threshold (after fdlibm's sinh, with the
    small range by a polynomial).
    """

    op_type = math.SinhOp

    COEFFICIENTS = {
        32: (
            float.fromhex("0x1.555556p-3"),
            float.fromhex("0x1.111112p-7"),
            float.fromhex("0x1.a01a12p-13"),
            float.fromhex("0x1.71d218p-19"),
            float.fromhex("0x1.b553eap-26"),
        ),
        64: (
            float.fromhex("0x1.5555555555555p-3"),
            float.fromhex("0x1.1111111111111p-7"),
            float.fromhex("0x1.a01a01a01a001p-13"),
            float.fromhex("0x1.71de3a556f96cp-19"),
            float.fromhex("0x1.ae6456792a77fp-26"),
            float.fromhex("0x1.612467ccb2260p-33"),
            float.fromhex("0x1.ae777c36fd5b6p-41"),
            float.fromhex("0x1.99f0806c2628dp-49"),
        ),
    }
    """S(z) ~ (sinh x - x)/x^3, z = x^2, |x| <= 1 (relative error 1.9e-12; f64 2^-54)."""

    LARGE = {32: 9.0, 64: 22.0}
    """From here on t/(t+1) is 1 to the format's precision (fdlibm's threshold)."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        large_from = by_width(x, self.LARGE)
        magnitude = absolute(b, x)
        z = b.mul(x, x)
        below_one = b.add(x, b.mul(b.mul(x, z), b.polynomial(z, by_width(x, self.COEFFICIENTS))))
        t = b.call(math.ExpM1Op, at_most(b, magnitude, large_from))
        below_large = b.mul(b.add(t, b.div(t, b.add(t, 1.0))), 0.5)
        large = b.select(
            b.compare("olt", magnitude, large_from), below_large, half_exponential(b, magnitude)
        )
        return b.select(b.compare("olt", magnitude, 1.0), below_one, copy_sign_bit(b, large, x))


class ExpandCosh(MathExpansion):
    """cosh(x) = 1 + t^2/(2(1+t)), t = expm1|x|, near 0; E + 1/(4E) below LARGE; E above; E = e^|x|/2.

    E comes from `half_exponential`, finite up to the true overflow
    threshold (after fdlibm's cosh); LARGE is sinh's.
    """

    op_type = math.CoshOp

    NEAR_ZERO = {32: float.fromhex("0x1.62e42ep-2"), 64: float.fromhex("0x1.62e42fefa39efp-2")}
    """ln(2)/2."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        large_from = by_width(operands[0], ExpandSinh.LARGE)
        magnitude = absolute(b, operands[0])
        t = b.call(math.ExpM1Op, at_most(b, magnitude, 0.5))
        w = b.add(t, 1.0)
        near_zero = b.add(b.div(b.mul(t, t), b.add(w, w)), 1.0)
        half = half_exponential(b, magnitude)
        moderate = b.add(half, b.div(0.25, half))
        return b.select(
            b.compare("olt", magnitude, by_width(magnitude, self.NEAR_ZERO)),
            near_zero,
            b.select(b.compare("olt", magnitude, large_from), moderate, half),
        )


def half_exponential(b: ArithBuilder, x: SSAValue) -> SSAValue:
    """e^x / 2 with the halving in the exponent: one rounding, and finite up to log(2 FLT_MAX)."""
    parts = exponential_parts(b, x)
    return scale_by_power_of_two(b, parts.mantissa, b.subi(parts.exponent, 1))


class ExpandAsinh(MathExpansion):
    """asinh|x| = log1p(|x| + x^2/(1 + sqrt(1 + x^2))) to 2, log(2|x| + 1/(sqrt(x^2+1) + |x|)) on.

    Beyond 2^28, log|x| + ln 2 (x^2 would overflow); the sign is copied from
    x (fdlibm's asinhf).  One `math.log1p` serves all three ranges: the
    logarithms' arguments, at least 4, lose nothing that matters to `- 1`.
    """

    op_type = math.AsinhOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        magnitude = absolute(b, x)
        bounded = at_most(b, magnitude, 2.0**28)
        square = b.mul(bounded, bounded)
        root = b.call(math.SqrtOp, b.add(square, 1.0))
        small = b.add(bounded, b.div(square, b.add(root, 1.0)))
        moderate = b.add(b.add(bounded, bounded), b.div(1.0, b.add(root, bounded)))
        return copy_sign_bit(b, log_of_large_or_1p(b, magnitude, small, moderate), x)


class ExpandAcosh(MathExpansion):
    """acosh x = log1p(t + sqrt(2t + t^2)), t = x - 1, to 2; log(2x - 1/(x + sqrt(x^2 - 1))) on.

    Beyond 2^28, log x + ln 2; x < 1 gives NaN (fdlibm's acoshf).  One
    `math.log1p` serves all three ranges, as for asinh.
    """

    op_type = math.AcoshOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        bounded = at_most(b, x, 2.0**28)
        t = b.sub(bounded, 1.0)
        small = b.add(t, b.call(math.SqrtOp, b.add(b.add(t, t), b.mul(t, t))))
        root = b.call(math.SqrtOp, b.sub(b.mul(bounded, bounded), 1.0))
        moderate = b.sub(b.add(bounded, bounded), b.div(1.0, b.add(bounded, root)))
        result = log_of_large_or_1p(b, x, small, moderate)
        return b.select(b.compare("olt", x, 1.0), NAN, result)


def log_of_large_or_1p(
    b: ArithBuilder, x: SSAValue, small: SSAValue, moderate: SSAValue
) -> SSAValue:
    """log1p(small) for x <= 2, log(moderate) up to 2^28, log(x) + ln 2 beyond, with one log1p."""
    huge = b.compare("ogt", x, 2.0**28)
    large = b.sub(b.select(huge, x, moderate), 1.0)
    logarithm = b.call(math.Log1pOp, b.select(b.compare("ogt", x, 2.0), large, small))
    ln2 = b.constant(by_width(x, {32: float.fromhex("0x1.62e43p-1"), 64: float.fromhex("0x1.62e42fefa39efp-1")}), x.type)
    return b.add(logarithm, b.select(huge, ln2, b.constant(0.0, x.type)))


class ExpandAtanh(MathExpansion):
    """atanh x = x + x^3 A(x^2) for |x| < 1/2; log1p(2|x|/(1 - |x|))/2 with x's sign above.

    |x| = 1 gives infinity, |x| > 1 NaN (after fdlibm's atanhf, with the
    small range by a polynomial).  f64 takes fdlibm's atanh for the small
    range too, log1p(2|x| + 2|x|^2/(1 - |x|))/2: a polynomial as accurate
    would need 23 terms.
    """

    op_type = math.AtanhOp

    COEFFICIENTS = (
        float.fromhex("0x1.555556p-2"),
        float.fromhex("0x1.99996p-3"),
        float.fromhex("0x1.24a028p-3"),
        float.fromhex("0x1.c496e2p-4"),
        float.fromhex("0x1.8fda86p-4"),
        float.fromhex("0x1.4c302p-5"),
        float.fromhex("0x1.4119dap-3"),
    )
    """A(z) ~ (atanh x - x)/x^3, z = x^2, |x| <= 1/2 (relative error 3.3e-9)."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        magnitude = absolute(b, x)
        twice = b.add(magnitude, magnitude)
        if format_of(x) is F64:
            near = b.add(twice, b.div(b.mul(twice, magnitude), b.sub(1.0, magnitude)))
            small = copy_sign_bit(b, b.mul(b.call(math.Log1pOp, near), 0.5), x)
        else:
            z = b.mul(x, x)
            small = b.add(x, b.mul(b.mul(x, z), b.polynomial(z, self.COEFFICIENTS)))
        large = b.mul(b.call(math.Log1pOp, b.div(twice, b.sub(1.0, magnitude))), 0.5)
        large = b.select(b.compare("ogt", magnitude, 1.0), NAN, large)
        return b.select(b.compare("olt", magnitude, 0.5), small, copy_sign_bit(b, large, x))
