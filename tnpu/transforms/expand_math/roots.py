"""The expansions of `sqrt`, `rsqrt` and `cbrt`."""

from __future__ import annotations

from xdsl.dialects import math
from xdsl.dialects.arith import DivSIOp
from xdsl.dialects.builtin import IntegerType, f32
from xdsl.ir import SSAValue

from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.building_blocks import (
    absolute,
    copy_sign_bit,
    power_of_two,
    select_by_thresholds,
    two_product,
)
from tnpu.transforms.expand_math.expansion import MathExpansion
from tnpu.transforms.expand_math.float_formats import INF, NAN, format_of


class ExpandSqrt(MathExpansion):
    """sqrt x, correctly rounded, by exact integer arithmetic on the significand.

    x = N 2^(2e) with N in [2^46, 2^48) (a 24-bit significand shifted by 23 or
    24 bits to make the exponent even); a float estimate of sqrt N is
    corrected to floor(sqrt N) with 64-bit integer squares, and rounded up
    where N - Y^2 > Y (ties cannot occur).  Subnormals are scaled by 2^24
    first; -0, +inf and NaN are their own square roots, x < 0 gives NaN.
    """

    op_type = math.SqrtOp
    f64 = False

    COEFFICIENTS = (
        float.fromhex("0x1.0981c2p-1"),
        float.fromhex("0x1.0d4f38p-1"),
        float.fromhex("-0x1.43e2f4p-5"),
    )
    """sqrt m ~ P(m) on [1, 4] (relative error 5e-3), the start of two Newton steps."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        i64 = IntegerType(64)
        subnormal = b.compare("olt", x, 2.0**-126)
        scaled = b.select(subnormal, b.mul(x, 2.0**24), x)
        bits = b.bits(scaled)
        exponent = b.subi(
            b.subi(b.shrsi(bits, 23), 127),
            b.select(subnormal, b.constant(24, bits.type), b.constant(0, bits.type)),
        )
        odd = b.andi(exponent, 1)
        significand = b.ori(b.andi(bits, 0x007FFFFF), 0x00800000)
        n = b.shli(b.extui(significand, i64), b.extui(b.addi(odd, 23), i64))
        # A float estimate of sqrt(m), m = N 2^-46 in [1, 4).
        m = b.bitcast(b.ori(b.andi(bits, 0x007FFFFF), b.shli(b.addi(odd, 127), 23)), f32)
        y = b.polynomial(m, self.COEFFICIENTS)
        for _ in range(2):
            y = b.mul(b.add(y, b.div(m, y)), 0.5)
        root = b.to_int(b.mul(y, 2.0**23), i64)
        for _ in range(2):
            root = b.select(b.compare_int("sgt", b.muli(root, root), n), b.subi(root, 1), root)
            above = b.addi(root, 1)
            root = b.select(b.compare_int("sle", b.muli(above, above), n), above, root)
        remainder = b.subi(n, b.muli(root, root))
        root = b.select(b.compare_int("sgt", remainder, root), b.addi(root, 1), root)
        half_exponent = b.subi(b.shrsi(b.subi(exponent, odd), 1), 23)
        result = b.mul(b.to_float(root, f32), power_of_two(b, half_exponent))
        result = b.select(b.compare("ult", x, 0.0), NAN, result)
        return b.select(b.ori(b.compare("oeq", x, 0.0), b.compare("oeq", x, INF)), x, result)


class ExpandRsqrt(MathExpansion):
    """rsqrt x = 1 / sqrt x, two correctly rounded operations (`math.sqrt` native or expanded)."""

    op_type = math.RsqrtOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        return b.div(1.0, b.call(math.SqrtOp, operands[0]))


class ExpandCbrt(MathExpansion):
    """cbrt x = cbrt(f 2^j) 2^q for |x| = f 2^(3q + j), f in [1, 2), j in {0, 1, 2}.

    A polynomial in f times cbrt(2^j), one Newton step (two in f64), then
    one correction by the residual m - y^3 computed exactly (two-products),
    which leaves y within a hair of half an ulp.  Subnormals are scaled by
    2^(p+1) first; the sign is x's; 0, infinity and NaN are their own cube
    roots.
    """

    op_type = math.CbrtOp

    COEFFICIENTS = (
        float.fromhex("0x1.1b0bf4p-1"),
        float.fromhex("0x1.2c99a2p-1"),
        float.fromhex("-0x1.4dc15ap-3"),
        float.fromhex("0x1.7a8a32p-6"),
    )
    """cbrt f ~ P(f) on [1, 2] (relative error 7.3e-5)."""

    ROOTS_OF_TWO = {
        32: (1.0, float.fromhex("0x1.428a3p+0"), float.fromhex("0x1.965feap+0")),
        64: (1.0, float.fromhex("0x1.428a2f98d728bp+0"), float.fromhex("0x1.965fea53d6e3dp+0")),
    }
    """cbrt(2^j) for j = 0, 1, 2."""

    NEWTON_STEPS = {32: 1, 64: 2}

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        fmt = format_of(x)
        magnitude = absolute(b, x)
        subnormal = b.compare("olt", magnitude, fmt.smallest_normal)
        scale = fmt.fraction_bits + 1
        scaled = b.select(subnormal, b.mul(magnitude, 2.0**scale), magnitude)
        bits = b.bits(scaled)
        exponent = b.subi(
            b.subi(b.shrsi(bits, fmt.fraction_bits), fmt.bias),
            b.select(subnormal, b.constant(scale, bits.type), b.constant(0, bits.type)),
        )
        # A multiple of 3 above every exponent keeps the division's operand non-negative.
        offset = 3 * ((fmt.bias + scale + 2) // 3 + 1)
        third = b.subi(
            b.insert(DivSIOp(b.addi(exponent, offset), b.constant(3, bits.type))), offset // 3
        )
        j = b.subi(exponent, b.muli(third, 3))
        mantissa_bits = b.andi(bits, fmt.fraction_mask)
        f = b.bitcast(b.ori(mantissa_bits, fmt.one_bits), fmt.type)
        m = b.bitcast(b.ori(mantissa_bits, b.shli(b.addi(j, fmt.bias), fmt.fraction_bits)), fmt.type)
        root_of_two = select_by_thresholds(
            b,
            [b.compare_int("sge", j, 1), b.compare_int("sge", j, 2)],
            list(self.ROOTS_OF_TWO[fmt.bits]),
            f,
        )
        y = b.mul(b.polynomial(f, self.COEFFICIENTS), root_of_two)
        for _ in range(self.NEWTON_STEPS[fmt.bits]):
            y = b.mul(b.add(b.add(y, y), b.div(m, b.mul(y, y))), 1.0 / 3.0)
        square, square_error = two_product(b, y, y)
        cube, cube_error = two_product(b, y, square)
        residual = b.sub(b.sub(m, cube), b.add(cube_error, b.mul(y, square_error)))
        y = b.add(y, b.div(residual, b.mul(square, 3.0)))
        result = copy_sign_bit(b, b.mul(y, power_of_two(b, third, fmt)), x)
        special = b.ori(b.compare("oeq", magnitude, 0.0), b.compare("ueq", magnitude, INF))
        return b.select(special, x, result)
