"""The types of elementwise values: a scalar, or a tensor or vector of scalars.

An elementwise op (most of `arith` and `math`, Triton's compute ops, a
`tile.map` body) applies to a scalar or to every element of a tensor or
vector alike; these read and rebuild such types without caring which.
(`tt` and `tile` import them: `tt.shape_of` and `tile.shape_of` are these.)
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import TensorType, VectorType, i1
from xdsl.ir import Attribute


def shape_of(type_: Attribute) -> tuple[int, ...]:
    """The shape of a tensor or vector type; `()` for a scalar."""
    return type_.get_shape() if isinstance(type_, TensorType | VectorType) else ()


def element_type_of(type_: Attribute) -> Attribute:
    """The element type of a tensor or vector type; a scalar type itself."""
    return type_.element_type if isinstance(type_, TensorType | VectorType) else type_


def with_element_type(type_: Attribute, element: Attribute) -> Attribute:
    """`type_` holding `element`s: a tensor or vector of its shape, or `element` itself."""
    if isinstance(type_, TensorType):
        return TensorType(element, type_.get_shape())
    if isinstance(type_, VectorType):
        return VectorType(element, type_.get_shape())
    return element


def i1_like(type_: Attribute) -> Attribute:
    """`i1` in the shape of `type_`: the type of a comparison of `type_` values, or of a mask."""
    return with_element_type(type_, i1)


def row_major_strides(shape: Sequence[int]) -> list[int]:
    """The elements between neighbours along each dimension of a row-major `shape`."""
    strides, running = [], 1
    for size in reversed(shape):
        strides.append(running)
        running *= size
    return strides[::-1]
