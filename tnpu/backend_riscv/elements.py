"""Element types as the RVV code sees them: width in memory and in registers.

Every tile element type maps to one RVV element width (SEW).  `i1` is a
byte in memory (as Triton stores booleans) and a mask register inside a
vector body.  `bf16` and `f16` are floats stored as 16 bits, and the fp8
formats `f8E5M2` and `f8E4M3FN` (torch's float8_e5m2 and float8_e4m3fn,
Triton's fp8e5 and fp8e4nv) and AMD's `f8E5M2FNUZ` and `f8E4M3FNUZ`
(Triton's fp8e5b16 and fp8e4b8) floats stored as 8: the target has no
Zvfh/Zvfbfmin (nor any fp8), so arithmetic on them goes through f32 (the
lowering's `arith.extf`/`truncf`) and conversions are done with integer
vector ops.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    IndexType,
    IntegerType,
)
from xdsl.ir import Attribute


@dataclass(frozen=True)
class Element:
    """What the code generator needs to know about an element type."""

    bits: int
    """Width in a vector register (SEW); i1 counts as 8 (its byte in memory)."""
    is_float: bool
    """A floating-point type: conversions to and from it are value conversions."""
    is_mask: bool = False
    """i1: a byte in memory, a mask register in a vector body."""
    half_float: str | None = None
    """"bf16", "f16" or an fp8 format ("f8E5M2", ...): a float the FPU lacks, stored as 16 or
    8 bits, computed on only after extension."""

    @property
    def fpu(self) -> bool:
        """The vector and scalar FPU compute in this type (f32, f64; not the 16-bit floats)."""
        return self.is_float and self.half_float is None

    @property
    def bytes(self) -> int:
        return self.bits // 8

    @property
    def log2_bytes(self) -> int:
        return self.bytes.bit_length() - 1

    @property
    def sew(self) -> str:
        return f"e{self.bits}"


# Floats the vector unit stores but does not compute on: their bits and `Element.half_float` (storage.py maps it to numpy).
_NARROW_FLOATS: dict[type[Attribute], tuple[int, str]] = {
    BFloat16Type: (16, "bf16"),
    Float16Type: (16, "f16"),
    Float8E5M2Type: (8, "f8E5M2"),
    Float8E4M3FNType: (8, "f8E4M3FN"),
    Float8E4M3FNUZType: (8, "f8E4M3FNUZ"),
    Float8E5M2FNUZType: (8, "f8E5M2FNUZ"),
}


ADDRESS = Element(64, False)
"""An `index` value, or an address: 64 bits, signed."""


def element_of(type_: Attribute) -> Element | None:
    """The element facts of a scalar type, or None for a type the backend lacks."""
    if isinstance(type_, IndexType):
        return ADDRESS
    if isinstance(type_, IntegerType):
        width = type_.width.data
        if width == 1:
            return Element(8, False, is_mask=True)
        return Element(width, False) if width in (8, 16, 32, 64) else None
    if isinstance(type_, Float32Type):
        return Element(32, True)
    if isinstance(type_, Float64Type):
        return Element(64, True)
    for narrow, (bits, name) in _NARROW_FLOATS.items():
        if isinstance(type_, narrow):
            return Element(bits, True, half_float=name)
    return None


def lmul_name(eighths: int) -> str:
    """The LMUL operand of vsetvli for a group of `eighths`/8 registers."""
    return f"m{eighths // 8}" if eighths >= 8 else f"mf{8 // eighths}"
