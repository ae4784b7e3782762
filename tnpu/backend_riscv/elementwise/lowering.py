"""Instruction selection for an elementwise program: each op to the family that
lowers it (`arithmetic` by table and by function, `compares`, `casts`), in the
strip loop `program_code` builds."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xdsl.dialects import arith, math
from xdsl.ir import Operation

from tnpu.backend_riscv.builder import Builder
from tnpu.backend_riscv.elementwise import arithmetic, casts, compares  # the op families
from tnpu.backend_riscv.elementwise.program import ElementwiseProgram
from tnpu.backend_riscv.elementwise.program_code import ProgramCode
from tnpu.diagnostics import CompileError
from tnpu.dialects.arith import RemFOp
from tnpu.dialects.dispatch import entry_for


def emit_elementwise(b: Builder, program: ElementwiseProgram) -> None:
    """Emit `program` as one strip loop."""
    _ElementwiseLowering(b, program).run()


class _ElementwiseLowering(ProgramCode):
    """Each op of the program lowered by its family."""

    def lower(self, op: Operation) -> None:
        if op.regions:
            raise CompileError(op, "ops with regions cannot be vectorized in a body")
        if arithmetic.lower_by_table(self, op):
            return
        select = entry_for(_HANDLERS, op)
        if select is None:
            raise CompileError(op, "has no RVV lowering (run expand-math for math functions)")
        select(self, op)


_HANDLERS: Mapping[type[Operation], Callable[[ProgramCode, Operation], None]] = {
    arith.CmpiOp: compares.compare,
    arith.CmpfOp: compares.compare,
    arith.SelectOp: compares.select,
    arith.ExtSIOp: casts.cast,
    arith.ExtUIOp: casts.cast,
    arith.TruncIOp: casts.cast,
    arith.IndexCastOp: casts.cast,
    arith.SIToFPOp: casts.cast,
    arith.UIToFPOp: casts.cast,
    arith.FPToSIOp: casts.cast,
    arith.FPToUIOp: casts.cast,
    arith.ExtFOp: casts.cast,
    arith.TruncFOp: casts.cast,
    arith.BitcastOp: casts.cast,
    RemFOp: arithmetic.remf,
    math.FmaOp: arithmetic.fma,
    arith.MulUIExtendedOp: arithmetic.multiply_extended,
    arith.MulSIExtendedOp: arithmetic.multiply_extended,
    math.AbsIOp: arithmetic.absi,
    math.RsqrtOp: arithmetic.rsqrt,
}
