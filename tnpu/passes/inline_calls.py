"""The `inline-calls` pass: each `tt.call` of the module's own functions replaced by the callee's body.

Triton inlines every `@triton.jit` function a kernel calls but those marked
`noinline=True`, which reach TTIR as private `tt.func`s and `tt.call`s.  A
tile kernel is one function, so each call becomes a copy of its callee's
body (one block: run `structure-early-return` first), with the callee's
arguments the call's operands and the call's results the values the
callee returns; the calls in that copy are inlined in turn.  The private
functions, called no more, are then erased.

Refuses, naming the call: a callee that is not a function of the module, a
callee of more than one block, and calls nested deeper than
`MAX_DEPTH` (recursion, which Triton cannot compile for a GPU either).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolTable

from tnpu.diagnostics import CompileError, keep_positions
from tnpu.dialects import tt

MAX_DEPTH = 32
"""Nesting of calls in calls beyond which a call is taken for recursion."""


def inline_call(call: tt.CallOp) -> None:
    """Replace `call` by a copy of its callee's body."""
    callee = SymbolTable.lookup_symbol(call, call.callee)
    name = call.callee.string_value()
    if not isinstance(callee, tt.FuncOp):
        raise CompileError(call, f"calls '{name}', which is not a function of the module")
    if len(callee.body.blocks) != 1:
        raise CompileError(call, f"calls '{name}', whose body has more than one block (run structure-early-return)")
    body = callee.body.block
    values: dict[SSAValue, SSAValue] = dict(zip(body.args, call.operands))
    for op in body.ops:
        if isinstance(op, tt.ReturnOp):
            Rewriter.replace_op(call, [], [values.get(v, v) for v in op.operands])
            return
        copy = op.clone(value_mapper=values)
        for original, copied in zip(op.walk(), copy.walk()):
            keep_positions(original, copied)
        Rewriter.insert_op(copy, InsertPoint.before(call))


@dataclass(frozen=True)
class InlineCallsPass(ModulePass):
    """Each `tt.call` replaced by its callee's body (Triton's `noinline` functions); private functions erased."""

    name = "inline-calls"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for _ in range(MAX_DEPTH):
            calls = [o for o in op.walk() if isinstance(o, tt.CallOp)]
            for call in calls:
                inline_call(call)
        left = next((o for o in op.walk() if isinstance(o, tt.CallOp)), None)
        if left is not None:
            raise CompileError(left, f"calls nested more than {MAX_DEPTH} deep (recursion?)")
        for func in [f for f in op.walk() if isinstance(f, tt.FuncOp)]:
            if func.sym_visibility is not None and func.sym_visibility.data == "private":
                Rewriter.erase_op(func)
