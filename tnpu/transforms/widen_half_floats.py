"""The `widen-half-floats` pass: f16/bf16 (and fp8) arithmetic computed in a wider float.

A target without Zvfh/Zvfbfmin (RV64GCV as qemu 7.2 runs it) has no
16-bit float instructions, nor any 8-bit ones.  This pass rewrites each
arithmetic op on f16, bf16 or fp8 (e5m2, e4m3fn and their FNUZ forms) values as the same op on
f32 (`arith.extf` of the operands, the op, `arith.truncf` of a float
result), so the backend only meets these floats in loads, stores and
conversions.  fp8 has fewer mantissa bits than f16, so all that follows
about f16 holds for it too.

Why the answer does not change: +, -, ×, ÷ and square root computed in f32
and rounded to f16 or bf16 give the correctly rounded result, because f32
carries at least 2p + 2 bits for their p-bit mantissa (p = 11, 8): the
second rounding is innocuous.  min, max, negation, absolute value,
copysign, the roundings to integral values, fmod and comparisons are exact
in any precision.  `math.fma` of f16 runs in f64: its product is exact
there, and where the f64 sum rounds at all the discarded part lies far
below f16's rounding point, so rounding to f16 again gives the once-rounded
result.

`tile.matmul` with f16/bf16 operands or accumulator multiplies f32 tiles:
each 16-bit tile is widened by a `tile.map` of `arith.extf` (exact), the
products are exact in f32 and summed there, and an f16 result is rounded
once by a `tile.map` of `arith.truncf`, which is how the MXU and Triton's
`tt.dot` define fp16 x fp16 -> fp16 (products summed in f32).

Refuses `math.fma` on bf16 (f64 does not hold the sum of a bf16 product
and a tiny addend exactly, and no wider type rounds once), naming the op.
Leaves constants, `select`, bitcasts and conversions (the backend does
those on the bits) and every op on other types untouched.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith as xdsl_arith
from xdsl.dialects import math
from xdsl.dialects.builtin import (
    BFloat16Type,
    Float8E4M3FNType,
    Float8E4M3FNUZType,
    Float8E5M2FNUZType,
    Float8E5M2Type,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
    TensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tnpu.diagnostics import CompileError
from tnpu.dialects import arith, tile
from tnpu.dialects.shapes import element_type_of, with_element_type

EXACT_IN_F32: tuple[type[Operation], ...] = (
    xdsl_arith.AddfOp, xdsl_arith.SubfOp, xdsl_arith.MulfOp, xdsl_arith.DivfOp,
    xdsl_arith.NegfOp, xdsl_arith.MaximumfOp, xdsl_arith.MinimumfOp, xdsl_arith.MaxnumfOp,
    xdsl_arith.MinnumfOp, arith.RemFOp, xdsl_arith.CmpfOp, math.SqrtOp,
    math.AbsFOp, math.CopySignOp, math.FloorOp, math.CeilOp, math.RoundOp, math.RoundEvenOp,
    math.TruncOp,
)  # fmt: skip
"""Ops whose f16/bf16 result is the f32 result rounded once more (see the module docstring)."""


NARROW_FLOATS = (Float16Type, BFloat16Type, Float8E5M2Type, Float8E4M3FNType, Float8E5M2FNUZType, Float8E4M3FNUZType)


def is_half_float(type_: Attribute) -> bool:
    """f16, bf16 or an fp8 format the backend stores, as a scalar or the element of a tensor."""
    return isinstance(element_type_of(type_), NARROW_FLOATS)


class ComputeHalfFloatsWider(RewritePattern):
    """`op` on f16/bf16 values → extf operands, `op` on f32 (f64 for fma), truncf results."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not any(is_half_float(v.type) for v in (*op.operands, *op.results)):
            return
        if isinstance(op, math.FmaOp):
            if isinstance(element_type_of(op.result.type), BFloat16Type):
                raise CompileError(op, "bf16 fma has no once-rounded expansion without bf16 FMA hardware")
            wide: Attribute = Float64Type()
        elif isinstance(op, EXACT_IN_F32):
            wide = Float32Type()
        else:
            return
        operands = [self._widened(value, wide, op, rewriter) for value in op.operands]
        result_types = [
            with_element_type(r.type, wide) if is_half_float(r.type) else r.type for r in op.results
        ]
        wider = type(op).create(
            operands=operands,
            result_types=result_types,
            properties=dict(op.properties),
            attributes=dict(op.attributes),
        )
        wider.location = op.location
        rewriter.insert(wider)
        replacements: list[SSAValue] = []
        for old, new in zip(op.results, wider.results):
            if is_half_float(old.type):
                narrow = xdsl_arith.TruncFOp(new, old.type)
                narrow.location = op.location
                rewriter.insert(narrow)
                new = narrow.result
            replacements.append(new)
        rewriter.replace(op, [], replacements)

    @staticmethod
    def _widened(
        value: SSAValue, wide: Attribute, op: Operation, rewriter: PatternRewriter
    ) -> SSAValue:
        if not is_half_float(value.type):
            return value
        extend = xdsl_arith.ExtFOp(value, with_element_type(value.type, wide))
        extend.location = op.location
        rewriter.insert(extend)
        return extend.result


class MultiplyHalfFloatTilesInF32(RewritePattern):
    """`tile.matmul` on f16/bf16 tiles → the same matmul on f32 tiles, an f16 result rounded once."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile.MatmulOp, rewriter: PatternRewriter) -> None:
        if not any(is_half_float(v.type) for v in (op.lhs, op.rhs, op.acc)):
            return
        lhs, rhs, acc = (
            converted_tile(v, Float32Type(), op, rewriter) if is_half_float(v.type) else v
            for v in (op.lhs, op.rhs, op.acc)
        )
        wider = tile.MatmulOp.create(
            operands=[lhs, rhs, acc], result_types=[with_element_type(op.result.type, Float32Type())]
        )
        wider.location = op.location
        rewriter.insert(wider)
        result = wider.result
        if is_half_float(op.result.type):
            result = converted_tile(result, element_type_of(op.result.type), op, rewriter)
        rewriter.replace(op, [], [result])


def converted_tile(
    value: SSAValue, element: Attribute, op: Operation, rewriter: PatternRewriter
) -> SSAValue:
    """A `tile.map` of one `arith.extf`/`truncf`: `value`'s tile in float type `element`."""
    assert isinstance(value.type, TensorType)
    body = Block(arg_types=[value.type.element_type])
    widening = element.bitwidth > body.args[0].type.bitwidth  # pyright: ignore[reportAttributeAccessIssue]  # an element type known to be an integer or a float
    convert_type = xdsl_arith.ExtFOp if widening else xdsl_arith.TruncFOp
    convert = convert_type(body.args[0], element)
    convert.location = op.location
    body.add_ops([convert, tile.YieldOp(convert.result)])
    converted = tile.MapOp([value], [with_element_type(value.type, element)], Region(body))  # pyright: ignore[reportArgumentType]  # with_element_type returns an Attribute; the op takes the exact type
    converted.location = op.location
    rewriter.insert(converted)
    return converted.results[0]


@dataclass(frozen=True)
class WidenHalfFloatsPass(ModulePass):
    """Compute f16/bf16 arithmetic in f32 (fma in f64), rounding each result back once.

    For targets without 16-bit float arithmetic; results are bit-identical
    to computing in the 16-bit type (see the module docstring for why).
    `tile.matmul` of 16-bit tiles multiplies f32 tiles, as the MXU does.
    """

    name = "widen-half-floats"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [ComputeHalfFloatsWider(), MultiplyHalfFloatTilesInF32()], dce_enabled=False
            ),
            apply_recursively=False,
        ).rewrite_module(op)
