"""The `expand-math` pass: `math` ops the target lacks become `arith` code.

Each pattern expands one `math` op on f32 or f64 with range reduction and a
polynomial, branch-free (every lane computes every path; `arith.select`
picks), using only `arith` ops: no `math.fma`, so the code is exact on a
target without a fused multiply-add, and products that must be exact are
split by masking low mantissa bits.  f16 and bf16 compute through f32.
An expansion may use another `math` op (`asinh` uses `log1p` and `sqrt`);
that op is native or expanded in turn.

One expansion serves both widths: `FloatFormat` gives the exponent and
fraction layout, and each width-dependent constant or polynomial is a
table by width (`by_width`).  Algorithms follow fdlibm / FreeBSD msun
(`expm1`, `log`, `log2`, `log10`, `log1p`, `atan`, `asin`, `acos`, `erf`,
`sinh`, `cosh`, `tanh`, `asinh`, `acosh`, `atanh`); exp reduces by
Cody-Waite, sin, cos and tan by an exact Payne-Hanek reduction in 64-bit
integers (f64: a 192-bit window of 2/pi times the 53-bit significand,
column by column), pow carries log2 x and y log2 x in two parts, and f32
sqrt is correctly rounded by exact integer arithmetic.  f64 erfc scales a
polynomial in 1/a by e^(-a^2) on three pieces.  Where fdlibm's
coefficients were not reused, they were fitted for these expansions
(near-minimax on the reduced interval, relative error stated beside each).
f64 sqrt has no expansion: every target with f64 has a square root.
`bench/math_accuracy.py` measures every expansion on the IR itself;
`docs/math-accuracy.md` has the tables.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from xdsl.context import Context
from xdsl.dialects import math
from xdsl.dialects.arith import DivSIOp
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float16Type,
    Float32Type,
    Float64Type,
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
from tnpu.dialects.arith import ExtSIOp, UIToFPOp
from tnpu.dialects.math import ErfcOp, Math
from tnpu.dialects.shapes import element_type_of, with_element_type
from tnpu.passes.arith_builder import ArithBuilder

T = TypeVar("T")

INF = float("inf")
NAN = float("nan")


@dataclass(frozen=True)
class FloatFormat:
    """What the expansions need to know about the float type they compute in (f32 or f64)."""

    type: Float32Type | Float64Type
    bits: int
    fraction_bits: int
    bias: int
    split_bits: int
    """Low fraction bits `high_part` clears, so that products of two high parts are exact."""

    @property
    def sign_mask(self) -> int:
        """The sign bit as a signed integer constant of the format's width."""
        return -(1 << (self.bits - 1))

    @property
    def fraction_mask(self) -> int:
        return (1 << self.fraction_bits) - 1

    @property
    def one_bits(self) -> int:
        """The bits of 1.0 (the biased zero exponent)."""
        return self.bias << self.fraction_bits

    @property
    def integral(self) -> float:
        """2^fraction_bits: every float of this magnitude or more is an integer."""
        return 2.0**self.fraction_bits

    @property
    def smallest_normal(self) -> float:
        return 2.0 ** (1 - self.bias)


F32 = FloatFormat(Float32Type(), 32, 23, 127, 12)
F64 = FloatFormat(Float64Type(), 64, 52, 1023, 27)


def format_of(x: SSAValue) -> FloatFormat:
    return F64 if isinstance(element_type_of(x.type), Float64Type) else F32


def by_width(x: SSAValue, choices: dict[int, T]) -> T:
    """The constant (or table) of `choices` for the width of `x`'s float type."""
    return choices[format_of(x).bits]


LN2 = {
    32: (float.fromhex("0x1.62e4p-1"), float.fromhex("0x1.7f7d1cp-20")),
    64: (float.fromhex("0x1.62e42fee00000p-1"), float.fromhex("0x1.a39ef35793c76p-33")),
}
"""ln 2 as hi + lo, hi with trailing zeros so that k * hi is exact (|k| < 2^9 in f32, 2^21 in f64)."""
LOG2_E = {32: float.fromhex("0x1.715476p+0"), 64: float.fromhex("0x1.71547652b82fep+0")}


# ---------------------------------------------------------------------------
# Building blocks
# ---------------------------------------------------------------------------


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


@dataclass(frozen=True)
class Normalized:
    """x = m * 2^k with m in [sqrt(2)/2, sqrt(2)), for finite x > 0."""

    mantissa: SSAValue
    exponent: SSAValue
    """k as an integer of the format's width."""


SQRT2_SPLIT = {32: 0x4AFB20, 64: 0x95F619980C433}
"""Added to the fraction bits, carries into the exponent exactly when m >= sqrt(2) (fdlibm's trick)."""


def normalize(b: ArithBuilder, x: SSAValue, split: int | None = None) -> Normalized:
    """Split x > 0 into m * 2^k, m in [sqrt(2)/2, sqrt(2)); subnormals first scaled by 2^(p+2).

    `split` (default `SQRT2_SPLIT`) is added to the fraction bits to carry
    into the exponent when m >= sqrt(2).
    """
    f = format_of(x)
    split = SQRT2_SPLIT[f.bits] if split is None else split
    subnormal = b.compare("olt", x, f.smallest_normal)
    scale = f.fraction_bits + 2
    scaled = b.select(subnormal, b.mul(x, 2.0**scale), x)
    bits = b.bits(scaled)
    bias = b.select(subnormal, b.constant(f.bias + scale, bits.type), b.constant(f.bias, bits.type))
    exponent = b.subi(b.shrsi(bits, f.fraction_bits), bias)
    mantissa_bits = b.andi(bits, f.fraction_mask)
    carry = b.andi(b.addi(mantissa_bits, split), 1 << f.fraction_bits)
    mantissa = b.bitcast(b.ori(mantissa_bits, b.xori(carry, f.one_bits)), f.type)
    return Normalized(mantissa, b.addi(exponent, b.shrsi(carry, f.fraction_bits)))


LOG_POLYNOMIAL = {
    32: (
        float.fromhex("0x1.555554p-1"),
        float.fromhex("0x1.999c26p-2"),
        float.fromhex("0x1.23d3dcp-2"),
        float.fromhex("0x1.f13c4cp-3"),
    ),
    64: (
        float.fromhex("0x1.5555555555555p-1"),
        float.fromhex("0x1.9999999999998p-2"),
        float.fromhex("0x1.2492492492959p-2"),
        float.fromhex("0x1.c71c71c64c8ccp-3"),
        float.fromhex("0x1.745d17d35328cp-3"),
        float.fromhex("0x1.3b137b347f3c2p-3"),
        float.fromhex("0x1.111d273ca8a70p-3"),
        float.fromhex("0x1.debedbffa1d9ep-4"),
        float.fromhex("0x1.e6afc55fa9490p-4"),
    ),
}
"""(log(1+s) - log(1-s))/s ~ 2 + s^2 (c0 + c1 s^2 + ...): f32 fdlibm's Lg1..Lg4 (|error| <
2^-34.24); f64 fitted on s^2 <= (3 - 2 sqrt 2)^2 (relative error 2^-54)."""


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


# ---------------------------------------------------------------------------
# The expansions
# ---------------------------------------------------------------------------


class MathExpansion(RewritePattern, ABC):
    """Replaces one kind of `math` op by `arith` code computed in f32 or f64.

    f16 and bf16 operands are widened to f32 and the result rounded back
    (integer operands, `fpowi`'s exponent, stay as they are); f64 computes in
    f64 where the expansion has an f64 form (`f64`), and is refused, naming
    the op, where it has not.  The new ops carry the location of the op they
    replace.
    """

    op_type: ClassVar[type[Operation]]
    f64: ClassVar[bool] = True
    """Whether `expand` also computes f64 (with f64 constants, `by_width`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.op_type):
            return
        element = element_type_of(op.results[0].type)
        if isinstance(element, Float64Type) and not self.f64:
            raise CompileError(
                op, f"has no arith expansion for f64; the target must execute '{op.name}' natively"
            )
        if not isinstance(element, Float32Type | Float64Type | Float16Type | BFloat16Type):
            raise CompileError(
                op,
                f"has no arith expansion for {element} (only f64, f32, f16 and bf16); "
                f"the target must execute '{op.name}' natively",
            )
        b = ArithBuilder(rewriter, op.location)
        narrow = isinstance(element, Float16Type | BFloat16Type)
        operands = [
            b.convert(x, f32) if narrow and element_type_of(x.type) == element else x
            for x in op.operands
        ]
        result = self.expand(b, *operands)
        if narrow:
            result = b.convert(result, element)
        rewriter.replace(op, [], [result])

    @abstractmethod
    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        """The result for f32 (or f64) operands, in their type."""


EXP_COEFFICIENTS = {
    32: (
        float.fromhex("0x1p-1"),
        float.fromhex("0x1.5554dep-3"),
        float.fromhex("0x1.5555bap-5"),
        float.fromhex("0x1.120b4p-7"),
        float.fromhex("0x1.6c69e2p-10"),
    ),
    64: (
        float.fromhex("0x1.0000000000000p-1"),
        float.fromhex("0x1.5555555555555p-3"),
        float.fromhex("0x1.5555555555557p-5"),
        float.fromhex("0x1.1111111111111p-7"),
        float.fromhex("0x1.6c16c16c15a6cp-10"),
        float.fromhex("0x1.a01a01a0196aep-13"),
        float.fromhex("0x1.a01a01a9e80fep-16"),
        float.fromhex("0x1.71de3a5aa6edbp-19"),
        float.fromhex("0x1.27e4d41d6f553p-22"),
        float.fromhex("0x1.ae642c8730352p-26"),
        float.fromhex("0x1.1f7f2000f4cf3p-29"),
        float.fromhex("0x1.61bfa22dd3437p-33"),
    ),
}
"""q(r) ~ (e^r - 1 - r) / r^2 on |r| <= ln(2)/2 (f64: fitted, relative error 2^-56.9)."""

EXP_RANGE = {32: (-104.0, 90.0), 64: (-746.0, 711.0)}
"""Beyond these, e^x (and e^x/2) is 0 or infinity in the format anyway."""


@dataclass(frozen=True)
class ExponentialParts:
    """e^x = mantissa * 2^exponent, mantissa in [sqrt(2)/2, sqrt(2)], exponent an integer of x's width."""

    mantissa: SSAValue
    exponent: SSAValue


def exponential_parts(
    b: ArithBuilder, x: SSAValue, x_lo: SSAValue | None = None
) -> ExponentialParts:
    """e^(x + x_lo) as 2^k e^r: k = rint(x / ln 2), r = x - k ln 2 (Cody-Waite, two parts) + x_lo.

    e^r = 1 + r + r^2 q(r).  x is first clamped to `EXP_RANGE`, beyond which
    e^x (and e^x/2) is 0 or infinity anyway; `x_lo` (|x_lo| << ulp(x))
    extends x's precision.
    """
    x = clamp_keeping_nan(b, x, *by_width(x, EXP_RANGE))
    ln2_hi, ln2_lo = by_width(x, LN2)
    k = round_to_integer(b, b.mul(x, by_width(x, LOG2_E)))
    r = b.sub(b.sub(x, b.mul(k, ln2_hi)), b.mul(k, ln2_lo))
    if x_lo is not None:
        r = b.add(r, x_lo)
    tail = b.mul(b.mul(r, r), b.polynomial(r, by_width(x, EXP_COEFFICIENTS)))
    return ExponentialParts(b.add(b.add(r, tail), 1.0), b.to_int(k))


class ExpandExp(MathExpansion):
    """exp(x) = 2^k e^r, k = rint(x / ln 2), r = x - k ln 2 (`exponential_parts`)."""

    op_type = math.ExpOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        parts = exponential_parts(b, operands[0])
        return scale_by_power_of_two(b, parts.mantissa, parts.exponent)


EXP2_COEFFICIENTS = {
    32: (
        float.fromhex("0x1.62e43p-1"),
        float.fromhex("0x1.ebfbdep-3"),
        float.fromhex("0x1.c6af6ep-5"),
        float.fromhex("0x1.3b2bap-7"),
        float.fromhex("0x1.5f07b4p-10"),
        float.fromhex("0x1.4308e2p-13"),
    ),
    64: (
        float.fromhex("0x1.62e42fefa39efp-1"),
        float.fromhex("0x1.ebfbdff82c58fp-3"),
        float.fromhex("0x1.c6b08d704a0c0p-5"),
        float.fromhex("0x1.3b2ab6fba4e7bp-7"),
        float.fromhex("0x1.5d87fe78a6732p-10"),
        float.fromhex("0x1.430912f86ac5bp-13"),
        float.fromhex("0x1.ffcbfc5889cb0p-17"),
        float.fromhex("0x1.62c022460176ep-20"),
        float.fromhex("0x1.b5253d41fa177p-24"),
        float.fromhex("0x1.e4cf03bac04a7p-28"),
        float.fromhex("0x1.e8ca8dd466161p-32"),
        float.fromhex("0x1.c4b5b04b1e8f9p-36"),
        float.fromhex("0x1.82192178ce75dp-40"),
    ),
}
"""p(r) ~ (2^r - 1) / r on |r| <= 1/2 (f64: fitted, relative error 2^-54.2)."""

EXP2_RANGE = {32: (-160.0, 130.0), 64: (-1080.0, 1030.0)}


def power_of_two_parts(
    b: ArithBuilder, x: SSAValue, x_lo: SSAValue | None = None
) -> ExponentialParts:
    """2^(x + x_lo) as 2^k 2^r: k = rint(x), r = (x - k) + x_lo, 2^r = 1 + r p(r).

    x is clamped to `EXP2_RANGE` (the result is 0 or infinity beyond);
    x - k is exact.
    """
    x = clamp_keeping_nan(b, x, *by_width(x, EXP2_RANGE))
    k = round_to_integer(b, x)
    r = b.sub(x, k)
    if x_lo is not None:
        r = b.add(r, x_lo)
    mantissa = b.add(b.mul(r, b.polynomial(r, by_width(r, EXP2_COEFFICIENTS))), 1.0)
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

HALF_PI_OVER_2_62 = {
    32: (float.fromhex("0x1.921fb6p-62"), float.fromhex("-0x1.777a5cp-87")),
    64: (float.fromhex("0x1.921fb54442d18p-62"), float.fromhex("0x1.1a62633145c07p-116")),
}
"""(pi/2) 2^-62 as hi + lo: the value of one unit of the fixed-point reduced argument."""

TWO_OVER_PI_WORDS_F64 = (
    0x00000000, 0x00000000,
    0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041,
    0xFE5163AB, 0xDEBBC561, 0xB7246E3A, 0x424DD2E0, 0x06492EEA, 0x09D1921C,
    0xFE1DEB1C, 0xB129A73E, 0xE88235F5, 0x2EBB4484, 0xE99C7026, 0xB45F7E41,
    0x3991D639, 0x835339F4, 0x9C845F8B, 0xBDF9283B, 0x1FF897FF, 0xDE05980F,
    0xEF2F118B, 0x5A0A6D1F, 0x6D367ECF, 0x27CB09B7, 0x4F463F66, 0x9E5FEA2D,
    0x7527BAC7, 0xEBE5F17B, 0x3D0739F7, 0x8A5292EA, 0x6BFB5FB1, 0x1F8D5D08,
    0x56033046, 0xFC7B6BAB,
)  # fmt: skip
"""2/pi to 1216 bits, 32 bits a word, after two words of zeros: every window an f64 needs."""


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
    """x = n pi/2 + r exactly enough for the format, for any finite x."""
    return reduce_f64_by_half_pi(b, x) if format_of(x) is F64 else reduce_f32_by_half_pi(b, x)


def reduce_f32_by_half_pi(b: ArithBuilder, x: SSAValue) -> Reduced:
    """Payne-Hanek reduction of any finite f32 x, exact to 2^-62 units of pi/2.

    |x| = m 2^e with m a 24-bit integer.  The 96 bits of 2/pi from bit e - 1
    on (earlier bits only add multiples of 4 to x 2/pi) are gathered from
    `TWO_OVER_PI_WORDS` and multiplied by m in 64-bit integer arithmetic,
    leaving x 2/pi mod 4 as a fixed-point number with 62 fraction bits: the
    nearest integer is the quadrant, the rest (times pi/2) is r.  |x| < 1/2
    is its own reduction (n = 0, r = x); a negative x reduces as -|x|.
    """
    i64 = with_element_type(x.type, IntegerType(64))
    magnitude_bits = b.andi(b.bits(x), ~F32.sign_mask)
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
    quadrant = b.trunci(quadrant, IntegerType(32))
    magnitude = b.bitcast(magnitude_bits, f32)
    return reduced(b, x, magnitude, 0.5, quadrant, fraction_hi, fraction_lo)


def reduced(
    b: ArithBuilder,
    x: SSAValue,
    magnitude: SSAValue,
    small_below: float,
    quadrant: SSAValue,
    head: SSAValue,
    rest: SSAValue,
) -> Reduced:
    """x = ±(n pi/2 + r) from |x|'s quadrant n and fraction head + rest in units of 2^-62 pi/2.

    Below `small_below` |x| is its own reduction (n = 0, r = |x|); the sign
    of x is put back last.
    """
    unit_hi, unit_lo = by_width(x, HALF_PI_OVER_2_62)
    product, error = two_product(b, head, b.constant(unit_hi, x.type))
    error = b.add(error, b.add(b.mul(head, unit_lo), b.mul(rest, unit_hi)))
    hi, lo = fast_two_sum(b, product, error)
    small = b.compare("olt", magnitude, small_below)
    quadrant = b.select(small, b.constant(0, quadrant.type), quadrant)
    hi = b.select(small, magnitude, hi)
    lo = b.select(small, 0.0, lo)
    negative = b.compare_int("slt", b.bits(x), 0)
    return Reduced(
        b.select(negative, b.subi(0, quadrant), quadrant),
        b.select(negative, b.neg(hi), hi),
        b.select(negative, b.neg(lo), lo),
    )


def reduce_f64_by_half_pi(b: ArithBuilder, x: SSAValue) -> Reduced:
    """Payne-Hanek reduction of any finite f64 x, to 2^-126 units of pi/2.

    |x| = m 2^e with m a 53-bit integer.  The 192 bits of 2/pi from bit e - 1
    on (earlier bits only add multiples of 4 to x 2/pi) are gathered from
    `TWO_OVER_PI_WORDS_F64` as six 32-bit words and multiplied by m's two
    32-bit halves, the partial products summed column by column with their
    carries: the top 128 bits of the product are x 2/pi mod 4 with 126
    fraction bits, which an r as small as 2^-61 (the closest an f64 comes to
    a multiple of pi/2) still needs.  The nearest integer is the quadrant,
    the rest, converted to hi + lo and multiplied by pi/2, is r.  |x| < pi/4
    is its own reduction (n = 0, r = x); a negative x reduces as -|x|.
    """
    i64 = with_element_type(x.type, IntegerType(64))
    low_32 = (1 << 32) - 1
    magnitude_bits = b.andi(b.bits(x), ~F64.sign_mask)
    mantissa = b.ori(b.andi(magnitude_bits, F64.fraction_mask), 1 << 52)
    # e = biased exponent - 1075; bit e - 1 of 2/pi sits at position e + 62 of the words.
    position = b.addi(b.shrsi(magnitude_bits, 52), 62 - 1075)
    word_index = b.shrsi(position, 5)
    shift = b.andi(position, 31)
    table = TWO_OVER_PI_WORDS_F64
    starts = len(table) - 7

    def word(k: int) -> SSAValue:
        """`table[word_index + k]`, word_index in [0, starts]."""
        result = b.constant(table[k + starts], i64)
        for j in reversed(range(starts)):
            chosen = b.compare_int("eq", word_index, j)
            result = b.select(chosen, b.constant(table[k + j], i64), result)
        return result

    halves = (b.andi(mantissa, low_32), b.shrui(mantissa, 32))
    # Running sums of column c, bits 32c..32c+31 of m * window (window word k at column
    # 5 - k); built word by word so that few values are live at once.
    sums: list[SSAValue | None] = [None] * 8

    def add(column: int, part: SSAValue) -> None:
        sums[column] = part if sums[column] is None else b.addi(sums[column], part)

    upper = word(0)
    for k in range(6):
        lower = word(k + 1)
        window = b.shrui(b.shli(b.ori(b.shli(upper, 32), lower), shift), 32)
        for h, half in enumerate(halves):
            product = b.muli(half, window)
            add(5 - k + h, b.andi(product, low_32))
            add(6 - k + h, b.shrui(product, 32))
        upper = lower
    digits: list[SSAValue] = []
    carry: SSAValue | None = None
    for total in sums[:6]:
        assert total is not None
        if carry is not None:
            total = b.addi(total, carry)
        digits.append(b.andi(total, low_32))
        carry = b.shrui(total, 32)
    fixed_hi = b.ori(b.shli(digits[5], 32), digits[4])
    fixed_lo = b.ori(b.shli(digits[3], 32), digits[2])
    quadrant = b.shrui(b.addi(fixed_hi, 1 << 61), 62)
    fraction = b.subi(fixed_hi, b.shli(quadrant, 62))
    # fraction + fixed_lo 2^-64, in units of 2^-62, as hi + lo.
    head = b.to_float(fraction, F64.type)
    rest = b.to_float(b.subi(fraction, b.to_int(head)), F64.type)
    below = b.mul(b.insert(UIToFPOp(fixed_lo, with_element_type(x.type, F64.type))), 2.0**-64)
    head, rest = fast_two_sum(b, head, b.add(rest, below))
    magnitude = b.bitcast(magnitude_bits, F64.type)
    return reduced(b, x, magnitude, QUARTER_PI_HI[64], quadrant, head, rest)


@dataclass(frozen=True)
class SineCosine:
    """sin r and cos r for a reduced r = hi + lo, |r| <= pi/4."""

    sine: SSAValue
    cosine: SSAValue


SINE_COEFFICIENTS = {
    32: (
        float.fromhex("-0x1.555556p-3"),
        float.fromhex("0x1.11110ep-7"),
        float.fromhex("-0x1.a01398p-13"),
        float.fromhex("0x1.6db994p-19"),
    ),
    64: (
        float.fromhex("-0x1.5555555555555p-3"),
        float.fromhex("0x1.1111111111110p-7"),
        float.fromhex("-0x1.a01a01a019938p-13"),
        float.fromhex("0x1.71de3a546095bp-19"),
        float.fromhex("-0x1.ae645412c560cp-26"),
        float.fromhex("0x1.61217f0b800d5p-33"),
        float.fromhex("-0x1.ab17d404de5b3p-41"),
    ),
}
"""S(z) ~ (sin r - r)/r^3, z = r^2, |r| <= pi/4 (f64: fitted, relative error 2^-54)."""

COSINE_COEFFICIENTS = {
    32: (
        float.fromhex("0x1.555556p-5"),
        float.fromhex("-0x1.6c16cp-10"),
        float.fromhex("0x1.a015bcp-16"),
        float.fromhex("-0x1.2521c2p-22"),
    ),
    64: (
        float.fromhex("0x1.5555555555555p-5"),
        float.fromhex("-0x1.6c16c16c16c16p-10"),
        float.fromhex("0x1.a01a01a019d0ap-16"),
        float.fromhex("-0x1.27e4fb7712d65p-22"),
        float.fromhex("0x1.1eed8deb97a97p-29"),
        float.fromhex("-0x1.9394ba0cd6ed5p-37"),
        float.fromhex("0x1.ab785b00b4646p-45"),
    ),
}
"""C(z) ~ (cos r - 1 + r^2/2)/r^4, z = r^2, |r| <= pi/4 (f64: fitted, relative error 2^-54)."""


def sine_and_cosine(b: ArithBuilder, reduced: Reduced) -> SineCosine:
    """sin r = r + r^3 S(r^2) + lo; cos r = (1 - r^2/2) + r^4 C(r^2) - r lo, compensated.

    f64 also keeps lo's share of the cubic term (sin(r + lo) = sin r + lo cos r).
    """
    r, lo = reduced.hi, reduced.lo
    z = b.mul(r, r)
    cubic = b.mul(b.mul(r, z), b.polynomial(z, by_width(r, SINE_COEFFICIENTS)))
    if format_of(r) is F64:
        lo = b.sub(lo, b.mul(b.mul(z, 0.5), lo))
    sine = b.add(r, b.add(cubic, lo))
    half_z = b.mul(z, 0.5)
    w = b.sub(1.0, half_z)
    tail = b.sub(
        b.mul(b.mul(z, z), b.polynomial(z, by_width(r, COSINE_COEFFICIENTS))), b.mul(r, reduced.lo)
    )
    cosine = b.add(w, b.add(b.sub(b.sub(1.0, w), half_z), tail))
    return SineCosine(sine, cosine)


def by_quadrant(
    b: ArithBuilder, quadrant: SSAValue, even: SSAValue, odd: SSAValue, shift: int
) -> SSAValue:
    """`even` in even quadrants, `odd` in odd ones, negated where bit 1 of quadrant + shift is 1."""
    f = format_of(even)
    value = b.select(b.compare_int("eq", b.andi(quadrant, 1), 0), even, odd)
    sign = b.shli(b.andi(b.addi(quadrant, shift), 2), f.bits - 2)
    return b.bitcast(b.xori(b.bits(value), sign), f.type)


def trigonometric_special_cases(b: ArithBuilder, x: SSAValue, result: SSAValue) -> SSAValue:
    """NaN for an infinite or NaN x (`ueq` holds for NaN too)."""
    return b.select(b.compare("ueq", absolute(b, x), INF), NAN, result)


class ExpandSin(MathExpansion):
    """sin x = ±sin r or ±cos r by quadrant, after exact Payne-Hanek reduction x = n pi/2 + r.

    Accurate over the whole f32 and f64 ranges, as CUDA's sinf and sin are.
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

    COEFFICIENTS = {
        32: (
            float.fromhex("0x1.555556p-2"),
            float.fromhex("0x1.111084p-3"),
            float.fromhex("0x1.ba5382p-5"),
            float.fromhex("0x1.622f6ap-6"),
            float.fromhex("0x1.46d34cp-7"),
            float.fromhex("0x1.31d268p-10"),
            float.fromhex("0x1.f92cfep-9"),
        ),
        64: (
            float.fromhex("0x1.5555555555555p-2"),
            float.fromhex("0x1.111111111111bp-3"),
            float.fromhex("0x1.ba1ba1ba1a515p-5"),
            float.fromhex("0x1.664f48834f964p-6"),
            float.fromhex("0x1.226e353ec9d10p-7"),
            float.fromhex("0x1.d6d3d9595bd98p-9"),
            float.fromhex("0x1.7da2a66ef5c08p-10"),
            float.fromhex("0x1.35639716825dap-11"),
            float.fromhex("0x1.f4827866d91b9p-13"),
            float.fromhex("0x1.9e442245f7eccp-14"),
            float.fromhex("0x1.1c9dc42563c4dp-15"),
            float.fromhex("0x1.c6ce88efb7998p-16"),
            float.fromhex("-0x1.5629f83918912p-17"),
            float.fromhex("0x1.47c6450c63687p-16"),
            float.fromhex("-0x1.46fee54eb56fdp-17"),
            float.fromhex("0x1.090d7f0e7cdbap-18"),
        ),
    }
    """T(z) ~ (tan r - r)/r^3, z = r^2, |r| <= pi/4 (f64: fitted, relative error 2^-54)."""

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        reduced = reduce_by_half_pi(b, x)
        r = reduced.hi
        z = b.mul(r, r)
        cube_term = b.mul(b.mul(r, z), b.polynomial(z, by_width(r, self.COEFFICIENTS)))
        tangent = b.add(r, cube_term)
        correction = b.mul(reduced.lo, b.add(b.mul(tangent, tangent), 1.0))
        tangent = b.add(r, b.add(cube_term, correction))
        odd = b.compare_int("ne", b.andi(reduced.quadrant, 1), 0)
        result = b.select(odd, b.div(-1.0, tangent), tangent)
        return trigonometric_special_cases(b, x, result)


HALF_PI = {
    32: (float.fromhex("0x1.921fb6p+0"), float.fromhex("-0x1.777a5cp-25")),
    64: (float.fromhex("0x1.921fb54442d18p+0"), float.fromhex("0x1.1a62633145c07p-54")),
}
PI = {
    32: (float.fromhex("0x1.921fb6p+1"), float.fromhex("-0x1.777a5cp-24")),
    64: (float.fromhex("0x1.921fb54442d18p+1"), float.fromhex("0x1.1a62633145c07p-53")),
}
QUARTER_PI_HI = {32: float.fromhex("0x1.921fb6p-1"), 64: float.fromhex("0x1.921fb54442d18p-1")}


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
    """atan|x| = atan(c) + atan((|x| - c)/(1 + c|x|)), c in {0, 1/2, 1, 3/2, inf} (fdlibm's atan).

    The interval of |x| (bounds 7/16, 11/16, 19/16, 39/16) picks c so that
    |t| <= 7/16; atan t = t + t^3 A(t^2); atan(c) is added in two parts.
    The sign is copied from x.
    """

    op_type = math.AtanOp

    COEFFICIENTS = {
        32: (
            float.fromhex("-0x1.555554p-2"),
            float.fromhex("0x1.99960cp-3"),
            float.fromhex("-0x1.23fa9ap-3"),
            float.fromhex("0x1.b50bacp-4"),
            float.fromhex("-0x1.fd8b6p-5"),
        ),
        64: (
            float.fromhex("-0x1.5555555555555p-2"),
            float.fromhex("0x1.999999999998fp-3"),
            float.fromhex("-0x1.24924924918e8p-3"),
            float.fromhex("0x1.c71c71c6740b1p-4"),
            float.fromhex("-0x1.745d171e3eb9fp-4"),
            float.fromhex("0x1.3b13abae16efbp-4"),
            float.fromhex("-0x1.111090a2806b0p-4"),
            float.fromhex("0x1.e1d23dd1aec1fp-5"),
            float.fromhex("-0x1.ae802f8797bc7p-5"),
            float.fromhex("0x1.812dbb32976abp-5"),
            float.fromhex("-0x1.4ac2f13f00fb9p-5"),
            float.fromhex("0x1.ddf4141252423p-6"),
            float.fromhex("-0x1.9a239e5a9c793p-7"),
        ),
    }
    """A(z) ~ (atan t - t)/t^3, z = t^2, |t| <= 7/16 (f64: fitted, relative error 2^-54)."""

    BASES = {
        32: (
            (float.fromhex("0x1.dac67p-2"), float.fromhex("0x1.586ed4p-28")),
            (float.fromhex("0x1.921fb6p-1"), float.fromhex("-0x1.777a5cp-26")),
            (float.fromhex("0x1.f730bep-1"), float.fromhex("-0x1.afc12cp-26")),
            HALF_PI[32],
        ),
        64: (
            (float.fromhex("0x1.dac670561bb4fp-2"), float.fromhex("0x1.a2b7f222f65e2p-56")),
            (float.fromhex("0x1.921fb54442d18p-1"), float.fromhex("0x1.1a62633145c07p-55")),
            (float.fromhex("0x1.f730bd281f69bp-1"), float.fromhex("0x1.007887af0cbbdp-56")),
            HALF_PI[64],
        ),
    }
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
        cubic = b.mul(b.mul(t, z), b.polynomial(z, by_width(x, self.COEFFICIENTS)))
        bases = by_width(x, self.BASES)
        base_hi = select_by_thresholds(b, reached, [0.0, *(hi for hi, _ in bases)], a)
        base_lo = select_by_thresholds(b, reached, [0.0, *(lo for _, lo in bases)], a)
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
            for half_pi, pi in zip(by_width(y, HALF_PI), by_width(y, PI), strict=True)
        )
        result = copy_sign_bit(b, b.add(base_hi, b.add(signed, base_lo)), y)
        # A NaN operand may hide behind the zero and infinity cases above.
        return b.select(b.compare("uno", x, y), b.add(x, y), result)


ARCSINE_COEFFICIENTS = {
    32: (
        float.fromhex("0x1.555554p-3"),
        float.fromhex("0x1.33343cp-4"),
        float.fromhex("0x1.6d58d6p-5"),
        float.fromhex("0x1.fdcf9p-6"),
        float.fromhex("0x1.17c6aap-6"),
        float.fromhex("0x1.14f7ap-5"),
    ),
    64: (
        float.fromhex("0x1.5555555555555p-3"),
        float.fromhex("0x1.333333333332dp-4"),
        float.fromhex("0x1.6db6db6db7c7fp-5"),
        float.fromhex("0x1.f1c71c70ee54ap-6"),
        float.fromhex("0x1.6e8ba31c9dc09p-6"),
        float.fromhex("0x1.1c4ebd7735bf2p-6"),
        float.fromhex("0x1.c99afe79266f3p-7"),
        float.fromhex("0x1.7a70c2a695fe0p-7"),
        float.fromhex("0x1.40e38d543d8d2p-7"),
        float.fromhex("0x1.0a9849ba5937fp-7"),
        float.fromhex("0x1.2031dbbbbad45p-7"),
        float.fromhex("0x1.8f5a75293b096p-12"),
        float.fromhex("0x1.7184808eff5eep-6"),
        float.fromhex("-0x1.898d77b6dddb2p-6"),
        float.fromhex("0x1.f74bdb0d4b5bep-6"),
    ),
}
"""P(z) ~ (asin u - u)/u^3, z = u^2 <= 1/4: asin u = u + u z P(z) (f64: fitted, relative
error 2^-54)."""


def arcsine_tail(b: ArithBuilder, z: SSAValue) -> SSAValue:
    """R(z) = z P(z), so that asin u = u + u R(u^2) for u <= 1/2."""
    return b.mul(z, b.polynomial(z, by_width(z, ARCSINE_COEFFICIENTS)))


@dataclass(frozen=True)
class HalfAngleRoot:
    """s = sqrt(z) for z = (1 - |x|)/2, with s = high + correction to about 12 bits more than z's."""

    root: SSAValue
    high: SSAValue
    correction: SSAValue


def half_angle_root(b: ArithBuilder, z: SSAValue) -> HalfAngleRoot:
    """sqrt(z) and its split: high short (11 or 21 bits), correction = (z - high^2)/(s + high)."""
    root = b.call(math.SqrtOp, z)
    high = high_part(b, root, by_width(z, {32: 12, 64: 32}))
    correction = b.div(b.sub(z, b.mul(high, high)), b.add(root, high))
    correction = b.select(b.compare("oeq", z, 0.0), 0.0, correction)
    return HalfAngleRoot(root, high, correction)


class ExpandAsin(MathExpansion):
    """asin x = x + x R(x^2) for |x| < 1/2; pi/2 - 2 asin(sqrt((1 - |x|)/2)) above (fdlibm's asin).

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
        quarter_pi_hi = by_width(x, QUARTER_PI_HI)
        p = b.sub(
            b.mul(b.add(root.root, root.root), tail),
            b.sub(by_width(x, HALF_PI)[1], b.add(root.correction, root.correction)),
        )
        q = b.sub(quarter_pi_hi, b.add(root.high, root.high))
        near_one = b.sub(quarter_pi_hi, b.sub(p, q))
        result = b.select(small, near_zero, near_one)
        result = b.select(b.compare("ogt", a, 1.0), NAN, result)
        return copy_sign_bit(b, result, x)


class ExpandAcos(MathExpansion):
    """acos x = pi/2 - (x + x R(x^2)) for |x| < 1/2; 2 asin(sqrt((1 - x)/2)) for x >= 1/2;

    pi - 2 asin(sqrt((1 + x)/2)) for x <= -1/2 (fdlibm's acos), with pi/2 and
    pi in two parts; |x| > 1 gives NaN.
    """

    op_type = math.AcosOp

    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        x = operands[0]
        a = absolute(b, x)
        small = b.compare("olt", a, 0.5)
        z = b.select(small, b.mul(x, x), b.mul(b.sub(1.0, a), 0.5))
        tail = arcsine_tail(b, z)
        half_pi, pi = by_width(x, HALF_PI), by_width(x, PI)
        middle = b.sub(half_pi[0], b.sub(x, b.sub(half_pi[1], b.mul(x, tail))))
        root = half_angle_root(b, z)
        w = b.add(b.mul(tail, root.root), root.correction)
        positive = b.mul(b.add(root.high, w), 2.0)
        negative = b.sub(
            pi[0], b.mul(b.add(root.root, b.sub(b.mul(tail, root.root), pi[1] * 0.5)), 2.0)
        )
        result = b.select(small, middle, b.select(b.compare("olt", x, 0.0), negative, positive))
        return b.select(b.compare("ogt", a, 1.0), NAN, result)


ERF_ONE = {32: float.fromhex("0x1.af767ap-1"), 64: float.fromhex("0x1.af767a741088bp-1")}
"""erf(1) rounded to the format (fdlibm's erx); erf(1) - ERF_ONE is in the polynomial."""

ERF_NEAR_ZERO = {
    32: (
        float.fromhex("0x1.06eba8p-3"),
        float.fromhex("-0x1.812746p-2"),
        float.fromhex("0x1.ce2eb8p-4"),
        float.fromhex("-0x1.b81ed2p-6"),
        float.fromhex("0x1.55758p-8"),
        float.fromhex("-0x1.b0e42ap-11"),
        float.fromhex("0x1.752d46p-14"),
    ),
    64: (
            float.fromhex("0x1.06eba8214db69p-3"),
            float.fromhex("-0x1.812746b0379e7p-2"),
            float.fromhex("0x1.ce2f21a042be2p-4"),
            float.fromhex("-0x1.b82ce31288b51p-6"),
            float.fromhex("0x1.565bcd0e6a53fp-8"),
            float.fromhex("-0x1.c02db40040b85p-11"),
            float.fromhex("0x1.f9a326f9b8980p-14"),
            float.fromhex("-0x1.f4d25c3e0b554p-17"),
            float.fromhex("0x1.b9e6c9dc3ed1ep-20"),
            float.fromhex("-0x1.5f742ebf48d2cp-23"),
            float.fromhex("0x1.fcc571110227ep-27"),
            float.fromhex("-0x1.51d70665fb541p-30"),
            float.fromhex("0x1.9e68ed5820290p-34"),
            float.fromhex("-0x1.d81e858b859d2p-38"),
            float.fromhex("0x1.f451741a1cfb6p-42"),
            float.fromhex("-0x1.dfb273d123e14p-46"),
            float.fromhex("0x1.5156acd512d52p-50"),
        ),
}
"""y(z) ~ erf(x)/x - 1, z = x^2, |x| < 0.84375 (absolute error 1.3e-10; f64 fitted, relative
to 1 + y 2^-56.3)."""

ERF_NEAR_ONE = {
    32: (
        float.fromhex("0x1.cedd9cp-27"),
        float.fromhex("0x1.a911fp-2"),
        float.fromhex("-0x1.a911eep-2"),
        float.fromhex("0x1.1b60ap-3"),
        float.fromhex("0x1.1b5f22p-4"),
        float.fromhex("-0x1.1b0012p-4"),
        float.fromhex("0x1.293e18p-8"),
        float.fromhex("0x1.ad17acp-7"),
    ),
    64: (
            float.fromhex("-0x1.c97f77889e138p-56"),
            float.fromhex("0x1.a911f096fbc26p-2"),
            float.fromhex("-0x1.a911f096fbc26p-2"),
            float.fromhex("0x1.1b614b0f52819p-3"),
            float.fromhex("0x1.1b614b0f52819p-4"),
            float.fromhex("-0x1.1b614b0f52819p-4"),
            float.fromhex("0x1.2e45a565ad58bp-8"),
            float.fromhex("0x1.f096fd702f085p-7"),
            float.fromhex("-0x1.391146bb98f87p-8"),
            float.fromhex("-0x1.ee30d995dcf1bp-10"),
            float.fromhex("0x1.4176c43836e3bp-10"),
            float.fromhex("0x1.66b6af258dd05p-14"),
            float.fromhex("-0x1.a38bcadddcf81p-13"),
            float.fromhex("0x1.3a03c6298b6ebp-16"),
            float.fromhex("0x1.8dbd0e125976ep-16"),
            float.fromhex("-0x1.6fc9d632fa413p-18"),
            float.fromhex("-0x1.1695c6386b89dp-19"),
            float.fromhex("0x1.d0d4028cac7f2p-21"),
            float.fromhex("0x1.48014915aaa72p-25"),
        ),
}
"""P(s) ~ erf(1 + s) - ERF_ONE, s in [-0.15625, 0.25] (absolute error 1.2e-10; f64 fitted,
2^-58 relative to erf)."""

ERFC_SCALED = {
    32: (
        (
            1 / 0.35,
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
            10.1,
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
    ),
    64: (
        (2.5, float.fromhex("0x1.3333333333333p-1"), (
                    float.fromhex("0x1.f9a9f95f6f1bdp-2"),
                    float.fromhex("-0x1.5efce00ff7b38p-3"),
                    float.fromhex("-0x1.caecf71ee67c4p-8"),
                    float.fromhex("0x1.4893856aee932p-4"),
                    float.fromhex("-0x1.595e44b954196p-4"),
                    float.fromhex("0x1.9fc00bab10726p-5"),
                    float.fromhex("-0x1.44f82d83f71bap-8"),
                    float.fromhex("-0x1.1afcff3c5586cp-5"),
                    float.fromhex("0x1.cf13a4c20d06bp-5"),
                    float.fromhex("-0x1.d1268c7768529p-5"),
                    float.fromhex("0x1.3110cdb78ab42p-5"),
                    float.fromhex("-0x1.2bc2da570a724p-8"),
                    float.fromhex("-0x1.039d7e9548e92p-5"),
                    float.fromhex("0x1.f91866cee6cd2p-5"),
                    float.fromhex("-0x1.38d6d3e23b908p-4"),
                    float.fromhex("0x1.07aac00053c7ep-4"),
                    float.fromhex("-0x1.96286a163da45p-6"),
                )),
        (5.0, float.fromhex("0x1.3333333333333p-2"), (
                    float.fromhex("0x1.1550f27b7b467p-1"),
                    float.fromhex("-0x1.13a9b24f30b60p-3"),
                    float.fromhex("-0x1.15acfd8c586a6p-3"),
                    float.fromhex("0x1.aa21e2f1933edp-3"),
                    float.fromhex("-0x1.4e0191f75ee9fp-4"),
                    float.fromhex("-0x1.44847c18919e8p-3"),
                    float.fromhex("0x1.5d74acf78721fp-2"),
                    float.fromhex("-0x1.103db0deed814p-2"),
                    float.fromhex("-0x1.6f3fc97c4d028p-3"),
                    float.fromhex("0x1.b59b1e37ba6c9p-1"),
                    float.fromhex("-0x1.402725ce0940cp+0"),
                    float.fromhex("0x1.2267e7eed20c1p-1"),
                    float.fromhex("0x1.d251802fe850bp+0"),
                    float.fromhex("-0x1.5de3030984b7ep+2"),
                    float.fromhex("0x1.e5c2114f0c27bp+2"),
                    float.fromhex("-0x1.b3603b01a6b4bp-1"),
                    float.fromhex("-0x1.18aafec89aa53p+4"),
                )),
        (28.0, float.fromhex("0x1.e2be2be2be2bep-4"), (
                    float.fromhex("0x1.1ee6368e0ebc1p-1"),
                    float.fromhex("-0x1.05908dd2dbbd1p-4"),
                    float.fromhex("-0x1.ff424de287222p-3"),
                    float.fromhex("0x1.5a1fc8539e403p-3"),
                    float.fromhex("0x1.f554c1aee2ae6p-3"),
                    float.fromhex("-0x1.f1176a5f1f4a8p-2"),
                    float.fromhex("-0x1.e392c41f11699p-4"),
                    float.fromhex("0x1.64195d806cdb0p+0"),
                    float.fromhex("-0x1.3c11299e59172p+0"),
                    float.fromhex("-0x1.916c6ca946c22p+1"),
                    float.fromhex("0x1.1f949724d5930p+3"),
                    float.fromhex("-0x1.6ccf9cad641f7p-1"),
                    float.fromhex("-0x1.36155af0ea708p+5"),
                    float.fromhex("0x1.18378f2531334p+6"),
                    float.fromhex("0x1.16f24a23e3943p+6"),
                    float.fromhex("-0x1.cf5979ed71434p+8"),
                    float.fromhex("0x1.c9deb9130e4f3p+8"),
                )),
    ),
}
"""g ~ a e^(a^2) erfc(a) for a >= 1.25 by pieces (upper end, center, polynomial), each a
polynomial in v - center: f32 v = 1/a^2 on [1.25, 1/0.35] and [1/0.35, 10.1] (relative errors
2e-8 and 2.2e-9); f64 v = 1/a on [1.25, 2.5], [2.5, 5], [5, 28] (2^-55.9, 2^-58.3, 2^-53.3)."""

ERFC_ZERO_FROM = {32: 10.1, 64: 28.0}
"""erfc a underflows to 0 beyond."""


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


TWO_OVER_LN2 = {
    32: (float.fromhex("0x1.714p+1"), float.fromhex("0x1.47652cp-11")),
    64: (float.fromhex("0x1.7154760000000p+1"), float.fromhex("0x1.4ae0bf85ddf44p-25")),
}
"""2/ln 2 as a short head (12 or 26 bits) and a tail."""

TWO_OVER_3_LN2 = {
    32: (float.fromhex("0x1.ec6p-1"), float.fromhex("0x1.09dc3ap-13")),
    64: (float.fromhex("0x1.ec709d8000000p-1"), float.fromhex("0x1.0e80ff5d27f05p-27")),
}
"""2/(3 ln 2) as a short head (12 or 26 bits) and a tail."""

LOG2_ODD_COEFFICIENTS = {
    32: (
        float.fromhex("0x1.2776c6p-1"),
        float.fromhex("0x1.a617c8p-2"),
        float.fromhex("0x1.4808dap-2"),
        float.fromhex("0x1.1a7d5ap-2"),
    ),
    64: (
        float.fromhex("0x1.2776c50ef9bfep-1"),
        float.fromhex("0x1.a61762a7aded7p-2"),
        float.fromhex("0x1.484b13d7c08f5p-2"),
        float.fromhex("0x1.0c9a8498b7166p-2"),
        float.fromhex("0x1.c68f5747c21bfp-3"),
        float.fromhex("0x1.89f36a2f5c62bp-3"),
        float.fromhex("0x1.5baab8cdfc056p-3"),
        float.fromhex("0x1.34f27bed947d4p-3"),
        float.fromhex("0x1.3dfca5f507a31p-3"),
    ),
}
"""Q(z) ~ (log2((1+s)/(1-s)) - 2s/ln 2 - 2s^3/(3 ln 2))/s^5, z = s^2, |s| <= 0.1716
(f64: fitted, relative error 2^-53)."""

POWER_RANGE = {32: (2.0**32, -160.0, 130.0), 64: (2.0**64, -1080.0, 1030.0)}
"""|y| limit, then the range of y log2 x beyond which x^y is 0 or infinity anyway."""


def fast_two_sum(b: ArithBuilder, big: SSAValue, small: SSAValue) -> tuple[SSAValue, SSAValue]:
    """big + small as hi + lo exactly, for |big| >= |small| or big = 0."""
    total = b.add(big, small)
    return total, b.sub(small, b.sub(total, big))


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
        wide = b.insert(ExtSIOp(n, with_element_type(n.type, IntegerType(64))))
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

    expandable: tuple[type[Operation], ...]
    """The ops that are native or have an expansion."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.dialect_name() == "math" and not isinstance(op, self.expandable):
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
    branch-free `arith` code on f32 and f64 (f16 and bf16 through f32) with
    range reduction and polynomial approximations, at least as accurate as
    CUDA's libdevice documents for the same function (measured in
    `docs/math-accuracy.md`).

    Refuses, naming the op and its source line: an op with no expansion
    that is not native (`math.fma`, integer ops), and f64 `sqrt`.  An
    unknown name in `native` is an error.
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
        native = tuple(o for o in Math.operations if o.name.removeprefix("math.") in self.native)
        patterns = [p() for p in EXPANSIONS if p.op_type not in native]
        expandable = (*native, *(p.op_type for p in EXPANSIONS))
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [*patterns, RefuseUnexpandable(expandable)], dce_enabled=False
            ),
        ).rewrite_module(op)
