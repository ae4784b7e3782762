"""Where each value of a tile kernel lives: the scratchpad layout.

Every scalar and every tile of a kernel has a fixed place in one static
scratchpad (a `.bss` block the kernel addresses from `s0`).  Tiles are
row-major and contiguous, at offsets from 0 up; scalars take 8-byte slots
below `s0` (integers sign-extended, floats as their bits), so that their
offsets fit a load's 12-bit immediate.  Compile-time constants take no
space.  A reshape is a view: it shares its source's place, which is sound
because values are immutable; only loop-carried places are overwritten,
and `scf` lowering copies through temporaries when a yield would clobber a
place still to be read.

Places are not reused: scratchpads stay a few hundred KiB for the corpus,
and a distinct place per value keeps the generated code easy to check.

A load that only elementwise programs read takes no tile: it is read in
place (`InPlace`), from the global memory it was loaded from; nor does an
iota they alone read (`Iota`), whose elements they compute.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, TensorType
from xdsl.ir import Attribute, SSAValue

from tnpu.backend_riscv.elements import Element

_ALIGNMENT = 64

_NARROW_DTYPES = {"bf16": ml_dtypes.bfloat16, "f16": np.float16,
                  "f8E5M2": ml_dtypes.float8_e5m2, "f8E4M3FN": ml_dtypes.float8_e4m3fn,
                  "f8E5M2FNUZ": ml_dtypes.float8_e5m2fnuz, "f8E4M3FNUZ": ml_dtypes.float8_e4m3fnuz}  # fmt: skip
"""The numpy type of each float the FPU lacks (`Element.half_float`)."""


@dataclass(frozen=True)
class Scalar:
    """An 8-byte slot holding a scalar."""

    offset: int
    element: Element


@dataclass(frozen=True)
class Tile:
    """A row-major tile in the scratchpad."""

    offset: int
    element: Element
    shape: tuple[int, ...]

    @property
    def count(self) -> int:
        return math.prod(self.shape)

    @property
    def size(self) -> int:
        return self.count * self.element.bytes


@dataclass(frozen=True)
class Constant:
    """A scalar known at compile time, as the bits of its element type."""

    bits: int
    element: Element


@dataclass(frozen=True)
class InPlace:
    """A loaded tile read where it lies: contiguous, row-major, in global memory.

    `address` is the register holding the address of its first element;
    only elementwise programs of the load's block read it (as a stream), so
    it needs no scratchpad copy.  If `valid` (a register) is given, only
    that many leading elements are in bounds: the others read as `pad`.
    """

    address: SSAValue
    element: Element
    shape: tuple[int, ...]
    valid: SSAValue | None = None
    pad: Scalar | Constant | None = None


@dataclass(frozen=True)
class Iota:
    """An iota (or a reshape of one) that only elementwise programs read: they compute
    its elements, `start` plus their row-major index, instead of reading them."""

    start: int
    element: Element
    shape: tuple[int, ...]


Location = Scalar | Tile | Constant | InPlace | Iota


def constant_bits(value: Attribute, element: Element) -> int | None:
    """The bit pattern of an integer or float attribute, sign-extended to 64 bits."""
    if isinstance(value, IntegerAttr):
        raw = value.value.data
        if element.is_mask:
            return raw & 1
        return raw
    if isinstance(value, FloatAttr):
        if element.bits == 32:
            return struct.unpack("<i", struct.pack("<f", value.value.data))[0]
        if element.bits == 64:
            return struct.unpack("<q", struct.pack("<d", value.value.data))[0]
        if element.half_float is not None:  # rounded to nearest even, as numpy does
            narrow = _NARROW_DTYPES[element.half_float]
            return int(np.array(value.value.data, narrow).view(f"int{element.bits}"))
    return None


class Scratchpad:
    """Hands out places, in order, and remembers each value's."""

    def __init__(self) -> None:
        self.tile_bytes = 0
        self.scalar_bytes = 0
        self._places: dict[SSAValue, Location] = {}

    def __getitem__(self, value: SSAValue) -> Location:
        return self._places[value]

    def __contains__(self, value: SSAValue) -> bool:
        return value in self._places

    def new_scalar(self, element: Element) -> Scalar:
        self.scalar_bytes += 8
        return Scalar(-self.scalar_bytes, element)

    def new_tile(self, element: Element, shape: tuple[int, ...]) -> Tile:
        offset = self.tile_bytes
        size = math.prod(shape) * element.bytes
        self.tile_bytes += -(-size // _ALIGNMENT) * _ALIGNMENT
        return Tile(offset, element, shape)

    def new_place(self, type_: Attribute, element: Element) -> Scalar | Tile:
        if isinstance(type_, TensorType):
            return self.new_tile(element, tuple(type_.get_shape()))
        return self.new_scalar(element)

    def bind(self, value: SSAValue, location: Location) -> Location:
        self._places[value] = location
        return location
