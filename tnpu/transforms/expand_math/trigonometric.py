"""The expansions of `sin`, `cos`, `tan`, `atan`, `atan2`, `asin` and `acos`."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import math
from xdsl.ir import SSAValue

from tnpu.passes.arith_builder import ArithBuilder
from tnpu.transforms.expand_math.building_blocks import (
    absolute,
    copy_sign_bit,
    high_part,
    keep_zero,
    select_by_thresholds,
)
from tnpu.transforms.expand_math.coefficients import (
    ARCSINE_COEFFICIENTS,
    COSINE_COEFFICIENTS,
    HALF_PI,
    PI,
    QUARTER_PI_HI,
    SINE_COEFFICIENTS,
)
from tnpu.transforms.expand_math.expansion import MathExpansion
from tnpu.transforms.expand_math.float_formats import F64, INF, NAN, by_width, format_of
from tnpu.transforms.expand_math.range_reductions import Reduced, reduce_by_half_pi


@dataclass(frozen=True)
class SineCosine:
    """sin r and cos r for a reduced r = hi + lo, |r| <= pi/4."""

    sine: SSAValue
    cosine: SSAValue


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
