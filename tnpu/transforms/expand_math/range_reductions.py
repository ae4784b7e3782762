"""The range reductions: x as m 2^k (logarithms), e^x and 2^x as 2^k times a value near 1
(Cody-Waite), and x as n pi/2 + r (Payne-Hanek, exact in integer arithmetic)."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import IntegerType, f32
from xdsl.ir import SSAValue

from tnpu.dialects.arith import UIToFPOp
from tnpu.dialects.shapes import with_element_type
from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.building_blocks import (
    clamp_keeping_nan,
    fast_two_sum,
    round_to_integer,
    two_product,
)
from tnpu.transforms.expand_math.coefficients import (
    EXP2_COEFFICIENTS,
    EXP2_RANGE,
    EXP_COEFFICIENTS,
    EXP_RANGE,
    HALF_PI_OVER_2_62,
    LN2,
    LOG2_E,
    QUARTER_PI_HI,
    SQRT2_SPLIT,
    TWO_OVER_PI_WORDS,
    TWO_OVER_PI_WORDS_F64,
)
from tnpu.transforms.expand_math.float_formats import F32, F64, by_width, format_of


@dataclass(frozen=True)
class Normalized:
    """x = m * 2^k with m in [sqrt(2)/2, sqrt(2)), for finite x > 0."""

    mantissa: SSAValue
    exponent: SSAValue
    """k as an integer of the format's width."""


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


@dataclass(frozen=True)
class Reduced:
    """x = n pi/2 + r with r = hi + lo in [-pi/4, pi/4]; n is i32 (only n mod 4 matters)."""

    quadrant: SSAValue
    hi: SSAValue
    lo: SSAValue


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
        sums[column] = part if sums[column] is None else b.addi(sums[column], part)  # pyright: ignore[reportArgumentType]

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
    below = b.mul(b.insert(UIToFPOp(fixed_lo, with_element_type(x.type, F64.type))), 2.0**-64)  # pyright: ignore[reportArgumentType]  # with_element_type returns an Attribute; the op takes the exact type
    head, rest = fast_two_sum(b, head, b.add(rest, below))
    magnitude = b.bitcast(magnitude_bits, F64.type)
    return reduced(b, x, magnitude, QUARTER_PI_HI[64], quadrant, head, rest)
