"""`MathExpansion`: the pattern every expansion is; the width handling they share."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from xdsl.dialects.builtin import BFloat16Type, Float16Type, Float32Type, Float64Type, f32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern

from tnpu.diagnostics import CompileError
from tnpu.dialects.shapes import element_type_of
from tnpu.passes.arith_builder import ArithBuilder


class MathExpansion(RewritePattern, ABC):
    """Replaces one kind of `math` op by `arith` code computed in f32 or f64.

    f16 and bf16 operands are widened to f32 and the result rounded back
    (integer operands, `fpowi`'s exponent, stay as they are); f64 computes in
    f64 where the expansion has an f64 form (`f64`), and is refused, naming
    the op, where it has not.  The new ops carry the location of the op they
    replace.
    """

    op_type: ClassVar[type[Operation]]
    f64: ClassVar[bool] = True
    """Whether `expand` also computes f64 (with f64 constants, `by_width`)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.op_type):
            return
        element = element_type_of(op.results[0].type)
        if isinstance(element, Float64Type) and not self.f64:
            raise CompileError(
                op, f"has no arith expansion for f64; the target must execute '{op.name}' natively"
            )
        if not isinstance(element, Float32Type | Float64Type | Float16Type | BFloat16Type):
            raise CompileError(
                op,
                f"has no arith expansion for {element} (only f64, f32, f16 and bf16); "
                f"the target must execute '{op.name}' natively",
            )
        b = ArithBuilder(rewriter, op.location)
        narrow = isinstance(element, Float16Type | BFloat16Type)
        operands = [
            b.convert(x, f32) if narrow and element_type_of(x.type) == element else x
            for x in op.operands
        ]
        result = self.expand(b, *operands)
        if narrow:
            result = b.convert(result, element)
        rewriter.replace(op, [], [result])

    @abstractmethod
    def expand(self, b: ArithBuilder, *operands: SSAValue) -> SSAValue:
        """The result for f32 (or f64) operands, in their type."""
