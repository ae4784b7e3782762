"""The `expand-integer-division` pass: floor and ceiling divisions as truncating ones.

`arith.floordivsi`, `arith.ceildivsi` and `arith.ceildivui` round the
quotient toward -inf or +inf; RISC-V's `div`/`vdiv` (like most ISAs)
truncate toward zero.  This pass rewrites each as the truncating quotient
`q` corrected by one where the remainder `r` is not zero and its sign
asks for it:

    floordivsi(a, b) = q - 1  where r != 0 and (r < 0) != (b < 0)     q, r = divsi, remsi
    ceildivsi(a, b)  = q + 1  where r != 0 and (r < 0) == (b < 0)
    ceildivui(a, b)  = q + 1  where r != 0                            q, r = divui, remui

on scalars, `index` values and tensors alike (tnpu's `arith` takes tensors).
The lowering makes floor divisions when it bounds a strided access whose
offset may be negative (a convolution's padded window).  A zero divisor
keeps the meaning `divsi`/`remsi` have on the target.

Matches every `floordivsi`, `ceildivsi` and `ceildivui`; refuses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tnpu.passes.arith_builder import ArithBuilder


def _quotient_and_remainder(op: Operation, builder: ArithBuilder, signed: bool) -> tuple[SSAValue, SSAValue]:
    lhs, rhs = op.operands
    divide, remainder = (arith.DivSIOp, arith.RemSIOp) if signed else (arith.DivUIOp, arith.RemUIOp)
    return builder.insert(divide(lhs, rhs)), builder.insert(remainder(lhs, rhs))


class ExpandFloorDivSI(RewritePattern):
    """`floordivsi(a, b)` → `divsi(a, b) - 1` where the remainder is nonzero and of the other sign than `b`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.FloorDivSIOp, rewriter: PatternRewriter) -> None:
        b = ArithBuilder(rewriter, op.location)
        quotient, remainder = _quotient_and_remainder(op, b, signed=True)
        signs_differ = b.xori(b.compare_int("slt", remainder, 0), b.compare_int("slt", op.rhs, 0))
        adjust = b.andi(b.compare_int("ne", remainder, 0), signs_differ)
        rewriter.replace(op, [], [b.select(adjust, b.subi(quotient, 1), quotient)])


class ExpandCeilDivSI(RewritePattern):
    """`ceildivsi(a, b)` → `divsi(a, b) + 1` where the remainder is nonzero and of the sign of `b`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CeilDivSIOp, rewriter: PatternRewriter) -> None:
        b = ArithBuilder(rewriter, op.location)
        quotient, remainder = _quotient_and_remainder(op, b, signed=True)
        signs_agree = b.compare_int("eq", b.compare_int("slt", remainder, 0), b.compare_int("slt", op.rhs, 0))
        adjust = b.andi(b.compare_int("ne", remainder, 0), signs_agree)
        rewriter.replace(op, [], [b.select(adjust, b.addi(quotient, 1), quotient)])


class ExpandCeilDivUI(RewritePattern):
    """`ceildivui(a, b)` → `divui(a, b) + 1` where the remainder is nonzero."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.CeilDivUIOp, rewriter: PatternRewriter) -> None:
        b = ArithBuilder(rewriter, op.location)
        quotient, remainder = _quotient_and_remainder(op, b, signed=False)
        adjust = b.compare_int("ne", remainder, 0)
        rewriter.replace(op, [], [b.select(adjust, b.addi(quotient, 1), quotient)])


@dataclass(frozen=True)
class ExpandIntegerDivisionPass(ModulePass):
    """Floor and ceiling integer divisions as truncating division and remainder (module docstring)."""

    name = "expand-integer-division"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = [ExpandFloorDivSI(), ExpandCeilDivSI(), ExpandCeilDivUI()]
        PatternRewriteWalker(GreedyRewritePatternApplier(patterns), apply_recursively=False).rewrite_module(op)
