"""The `expand-math` pass: `math` ops the target lacks become `arith` code.

Each pattern expands one `math` op on f32 with range reduction and a
polynomial, branch-free (every lane computes every path; `arith.select`
picks), using only `arith` ops: no `math.fma`, so the code is exact on a
target without a fused multiply-add, and products that must be exact are
split by masking low mantissa bits.  f16 and bf16 compute through f32.
An expansion may use another `math` op (`asinh` uses `log1p` and `sqrt`);
that op is native or expanded in turn.

Algorithms follow fdlibm / FreeBSD msun (`expm1f`, `logf`, `log2f`,
`log10f`, `log1pf`, `atanf`, `asinf`, `acosf`, `erff`, `sinhf`, `coshf`,
`tanhf`, `asinhf`, `acoshf`, `atanhf`); exp reduces by Cody-Waite, sin,
cos and tan by an exact Payne-Hanek reduction in 64-bit integers, powf
carries log2 x and y log2 x in two f32 parts, and sqrt is correctly
rounded by exact integer arithmetic.  Where fdlibm's coefficients were not
reused, they were fitted for these expansions (near-minimax on the reduced
interval, relative error stated beside each).
`bench/math_accuracy.py` measures every expansion on the IR itself;
`docs/math-accuracy.md` has the table.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import math
from xdsl.dialects.arith import DivSIOp
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    IntegerType,
    ModuleOp,
    f32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)
from xdsl.utils.exceptions import DiagnosticException

from tnpu.diagnostics import CompileError
from tnpu.dialects.arith import ExtSIOp, element_or_self, same_shape_as
from tnpu.dialects.math import ErfcOp, Math
from tnpu.passes.arith_builder import ArithBuilder

INF = float("inf")
NAN = float("nan")
LN2_HI = float.fromhex("0x1.62e4p-1")
"""ln 2 to 15 bits, so that k * LN2_HI is exact for |k| < 2^9."""
LN2_LO = float.fromhex("0x1.7f7d1cp-20")
"""ln 2 - LN2_HI, to f32."""
LOG2_E = float.fromhex("0x1.715476p+0")
SIGN_MASK = -(1 << 31)
"""The f32 sign bit as an i32 constant."""


# ---------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------


def round_to_integer(b: ArithBuilder, x: SSAValue) -> SSAValue:
    """rint(x) for |x| < 2^22: adding 1.5 * 2^23 rounds away the fraction, to even."""
    magic = 1.5 * 2**23
    return b.sub(b.add(x, magic), magic)


def power_of_two(b: ArithBuilder, k: SSAValue) -> SSAValue:
    """2^k as f32 from an i32 k in [-126, 127] (the exponent field itself)."""
    return b.bitcast(b.shli(b.addi(k, 127), 23), f32)


def scale_by_power_of_two(b: ArithBuilder, x: SSAValue, k: SSAValue) -> SSAValue:
    """x * 2^k for an i32 k in [-252, 254], in two exact steps and one final rounding.

    Two factors keep each 2^k normal, so the result underflows gradually and
    overflows to infinity as the exact product would.
    """
    half = b.shrsi(k, 1)
    return b.mul(b.mul(x, power_of_two(b, half)), power_of_two(b, b.subi(k, half)))


def high_part(b: ArithBuilder, x: SSAValue, dropped_bits: int = 12) -> SSAValue:
    """x with its low `dropped_bits` mantissa bits cleared: products of two such are exact."""
    return b.bitcast(b.andi(b.bits(x), -(1 << dropped_bits)), f32)


def at_most(b: ArithBuilder, x: SSAValue, high: float) -> SSAValue:
    """min(x, high), but NaN stays NaN (an ordered comparison is false for it)."""
    return b.select(b.compare("ogt", x, high), high, x)


def clamp_keeping_nan(b: ArithBuilder, x: SSAValue, low: float, high: float) -> SSAValue:
    """x limited to [low, high]; NaN stays NaN."""
    return b.select(b.compare("olt", x, low), low, at_most(b, x, high))


def copy_sign_bit(b: ArithBuilder, magnitude: SSAValue, sign_of: SSAValue) -> SSAValue:
    """`magnitude` (non-negative) with the sign bit of `sign_of`."""
    sign = b.andi(b.bits(sign_of), SIGN_MASK)
    return b.bitcast(b.ori(b.bits(magnitude), sign), f32)


def keep_zero(b: ArithBuilder, x: SSAValue, result: SSAValue) -> SSAValue:
    """x itself where x is ±0, for the odd functions with f(±0) = ±0."""
    return b.select(b.compare("oeq", x, 0.0), x, result)


def absolute(b: ArithBuilder, x: SSAValue) -> SSAValue:
    """|x| by clearing the sign bit (NaN payloads kept)."""
    return b.bitcast(b.andi(b.bits(x), ~SIGN_MASK), f32)


@dataclass(frozen=True)
class Normalized:
    """x = m * 2^k with m in [sqrt(2)/2, sqrt(2)), for finite x > 0."""

    mantissa: SSAValue
    exponent: SSAValue
    """k as i32."""


def normalize(b: ArithBuilder, x: SSAValue, split: int = 0x4AFB20) -> Normalized:
    """Split x > 0 into m * 2^k, m in [sqrt(2)/2, sqrt(2)); subnormals first scaled by 2^25.

    `split` is added to the mantissa bits to carry into the exponent exactly
    when m >= sqrt(2) (fdlibm's trick).
    """
    subnormal = b.compare("olt", x, 2.0**-126)
    scaled = b.select(subnormal, b.mul(x, 2.0**25), x)
    bits = b.bits(scaled)
    bias = b.select(subnormal, b.constant(127 + 25, bits.type), b.constant(127, bits.type))
    exponent = b.subi(b.shrsi(bits, 23), bias)
    mantissa_bits = b.andi(bits, 0x007FFFFF)
    carry = b.andi(b.addi(mantissa_bits, split), 0x00800000)
    mantissa = b.bitcast(b.ori(mantissa_bits, b.xori(carry, 0x3F800000)), f32)
    return Normalized(mantissa, b.addi(exponent, b.shrsi(carry, 23)))


LOG_POLYNOMIAL = (
    float.fromhex("0x1.555554p-1"),
    float.fromhex("0x1.999c26p-2"),
    float.fromhex("0x1.23d3dcp-2"),
    float.fromhex("0x1.f13c4cp-3"),
)
"""fdlibm's Lg1..Lg4: (log(1+s) - log(1-s))/s ~ 2 + s^2 (Lg1 + ...), |error| < 2^-34.24."""


def log1p_kernel(b: ArithBuilder, f: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """For f = m - 1 in [sqrt(2)/2 - 1, sqrt(2) - 1): s = f/(2+f), R, and f^2/2.

    log(1+f) = f - (f^2/2 - s*(f^2/2 + R)), the form the callers build on.
    """
    s = b.div(f, b.add(f, 2.0))
    z = b.mul(s, s)
    w = b.mul(z, z)
    t1 = b.mul(w, b.polynomial(w, [LOG_POLYNOMIAL[1], LOG_POLYNOMIAL[3]]))
    t2 = b.mul(z, b.polynomial(w, [LOG_POLYNOMIAL[0], LOG_POLYNOMIAL[2]]))
    half_square = b.mul(b.mul(f, f), 0.5)
    return s, b.add(t2, t1), half_square


def log_special_cases(b: ArithBuilder, x: SSAValue, result: SSAValue) -> SSAValue:
    """`result` with a logarithm's special cases: ±0 -> -inf, x < 0 -> NaN, inf and NaN -> x."""
    result = b.select(b.compare("ueq", x, INF), x, result)
    result = b.select(b.compare("olt", x, 0.0), NAN, result)
    return b.select(b.compare("oeq", x, 0.0), -INF, result)


# ---------------------------------------------------------------------------
# The expansions
# ---------------------------------------------------------------------------


class MathExpansion(RewritePattern, ABC):
    """Replaces one kind of `math` op by `arith` code computed in f32.

    f16 and bf16 operands are widened to f32 and the result rounded back
    (integer operands, `fpowi`'s exponent, stay as they are);
    f64 has no expansion here (it must be native).  The new ops carry the
    location of the op they replace.
    """

    op_type: ClassVar[type[Operation]]

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.op_type):
            return
        element = element_or_self(op.results[0].type)
        if not isinstance(element, Float32Type | Float16Type | BFloat16Type):
            raise CompileError(
                op,
                f"has no arith expansion for {element} (only f32, f16 and bf16); "
                f"the target must execute '{op.name}' natively",
            )
        b = ArithBuilder(rewriter, op.location)
        operands = [
            b.convert(x, f32) if element_or_self(x.type) == element != f32 else x
            for x in op.operands
        ]
        result = self.expand(b, *operands)
        if element != f32:
            result = b.convert(result, element)
        rewriter.replace(op, [], [result])

    @abstractmethod
    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        """The f32 result for f32 operands."""


EXP_COEFFICIENTS = (
    float.fromhex("0x1p-1"),
    float.fromhex("0x1.5554dep-3"),
    float.fromhex("0x1.5555bap-5"),
    float.fromhex("0x1.120b4p-7"),
    float.fromhex("0x1.6c69e2p-10"),
)
"""q(r) ~ (e^r - 1 - r) / r^2 on |r| <= ln(2)/2."""


@dataclass(frozen=True)
class ExponentialParts:
    """e^x = mantissa * 2^exponent, mantissa in [sqrt(2)/2, sqrt(2)], exponent an i32."""

    mantissa: SSAValue
    exponent: SSAValue


def exponential_parts(
    b: ArithBuilder, x: SSAValue, x_lo: SSAValue | None = None
) -> ExponentialParts:
    """e^(x + x_lo) as 2^k e^r: k = rint(x / ln 2), r = x - k ln 2 (Cody-Waite, two parts) + x_lo.

    e^r = 1 + r + r^2 q(r).  x is first clamped to [-104, 90], beyond which
    e^x (and e^x/2) is 0 or infinity anyway; `x_lo` (|x_lo| << ulp(x))
    extends x's precision.
    """
    x = clamp_keeping_nan(b, x, -104.0, 90.0)
    k = round_to_integer(b, b.mul(x, LOG2_E))
    r = b.sub(b.sub(x, b.mul(k, LN2_HI)), b.mul(k, LN2_LO))
    if x_lo is not None:
        r = b.add(r, x_lo)
    tail = b.mul(b.mul(r, r), b.polynomial(r, EXP_COEFFICIENTS))
    return ExponentialParts(b.add(b.add(r, tail), 1.0), b.to_int(k))


class ExpandExp(MathExpansion):
    """exp(x) = 2^k e^r, k = rint(x / ln 2), r = x - k ln 2 (`exponential_parts`)."""

    op_type = math.ExpOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        parts = exponential_parts(b, operands[0])
        return scale_by_power_of_two(b, parts.mantissa, parts.exponent)


EXP2_COEFFICIENTS = (
    float.fromhex("0x1.62e43p-1"),
    float.fromhex("0x1.ebfbdep-3"),
    float.fromhex("0x1.c6af6ep-5"),
    float.fromhex("0x1.3b2bap-7"),
    float.fromhex("0x1.5f07b4p-10"),
    float.fromhex("0x1.4308e2p-13"),
)
"""p(r) ~ (2^r - 1) / r on |r| <= 1/2."""


def power_of_two_parts(
    b: ArithBuilder, x: SSAValue, x_lo: SSAValue | None = None
) -> ExponentialParts:
    """2^(x + x_lo) as 2^k 2^r: k = rint(x), r = (x - k) + x_lo, 2^r = 1 + r p(r).

    x is clamped to [-160, 130] (the result is 0 or infinity beyond);
    x - k is exact.
    """
    x = clamp_keeping_nan(b, x, -160.0, 130.0)
    k = round_to_integer(b, x)
    r = b.sub(x, k)
    if x_lo is not None:
        r = b.add(r, x_lo)
    mantissa = b.add(b.mul(r, b.polynomial(r, EXP2_COEFFICIENTS)), 1.0)
    return ExponentialParts(mantissa, b.to_int(k))


class ExpandExp2(MathExpansion):
    """2^x = 2^k 2^r, k = rint(x), r = x - k exactly; 2^r = 1 + r p(r) on |r| <= 1/2."""

    op_type = math.Exp2Op

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        parts = power_of_two_parts(b, operands[0])
        return scale_by_power_of_two(b, parts.mantissa, parts.exponent)


class ExpandLog(MathExpansion):
    """log(x) = k ln 2 + log(m) with x = m 2^k, m in [sqrt(2)/2, sqrt(2)) (fdlibm's logf).

    log(m) = f - (f^2/2 - s (f^2/2 + R(s))) with f = m - 1, s = f / (2 + f);
    for m close to 1 the form f - s (f - R) is the more accurate and is
    selected.  k ln 2 is added in two parts.
    """

    op_type = math.LogOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        normalized = normalize(b, x)
        f = b.sub(normalized.mantissa, 1.0)
        s, polynomial, half_square = log1p_kernel(b, f)
        k = b.to_float(normalized.exponent, f32)
        k_lo = b.mul(k, LN2_LO)
        k_hi = b.mul(k, LN2_HI)
        wide = b.sub(
            k_hi,
            b.sub(b.sub(half_square, b.add(b.mul(s, b.add(half_square, polynomial)), k_lo)), f),
        )
        narrow = b.sub(k_hi, b.sub(b.sub(b.mul(s, b.sub(f, polynomial)), k_lo), f))
        mantissa_bits = b.andi(b.bits(normalized.mantissa), 0x007FFFFF)
        use_wide = b.compare_int(
            "sgt",
            b.ori(b.subi(mantissa_bits, 0x30A3D0), b.subi(0x35C288, mantissa_bits)),
            0,
        )
        return log_special_cases(b, x, b.select(use_wide, wide, narrow))


@dataclass(frozen=True)
class ScaledLogarithm:
    """log_base(x) = k log_base(2) + log(m) / ln(base), with the constants split in hi/lo."""

    inverse_ln_hi: float
    inverse_ln_lo: float
    log_of_two_hi: float
    log_of_two_lo: float

    def build(self, b: ArithBuilder, x: SSAValue) -> SSAValue:
        """fdlibm's log2f/log10f: log(m) = hi + lo exactly enough, hi with 12 bits."""
        normalized = normalize(b, x, split=0x4AFB0D)
        f = b.sub(normalized.mantissa, 1.0)
        s, polynomial, half_square = log1p_kernel(b, f)
        r = b.mul(s, b.add(half_square, polynomial))
        hi = high_part(b, b.sub(f, half_square))
        lo = b.add(b.sub(b.sub(f, hi), half_square), r)
        k = b.to_float(normalized.exponent, f32)
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
    """log2(x) = k + log(m) / ln 2 (fdlibm's log2f), 1/ln 2 split into 12 + 24 bits."""

    op_type = math.Log2Op

    LOG2 = ScaledLogarithm(float.fromhex("0x1.714p+0"), float.fromhex("0x1.47652cp-12"), 1.0, 0.0)

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        return self.LOG2.build(b, operands[0])


class ExpandLog10(MathExpansion):
    """log10(x) = k log10(2) + log(m) / ln 10 (fdlibm's log10f)."""

    op_type = math.Log10Op

    LOG10 = ScaledLogarithm(
        float.fromhex("0x1.bcap-2"),
        float.fromhex("0x1.7b1526p-14"),
        float.fromhex("0x1.344p-2"),
        float.fromhex("0x1.3509f8p-18"),
    )

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        return self.LOG10.build(b, operands[0])


class ExpandLog1p(MathExpansion):
    """log1p(x) = k ln 2 + log(m) with 1 + x = m 2^k (fdlibm's log1pf).

    The rounding error of u = 1 + x is kept as a correction c = (x - (u - 1))/u
    (or (1 - (u - x))/u when k > 0), so small x lose nothing; when 1 + x is
    already in [sqrt(2)/2, sqrt(2)), f = x exactly and k = 0.
    """

    op_type = math.Log1pOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        u = b.add(x, 1.0)
        u_bits = b.bits(u)
        k = b.subi(b.shrsi(u_bits, 23), 127)
        correction = b.select(
            b.compare_int("sgt", k, 0), b.sub(1.0, b.sub(u, x)), b.sub(x, b.sub(u, 1.0))
        )
        correction = b.div(correction, u)
        mantissa_bits = b.andi(u_bits, 0x007FFFFF)
        below_sqrt2 = b.compare_int("slt", mantissa_bits, 0x3504F4)
        u_normal = b.bitcast(
            b.ori(
                mantissa_bits,
                b.select(
                    below_sqrt2,
                    b.constant(0x3F800000, u_bits.type),
                    b.constant(0x3F000000, u_bits.type),
                ),
            ),
            f32,
        )
        k = b.select(below_sqrt2, k, b.addi(k, 1))
        near_one = b.andi(
            b.compare("olt", x, float.fromhex("0x1.a827a0p-2")),
            b.compare("oge", x, float.fromhex("-0x1.2bec32p-2")),
        )
        f = b.select(near_one, x, b.sub(u_normal, 1.0))
        k = b.select(near_one, b.constant(0, k.type), k)
        correction = b.select(near_one, 0.0, correction)
        s, polynomial, half_square = log1p_kernel(b, f)
        k_float = b.to_float(k, f32)
        result = b.sub(
            b.mul(k_float, LN2_HI),
            b.sub(
                b.sub(
                    half_square,
                    b.add(
                        b.mul(s, b.add(half_square, polynomial)),
                        b.add(b.mul(k_float, LN2_LO), correction),
                    ),
                ),
                f,
            ),
        )
        # inf, NaN and ±0 are their own log1p.
        result = b.select(b.ori(b.compare("ueq", x, INF), b.compare("oeq", x, 0.0)), x, result)
        result = b.select(b.compare("olt", x, -1.0), NAN, result)
        return b.select(b.compare("oeq", x, -1.0), -INF, result)


class ExpandExpm1(MathExpansion):
    """expm1(x) = 2^k (expm1(r) + 1) - 1, r = x - k ln 2 and its rounding error (fdlibm's expm1f).

    expm1(r) comes from a rational form in r^2/2 with two coefficients; how
    the 2^k is folded in depends on k (k = 0, -1, 1, [2, 22], [23, 56],
    else), each form avoiding the cancellation of the others.  x is clamped
    to [-25, 89], beyond which the result is -1 or infinity anyway.
    """

    op_type = math.ExpM1Op

    COEFFICIENTS = (float.fromhex("-0x1.1110dp-5"), float.fromhex("0x1.9e602p-10"))
    """fdlibm's Q1, Q2."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = clamp_keeping_nan(b, operands[0], -25.0, 89.0)
        k = round_to_integer(b, b.mul(x, LOG2_E))
        hi = b.sub(x, b.mul(k, LN2_HI))
        lo = b.mul(k, LN2_LO)
        r = b.sub(hi, lo)
        c = b.sub(b.sub(hi, r), lo)
        half_r = b.mul(r, 0.5)
        r_half_square = b.mul(r, half_r)
        r1 = b.add(b.mul(r_half_square, b.polynomial(r_half_square, self.COEFFICIENTS)), 1.0)
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
        inverse = power_of_two(b, b.subi(0, small_k))
        middle = scale_by_power_of_two(b, b.sub(b.sub(1.0, inverse), b.sub(e, r)), k_int)
        high = scale_by_power_of_two(b, b.add(b.sub(r, b.add(e, inverse)), 1.0), k_int)
        result = b.select(b.compare_int("slt", k_int, 23), middle, high)
        far_k = b.ori(b.compare_int("sle", k_int, -2), b.compare_int("sgt", k_int, 56))
        result = b.select(far_k, far, result)
        result = b.select(b.compare_int("eq", k_int, 1), k_is_one, result)
        result = b.select(b.compare_int("eq", k_int, -1), k_is_minus_one, result)
        return b.select(b.compare_int("eq", k_int, 0), k_is_zero, result)


class ExpandTanh(MathExpansion):
    """tanh x = x + x^3 T(x^2) for |x| < 0.625; beyond, 1 - 2/(expm1(2|x|) + 2) with x's sign.

    Large |x| and infinity give exactly ±1 (fdlibm's tanhf, with the small
    range by a polynomial rather than by expm1, which is more accurate).
    """

    op_type = math.TanhOp

    COEFFICIENTS = (
        float.fromhex("-0x1.555556p-2"),
        float.fromhex("0x1.1110eap-3"),
        float.fromhex("-0x1.ba08c6p-5"),
        float.fromhex("0x1.64a992p-6"),
        float.fromhex("-0x1.116abcp-7"),
        float.fromhex("0x1.2c8666p-9"),
    )
    """T(z) ~ (tanh x - x)/x^3, z = x^2, |x| < 0.625."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        magnitude = absolute(b, x)
        z = b.mul(x, x)
        small = b.add(x, b.mul(b.mul(x, z), b.polynomial(z, self.COEFFICIENTS)))
        t = b.call(math.ExpM1Op, b.add(magnitude, magnitude))
        large = copy_sign_bit(b, b.sub(1.0, b.div(2.0, b.add(t, 2.0))), x)
        return keep_zero(b, x, b.select(b.compare("olt", magnitude, 0.625), small, large))


class ExpandSinh(MathExpansion):
    """sinh x = x + x^3 S(x^2) for |x| < 1; h (t + t/(t+1)), t = expm1|x|, h = ±1/2, below 9.

    Beyond 9, ±e^|x|/2 (`half_exponential`), finite up to the true overflow
    threshold (after fdlibm's sinhf, with the small range by a polynomial).
    """

    op_type = math.SinhOp

    COEFFICIENTS = (
        float.fromhex("0x1.555556p-3"),
        float.fromhex("0x1.111112p-7"),
        float.fromhex("0x1.a01a12p-13"),
        float.fromhex("0x1.71d218p-19"),
        float.fromhex("0x1.b553eap-26"),
    )
    """S(z) ~ (sinh x - x)/x^3, z = x^2, |x| <= 1 (relative error 1.9e-12)."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        magnitude = absolute(b, x)
        z = b.mul(x, x)
        below_one = b.add(x, b.mul(b.mul(x, z), b.polynomial(z, self.COEFFICIENTS)))
        t = b.call(math.ExpM1Op, at_most(b, magnitude, 9.0))
        below_nine = b.mul(b.add(t, b.div(t, b.add(t, 1.0))), 0.5)
        large = b.select(
            b.compare("olt", magnitude, 9.0), below_nine, half_exponential(b, magnitude)
        )
        return b.select(b.compare("olt", magnitude, 1.0), below_one, copy_sign_bit(b, large, x))


class ExpandCosh(MathExpansion):
    """cosh(x) = 1 + t^2/(2(1+t)), t = expm1|x|, near 0; E + 1/(4E) below 9; E above; E = e^|x|/2.

    E comes from `half_exponential`, finite up to the true overflow
    threshold (after fdlibm's coshf).
    """

    op_type = math.CoshOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        magnitude = absolute(b, operands[0])
        t = b.call(math.ExpM1Op, at_most(b, magnitude, 0.5))
        w = b.add(t, 1.0)
        near_zero = b.add(b.div(b.mul(t, t), b.add(w, w)), 1.0)
        half = half_exponential(b, magnitude)
        moderate = b.add(half, b.div(0.25, half))
        return b.select(
            b.compare("olt", magnitude, float.fromhex("0x1.62e42ep-2")),
            near_zero,
            b.select(b.compare("olt", magnitude, 9.0), moderate, half),
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
    ln2 = b.constant(float.fromhex("0x1.62e43p-1"), x.type)
    return b.add(logarithm, b.select(huge, ln2, b.constant(0.0, x.type)))


class ExpandAtanh(MathExpansion):
    """atanh x = x + x^3 A(x^2) for |x| < 1/2; log1p(2|x|/(1 - |x|))/2 with x's sign above.

    |x| = 1 gives infinity, |x| > 1 NaN (after fdlibm's atanhf, with the
    small range by a polynomial).
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
        z = b.mul(x, x)
        small = b.add(x, b.mul(b.mul(x, z), b.polynomial(z, self.COEFFICIENTS)))
        twice = b.add(magnitude, magnitude)
        large = b.mul(b.call(math.Log1pOp, b.div(twice, b.sub(1.0, magnitude))), 0.5)
        large = b.select(b.compare("ogt", magnitude, 1.0), NAN, large)
        return b.select(b.compare("olt", magnitude, 0.5), small, copy_sign_bit(b, large, x))


TWO_OVER_PI_WORDS = (
    0x00000000,
    0xA2F9836E,
    0x4E441529,
    0xFC2757D1,
    0xF534DDC0,
    0xDB629599,
    0x3C439041,
    0xFE5163AB,
)
"""2/pi in binary, 32 bits a word, after one word of zeros (2/pi = 0.A2F9836E...)."""

HALF_PI_OVER_2_62 = (float.fromhex("0x1.921fb6p-62"), float.fromhex("-0x1.777a5cp-87"))
"""(pi/2) 2^-62 as f32 hi + lo: the value of one unit of the fixed-point reduced argument."""


@dataclass(frozen=True)
class Reduced:
    """x = n pi/2 + r with r = hi + lo in [-pi/4, pi/4]; n is i32 (only n mod 4 matters)."""

    quadrant: SSAValue
    hi: SSAValue
    lo: SSAValue


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


def reduce_by_half_pi(b: ArithBuilder, x: SSAValue) -> Reduced:
    """Payne-Hanek reduction of any finite f32 x, exact to 2^-62 units of pi/2.

    |x| = m 2^e with m a 24-bit integer.  The 96 bits of 2/pi from bit e - 1
    on (earlier bits only add multiples of 4 to x 2/pi) are gathered from
    `TWO_OVER_PI_WORDS` and multiplied by m in 64-bit integer arithmetic,
    leaving x 2/pi mod 4 as a fixed-point number with 62 fraction bits: the
    nearest integer is the quadrant, the rest (times pi/2) is r.  |x| < 1/2
    is its own reduction (n = 0, r = x); a negative x reduces as -|x|.
    """
    i64 = same_shape_as(x.type, IntegerType(64))
    magnitude_bits = b.andi(b.bits(x), ~SIGN_MASK)
    mantissa = b.extui(b.ori(b.andi(magnitude_bits, 0x007FFFFF), 0x00800000), IntegerType(64))
    # e = biased exponent - 150; bit e - 1 of 2/pi sits at position e + 30 of the words.
    position = b.addi(b.shrsi(magnitude_bits, 23), 30 - 150)
    word_index = b.shrsi(position, 5)
    shift = b.extui(b.andi(position, 31), IntegerType(64))
    is_index = [b.compare_int("eq", word_index, j) for j in range(4)]

    def word(k: int) -> SSAValue:
        """`TWO_OVER_PI_WORDS[word_index + k]`, word_index in [0, 4]."""
        result = b.constant(TWO_OVER_PI_WORDS[k + 4], i64)
        for j in reversed(range(4)):
            result = b.select(is_index[j], b.constant(TWO_OVER_PI_WORDS[k + j], i64), result)
        return result

    words = [word(k) for k in range(4)]

    def window(k: int) -> SSAValue:
        """32 bits of 2/pi from bit `position + 32 k` of the words."""
        pair = b.ori(b.shli(words[k], 32), words[k + 1])
        return b.shrui(b.shli(pair, shift), 32)

    products = [b.muli(mantissa, window(k)) for k in range(3)]
    fixed = b.addi(b.addi(b.shli(products[0], 32), products[1]), b.shrui(products[2], 32))
    quadrant = b.shrui(b.addi(fixed, 1 << 61), 62)
    fraction = b.subi(fixed, b.shli(quadrant, 62))
    fraction_hi = b.to_float(fraction, f32)
    fraction_lo = b.to_float(b.subi(fraction, b.to_int(fraction_hi, IntegerType(64))), f32)
    unit_hi, unit_lo = HALF_PI_OVER_2_62
    product, error = two_product(b, fraction_hi, b.constant(unit_hi, x.type))
    error = b.add(error, b.add(b.mul(fraction_hi, unit_lo), b.mul(fraction_lo, unit_hi)))
    hi = b.add(product, error)
    lo = b.sub(error, b.sub(hi, product))

    magnitude = b.bitcast(magnitude_bits, f32)
    small = b.compare("olt", magnitude, 0.5)
    quadrant = b.trunci(quadrant, IntegerType(32))
    quadrant = b.select(small, b.constant(0, quadrant.type), quadrant)
    hi = b.select(small, magnitude, hi)
    lo = b.select(small, 0.0, lo)
    negative = b.compare_int("slt", b.bits(x), 0)
    return Reduced(
        b.select(negative, b.subi(0, quadrant), quadrant),
        b.select(negative, b.neg(hi), hi),
        b.select(negative, b.neg(lo), lo),
    )


@dataclass(frozen=True)
class SineCosine:
    """sin r and cos r for a reduced r = hi + lo, |r| <= pi/4."""

    sine: SSAValue
    cosine: SSAValue


SINE_COEFFICIENTS = (
    float.fromhex("-0x1.555556p-3"),
    float.fromhex("0x1.11110ep-7"),
    float.fromhex("-0x1.a01398p-13"),
    float.fromhex("0x1.6db994p-19"),
)
"""S(z) ~ (sin r - r)/r^3, z = r^2, |r| <= pi/4."""

COSINE_COEFFICIENTS = (
    float.fromhex("0x1.555556p-5"),
    float.fromhex("-0x1.6c16cp-10"),
    float.fromhex("0x1.a015bcp-16"),
    float.fromhex("-0x1.2521c2p-22"),
)
"""C(z) ~ (cos r - 1 + r^2/2)/r^4, z = r^2, |r| <= pi/4."""


def sine_and_cosine(b: ArithBuilder, reduced: Reduced) -> SineCosine:
    """sin r = r + r^3 S(r^2) + lo; cos r = (1 - r^2/2) + r^4 C(r^2) - r lo, compensated."""
    r, lo = reduced.hi, reduced.lo
    z = b.mul(r, r)
    sine = b.add(r, b.add(b.mul(b.mul(r, z), b.polynomial(z, SINE_COEFFICIENTS)), lo))
    half_z = b.mul(z, 0.5)
    w = b.sub(1.0, half_z)
    tail = b.sub(b.mul(b.mul(z, z), b.polynomial(z, COSINE_COEFFICIENTS)), b.mul(r, lo))
    cosine = b.add(w, b.add(b.sub(b.sub(1.0, w), half_z), tail))
    return SineCosine(sine, cosine)


def by_quadrant(
    b: ArithBuilder, quadrant: SSAValue, even: SSAValue, odd: SSAValue, shift: int
) -> SSAValue:
    """`even` in even quadrants, `odd` in odd ones, negated where bit 1 of quadrant + shift is 1."""
    value = b.select(b.compare_int("eq", b.andi(quadrant, 1), 0), even, odd)
    sign = b.shli(b.andi(b.addi(quadrant, shift), 2), 30)
    return b.bitcast(b.xori(b.bits(value), sign), f32)


def trigonometric_special_cases(b: ArithBuilder, x: SSAValue, result: SSAValue) -> SSAValue:
    """NaN for an infinite or NaN x (`ueq` holds for NaN too)."""
    return b.select(b.compare("ueq", absolute(b, x), INF), NAN, result)


class ExpandSin(MathExpansion):
    """sin x = ±sin r or ±cos r by quadrant, after exact Payne-Hanek reduction x = n pi/2 + r.

    Accurate over the whole f32 range, as CUDA's sinf is.
    """

    op_type = math.SinOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        reduced = reduce_by_half_pi(b, x)
        values = sine_and_cosine(b, reduced)
        result = by_quadrant(b, reduced.quadrant, values.sine, values.cosine, 0)
        return keep_zero(b, x, trigonometric_special_cases(b, x, result))


class ExpandCos(MathExpansion):
    """cos x = ±cos r or ±sin r by quadrant, after exact Payne-Hanek reduction x = n pi/2 + r."""

    op_type = math.CosOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        reduced = reduce_by_half_pi(b, x)
        values = sine_and_cosine(b, reduced)
        result = by_quadrant(b, reduced.quadrant, values.cosine, values.sine, 1)
        return trigonometric_special_cases(b, x, result)


class ExpandTan(MathExpansion):
    """tan x = tan r in even quadrants, -1/tan r in odd ones, x = n pi/2 + r (Payne-Hanek).

    tan r = r + r^3 T(r^2) + lo (1 + tan^2 r) on |r| <= pi/4.
    """

    op_type = math.TanOp

    COEFFICIENTS = (
        float.fromhex("0x1.555556p-2"),
        float.fromhex("0x1.111084p-3"),
        float.fromhex("0x1.ba5382p-5"),
        float.fromhex("0x1.622f6ap-6"),
        float.fromhex("0x1.46d34cp-7"),
        float.fromhex("0x1.31d268p-10"),
        float.fromhex("0x1.f92cfep-9"),
    )
    """T(z) ~ (tan r - r)/r^3, z = r^2, |r| <= pi/4."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        reduced = reduce_by_half_pi(b, x)
        r = reduced.hi
        z = b.mul(r, r)
        cube_term = b.mul(b.mul(r, z), b.polynomial(z, self.COEFFICIENTS))
        tangent = b.add(r, cube_term)
        correction = b.mul(reduced.lo, b.add(b.mul(tangent, tangent), 1.0))
        tangent = b.add(r, b.add(cube_term, correction))
        odd = b.compare_int("ne", b.andi(reduced.quadrant, 1), 0)
        result = b.select(odd, b.div(-1.0, tangent), tangent)
        return trigonometric_special_cases(b, x, result)


HALF_PI = (float.fromhex("0x1.921fb6p+0"), float.fromhex("-0x1.777a5cp-25"))
PI = (float.fromhex("0x1.921fb6p+1"), float.fromhex("-0x1.777a5cp-24"))
QUARTER_PI_HI = float.fromhex("0x1.921fb6p-1")


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


class ExpandAtan(MathExpansion):
    """atan|x| = atan(c) + atan((|x| - c)/(1 + c|x|)), c in {0, 1/2, 1, 3/2, inf} (fdlibm's atanf).

    The interval of |x| (bounds 7/16, 11/16, 19/16, 39/16) picks c so that
    |t| <= 7/16; atan t = t + t^3 A(t^2); atan(c) is added in two parts.
    The sign is copied from x.
    """

    op_type = math.AtanOp

    COEFFICIENTS = (
        float.fromhex("-0x1.555554p-2"),
        float.fromhex("0x1.99960cp-3"),
        float.fromhex("-0x1.23fa9ap-3"),
        float.fromhex("0x1.b50bacp-4"),
        float.fromhex("-0x1.fd8b6p-5"),
    )
    """A(z) ~ (atan t - t)/t^3, z = t^2, |t| <= 7/16."""

    BASES = (
        (float.fromhex("0x1.dac67p-2"), float.fromhex("0x1.586ed4p-28")),
        (float.fromhex("0x1.921fb6p-1"), float.fromhex("-0x1.777a5cp-26")),
        (float.fromhex("0x1.f730bep-1"), float.fromhex("-0x1.afc12cp-26")),
        HALF_PI,
    )
    """atan(1/2), atan(1), atan(3/2), atan(inf) as hi + lo."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        a = absolute(b, x)
        reached = [b.compare("oge", a, bound) for bound in (7 / 16, 11 / 16, 19 / 16, 39 / 16)]
        numerator = select_by_thresholds(
            b, reached, [a, b.sub(b.add(a, a), 1.0), b.sub(a, 1.0), b.sub(a, 1.5), -1.0], a
        )
        denominator = select_by_thresholds(
            b, reached, [1.0, b.add(a, 2.0), b.add(a, 1.0), b.add(b.mul(a, 1.5), 1.0), a], a
        )
        t = b.div(numerator, denominator)
        z = b.mul(t, t)
        cubic = b.mul(b.mul(t, z), b.polynomial(z, self.COEFFICIENTS))
        base_hi = select_by_thresholds(b, reached, [0.0, *(hi for hi, _ in self.BASES)], a)
        base_lo = select_by_thresholds(b, reached, [0.0, *(lo for _, lo in self.BASES)], a)
        result = b.sub(base_hi, b.sub(b.sub(b.neg(cubic), base_lo), t))
        return copy_sign_bit(b, result, x)


class ExpandAtan2(MathExpansion):
    """atan2(y, x) from a = atan(min(|x|,|y|) / max(|x|,|y|)) in [0, pi/4].

    By octant: a, pi/2 - a, pi - a or pi/2 + a (the constant added in two
    parts), with the sign of y.  Both zero gives 0 or pi, both infinite
    pi/4 or 3pi/4, as C99 says; a NaN propagates.
    """

    op_type = math.Atan2Op

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        y, x = operands
        ay, ax = absolute(b, y), absolute(b, x)
        swapped = b.compare("ogt", ay, ax)
        big = b.select(swapped, ay, ax)
        small = b.select(swapped, ax, ay)
        ratio = b.div(small, big)
        ratio = b.select(b.compare("oeq", big, 0.0), 0.0, ratio)
        ratio = b.select(b.compare("oeq", small, INF), 1.0, ratio)
        a = b.call(math.AtanOp, ratio)
        x_negative = b.compare_int("slt", b.bits(x), 0)
        subtract = b.xori(swapped, x_negative)
        signed = b.select(subtract, b.neg(a), a)
        base_hi, base_lo = (
            b.select(
                swapped,
                half_pi,
                b.select(x_negative, pi, 0.0, like=a),
                like=a,
            )
            for half_pi, pi in zip(HALF_PI, PI, strict=True)
        )
        result = copy_sign_bit(b, b.add(base_hi, b.add(signed, base_lo)), y)
        # A NaN operand may hide behind the zero and infinity cases above.
        return b.select(b.compare("uno", x, y), b.add(x, y), result)


ARCSINE_COEFFICIENTS = (
    float.fromhex("0x1.555554p-3"),
    float.fromhex("0x1.33343cp-4"),
    float.fromhex("0x1.6d58d6p-5"),
    float.fromhex("0x1.fdcf9p-6"),
    float.fromhex("0x1.17c6aap-6"),
    float.fromhex("0x1.14f7ap-5"),
)
"""P(z) ~ (asin u - u)/u^3, z = u^2 <= 1/4: asin u = u + u z P(z)."""


def arcsine_tail(b: ArithBuilder, z: SSAValue) -> SSAValue:
    """R(z) = z P(z), so that asin u = u + u R(u^2) for u <= 1/2."""
    return b.mul(z, b.polynomial(z, ARCSINE_COEFFICIENTS))


@dataclass(frozen=True)
class HalfAngleRoot:
    """s = sqrt(z) for z = (1 - |x|)/2, with s = high + correction to about 36 bits."""

    root: SSAValue
    high: SSAValue
    correction: SSAValue


def half_angle_root(b: ArithBuilder, z: SSAValue) -> HalfAngleRoot:
    """sqrt(z) and its split: high has 12 bits, correction = (z - high^2)/(s + high)."""
    root = b.call(math.SqrtOp, z)
    high = high_part(b, root)
    correction = b.div(b.sub(z, b.mul(high, high)), b.add(root, high))
    correction = b.select(b.compare("oeq", z, 0.0), 0.0, correction)
    return HalfAngleRoot(root, high, correction)


class ExpandAsin(MathExpansion):
    """asin x = x + x R(x^2) for |x| < 1/2; pi/2 - 2 asin(sqrt((1 - |x|)/2)) above (fdlibm's asinf).

    The square root is split in a 12-bit head and a correction so the
    subtraction from pi/2 loses nothing; |x| > 1 gives NaN.
    """

    op_type = math.AsinOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        a = absolute(b, x)
        small = b.compare("olt", a, 0.5)
        z = b.select(small, b.mul(a, a), b.mul(b.sub(1.0, a), 0.5))
        tail = arcsine_tail(b, z)
        near_zero = b.add(a, b.mul(a, tail))
        root = half_angle_root(b, z)
        p = b.sub(
            b.mul(b.add(root.root, root.root), tail),
            b.sub(HALF_PI[1], b.add(root.correction, root.correction)),
        )
        q = b.sub(QUARTER_PI_HI, b.add(root.high, root.high))
        near_one = b.sub(QUARTER_PI_HI, b.sub(p, q))
        result = b.select(small, near_zero, near_one)
        result = b.select(b.compare("ogt", a, 1.0), NAN, result)
        return copy_sign_bit(b, result, x)


class ExpandAcos(MathExpansion):
    """acos x = pi/2 - (x + x R(x^2)) for |x| < 1/2; 2 asin(sqrt((1 - x)/2)) for x >= 1/2;

    pi - 2 asin(sqrt((1 + x)/2)) for x <= -1/2 (fdlibm's acosf), with pi/2 and
    pi in two parts; |x| > 1 gives NaN.
    """

    op_type = math.AcosOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        a = absolute(b, x)
        small = b.compare("olt", a, 0.5)
        z = b.select(small, b.mul(x, x), b.mul(b.sub(1.0, a), 0.5))
        tail = arcsine_tail(b, z)
        middle = b.sub(HALF_PI[0], b.sub(x, b.sub(HALF_PI[1], b.mul(x, tail))))
        root = half_angle_root(b, z)
        w = b.add(b.mul(tail, root.root), root.correction)
        positive = b.mul(b.add(root.high, w), 2.0)
        negative = b.sub(
            PI[0], b.mul(b.add(root.root, b.sub(b.mul(tail, root.root), PI[1] * 0.5)), 2.0)
        )
        result = b.select(small, middle, b.select(b.compare("olt", x, 0.0), negative, positive))
        return b.select(b.compare("ogt", a, 1.0), NAN, result)


ERF_ONE = float.fromhex("0x1.af767ap-1")
"""erf(1) to f32 (fdlibm's erx); erf(1) - ERF_ONE is in the polynomial."""

ERF_NEAR_ZERO = (
    float.fromhex("0x1.06eba8p-3"),
    float.fromhex("-0x1.812746p-2"),
    float.fromhex("0x1.ce2eb8p-4"),
    float.fromhex("-0x1.b81ed2p-6"),
    float.fromhex("0x1.55758p-8"),
    float.fromhex("-0x1.b0e42ap-11"),
    float.fromhex("0x1.752d46p-14"),
)
"""y(z) ~ erf(x)/x - 1, z = x^2, |x| < 0.84375 (absolute error 1.3e-10)."""

ERF_NEAR_ONE = (
    float.fromhex("0x1.cedd9cp-27"),
    float.fromhex("0x1.a911fp-2"),
    float.fromhex("-0x1.a911eep-2"),
    float.fromhex("0x1.1b60ap-3"),
    float.fromhex("0x1.1b5f22p-4"),
    float.fromhex("-0x1.1b0012p-4"),
    float.fromhex("0x1.293e18p-8"),
    float.fromhex("0x1.ad17acp-7"),
)
"""P(s) ~ erf(1 + s) - ERF_ONE, s in [-0.15625, 0.25] (absolute error 1.2e-10)."""

ERFC_SCALED = (
    (
        float.fromhex("0x1.866666p-2"),
        (
            float.fromhex("0x1.f6995cp-2"),
            float.fromhex("-0x1.1c81f8p-3"),
            float.fromhex("0x1.6d2f2ep-4"),
            float.fromhex("-0x1.3d31a8p-4"),
            float.fromhex("0x1.4691aap-4"),
            float.fromhex("-0x1.68d36ep-4"),
            float.fromhex("0x1.b1dfdcp-4"),
            float.fromhex("-0x1.ad527ep-3"),
            float.fromhex("0x1.47509p-2"),
        ),
    ),
    (
        float.fromhex("0x1.0ef4dap-4"),
        (
            float.fromhex("0x1.182154p-1"),
            float.fromhex("-0x1.e50afcp-3"),
            float.fromhex("0x1.1d8856p-2"),
            float.fromhex("-0x1.00bd62p-1"),
            float.fromhex("0x1.2adbc4p+0"),
            float.fromhex("-0x1.beeb3ep+1"),
            float.fromhex("0x1.72a1b6p+3"),
        ),
    ),
)
"""g(u) ~ a e^(a^2) erfc(a), u = 1/a^2, as polynomials in u - center for a in
[1.25, 1/0.35] and [1/0.35, 10.1] (relative errors 2e-8 and 2.2e-9)."""


@dataclass(frozen=True)
class ErrorFunction:
    """erf and erfc of x pieced together from three ranges of |x| (after fdlibm's erff).

    * |x| < 0.84375: erf = x + x y(x^2);
    * |x| < 1.25: erf = erf(1) + P(|x| - 1);
    * beyond: erfc = e^(-a^2) g(1/a^2) / a, with a^2 exact in two parts, both
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
    a = absolute(b, x)
    near_zero_tail = b.mul(x, b.polynomial(b.mul(x, x), ERF_NEAR_ZERO))
    near_one = b.polynomial(b.sub(a, 1.0), ERF_NEAR_ONE)
    bounded = at_most(b, b.select(b.compare("olt", a, 1.25), 1.25, a), 10.1)
    u = b.div(1.0, b.mul(bounded, bounded))
    middle_center, middle = ERFC_SCALED[0]
    far_center, far = ERFC_SCALED[1]
    scaled = b.select(
        b.compare("olt", bounded, 1 / 0.35),
        b.polynomial(b.sub(u, middle_center), middle),
        b.polynomial(b.sub(u, far_center), far),
    )
    square, square_error = two_product(b, bounded, bounded)
    exponential = exponential_parts(b, b.neg(square), b.neg(square_error))
    far_complement = scale_by_power_of_two(
        b, b.mul(exponential.mantissa, b.div(scaled, bounded)), exponential.exponent
    )
    far_complement = b.select(b.compare("ogt", a, 10.1), 0.0, far_complement)
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
        outer = b.select(e.is_near_one, b.add(e.near_one, ERF_ONE), b.sub(1.0, e.far_complement))
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
        positive = b.select(e.is_near_one, b.sub(1.0 - ERF_ONE, e.near_one), e.far_complement)
        negative = b.select(
            e.is_near_one, b.add(b.add(e.near_one, ERF_ONE), 1.0), b.sub(2.0, e.far_complement)
        )
        outer = b.select(b.compare("olt", x, 0.0), negative, positive)
        return b.select(e.is_near_zero, near_zero, outer)


TWO_OVER_LN2 = (float.fromhex("0x1.714p+1"), float.fromhex("0x1.47652cp-11"))
"""2/ln 2 as a 12-bit head and an f32 tail."""

TWO_OVER_3_LN2 = (float.fromhex("0x1.ec6p-1"), float.fromhex("0x1.09dc3ap-13"))
"""2/(3 ln 2) as a 12-bit head and an f32 tail."""

LOG2_ODD_COEFFICIENTS = (
    float.fromhex("0x1.2776c6p-1"),
    float.fromhex("0x1.a617c8p-2"),
    float.fromhex("0x1.4808dap-2"),
    float.fromhex("0x1.1a7d5ap-2"),
)
"""Q(z) ~ (log2((1+s)/(1-s)) - 2s/ln 2 - 2s^3/(3 ln 2))/s^5, z = s^2, |s| <= 0.1716."""


def fast_two_sum(b: ArithBuilder, big: SSAValue, small: SSAValue) -> tuple[SSAValue, SSAValue]:
    """big + small as hi + lo exactly, for |big| >= |small| or big = 0."""
    total = b.add(big, small)
    return total, b.sub(small, b.sub(total, big))


def extended_log2(b: ArithBuilder, x: SSAValue) -> tuple[SSAValue, SSAValue]:
    """log2 x as hi + lo to about 34 bits, for finite x > 0.

    x = m 2^k; log2 m = (2/ln 2) atanh s = (2/ln 2)(s + s^3/3) + s^5 Q(s^2)
    with s = (m - 1)/(m + 1) carried as s_hi + s_lo (the division's residual
    computed exactly); the two leading terms are carried in two parts.
    """
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
    linear, linear_error = two_product(b, b.constant(TWO_OVER_LN2[0], x.type), s)
    cubic, cubic_error = two_product(b, b.constant(TWO_OVER_3_LN2[0], x.type), cube)
    tail = b.add(
        b.add(
            # s_lo enters through the derivative of the two leading terms, (2/ln 2)(1 + s^2).
            b.add(
                b.mul(s, TWO_OVER_LN2[1]),
                b.mul(b.mul(s_lo, TWO_OVER_LN2[0]), b.add(square, 1.0)),
            ),
            b.add(b.mul(cube, TWO_OVER_3_LN2[1]), b.mul(cube_error, TWO_OVER_3_LN2[0])),
        ),
        b.mul(b.mul(cube, square), b.polynomial(square, LOG2_ODD_COEFFICIENTS)),
    )
    head, head_lo = fast_two_sum(b, linear, cubic)
    head_lo = b.add(head_lo, b.add(b.add(linear_error, cubic_error), tail))
    head, head_lo2 = fast_two_sum(b, head, head_lo)
    hi, hi_lo = fast_two_sum(b, b.to_float(normalized.exponent, f32), head)
    return hi, b.add(hi_lo, head_lo2)


def positive_power(
    b: ArithBuilder, x: SSAValue, y: SSAValue, y_lo: SSAValue | None = None
) -> SSAValue:
    """x^(y + y_lo) = 2^((y + y_lo) log2 x) for finite x > 0, the product in two parts.

    y is clamped to 2^32 in magnitude: beyond, x^y over- or underflows
    for every x != 1 anyway, and the exact products cannot overflow.
    """
    y = clamp_keeping_nan(b, y, -(2.0**32), 2.0**32)
    log_hi, log_lo = extended_log2(b, x)
    product, product_error = two_product(b, y, log_hi)
    low = b.add(product_error, b.mul(y, log_lo))
    if y_lo is not None:
        low = b.add(low, b.mul(y_lo, log_hi))
    # Clamped (the result over- or underflows), the low part no longer belongs.
    bounded = clamp_keeping_nan(b, product, -160.0, 130.0)
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
    sign = b.select(condition, b.constant(SIGN_MASK, b.bits(x).type), b.constant(0, b.bits(x).type))
    return b.bitcast(b.xori(b.bits(x), sign), f32)


class ExpandPowf(MathExpansion):
    """x^y = 2^(y log2|x|), log2|x| and the product carried in two f32 parts.

    Special cases follow C99 Annex F: x^0 = 1 and 1^y = 1 even for NaN,
    (-1)^±inf = 1, a negative x to a non-integer y is NaN, to an odd integer
    y negative; 0 and infinity to any y, and infinite y, come out exactly.
    """

    op_type = math.PowFOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x, y = operands
        magnitude = absolute(b, x)
        y_magnitude = absolute(b, y)
        integral = b.ori(
            b.compare("oge", y_magnitude, 2.0**23),
            b.compare("oeq", b.call(math.RoundEvenOp, y), y),
        )
        below_2_24 = b.compare("olt", y_magnitude, 2.0**24)
        y_int = b.to_int(b.select(below_2_24, y, 0.0))
        odd = b.andi(b.andi(integral, below_2_24), b.trunci(b.andi(y_int, 1), IntegerType(1)))
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
    """x^n for an integer n = 2^(n log2|x|), n carried as f32 hi + lo so no bit of it is lost.

    The sign comes from n's parity; x^0 = 1 (even for NaN), 0 and infinity
    to the n come out exactly.
    """

    op_type = math.FPowIOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x, n = operands
        wide = b.insert(ExtSIOp(n, same_shape_as(n.type, IntegerType(64))))
        n_hi = b.to_float(wide, f32)
        n_lo = b.to_float(b.subi(wide, b.to_int(n_hi, IntegerType(64))), f32)
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
    """trunc x, keeping x's sign (trunc(-0.5) = -0); |x| >= 2^23, inf and NaN are their own."""
    magnitude = absolute(b, x)
    toward_zero = copy_sign_bit(b, b.to_float(b.to_int(magnitude), f32), x)
    return b.select(b.compare("olt", magnitude, 2.0**23), toward_zero, x)


class ExpandTrunc(MathExpansion):
    """trunc x through an integer conversion where x has a fraction (|x| < 2^23), exact."""

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
    """roundeven x: |x| + 2^23 - 2^23 rounds to the nearest integer, ties to even; exact.

    x's sign is put back (so -0.4 gives -0); |x| >= 2^23, inf and NaN are their own.
    """

    op_type = math.RoundEvenOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        magnitude = absolute(b, x)
        rounded = copy_sign_bit(b, b.sub(b.add(magnitude, 2.0**23), 2.0**23), x)
        return b.select(b.compare("olt", magnitude, 2.0**23), rounded, x)


class ExpandSqrt(MathExpansion):
    """sqrt x, correctly rounded, by exact integer arithmetic on the significand.

    x = N 2^(2e) with N in [2^46, 2^48) (a 24-bit significand shifted by 23 or
    24 bits to make the exponent even); a float estimate of sqrt N is
    corrected to floor(sqrt N) with 64-bit integer squares, and rounded up
    where N - Y^2 > Y (ties cannot occur).  Subnormals are scaled by 2^24
    first; -0, +inf and NaN are their own square roots, x < 0 gives NaN.
    """

    op_type = math.SqrtOp

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

    A polynomial in f times cbrt(2^j), one Newton step, then one correction
    by the residual m - y^3 computed exactly (two-products), which leaves y
    within a hair of half an ulp.  Subnormals are scaled by 2^24 first; the
    sign is x's; 0, infinity and NaN are their own cube roots.
    """

    op_type = math.CbrtOp

    COEFFICIENTS = (
        float.fromhex("0x1.1b0bf4p-1"),
        float.fromhex("0x1.2c99a2p-1"),
        float.fromhex("-0x1.4dc15ap-3"),
        float.fromhex("0x1.7a8a32p-6"),
    )
    """cbrt f ~ P(f) on [1, 2] (relative error 7.3e-5)."""

    ROOTS_OF_TWO = (1.0, float.fromhex("0x1.428a3p+0"), float.fromhex("0x1.965feap+0"))
    """cbrt(2^j) for j = 0, 1, 2."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        magnitude = absolute(b, x)
        subnormal = b.compare("olt", magnitude, 2.0**-126)
        scaled = b.select(subnormal, b.mul(magnitude, 2.0**24), magnitude)
        bits = b.bits(scaled)
        exponent = b.subi(
            b.subi(b.shrsi(bits, 23), 127),
            b.select(subnormal, b.constant(24, bits.type), b.constant(0, bits.type)),
        )
        third = b.subi(b.insert(DivSIOp(b.addi(exponent, 150), b.constant(3, bits.type))), 50)
        j = b.subi(exponent, b.muli(third, 3))
        mantissa_bits = b.andi(bits, 0x007FFFFF)
        f = b.bitcast(b.ori(mantissa_bits, 0x3F800000), f32)
        m = b.bitcast(b.ori(mantissa_bits, b.shli(b.addi(j, 127), 23)), f32)
        root_of_two = select_by_thresholds(
            b,
            [b.compare_int("sge", j, 1), b.compare_int("sge", j, 2)],
            list(self.ROOTS_OF_TWO),
            f,
        )
        y = b.mul(b.polynomial(f, self.COEFFICIENTS), root_of_two)
        y = b.mul(b.add(b.add(y, y), b.div(m, b.mul(y, y))), 1.0 / 3.0)
        square, square_error = two_product(b, y, y)
        cube, cube_error = two_product(b, y, square)
        residual = b.sub(b.sub(m, cube), b.add(cube_error, b.mul(y, square_error)))
        y = b.add(y, b.div(residual, b.mul(square, 3.0)))
        result = copy_sign_bit(b, b.mul(y, power_of_two(b, third)), x)
        special = b.ori(b.compare("oeq", magnitude, 0.0), b.compare("ueq", magnitude, INF))
        return b.select(special, x, result)


# ---------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------

EXPANSIONS: tuple[type[MathExpansion], ...] = (
    ExpandExp,
    ExpandExp2,
    ExpandLog,
    ExpandLog2,
    ExpandLog10,
    ExpandLog1p,
    ExpandExpm1,
    ExpandTanh,
    ExpandSinh,
    ExpandCosh,
    ExpandAsinh,
    ExpandAcosh,
    ExpandAtanh,
    ExpandSin,
    ExpandCos,
    ExpandTan,
    ExpandAtan,
    ExpandAtan2,
    ExpandAsin,
    ExpandAcos,
    ExpandErf,
    ExpandErfc,
    ExpandPowf,
    ExpandFpowi,
    ExpandAbsf,
    ExpandCopysign,
    ExpandTrunc,
    ExpandFloor,
    ExpandCeil,
    ExpandRound,
    ExpandRoundeven,
    ExpandSqrt,
    ExpandRsqrt,
    ExpandCbrt,
)


@dataclass(frozen=True)
class RefuseUnexpandable(RewritePattern):
    """A `math` op the target lacks and no pattern expands is an error naming it."""

    expandable: frozenset[str]
    """Names of the ops that are native or have an expansion."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.dialect_name() == "math" and op.name not in self.expandable:
            short = op.name.removeprefix("math.")
            raise CompileError(
                op,
                f"has no arith expansion; the target must execute it natively "
                f"(expand-math{{native={short}}})",
            )


@dataclass(frozen=True)
class ExpandMathPass(ModulePass):
    """Rewrite the `math` ops a target cannot execute into `arith` code.

    Matches every `math` op whose name (without `math.`) is not in `native`,
    the list of math ops the target's vector unit executes (a property of
    the target; `expand-math{native=sqrt,absf,fma}`).  Produces
    branch-free `arith` code on f32 (f16 and bf16 through f32) with range
    reduction and polynomial approximations, at least as accurate as CUDA's
    libdevice documents for the same function (measured in
    `docs/math-accuracy.md`).

    Refuses, naming the op and its source line: an op with no expansion
    that is not native (`math.fma`, integer ops), and any non-native op on
    f64.  An unknown name in `native` is an error.
    """

    name = "expand-math"

    native: tuple[str, ...] = ()
    """Names of the `math` ops the target executes itself (`sqrt`, `absf`, ...)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        known = {o.name.removeprefix("math.") for o in Math.operations}
        unknown = sorted(set(self.native) - known)
        if unknown:
            raise DiagnosticException(
                f"expand-math: unknown math op(s) {', '.join(unknown)} in native="
                f"{','.join(self.native)}; known: {', '.join(sorted(known))}"
            )
        native = {f"math.{name}" for name in self.native}
        patterns = [p() for p in EXPANSIONS if p.op_type.name not in native]
        expandable = frozenset(native | {p.op_type.name for p in EXPANSIONS})
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [*patterns, RefuseUnexpandable(expandable)], dce_enabled=False
            ),
        ).rewrite_module(op)
