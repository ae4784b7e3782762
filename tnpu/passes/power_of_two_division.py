"""`power-of-two-division`: `x / 2^k` by a constant becomes `x * 2^-k`.

A vector unit divides in several issue cycles and multiplies in one
(docs/timing.md); attention's scale `x / 8.0` (`scores / sqrt(d)` for
`d = 64`) is the case that made this worth doing.  The pass matches
`arith.divf %x, %c` where `%c` is an `arith.constant`, a scalar or a splat
tensor, equal to `±2^k` and whose reciprocal `±2^-k` is exactly
representable in the same float type (a normal or subnormal number: f16
`2^-24 ... 2^15`, bf16 `2^-133 ... 2^127`, f32 `2^-149 ... 2^127`, f64
`2^-1074 ... 2^1023`), and replaces it by `arith.mulf %x, %r` with `%r` that
reciprocal, keeping the division's fast-math flags.

Why the results are bit-identical, for every `x` including subnormals,
infinities, NaNs and signed zeros: IEEE 754 defines both operations as the
exact real result rounded once, `x / d = round(x / d)` and
`x * r = round(x * r)`.  With `d = ±2^k` and `r = ±2^-k` exact, the two
exact reals are the same number, so they round to the same float in every
rounding mode, subnormal results included (the rounding happens once, on
the same value).  The special cases agree too: `±inf` stays `±inf` (r is
finite and non-zero), `±0` stays a zero of the same sign, and NaN in gives
NaN out (a quiet NaN from either operation; neither raises an exception
the other would not: both raise inexact/underflow/overflow on the same
inputs).  A reciprocal that is not representable (`x / 2^-140` in f32,
whose reciprocal 2^140 overflows) is not rewritten; nor is any other
divisor: `x / 3.0` is not `x * (1/3)` in general, and `x / 0.0` has no
finite reciprocal.

Both consumers of the tile IR (the RISC-V backend and the NPU timer) start
from `tnpu-to-tile`, which runs this pass before `ttir-to-tile`, so they
compute the same product.  It refuses nothing: a division it does not match
is left as it is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tnpu.dialects.arith import is_splat

EXPONENT_RANGE: dict[type[Attribute], tuple[int, int]] = {
    Float16Type: (-24, 15),
    BFloat16Type: (-133, 127),
    Float32Type: (-149, 127),
    Float64Type: (-1074, 1023),
}
"""For each float type, the least and greatest `e` such that `2^e` is a finite
number of the type (the least subnormal's exponent, the greatest normal's)."""


def exact_reciprocal(divisor: float, element: Attribute) -> float | None:
    """`1 / divisor` when `divisor` is `±2^k` and `±2^-k` is a number of `element`."""
    limits = EXPONENT_RANGE.get(type(element))
    if limits is None or not math.isfinite(divisor) or divisor == 0:
        return None
    mantissa, exponent = math.frexp(divisor)  # divisor = mantissa * 2^exponent, 0.5 <= |m| < 1
    if abs(mantissa) != 0.5:
        return None
    reciprocal_exponent = 1 - exponent  # divisor = ±2^(exponent - 1)
    low, high = limits
    if not low <= reciprocal_exponent <= high:
        return None
    return math.copysign(math.ldexp(1.0, reciprocal_exponent), divisor)


def _constant_divisor(value: object) -> tuple[float, Attribute, TensorType | None] | None:
    """The divisor's value, element type and tensor type, if it is a constant."""
    owner = getattr(value, "owner", None)
    if not isinstance(owner, arith.ConstantOp):
        return None
    attr = owner.value
    if isinstance(attr, FloatAttr):
        return attr.value.data, attr.type, None
    if isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(attr.type, TensorType):
        if len(attr) == 0 or not is_splat(attr):
            return None
        element = attr.type.element_type
        if type(element) not in EXPONENT_RANGE:
            return None
        return float(attr.get_values()[0]), element, attr.type  # pyright: ignore[reportArgumentType]  # xDSL's DenseArrayBase.get_values is unbound for a union element type
    return None


@dataclass
class DivideByPowerOfTwo(RewritePattern):
    """`arith.divf %x, 2^k` → `arith.mulf %x, 2^-k` (see the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.DivfOp, rewriter: PatternRewriter) -> None:
        divisor = _constant_divisor(op.rhs)
        if divisor is None:
            return
        value, element, tensor_type = divisor
        reciprocal = exact_reciprocal(value, element)
        if reciprocal is None:
            return
        scalar = FloatAttr(reciprocal, element)  # pyright: ignore[reportArgumentType, reportCallIssue]  # xDSL's attribute constructors want the exact element type
        attr: Attribute = (
            scalar
            if tensor_type is None
            else DenseIntOrFPElementsAttr.from_list(tensor_type, [reciprocal])  # pyright: ignore[reportArgumentType, reportCallIssue]  # xDSL's attribute constructors want the exact element type
        )
        constant = arith.ConstantOp(attr, tensor_type or element)
        constant.location = op.location
        product = arith.MulfOp(op.lhs, constant.result, op.fastmath)
        product.location = op.location
        product.result.name_hint = op.result.name_hint
        divisor_op = op.rhs.owner
        rewriter.insert(constant)
        rewriter.replace(op, product)
        if isinstance(divisor_op, arith.ConstantOp) and not divisor_op.result.uses:
            rewriter.erase(divisor_op)


@dataclass(frozen=True)
class PowerOfTwoDivisionPass(ModulePass):
    """Divisions by a constant power of two become multiplications by its exact reciprocal."""

    name = "power-of-two-division"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DivideByPowerOfTwo(), apply_recursively=False).rewrite_module(op)
