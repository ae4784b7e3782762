"""The `decompose-dot-scaled` pass: `tt.dot_scaled` as an f32 `tt.dot` of scaled operands.

`tl.dot_scaled` multiplies microscaled (OCP MX) operands: e2m1 (two 4-bit
floats to a byte, packed along K), e4m3, e5m2, bf16 or fp16 elements, each
group of K elements of an e2m1/e4m3/e5m2 operand scaled by an e8m0 byte
(2^(byte - 127); 255 is NaN).  The NPU has no MX unit, so, as Triton's
interpreter computes it, each operand is decoded to f32 and multiplied by
its scale, and an f32 `tt.dot` (IEEE) adds the product to the accumulator.
Every step is exact in f32 but the sums of the product, as in any f32 dot.

e2m1 decodes without a table: the code's exponent e and mantissa m give
m/2 when e is 0 and (2 + m) * 2^(e - 2) otherwise.  A scale byte of 0 is
2^-127 when the dot computes in bf16 (no fp16 operand), as the
interpreter keeps it, and 0 in fp16.

Refuses, naming the op: batched (rank > 2) scaled dots, e2m1 packed along
M or N (`k_pack = false`), and accumulators other than f32.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseArrayBase,
    Float32Type,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i32,
)
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tnpu.diagnostics import CompileError
from tnpu.dialects import tt
from tnpu.dialects.shapes import element_type_of, shape_of
from tnpu.passes.arith_builder import ArithBuilder

F32 = Float32Type()
E8M0_NAN = 0xFF
SMALLEST_E8M0_IN_BF16 = 0x00400000
"""The f32 bits of 2^-127, which a zero scale byte stands for when the dot computes in bf16."""


class DecomposeDotScaled(RewritePattern):
    """`tt.dot_scaled a scale sa, b scale sb, c` → `tt.dot (decode(a) * sa), (decode(b) * sb), c`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.DotScaledOp, rewriter: PatternRewriter) -> None:
        if len(shape_of(op.d.type)) != 2:
            raise CompileError(op, "batched (rank > 2) scaled dots are not supported")
        if element_type_of(op.d.type) != F32:
            raise CompileError(op, "only an f32 accumulator is supported")
        formats = (tt.ScaleDotElemType.of(op.a_elem_type), tt.ScaleDotElemType.of(op.b_elem_type))
        bf16_scales = tt.ScaleDotElemType.FP16 not in formats
        operands = _Operands(ArithBuilder(rewriter, op.location), op, bf16_scales)
        lhs = operands.decoded(op.a, op.a_scale, formats[0], bool(op.lhs_k_pack.value.data), is_rhs=False)
        rhs = operands.decoded(op.b, op.b_scale, formats[1], bool(op.rhs_k_pack.value.data), is_rhs=True)
        dot = operands.tt(tt.DotOp, [lhs, rhs, op.c], op.d.type)
        rewriter.replace(op, [], [dot])


@dataclass
class _Operands:
    """Builds an operand's f32 values, before the op being rewritten."""

    b: ArithBuilder
    op: tt.DotScaledOp
    bf16_scales: bool

    def tt(self, op_type: type[Operation], operands: list[SSAValue], result: TensorType, **properties) -> SSAValue:
        return self.b.insert(op_type.create(operands=operands, result_types=[result], properties=properties))

    def decoded(
        self, value: SSAValue, scale: SSAValue | None, format_: tt.ScaleDotElemType, k_pack: bool, is_rhs: bool
    ) -> SSAValue:
        """The operand as f32, in its logical [M, K] (lhs) or [K, N] (rhs) shape, scaled."""
        e2m1 = format_ == tt.ScaleDotElemType.E2M1
        if e2m1 and not k_pack:
            raise CompileError(self.op, "e2m1 operands packed along M or N (k_pack = false) are not supported")
        # K last: the rhs ([K, N], scales [N, K / group]) is decoded and scaled transposed.
        transpose = is_rhs and (e2m1 or scale is not None)
        value = self.transposed(value) if transpose else value
        if e2m1:
            value = self.e2m1(value)
        elif element_type_of(value.type) != F32:
            value = self.b.convert(value, F32)
        if scale is not None:
            value = self.b.mul(value, self.scales(scale, shape_of(value.type)))
        return self.transposed(value) if transpose else value

    def e2m1(self, packed: SSAValue) -> SSAValue:
        """Two 4-bit floats to a byte, low nibble first along the last axis, as f32."""
        low = self.e2m1_values(self.b.andi(packed, 0x0F))
        high = self.e2m1_values(self.b.andi(self.b.shrui(packed, 4), 0x0F))
        rows, columns = shape_of(packed.type)
        pairs = self.tt(tt.JoinOp, [low, high], TensorType(F32, [rows, columns, 2]))
        return self.tt(tt.ReshapeOp, [pairs], TensorType(F32, [rows, 2 * columns]))

    def e2m1_values(self, codes: SSAValue) -> SSAValue:
        """e2m1 codes (0..15 in i8) as f32: sign, then m/2 or (2 + m) * 2^(e - 2)."""
        b = self.b
        code = b.extui(codes, i32)
        exponent, mantissa = b.andi(b.shrui(code, 1), 3), b.andi(code, 1)
        normal = b.shli(b.addi(mantissa, 2), b.subi(exponent, 1))
        halves = b.select(b.compare_int("eq", exponent, 0), mantissa, normal)
        magnitude = b.mul(b.to_float(halves, F32), 0.5)
        return b.select(b.compare_int("ne", b.andi(code, 8), 0), b.neg(magnitude), magnitude)

    def scales(self, scale: SSAValue, shape: tuple[int, ...]) -> SSAValue:
        """The e8m0 scale bytes ([rows, K / group]) as f32 factors repeated over each group: [rows, K]."""
        b = self.b
        byte = b.extui(scale, i32)
        bits = b.shli(byte, 23)
        if self.bf16_scales:
            bits = b.select(b.compare_int("eq", byte, 0), SMALLEST_E8M0_IN_BF16, bits)
        factor = b.select(b.compare_int("eq", byte, E8M0_NAN), math.nan, b.bitcast(bits, F32))
        rows, groups = shape_of(factor.type)
        group = shape[1] // groups
        column = self.tt(tt.ExpandDimsOp, [factor], TensorType(F32, [rows, groups, 1]), axis=IntegerAttr(2, i32))
        repeated = self.tt(tt.BroadcastOp, [column], TensorType(F32, [rows, groups, group]))
        return self.tt(tt.ReshapeOp, [repeated], TensorType(F32, [rows, groups * group]))

    def transposed(self, value: SSAValue) -> SSAValue:
        rows, columns = shape_of(value.type)
        result = TensorType(element_type_of(value.type), [columns, rows])
        return self.tt(tt.TransOp, [value], result, order=DenseArrayBase.from_list(i32, [1, 0]))


@dataclass(frozen=True)
class DecomposeDotScaledPass(ModulePass):
    """`tt.dot_scaled` (MX formats) as an f32 `tt.dot` of decoded, scaled operands."""

    name = "decompose-dot-scaled"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(DecomposeDotScaled(), apply_recursively=False).rewrite_module(op)
