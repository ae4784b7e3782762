"""Float algorithms of the RVV backend: conversions and roundings built from vector ops.

RV64GCV without Zvfh has no instruction that computes on 16-bit floats,
and some of RVV's own conversions differ from the interpreters'
semantics, so these are sequences: f16/bf16/fp8 to and from f32 on the bits,
round-to-odd steps so a conversion through f32 rounds once, saturating
float-to-integer casts with NaN giving 0, integral roundings that keep
-0.0, C's fmod.  Each builds `rvv` ops through the instruction selector
running it (`VectorCode`) and returns the value it computed; constants
are hoisted out of the strip loop.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Protocol

from xdsl.ir import SSAValue

from tnpu.backend_riscv.builder import Builder
from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv import rvx


class VectorCode(Protocol):
    """What an algorithm needs of the instruction selector running it."""

    b: Builder

    def sew(self, bits: int) -> None:
        """Switch the element width, keeping vl (SEW/LMUL is constant)."""
        ...

    def vector(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int, **kwargs: SSAValue | None) -> SSAValue:
        """A vector result of the loop's group size."""
        ...

    def mask(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int) -> SSAValue:
        """A mask result (a compare)."""
        ...

    def mask_in_v0(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int) -> SSAValue:
        """A compare written straight to v0, for the masked op that follows."""
        ...

    def int_constant(self, value: int) -> SSAValue:
        """An integer register holding `value`, set before the loop."""
        ...

    def float_constant(self, value: float, bits: int) -> SSAValue:
        """A float register holding `value`, set before the loop."""
        ...


def float_bits(value: float, bits: int) -> int:
    return struct.unpack("<i" if bits == 32 else "<q", struct.pack("<f" if bits == 32 else "<d", value))[0]


def toward_zero(code: VectorCode, op: type[rvv.RvvInstruction], source: SSAValue) -> SSAValue:
    """A float-to-integer conversion rounding toward zero, through frm.

    The static-rounding forms (vfcvt.rtz.*) would do, but qemu 7.2
    aborts on them (decode_save_opc assertion); frm is restored after.
    """
    saved = code.b.emit(rvx.FsrmiOp(1))
    result = code.vector(op, source)
    code.b.insert(rvx.FsrmOp(saved))
    return result


def fmod(code: VectorCode, x: SSAValue, y: SSAValue) -> SSAValue:
    """fmod(x, y) at the current (f64) SEW.

    x - trunc(x/y)*y, with trunc keeping quotients of 2^52 and more
    (already integral), the result taking the sign of x, and a finite x
    returned unchanged by an infinite y, as C's fmod does.
    """
    infinity = code.float_constant(float("inf"), 64)
    quotient = code.vector(rvv.VfdivVvOp, x, y)
    truncated = toward_zero(code, rvv.VfcvtXFVOp, quotient)
    truncated = code.vector(rvv.VfcvtFXVOp, truncated)
    truncated = code.vector(rvv.VfsgnjVvOp, truncated, quotient)
    magnitude = code.vector(rvv.VfabsVOp, quotient)
    small = code.mask_in_v0(rvv.VmfltVfOp, magnitude, code.float_constant(2.0**52, 64))
    out = code.vector(rvv.VmergeVvmOp, quotient, truncated, small)
    out = code.b.vector(rvv.VfnmsubVvOp(out, y, x))
    out = code.vector(rvv.VfsgnjVvOp, out, x)
    y_magnitude = code.vector(rvv.VfabsVOp, y)
    y_infinite = code.mask(rvv.VmfeqVfOp, y_magnitude, infinity)
    x_magnitude = code.vector(rvv.VfabsVOp, x)
    x_finite = code.mask(rvv.VmfltVfOp, x_magnitude, infinity)
    keep_x = code.mask_in_v0(rvv.VmandMmOp, y_infinite, x_finite)
    return code.vector(rvv.VmergeVvmOp, out, x, keep_x)


_EXTEND = {(True, 2): rvv.VsextVf2Op, (True, 4): rvv.VsextVf4Op, (True, 8): rvv.VsextVf8Op,
           (False, 2): rvv.VzextVf2Op, (False, 4): rvv.VzextVf4Op, (False, 8): rvv.VzextVf8Op}  # fmt: skip


def int_resize(code: VectorCode, source: SSAValue, from_bits: int, to_bits: int, signed: bool) -> SSAValue:
    """Sign/zero-extend or truncate integers."""
    if to_bits > from_bits:
        code.sew(to_bits)
        return code.vector(_EXTEND[signed, to_bits // from_bits], source)
    if to_bits == from_bits:
        return source
    while from_bits > to_bits:
        from_bits //= 2
        code.sew(from_bits)
        source = code.vector(rvv.VnsrlWiOp, source, 0)
    return source


_TO_FLOAT = {True: rvv.VfcvtFXVOp, False: rvv.VfcvtFXuVOp}
_TO_FLOAT_NARROWING = {True: rvv.VfncvtFXWOp, False: rvv.VfncvtFXuWOp}
_TO_INT = {True: rvv.VfcvtXFVOp, False: rvv.VfcvtXuFVOp}
_TO_INT_WIDENING = {True: rvv.VfwcvtXFVOp, False: rvv.VfwcvtXuFVOp}
_TO_INT_NARROWING = {True: rvv.VfncvtXFWOp, False: rvv.VfncvtXuFWOp}


def int_to_float(code: VectorCode, source: SSAValue, from_bits: int, to_bits: int, signed: bool) -> SSAValue:
    """An integer converted to f32 or f64 (rounding to nearest even, once)."""
    if from_bits > to_bits:
        narrowed = int_resize(code, source, from_bits, 2 * to_bits, signed)
        code.sew(to_bits)
        return code.vector(_TO_FLOAT_NARROWING[signed], narrowed)
    widened = int_resize(code, source, from_bits, to_bits, signed)
    code.sew(to_bits)
    return code.vector(_TO_FLOAT[signed], widened)


def int_to_f32_round_to_odd(code: VectorCode, source: SSAValue, from_bits: int, signed: bool) -> SSAValue:
    """An integer as f32 rounded to odd (at SEW 32).

    Rounding to odd first and to nearest even second rounds once: f32
    keeps more than two bits beyond a 16-bit float's mantissa.  Integers
    of 16 bits or fewer convert exactly; wider ones are truncated (frm =
    RTZ), converted back and, where that lost bits, get the sticky low bit.
    """
    if from_bits <= 16:
        widened = int_resize(code, source, from_bits, 32, signed)
        code.sew(32)
        return code.vector(_TO_FLOAT[signed], widened)
    code.sew(32)
    if from_bits == 32:
        single = toward_zero(code, _TO_FLOAT[signed], source)
        back = code.vector(_TO_INT[signed], single)
    else:
        single = toward_zero(code, _TO_FLOAT_NARROWING[signed], source)
        back = code.vector(_TO_INT_WIDENING[signed], single)
        code.sew(64)
    lost = code.mask_in_v0(rvv.VmsneVvOp, back, source)
    code.sew(32)
    return code.vector(rvv.VorViOp, single, 1, mask=lost, passthru=single)


def float_to_int(code: VectorCode, source: SSAValue, from_bits: int, to_bits: int, signed: bool) -> SSAValue:
    """Truncate, saturating (RVV does); NaN gives 0, as in the interpreters."""
    dest = convert_float_to_int(code, source, from_bits, to_bits, signed)
    code.sew(from_bits)
    nan = code.mask_in_v0(rvv.VmfneVvOp, source, source)
    code.sew(to_bits)
    return code.vector(rvv.VmergeVimOp, dest, 0, nan)


def convert_float_to_int(code: VectorCode, source: SSAValue, from_bits: int, to_bits: int, signed: bool) -> SSAValue:
    """Truncate to an integer, saturating at the result's range."""
    if to_bits == 2 * from_bits:
        code.sew(from_bits)
        return toward_zero(code, _TO_INT_WIDENING[signed], source)
    if to_bits == from_bits:
        code.sew(from_bits)
        return toward_zero(code, _TO_INT[signed], source)
    # Narrow to half the width (saturating), then clamp to the result's range.
    bits = from_bits // 2
    code.sew(bits)
    half = toward_zero(code, _TO_INT_NARROWING[signed], source)
    if to_bits < bits:
        if signed:
            half = code.vector(rvv.VminVxOp, half, code.int_constant((1 << (to_bits - 1)) - 1))
            half = code.vector(rvv.VmaxVxOp, half, code.int_constant(-(1 << (to_bits - 1))))
        else:
            half = code.vector(rvv.VminuVxOp, half, code.int_constant((1 << to_bits) - 1))
    return int_resize(code, half, bits, to_bits, signed)


def f64_to_f32_round_to_odd(code: VectorCode, source: SSAValue) -> SSAValue:
    """An f64 as f32 rounded to odd; a NaN keeps its sign and top payload (quieted,
    as numpy's f64 to f32 does), where RVV would give the canonical NaN."""
    code.sew(32)
    single = code.vector(rvv.VfncvtRodFFWOp, source)
    nan = code.vector(rvv.VnsrlWiOp, source, 29)
    nan = code.vector(rvv.VandVxOp, nan, code.int_constant(0x7FFFFF))
    nan = code.vector(rvv.VorVxOp, nan, code.int_constant(0x7FC00000))
    sign = code.vector(rvv.VnsrlWxOp, source, code.int_constant(63))
    sign = code.vector(rvv.VsllViOp, sign, 31)
    nan = code.vector(rvv.VorVvOp, nan, sign)
    code.sew(64)
    is_nan = code.mask_in_v0(rvv.VmfneVvOp, source, source)
    code.sew(32)
    return code.vector(rvv.VmergeVvmOp, single, nan, is_nan)


@dataclass(frozen=True)
class NarrowFloat:
    """A float format narrower than f32 that the FPU lacks, as the conversions see it."""

    bits: int
    mantissa: int
    """Stored mantissa bits."""
    bias: int
    special: int
    """The magnitude bits from which on a value is infinite or NaN (e4m3fn: only NaN, 0x7f;
    FNUZ: none, 0)."""
    overflow: int
    """The f32 magnitude bits from which on a value rounds past the largest finite one..."""
    overflow_bits: int
    """...and becomes this (infinity; NaN for e4m3fn, which has none, as ml_dtypes makes it)."""
    nan: int | None
    """The NaN a NaN becomes (ml_dtypes' fp8), or None: its top payload bits kept (numpy's f16)."""
    unsigned_zero: bool = False
    """FNUZ (AMD's fp8): no -0 and no infinity; the pattern of -0 is the one NaN."""


NARROW_FLOATS = {
    "f16": NarrowFloat(16, 10, 15, 0x7C00, 0x47800000, 0x7C00, None),  # overflow from 2^16
    "f8E5M2": NarrowFloat(8, 2, 15, 0x7C, 0x47800000, 0x7C, 0x7E),  # from 2^16
    "f8E4M3FN": NarrowFloat(8, 3, 7, 0x7F, 0x43E80001, 0x7F, 0x7F),  # above 464 (448 + half an ulp)
    "f8E4M3FNUZ": NarrowFloat(8, 3, 8, 0, 0x43780000, 0x80, 0x80, unsigned_zero=True),  # from 248
    "f8E5M2FNUZ": NarrowFloat(8, 2, 16, 0, 0x47700000, 0x80, 0x80, unsigned_zero=True),  # from 61440
}
"""The formats besides bf16 (the top half of an f32, converted on its own), by `Element.half_float`."""


def half_to_f32(code: VectorCode, source: SSAValue, kind: str) -> SSAValue:
    """A 16- or 8-bit float widened to f32 (exactly), at SEW 32.

    bf16 is the top half of an f32.  The others move their exponent and
    mantissa into place and multiply by 2^(127 - bias), which rebiases
    normal numbers and normalises subnormal ones exactly; inf and NaN
    (payload kept, as numpy does) are set apart, and the sign is put back.
    FNUZ formats have neither: the pattern of -0 is their one NaN.
    """
    if kind == "bf16":
        single = int_resize(code, source, 16, 32, signed=False)
        return code.vector(rvv.VsllViOp, single, 16)
    form = NARROW_FLOATS[kind]
    widened = int_resize(code, source, form.bits, 32, signed=False)
    sign_bit = code.int_constant(1 << (form.bits - 1))
    sign = code.vector(rvv.VandVxOp, widened, sign_bit)
    magnitude = code.vector(rvv.VxorVvOp, widened, sign)
    sign = code.vector(rvv.VsllViOp, sign, 32 - form.bits)
    single = code.vector(rvv.VsllViOp, magnitude, 23 - form.mantissa)
    single = code.vector(rvv.VfmulVfOp, single, code.float_constant(2.0 ** (127 - form.bias), 32))
    if form.unsigned_zero:
        single = code.vector(rvv.VorVvOp, single, sign)
        nan = code.mask_in_v0(rvv.VmseqVxOp, widened, sign_bit)
        return code.vector(rvv.VmergeVxmOp, single, code.int_constant(0x7FC00000), nan)
    special = code.mask_in_v0(rvv.VmsgeuVxOp, magnitude, code.int_constant(form.special))
    single = code.vector(rvv.VorVxOp, single, code.int_constant(0x7F800000), mask=special, passthru=single)
    return code.vector(rvv.VorVvOp, single, sign)


def f32_to_half(code: VectorCode, source: SSAValue, kind: str) -> SSAValue:
    """An f32 rounded to the nearest even 16- or 8-bit float (at its SEW).

    On the bits: bf16 adds 0x7fff plus the kept low bit and keeps the
    top half (NaN becomes the quiet NaN).  The others rebias normal
    results the same way, round subnormal ones by adding 2^k on the FPU
    (whose ulp is then the format's smallest subnormal), saturate from
    the format's overflow threshold on (the rounding carries smaller
    values there itself) to infinity, or to NaN for the formats without
    one.  A NaN keeps its sign and, in f16, its top payload bits, never
    turning into an infinity, as numpy does; fp8 NaNs are ml_dtypes' one
    quiet NaN.  FNUZ formats have no -0: a zero takes no sign.
    """
    if kind == "bf16":
        return f32_to_bf16(code, source)
    form = NARROW_FLOATS[kind]
    shift = 23 - form.mantissa
    rebias = (127 - form.bias) << 23
    subnormal_scale = 2.0 ** (24 - form.bias - form.mantissa)
    code.sew(32)
    magnitude = code.vector(rvv.VsllViOp, source, 1)
    magnitude = code.vector(rvv.VsrlViOp, magnitude, 1)
    rounded = code.vector(rvv.VsrlViOp, magnitude, shift)
    rounded = code.vector(rvv.VandViOp, rounded, 1)
    rounded = code.vector(rvv.VaddVxOp, rounded, code.int_constant((1 << (shift - 1)) - 1 - rebias))
    rounded = code.vector(rvv.VaddVvOp, rounded, magnitude)
    rounded = code.vector(rvv.VsrlViOp, rounded, shift)
    subnormal = code.vector(rvv.VfaddVfOp, magnitude, code.float_constant(subnormal_scale, 32))
    subnormal = code.vector(rvv.VsubVxOp, subnormal, code.int_constant(float_bits(subnormal_scale, 32)))
    small = code.mask_in_v0(rvv.VmsltuVxOp, magnitude, code.int_constant(rebias + (1 << 23)))
    rounded = code.vector(rvv.VmergeVvmOp, rounded, subnormal, small)
    huge = code.mask_in_v0(rvv.VmsgeuVxOp, magnitude, code.int_constant(form.overflow))
    rounded = code.vector(rvv.VmergeVxmOp, rounded, code.int_constant(form.overflow_bits), huge)
    rounded = _merge_where_nan(code, rounded, _narrow_nan(code, form, magnitude), source)
    sign = _sign_at_top(code, source, form.bits)
    if form.unsigned_zero:  # a zero takes no sign (the NaN, 0x80, has it already)
        nonzero = code.mask_in_v0(rvv.VmsneViOp, rounded, 0)
        rounded = code.vector(rvv.VorVvOp, rounded, sign, mask=nonzero, passthru=rounded)
    else:
        rounded = code.vector(rvv.VorVvOp, rounded, sign)
    return int_resize(code, rounded, 32, form.bits, signed=False)


def _narrow_nan(code: VectorCode, form: NarrowFloat, magnitude: SSAValue) -> SSAValue:
    """The unsigned `form` NaN each f32 NaN of `magnitude` becomes (SEW 32): the one
    quiet NaN of an fp8 format, or for f16 its top payload bits, made nonzero."""
    if form.nan is not None:
        return code.vector(rvv.VmvVXOp, code.int_constant(form.nan))
    payload = code.vector(rvv.VsrlViOp, magnitude, 23 - form.mantissa)
    payload = code.vector(rvv.VandVxOp, payload, code.int_constant((1 << form.mantissa) - 1))
    payload = code.vector(rvv.VmaxuVxOp, payload, code.int_constant(1))
    return code.vector(rvv.VorVxOp, payload, code.int_constant(form.special))


def f32_to_bf16(code: VectorCode, source: SSAValue) -> SSAValue:
    """Round to nearest even on the bits: x + 0x7fff + ((x >> 16) & 1), top half.

    A NaN becomes the quiet NaN with its sign, as ml_dtypes makes it.
    """
    code.sew(32)
    rounding = code.vector(rvv.VsrlViOp, source, 16)
    rounding = code.vector(rvv.VandViOp, rounding, 1)
    rounding = code.vector(rvv.VaddVxOp, rounding, code.int_constant(0x7FFF))
    rounding = code.vector(rvv.VaddVvOp, rounding, source)
    rounding = code.vector(rvv.VsrlViOp, rounding, 16)
    nan = code.vector(rvv.VorVxOp, _sign_at_top(code, source, 16), code.int_constant(0x7FC0))
    rounding = _merge_where_nan(code, rounding, nan, source)
    return int_resize(code, rounding, 32, 16, signed=False)


def _sign_at_top(code: VectorCode, source: SSAValue, bits: int) -> SSAValue:
    """The sign of each f32 of `source` where a `bits`-bit float has it (SEW 32)."""
    shifted = code.vector(rvv.VsrlViOp, source, 32 - bits)
    return code.vector(rvv.VandVxOp, shifted, code.int_constant(1 << (bits - 1)))


def _merge_where_nan(code: VectorCode, value: SSAValue, nan: SSAValue, source: SSAValue) -> SSAValue:
    """`nan` where `source` is a NaN, else `value`, through v0."""
    is_nan = code.mask_in_v0(rvv.VmfneVvOp, source, source)
    return code.vector(rvv.VmergeVvmOp, value, nan, is_nan)


def round_to_integral(code: VectorCode, kind: str, x: SSAValue, bits: int) -> SSAValue:
    """Round `x` to an integral float without touching frm.

    One sequence per `kind` (of math's roundings): trunc converts towards
    zero; floor/ceil step the truncation by one where it went the wrong
    way; round (half away from zero) steps where the dropped fraction is
    at least one half; roundeven adds and subtracts 2^(mantissa bits) in
    the default round-to-nearest-even mode.  Magnitudes of 2^(mantissa
    bits) and above (and NaN, inf) are already integral and are kept; the
    sign is copied back so -0.5 rounds to -0.0.
    """
    limit = code.float_constant(2.0**23 if bits == 32 else 2.0**52, bits)
    if kind == "roundeven":
        result = code.vector(rvv.VfabsVOp, x)
        result = code.vector(rvv.VfaddVfOp, result, limit)
        result = code.vector(rvv.VfsubVfOp, result, limit)
    else:
        result = toward_zero(code, rvv.VfcvtXFVOp, x)
        result = code.vector(rvv.VfcvtFXVOp, result)
    if kind in ("floor", "ceil"):
        one = code.float_constant(1.0, bits)
        if kind == "floor":
            above = code.mask_in_v0(rvv.VmfltVvOp, x, result)
            result = code.vector(rvv.VfsubVfOp, result, one, mask=above, passthru=result)
        else:
            below = code.mask_in_v0(rvv.VmfltVvOp, result, x)
            result = code.vector(rvv.VfaddVfOp, result, one, mask=below, passthru=result)
    elif kind == "round":
        fraction = code.vector(rvv.VfsubVvOp, x, result)
        fraction = code.vector(rvv.VfabsVOp, fraction)
        half_or_more = code.mask_in_v0(rvv.VmfgeVfOp, fraction, code.float_constant(0.5, bits))
        step = code.vector(rvv.VfmvVFOp, code.float_constant(1.0, bits))
        step = code.vector(rvv.VfsgnjVvOp, step, x)
        result = code.vector(rvv.VfaddVvOp, result, step, mask=half_or_more, passthru=result)
    result = code.vector(rvv.VfsgnjVvOp, result, x)
    magnitude = code.vector(rvv.VfabsVOp, x)
    small = code.mask_in_v0(rvv.VmfltVfOp, magnitude, limit)
    return code.vector(rvv.VmergeVvmOp, x, result, small)
