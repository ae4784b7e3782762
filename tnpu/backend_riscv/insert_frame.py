"""`rvv-insert-frame`: the stack frame of each allocated riscv_func.func.

After `rvv-allocate-registers`, a function's frame holds its spill slots
(`rvv.spill_slots` of 8 bytes, at the bottom: `sp + 8 k`), then `ra` (if
it calls), `s0` (the scratchpad base the kernel sets) and every other callee-saved
register the allocation used, rounded up to 16 bytes.  The prologue moves
`sp` down and saves them at the start of the body; each `riscv_func.return`
restores them first.  An argument the caller passed on the stack is read
relative to the entry `sp` (`rvx.stack_argument`), so it learns the frame's
size here.  Refuses a function that is not allocated yet.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import riscv, riscv_func, rv64
from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.dialects.riscv import IntRegisterType, Registers
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import DiagnosticException

from tnpu.backend_riscv.allocate_registers import SPILL_SLOTS
from tnpu.diagnostics import CompileError
from tnpu.dialects.rvv import rvx

FRAME_SIZE = "rvv.frame_size"
"""The attribute of a function whose frame is in place: its size in bytes."""


def saved_registers(func: riscv_func.FuncOp) -> list[IntRegisterType]:
    """ra (if `func` calls), s0 and the callee-saved registers `func` writes, in register order."""
    used = {
        result.type.register_name
        for op in func.walk()
        for result in op.results
        if isinstance(result.type, IntRegisterType) and result.type.register_name.startswith("s")
    }
    callee_saved = [f"s{i}" for i in range(1, 12) if f"s{i}" in used]
    calls = any(isinstance(op, rvx.CallOp) for op in func.walk())
    return [*([Registers.RA] if calls else []), Registers.S0, *(IntRegisterType.from_name(name) for name in callee_saved)]


def insert_frame(func: riscv_func.FuncOp) -> None:
    slots = func.attributes[SPILL_SLOTS].value.data  # pyright: ignore[reportAttributeAccessIssue]
    saved = saved_registers(func)
    frame = -(-8 * (slots + len(saved)) // 16) * 16
    if frame > 2032:
        raise CompileError(func, f"a stack frame of {frame} bytes (more than addi reaches): {slots} spill slots")
    block = func.body.block
    stack_pointer = rv64.GetRegisterOp(Registers.SP)
    prologue = [stack_pointer, riscv.AddiOp(stack_pointer.res, -frame, rd=Registers.SP)]
    for index, register in enumerate(saved):
        value = rv64.GetRegisterOp(register)
        prologue += [value, rv64.SdOp(stack_pointer.res, value.res, 8 * (slots + index))]
    Rewriter.insert_op(prologue, InsertPoint.at_start(block))
    for ret in [op for op in func.walk() if isinstance(op, riscv_func.ReturnOp)]:
        epilogue: list[Operation] = [rv64.LdOp(stack_pointer.res, 8 * (slots + index), rd=register) for index, register in enumerate(saved)]
        epilogue.append(riscv.AddiOp(stack_pointer.res, frame, rd=Registers.SP))
        Rewriter.insert_op(epilogue, InsertPoint.before(ret))
    for op in func.walk():
        if isinstance(op, rvx.StackArgumentOp):
            op.properties["frame"] = IntegerAttr(frame, i32)
    func.attributes[FRAME_SIZE] = IntegerAttr(frame, i32)


@dataclass(frozen=True)
class RvvInsertFramePass(ModulePass):
    """The stack frame of every allocated riscv_func.func: spill slots, saved registers, sp.

    The module docstring of `tnpu.backend_riscv.insert_frame` describes the
    layout.  Functions that have a frame already are left as they are.
    """

    name = "rvv-insert-frame"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, riscv_func.FuncOp)]:
            if FRAME_SIZE in func.attributes:
                continue
            if SPILL_SLOTS not in func.attributes:
                raise DiagnosticException(
                    f"rvv-insert-frame: @{func.sym_name.data} is not allocated (run rvv-allocate-registers first)"
                )
            insert_frame(func)
