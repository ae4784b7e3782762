"""The `lower-libdevice` pass: CUDA libdevice calls become `math`/`arith` ops."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tnpu.diagnostics import CompileError
from tnpu.dialects.shapes import element_type_of
from tnpu.dialects.tt import ExternElementwiseOp
from tnpu.passes.arith_builder import ArithBuilder
from tnpu.passes.libdevice import LIBDEVICE, LibdeviceFunction


def signature(operands: tuple[Attribute, ...], result: Attribute) -> str:
    """`(f32, i32) -> f32`, as diagnostics spell a call's element types."""
    return f"({', '.join(map(str, operands))}) -> {result}"


class SubstituteLibdeviceCall(RewritePattern):
    """Replace a pure `tt.extern_elementwise` call of a libdevice function by its substitute.

    The call's operands and result may be scalars or tensors; the
    substitute is built elementwise in the same shape, located at the call.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ExternElementwiseOp, rewriter: PatternRewriter) -> None:
        function = libdevice_function(op)
        builder = ArithBuilder(rewriter, op.location)
        result = function.substitute(builder, op.srcs, element_type_of(op.result.type))
        rewriter.replace(op, [], [result])


def libdevice_function(op: ExternElementwiseOp) -> LibdeviceFunction:
    """The table entry for `op`'s symbol, once the call is known to match it."""
    symbol = op.symbol.data
    function = LIBDEVICE.get(symbol)
    if function is None:
        what = "libdevice function" if symbol.startswith("__nv_") else "function"
        raise CompileError(op, f"calls {what} '{symbol}', which has no math/arith substitution")
    if not op.pure.value.data:
        raise CompileError(
            op, f"calls '{symbol}' as impure; only pure libdevice calls are substituted"
        )
    actual = signature(
        tuple(element_type_of(operand.type) for operand in op.srcs),
        element_type_of(op.result.type),
    )
    expected = signature(function.operand_types, function.result_type)
    if actual != expected:
        raise CompileError(op, f"calls '{symbol}' as {actual}; libdevice's is {expected}")
    return function


@dataclass(frozen=True)
class LowerLibdevicePass(ModulePass):
    """Replace calls to CUDA libdevice by `math` and `arith` ops of the same semantics.

    Matches `tt.extern_elementwise` calls of `__nv_*` functions, f32 and f64
    forms, on scalars or tensors, and replaces each by the ops listed in
    `tnpu.passes.libdevice.LIBDEVICE` (located at the call):
    `__nv_expf` by `math.exp`, `__nv_isnanf` by `arith.cmpf uno` widened to
    i32, `__nv_fminf` by `arith.minnumf`, `__nv_fmodf` by `arith.remf`,
    `__nv_powif` by `math.fpowi`, `__nv_hypotf` by a scaled square root, ...
    NaN, infinities and signed zeros behave as libdevice documents.

    Refuses, naming the symbol and the source line: a symbol without a
    substitution (not a silent pass-through), an impure call, and a call whose
    element types are not the function's.  Which `math` ops remain is
    `expand-math`'s business.
    """

    name = "lower-libdevice"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(SubstituteLibdeviceCall(), apply_recursively=False).rewrite_module(op)
