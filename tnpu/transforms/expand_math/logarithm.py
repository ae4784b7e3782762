"""The expansions of `log`, `log2`, `log10` and `log1p`, and the kernel they share."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import math
from xdsl.ir import SSAValue

from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.building_blocks import high_part
from tnpu.transforms.expand_math.coefficients import LN2, LOG_POLYNOMIAL
from tnpu.transforms.expand_math.expansion import MathExpansion
from tnpu.transforms.expand_math.float_formats import INF, NAN, by_width, format_of
from tnpu.transforms.expand_math.range_reductions import normalize


def log1p_kernel(b: ArithBuilder, f: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """For f = m - 1 in [sqrt(2)/2 - 1, sqrt(2) - 1): s = f/(2+f), R, and f^2/2.

    log(1+f) = f - (f^2/2 - s*(f^2/2 + R)), the form the callers build on.
    """
    coefficients = by_width(f, LOG_POLYNOMIAL)
    s = b.div(f, b.add(f, 2.0))
    z = b.mul(s, s)
    w = b.mul(z, z)
    t1 = b.mul(w, b.polynomial(w, coefficients[1::2]))
    t2 = b.mul(z, b.polynomial(w, coefficients[0::2]))
    half_square = b.mul(b.mul(f, f), 0.5)
    return s, b.add(t2, t1), half_square


def log_special_cases(b: ArithBuilder, x: SSAValue, result: SSAValue) -> SSAValue:
    """`result` with a logarithm's special cases: ±0 -> -inf, x < 0 -> NaN, inf and NaN -> x."""
    result = b.select(b.compare("ueq", x, INF), x, result)
    result = b.select(b.compare("olt", x, 0.0), NAN, result)
    return b.select(b.compare("oeq", x, 0.0), -INF, result)


class ExpandLog(MathExpansion):
    """log(x) = k ln 2 + log(m) with x = m 2^k, m in [sqrt(2)/2, sqrt(2)) (fdlibm's logf).

    log(m) = f - (f^2/2 - s (f^2/2 + R(s))) with f = m - 1, s = f / (2 + f);
    for m close to 1 the form f - s (f - R) is the more accurate and is
    selected.  k ln 2 is added in two parts.
    """

    op_type = math.LogOp

    WIDE_RANGE = {32: (0x30A3D0, 0x35C288), 64: (0x6147A << 32, 0x6B851 << 32)}
    """Fraction bits of m (about 1.38 to 1.42) for which the wide form is the more accurate."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        fmt = format_of(x)
        normalized = normalize(b, x)
        f = b.sub(normalized.mantissa, 1.0)
        s, polynomial, half_square = log1p_kernel(b, f)
        k = b.to_float(normalized.exponent, fmt.type)
        ln2_hi, ln2_lo = by_width(x, LN2)
        k_lo = b.mul(k, ln2_lo)
        k_hi = b.mul(k, ln2_hi)
        wide = b.sub(
            k_hi,
            b.sub(b.sub(half_square, b.add(b.mul(s, b.add(half_square, polynomial)), k_lo)), f),
        )
        narrow = b.sub(k_hi, b.sub(b.sub(b.mul(s, b.sub(f, polynomial)), k_lo), f))
        mantissa_bits = b.andi(b.bits(normalized.mantissa), fmt.fraction_mask)
        low, high = self.WIDE_RANGE[fmt.bits]
        use_wide = b.compare_int(
            "sgt", b.ori(b.subi(mantissa_bits, low), b.subi(high, mantissa_bits)), 0
        )
        return log_special_cases(b, x, b.select(use_wide, wide, narrow))


@dataclass(frozen=True)
class ScaledLogarithm:
    """log_base(x) = k log_base(2) + log(m) / ln(base), with the constants split in hi/lo."""

    inverse_ln_hi: float
    inverse_ln_lo: float
    log_of_two_hi: float
    log_of_two_lo: float
    split: int | None = None
    """`normalize`'s split (f32: fdlibm's log2f/log10f threshold)."""
    head_dropped_bits: int = 12
    """Fraction bits cleared from log(m)'s head, so its products with the hi constants are exact."""

    def build(self, b: ArithBuilder, x: SSAValue) -> SSAValue:
        """fdlibm's log2/log10: log(m) = hi + lo exactly enough, hi short."""
        normalized = normalize(b, x, split=self.split)
        f = b.sub(normalized.mantissa, 1.0)
        s, polynomial, half_square = log1p_kernel(b, f)
        r = b.mul(s, b.add(half_square, polynomial))
        hi = high_part(b, b.sub(f, half_square), self.head_dropped_bits)
        lo = b.add(b.sub(b.sub(f, hi), half_square), r)
        k = b.to_float(normalized.exponent, format_of(x).type)
        value_hi = b.mul(hi, self.inverse_ln_hi)
        k_hi = b.mul(k, self.log_of_two_hi)
        value_lo = b.add(
            b.add(b.mul(k, self.log_of_two_lo), b.mul(b.add(lo, hi), self.inverse_ln_lo)),
            b.mul(lo, self.inverse_ln_hi),
        )
        total_hi = b.add(k_hi, value_hi)
        value_lo = b.add(value_lo, b.add(b.sub(k_hi, total_hi), value_hi))
        return log_special_cases(b, x, b.add(value_lo, total_hi))


class ExpandLog2(MathExpansion):
    """log2(x) = k + log(m) / ln 2 (fdlibm's log2), 1/ln 2 split into a short head and a tail."""

    op_type = math.Log2Op

    LOG2 = {
        32: ScaledLogarithm(
            float.fromhex("0x1.714p+0"), float.fromhex("0x1.47652cp-12"), 1.0, 0.0, 0x4AFB0D
        ),
        64: ScaledLogarithm(
            float.fromhex("0x1.7154765200000p+0"), float.fromhex("0x1.705fc2eefa200p-33"), 1.0, 0.0,
            head_dropped_bits=32,
        ),
    }

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        return by_width(operands[0], self.LOG2).build(b, operands[0])


class ExpandLog10(MathExpansion):
    """log10(x) = k log10(2) + log(m) / ln 10 (fdlibm's log10)."""

    op_type = math.Log10Op

    LOG10 = {
        32: ScaledLogarithm(
            float.fromhex("0x1.bcap-2"),
            float.fromhex("0x1.7b1526p-14"),
            float.fromhex("0x1.344p-2"),
            float.fromhex("0x1.3509f8p-18"),
            0x4AFB0D,
        ),
        64: ScaledLogarithm(
            float.fromhex("0x1.bcb7b15200000p-2"),
            float.fromhex("0x1.b9438ca9aadd5p-36"),
            float.fromhex("0x1.3441350800000p-2"),
            float.fromhex("0x1.f79fef311f12bp-34"),
            head_dropped_bits=32,
        ),
    }

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        return by_width(operands[0], self.LOG10).build(b, operands[0])


class ExpandLog1p(MathExpansion):
    """log1p(x) = k ln 2 + log(m) with 1 + x = m 2^k (fdlibm's log1p).

    The rounding error of u = 1 + x is kept as a correction c = (x - (u - 1))/u
    (or (1 - (u - x))/u when k > 0), so small x lose nothing; when 1 + x is
    already in [sqrt(2)/2, sqrt(2)), f = x exactly and k = 0.
    """

    op_type = math.Log1pOp

    BELOW_SQRT2 = {32: 0x3504F4, 64: 0x6A09E667F3BCD}
    """Fraction bits of sqrt(2)."""
    NEAR_ONE = {
        32: (float.fromhex("-0x1.2bec32p-2"), float.fromhex("0x1.a827a0p-2")),
        64: (float.fromhex("-0x1.2bec333018867p-2"), float.fromhex("0x1.a827999fcef32p-2")),
    }
    """[sqrt(2)/2 - 1, sqrt(2) - 1): where 1 + x is already in range and f = x exactly."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        fmt = format_of(x)
        u = b.add(x, 1.0)
        u_bits = b.bits(u)
        k = b.subi(b.shrsi(u_bits, fmt.fraction_bits), fmt.bias)
        correction = b.select(
            b.compare_int("sgt", k, 0), b.sub(1.0, b.sub(u, x)), b.sub(x, b.sub(u, 1.0))
        )
        correction = b.div(correction, u)
        mantissa_bits = b.andi(u_bits, fmt.fraction_mask)
        below_sqrt2 = b.compare_int("slt", mantissa_bits, self.BELOW_SQRT2[fmt.bits])
        half_bits = (fmt.bias - 1) << fmt.fraction_bits
        u_normal = b.bitcast(
            b.ori(
                mantissa_bits,
                b.select(
                    below_sqrt2,
                    b.constant(fmt.one_bits, u_bits.type),
                    b.constant(half_bits, u_bits.type),
                ),
            ),
            fmt.type,
        )
        k = b.select(below_sqrt2, k, b.addi(k, 1))
        low, high = self.NEAR_ONE[fmt.bits]
        near_one = b.andi(b.compare("olt", x, high), b.compare("oge", x, low))
        f = b.select(near_one, x, b.sub(u_normal, 1.0))
        k = b.select(near_one, b.constant(0, k.type), k)
        correction = b.select(near_one, 0.0, correction)
        s, polynomial, half_square = log1p_kernel(b, f)
        k_float = b.to_float(k, fmt.type)
        ln2_hi, ln2_lo = LN2[fmt.bits]
        result = b.sub(
            b.mul(k_float, ln2_hi),
            b.sub(
                b.sub(
                    half_square,
                    b.add(
                        b.mul(s, b.add(half_square, polynomial)),
                        b.add(b.mul(k_float, ln2_lo), correction),
                    ),
                ),
                f,
            ),
        )
        # inf, NaN and ±0 are their own log1p.
        result = b.select(b.ori(b.compare("ueq", x, INF), b.compare("oeq", x, 0.0)), x, result)
        result = b.select(b.compare("olt", x, -1.0), NAN, result)
        return b.select(b.compare("oeq", x, -1.0), -INF, result)
