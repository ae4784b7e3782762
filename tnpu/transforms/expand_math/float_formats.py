"""The float formats the expansions compute in (f32, f64), and picking a constant by width."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from xdsl.dialects.builtin import Float32Type, Float64Type
from xdsl.ir import SSAValue

from tnpu.dialects.shapes import element_type_of

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
