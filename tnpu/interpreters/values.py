"""How tnpu's interpreters hold IR values: as numpy arrays and numpy scalars.

A value of type `tensor<4x8xf32>` is a numpy array of shape (4, 8) and dtype
float32; a scalar `f32` is a numpy scalar (`np.float32`).  The numpy dtype is
the IR element type, bit for bit:

| IR type            | numpy dtype                                   |
|--------------------|-----------------------------------------------|
| i1                 | bool                                          |
| i8 … i64           | int8 … int64 (two's complement, any signedness)|
| index              | int64                                         |
| f16, f32, f64      | float16, float32, float64                     |
| bf16, f8 variants  | ml_dtypes' bfloat16, float8_e5m2, ...         |
| !tt.ptr<T>         | int64 byte address (see `tnpu.interpreters.memory`) |

Integers carry no signedness, as in MLIR: an op that reads them unsigned
views the bits as `uintN` (`as_unsigned`).  Values are never written in
place, so one array may back several SSA values.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    AnyFloat,
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
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import InterpretationError

from tnpu.dialects.tt import PointerType

Value = Any
"""A numpy array (tensor/vector types) or numpy scalar (scalar types)."""

_FLOAT_DTYPES: dict[type[Attribute], np.dtype] = {
    Float16Type: np.dtype(np.float16),
    Float32Type: np.dtype(np.float32),
    Float64Type: np.dtype(np.float64),
    BFloat16Type: np.dtype(ml_dtypes.bfloat16),
    Float8E5M2Type: np.dtype(ml_dtypes.float8_e5m2),
    Float8E4M3FNType: np.dtype(ml_dtypes.float8_e4m3fn),
    Float8E5M2FNUZType: np.dtype(ml_dtypes.float8_e5m2fnuz),
    Float8E4M3FNUZType: np.dtype(ml_dtypes.float8_e4m3fnuz),
}

ADDRESS_DTYPE = np.dtype(np.int64)
"""Pointers are byte addresses held as int64."""


def element_type(type_: Attribute) -> Attribute:
    """The element type of a tensor or vector type; a scalar type itself."""
    if isinstance(type_, TensorType | VectorType):
        return type_.element_type
    return type_


def is_shaped(type_: Attribute) -> bool:
    return isinstance(type_, TensorType | VectorType)


def numpy_dtype(type_: Attribute) -> np.dtype:
    """The numpy dtype holding values of `type_` (or of its elements)."""
    element = element_type(type_)
    if isinstance(element, IntegerType):
        width = element.width.data
        if width == 1:
            return np.dtype(np.bool_)
        if width in (8, 16, 32, 64):
            return np.dtype(f"int{width}")
    elif isinstance(element, IndexType):
        return np.dtype(np.int64)
    elif isinstance(element, PointerType):
        return ADDRESS_DTYPE
    elif type(element) in _FLOAT_DTYPES:
        return _FLOAT_DTYPES[type(element)]
    raise InterpretationError(f"no numpy representation for type {element}")


def integer_width(type_: Attribute) -> int:
    element = element_type(type_)
    if isinstance(element, IndexType):
        return 64
    assert isinstance(element, IntegerType), element
    return element.width.data


def is_float(type_: Attribute) -> bool:
    return isinstance(element_type(type_), AnyFloat)


def as_value(data: Any, type_: Attribute) -> Value:
    """`data` as a value of `type_`: an array of its dtype, or a numpy scalar."""
    array = np.asarray(data, dtype=numpy_dtype(type_))
    return array if is_shaped(type_) else array[()]


def as_unsigned(value: Value, type_: Attribute) -> Value:
    """The bits of an integer value read as unsigned (i1: 0 or 1)."""
    if integer_width(type_) == 1:
        return np.asarray(value).astype(np.uint8)
    return value.view(f"uint{integer_width(type_)}")


def as_signed(value: Value, type_: Attribute) -> Value:
    """The bits of an integer value read as two's complement (i1: 0 or -1)."""
    if integer_width(type_) == 1:
        return -np.asarray(value).astype(np.int8)
    return value


def from_bits(bits: Any, type_: Attribute) -> Value:
    """An integer value of `type_` from integer data of any width, wrapped to its width."""
    width = integer_width(type_)
    if width == 1:
        return as_value(np.asarray(bits) & 1, type_)
    # Integer-to-integer casts wrap modulo 2**width.
    unsigned = np.asarray(bits).astype(f"uint{width}")
    return as_value(unsigned.view(numpy_dtype(type_)), type_)


def integer_constant(value: int, type_: Attribute) -> Value:
    """A Python integer wrapped to the width of `type_` (as MLIR reads constants)."""
    width = integer_width(type_)
    bits = value & ((1 << width) - 1)
    if width == 1:
        return as_value(bool(bits), type_)
    if bits >= 1 << (width - 1):
        bits -= 1 << width
    return as_value(bits, type_)


def round_from_float64(result: Any, type_: Attribute) -> Value:
    """A float64 result rounded once, to nearest even, to the float type `type_`."""
    return as_value(np.asarray(result, dtype=np.float64).astype(numpy_dtype(type_)), type_)
