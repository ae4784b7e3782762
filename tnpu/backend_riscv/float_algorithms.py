"""Float algorithms of the RVV backend: conversions and roundings built from vector ops.

RV64GCV without Zvfh has no instruction that computes on 16-bit floats,
and some of RVV's own conversions differ from the interpreters'
semantics, so these are sequences: f16/bf16/fp8 to and from f32 on the bits,
round-to-odd steps so a conversion through f32 rounds once, saturating
float-to-integer casts with NaN giving 0, integral roundings that keep
-0.0, C's fmod.  Each works on registers the instruction selector hands
it, through `VectorCode`, and takes its temporaries from it; the `*_SCRATCH`
tables and `*_scratch` functions next to each say how many vector groups
it takes, which the selector declares to the register-pressure estimate.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from typing import Protocol

from tnpu.backend_riscv.asm import AsmWriter


class VectorCode(Protocol):
    """What an algorithm needs of the instruction selector running it."""

    asm: AsmWriter

    def temp(self) -> str:
        """A vector register group for the current op."""
        ...

    def int_temp(self) -> str: ...

    def float_temp(self) -> str: ...

    def sew(self, bits: int) -> None:
        """Switch the element width, keeping vl (SEW/LMUL is constant)."""
        ...

    def clobber_v0(self) -> None:
        """Note that v0 no longer holds the mask it was last given."""
        ...


class ScalarTemps:
    """`VectorCode.int_temp`/`float_temp`: scalar registers lent until `op_scope` closes."""

    asm: AsmWriter
    op_scope: ExitStack

    def int_temp(self) -> str:
        (register,) = self.op_scope.enter_context(self.asm.ints(1))
        return register

    def float_temp(self) -> str:
        (register,) = self.op_scope.enter_context(self.asm.floats(1))
        return register


def toward_zero(code: VectorCode, mnemonic: str, dest: str, source: str) -> None:
    """A float-to-integer conversion rounding toward zero, through frm.

    The static-rounding forms (vfcvt.rtz.*) would do, but qemu 7.2
    aborts on them (decode_save_opc assertion); frm is restored after.
    """
    saved = code.int_temp()
    code.asm.emit("fsrmi", saved, 1)
    code.asm.emit(mnemonic, dest, source)
    code.asm.emit("fsrm", saved)


def float_constant(code: VectorCode, value: float, bits: int) -> str:
    """A float register holding `value` for the current op."""
    register, pattern = code.float_temp(), code.int_temp()
    code.asm.li(pattern, _float_bits(value, bits))
    code.asm.emit("fmv.w.x" if bits == 32 else "fmv.d.x", register, pattern)
    return register


def fmod_into(code: VectorCode, out: str, x: str, y: str) -> None:
    """out = fmod(x, y) at the current (f64) SEW; out may not alias x or y.

    x - trunc(x/y)*y, with trunc keeping quotients of 2^52 and more
    (already integral), the result taking the sign of x, and a finite x
    returned unchanged by an infinite y, as C's fmod does.
    """
    asm = code.asm
    truncated, magnitude = code.temp(), code.temp()
    infinity = float_constant(code, float("inf"), 64)
    asm.emit("vfdiv.vv", out, x, y)
    toward_zero(code, "vfcvt.x.f.v", truncated, out)
    asm.emit("vfcvt.f.x.v", truncated, truncated)
    asm.emit("vfsgnj.vv", truncated, truncated, out)
    asm.emit("vfabs.v", magnitude, out)
    asm.emit("vmflt.vf", "v0", magnitude, float_constant(code, 2.0**52, 64))
    asm.emit("vmerge.vvm", out, out, truncated, "v0")
    asm.emit("vfnmsub.vv", out, y, x)
    asm.emit("vfsgnj.vv", out, out, x)
    asm.emit("vfabs.v", magnitude, y)
    asm.emit("vmfeq.vf", "v0", magnitude, infinity)
    asm.emit("vfabs.v", magnitude, x)
    asm.emit("vmflt.vf", truncated, magnitude, infinity)
    asm.emit("vmand.mm", "v0", "v0", truncated)
    asm.emit("vmerge.vvm", out, out, x, "v0")
    code.clobber_v0()


def _float_bits(value: float, bits: int) -> int:
    return struct.unpack("<i" if bits == 32 else "<q", struct.pack("<f" if bits == 32 else "<d", value))[0]


FMOD_SCRATCH = 2


def int_resize(
    code: VectorCode, source: str, from_bits: int, to_bits: int, signed: bool, dest: str | None = None
) -> str:
    """Sign/zero-extend or truncate integers into `dest` (or a temporary); returns it."""
    if to_bits > from_bits:
        register = dest or code.temp()
        code.sew(to_bits)
        extend = "vsext" if signed else "vzext"
        code.asm.emit(f"{extend}.vf{to_bits // from_bits}", register, source)
        return register
    if to_bits == from_bits:
        if dest is None:
            return source
        code.sew(to_bits)
        code.asm.emit("vmv.v.v", dest, source)
        return dest
    while from_bits > to_bits:
        from_bits //= 2
        register = dest if (dest and from_bits == to_bits) else code.temp()
        code.sew(from_bits)
        code.asm.emit("vnsrl.wi", register, source, 0)
        source = register
    return source


def int_resize_scratch(from_bits: int, to_bits: int, into_dest: bool) -> int:
    if to_bits > from_bits:
        return 0 if into_dest else 1
    halvings = (from_bits // to_bits).bit_length() - 1
    return max(halvings - into_dest, 0)


def int_to_float(
    code: VectorCode, source: str, from_bits: int, to_bits: int, signed: bool, result: Callable[[], str]
) -> None:
    """An integer converted to f32 or f64 (rounding to nearest even, once)."""
    x = "x" if signed else "xu"
    if from_bits > to_bits:
        narrowed = int_resize(code, source, from_bits, 2 * to_bits, signed)
        code.sew(to_bits)
        code.asm.emit(f"vfncvt.f.{x}.w", result(), narrowed)
        return
    widened = int_resize(code, source, from_bits, to_bits, signed)
    code.sew(to_bits)
    code.asm.emit(f"vfcvt.f.{x}.v", result(), widened)


def int_to_float_scratch(from_bits: int, to_bits: int) -> int:
    through = 2 * to_bits if from_bits > to_bits else to_bits
    return int_resize_scratch(from_bits, through, into_dest=False)


def int_to_f32_round_to_odd(code: VectorCode, source: str, from_bits: int, signed: bool) -> str:
    """An integer as f32 rounded to odd (a temporary at SEW 32).

    Rounding to odd first and to nearest even second rounds once: f32
    keeps more than two bits beyond a 16-bit float's mantissa.  Integers
    of 16 bits or fewer convert exactly; wider ones are truncated (frm =
    RTZ), converted back and, where that lost bits, get the sticky low bit.
    """
    x = "x" if signed else "xu"
    single = code.temp()
    if from_bits <= 16:
        widened = int_resize(code, source, from_bits, 32, signed)
        code.sew(32)
        code.asm.emit(f"vfcvt.f.{x}.v", single, widened)
        return single
    back = code.temp()
    code.sew(32)
    if from_bits == 32:
        toward_zero(code, f"vfcvt.f.{x}.v", single, source)
        code.asm.emit(f"vfcvt.{x}.f.v", back, single)
    else:
        toward_zero(code, f"vfncvt.f.{x}.w", single, source)
        code.asm.emit(f"vfwcvt.{x}.f.v", back, single)
        code.sew(64)
    code.asm.emit("vmsne.vv", "v0", back, source)
    code.clobber_v0()
    code.sew(32)
    code.asm.emit("vor.vi", single, single, 1, "v0.t")
    return single


INT_TO_F32_ROUND_TO_ODD_SCRATCH = 2


def float_to_int(
    code: VectorCode, source: str, from_bits: int, to_bits: int, signed: bool, result: Callable[[], str]
) -> None:
    """Truncate, saturating (RVV does); NaN gives 0, as in the interpreters."""
    dest = convert_float_to_int(code, source, from_bits, to_bits, signed, result)
    code.sew(from_bits)
    code.asm.emit("vmfne.vv", "v0", source, source)
    code.clobber_v0()
    code.sew(to_bits)
    code.asm.emit("vmerge.vim", dest, dest, 0, "v0")


def convert_float_to_int(
    code: VectorCode, source: str, from_bits: int, to_bits: int, signed: bool, result: Callable[[], str]
) -> str:
    """Truncate to an integer, saturating at the result's range; returns the result register."""
    x = "x" if signed else "xu"
    if to_bits == 2 * from_bits:
        code.sew(from_bits)
        dest = result()
        toward_zero(code, f"vfwcvt.{x}.f.v", dest, source)
    elif to_bits == from_bits:
        code.sew(from_bits)
        dest = result()
        toward_zero(code, f"vfcvt.{x}.f.v", dest, source)
    else:
        # Narrow to half the width (saturating), then clamp to the result's range.
        half, bits = code.temp(), from_bits // 2
        code.sew(bits)
        toward_zero(code, f"vfncvt.{x}.f.w", half, source)
        if to_bits < bits:
            bound = code.int_temp()
            if signed:
                code.asm.li(bound, (1 << (to_bits - 1)) - 1)
                code.asm.emit("vmin.vx", half, half, bound)
                code.asm.li(bound, -(1 << (to_bits - 1)))
                code.asm.emit("vmax.vx", half, half, bound)
            else:
                code.asm.li(bound, (1 << to_bits) - 1)
                code.asm.emit("vminu.vx", half, half, bound)
        dest = int_resize(code, half, bits, to_bits, signed, result())
    return dest


def float_to_int_scratch(from_bits: int, to_bits: int) -> int:
    if to_bits in (from_bits, 2 * from_bits):
        return 0
    return 1 + int_resize_scratch(from_bits // 2, to_bits, into_dest=True)


def f64_to_f32_round_to_odd(code: VectorCode, source: str) -> str:
    """An f64 as f32 rounded to odd, in a temporary; a NaN keeps its sign and top payload
    (quieted, as numpy's f64 to f32 does), where RVV would give the canonical NaN."""
    asm = code.asm
    single, nan, constant = code.temp(), code.temp(), code.int_temp()
    code.sew(32)
    asm.emit("vfncvt.rod.f.f.w", single, source)
    asm.emit("vnsrl.wi", nan, source, 29)
    asm.li(constant, 0x7FFFFF)
    asm.emit("vand.vx", nan, nan, constant)
    asm.li(constant, 0x7FC00000)
    asm.emit("vor.vx", nan, nan, constant)
    sign = code.temp()
    asm.li(constant, 63)
    asm.emit("vnsrl.wx", sign, source, constant)
    asm.emit("vsll.vi", sign, sign, 31)
    asm.emit("vor.vv", nan, nan, sign)
    code.sew(64)
    asm.emit("vmfne.vv", "v0", source, source)
    code.clobber_v0()
    code.sew(32)
    asm.emit("vmerge.vvm", single, single, nan, "v0")
    return single


F64_TO_F32_ROUND_TO_ODD_SCRATCH = 3


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
"""The formats besides bf16 (the top half of an f32, converted on its own), by element kind."""


def half_to_f32(code: VectorCode, source: str, kind: str) -> str:
    """A 16- or 8-bit float widened to f32 (exactly), in a temporary at SEW 32.

    bf16 is the top half of an f32.  The others move their exponent and
    mantissa into place and multiply by 2^(127 - bias), which rebiases
    normal numbers and normalises subnormal ones exactly; inf and NaN
    (payload kept, as numpy does) are set apart, and the sign is put back.
    """
    single = code.temp()
    code.sew(32)
    if kind == "bf16":
        code.asm.emit("vzext.vf2", single, source)
        code.asm.emit("vsll.vi", single, single, 16)
        return single
    form = NARROW_FLOATS[kind]
    code.asm.emit(f"vzext.vf{32 // form.bits}", single, source)
    sign, constant = code.temp(), code.int_temp()
    code.asm.li(constant, 1 << (form.bits - 1))
    if form.unsigned_zero:  # the pattern of -0 is the NaN
        code.asm.emit("vmseq.vx", "v0", single, constant)
    code.asm.emit("vand.vx", sign, single, constant)
    code.asm.emit("vxor.vv", single, single, sign)
    code.asm.emit("vsll.vi", sign, sign, 32 - form.bits)
    if not form.unsigned_zero:  # the top exponent: infinity or NaN
        code.asm.li(constant, form.special)
        code.asm.emit("vmsgeu.vx", "v0", single, constant)
    code.clobber_v0()
    code.asm.emit("vsll.vi", single, single, 23 - form.mantissa)
    code.asm.emit("vfmul.vf", single, single, float_constant(code, 2.0 ** (127 - form.bias), 32))
    if form.unsigned_zero:
        code.asm.emit("vor.vv", single, single, sign)
        code.asm.li(constant, 0x7FC00000)
        code.asm.emit("vmerge.vxm", single, single, constant, "v0")
        return single
    code.asm.li(constant, 0x7F800000)
    code.asm.emit("vor.vx", single, single, constant, "v0.t")
    code.asm.emit("vor.vv", single, single, sign)
    return single


HALF_TO_F32_SCRATCH = {"bf16": 1, "f16": 2, "f8E5M2": 2, "f8E4M3FN": 2, "f8E4M3FNUZ": 2, "f8E5M2FNUZ": 2}


def f32_to_half(code: VectorCode, source: str, kind: str, dest: str) -> None:
    """An f32 rounded to the nearest even 16- or 8-bit float, into `dest` (at its SEW).

    On the bits: bf16 adds 0x7fff plus the kept low bit and keeps the
    top half (NaN becomes the quiet NaN).  The others rebias normal
    results the same way, round subnormal ones by adding 2^k on the FPU
    (whose ulp is then the format's smallest subnormal), saturate from
    the format's overflow threshold on (the rounding carries smaller
    values there itself) to infinity, or to NaN for e4m3fn, which has no
    infinity.  A NaN keeps its sign and, in f16, its top payload bits,
    never turning into an infinity, as numpy does; fp8 NaNs are ml_dtypes'
    one quiet NaN.
    """
    if kind == "bf16":
        return f32_to_bf16(code, source, dest)
    form = NARROW_FLOATS[kind]
    asm, shift = code.asm, 23 - form.mantissa
    rebias = (127 - form.bias) << 23
    subnormal_scale = 2.0 ** (24 - form.bias - form.mantissa)
    magnitude, rounded, subnormal, constant = code.temp(), code.temp(), code.temp(), code.int_temp()
    code.sew(32)
    asm.emit("vsll.vi", magnitude, source, 1)
    asm.emit("vsrl.vi", magnitude, magnitude, 1)
    asm.emit("vsrl.vi", rounded, magnitude, shift)
    asm.emit("vand.vi", rounded, rounded, 1)
    asm.li(constant, (1 << (shift - 1)) - 1 - rebias)
    asm.emit("vadd.vx", rounded, rounded, constant)
    asm.emit("vadd.vv", rounded, rounded, magnitude)
    asm.emit("vsrl.vi", rounded, rounded, shift)
    asm.emit("vfadd.vf", subnormal, magnitude, float_constant(code, subnormal_scale, 32))
    asm.li(constant, _float_bits(subnormal_scale, 32))
    asm.emit("vsub.vx", subnormal, subnormal, constant)
    asm.li(constant, rebias + (1 << 23))
    asm.emit("vmsltu.vx", "v0", magnitude, constant)
    asm.emit("vmerge.vvm", rounded, rounded, subnormal, "v0")
    asm.li(constant, form.overflow)
    asm.emit("vmsgeu.vx", "v0", magnitude, constant)
    asm.li(constant, form.overflow_bits)
    asm.emit("vmerge.vxm", rounded, rounded, constant, "v0")
    nan = subnormal
    if form.nan is None:
        asm.emit("vsrl.vi", nan, magnitude, shift)
        asm.li(constant, (1 << form.mantissa) - 1)
        asm.emit("vand.vx", nan, nan, constant)
        asm.li(constant, 1)
        asm.emit("vmaxu.vx", nan, nan, constant)
        asm.li(constant, form.special)
        asm.emit("vor.vx", nan, nan, constant)
    else:
        asm.li(constant, form.nan)
        asm.emit("vmv.v.x", nan, constant)
    _merge_where_nan(code, rounded, nan, source)
    _sign_at_top(code, magnitude, source, constant, form.bits)
    if form.unsigned_zero:  # no -0: a zero takes no sign (NaN, 0x80, has it already)
        asm.emit("vmsne.vi", "v0", rounded, 0)
        asm.emit("vor.vv", rounded, rounded, magnitude, "v0.t")
    else:
        asm.emit("vor.vv", rounded, rounded, magnitude)
    _narrow_from_32(code, dest, rounded, form.bits, through=subnormal)


F32_TO_HALF_SCRATCH = {"bf16": 2, "f16": 3, "f8E5M2": 3, "f8E4M3FN": 3, "f8E4M3FNUZ": 3, "f8E5M2FNUZ": 3}


def _narrow_from_32(code: VectorCode, dest: str, source: str, bits: int, through: str) -> None:
    """dest = the low `bits` of each 32-bit element; 8 bits in two halving steps (via `through`)."""
    code.sew(16)
    code.asm.emit("vnsrl.wi", dest if bits == 16 else through, source, 0)
    if bits == 8:
        code.sew(8)
        code.asm.emit("vnsrl.wi", dest, through, 0)


def f32_to_bf16(code: VectorCode, source: str, dest: str) -> None:
    """Round to nearest even on the bits: x + 0x7fff + ((x >> 16) & 1), top half.

    A NaN becomes the quiet NaN with its sign, as ml_dtypes makes it.
    """
    asm = code.asm
    code.sew(32)
    rounding, nan, constant = code.temp(), code.temp(), code.int_temp()
    asm.emit("vsrl.vi", rounding, source, 16)
    asm.emit("vand.vi", rounding, rounding, 1)
    asm.li(constant, 0x7FFF)
    asm.emit("vadd.vx", rounding, rounding, constant)
    asm.emit("vadd.vv", rounding, rounding, source)
    asm.emit("vsrl.vi", rounding, rounding, 16)
    _sign_at_top(code, nan, source, constant, 16)
    asm.li(constant, 0x7FC0)
    asm.emit("vor.vx", nan, nan, constant)
    _merge_where_nan(code, rounding, nan, source)
    code.sew(16)
    asm.emit("vnsrl.wi", dest, rounding, 0)


def _sign_at_top(code: VectorCode, dest: str, source: str, constant: str, bits: int) -> None:
    """dest = the sign of each f32 of `source` where a `bits`-bit float has it (SEW 32)."""
    code.asm.emit("vsrl.vi", dest, source, 32 - bits)
    code.asm.li(constant, 1 << (bits - 1))
    code.asm.emit("vand.vx", dest, dest, constant)


def _merge_where_nan(code: VectorCode, dest: str, nan: str, source: str) -> None:
    """dest = `nan` where `source` is a NaN, through v0."""
    code.asm.emit("vmfne.vv", "v0", source, source)
    code.clobber_v0()
    code.asm.emit("vmerge.vvm", dest, dest, nan, "v0")




def round_to_integral(code: VectorCode, kind: str, result: str, x: str, bits: int) -> None:
    """Round `x` to an integral float into `result` without touching frm.

    One sequence per `kind` (of math's roundings): trunc converts towards
    zero; floor/ceil step the truncation by one where it went the wrong
    way; round (half away from zero) steps where the dropped fraction is
    at least one half; roundeven adds and subtracts 2^(mantissa bits) in
    the default round-to-nearest-even mode.  Magnitudes of 2^(mantissa
    bits) and above (and NaN, inf) are already integral and are kept; the
    sign is copied back so -0.5 rounds to -0.0.
    """
    asm = code.asm
    limit = float_constant(code, 2.0**23 if bits == 32 else 2.0**52, bits)
    if kind == "roundeven":
        asm.emit("vfabs.v", result, x)
        asm.emit("vfadd.vf", result, result, limit)
        asm.emit("vfsub.vf", result, result, limit)
    else:
        toward_zero(code, "vfcvt.x.f.v", result, x)
        asm.emit("vfcvt.f.x.v", result, result)
    if kind in ("floor", "ceil"):
        one = float_constant(code, 1.0, bits)
        if kind == "floor":
            asm.emit("vmflt.vv", "v0", x, result)
            asm.emit("vfsub.vf", result, result, one, "v0.t")
        else:
            asm.emit("vmflt.vv", "v0", result, x)
            asm.emit("vfadd.vf", result, result, one, "v0.t")
    elif kind == "round":
        fraction, step = code.temp(), code.temp()
        asm.emit("vfsub.vv", fraction, x, result)
        asm.emit("vfabs.v", fraction, fraction)
        asm.emit("vmfge.vf", "v0", fraction, float_constant(code, 0.5, bits))
        asm.emit("vfmv.v.f", step, float_constant(code, 1.0, bits))
        asm.emit("vfsgnj.vv", step, step, x)
        asm.emit("vfadd.vv", result, result, step, "v0.t")
    asm.emit("vfsgnj.vv", result, result, x)
    magnitude = code.temp()
    asm.emit("vfabs.v", magnitude, x)
    asm.emit("vmflt.vf", "v0", magnitude, limit)
    asm.emit("vmerge.vvm", result, x, result, "v0")
    code.clobber_v0()


def round_to_integral_scratch(kind: str) -> int:
    return 3 if kind == "round" else 1
