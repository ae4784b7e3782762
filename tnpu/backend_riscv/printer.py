"""Assembly text from allocated RISC-V IR: the only place backend_riscv writes text.

Each instruction op prints its own line (`assembly_line`, as xDSL's `riscv`
ops do); this module prints what holds them: a `riscv_func.func` (its
symbol, `.text` directives, its body), the structured `rvx.loop` (a label,
the body, the branch back) and `rvx.if` (a branch over the first region, a
jump over the second, labels), and `riscv.assembly_section`s of data (the
scratchpad in `.bss`, strings in `.rodata`).  Labels are made here:
`.L<function>_<kind><n>`.
"""

from __future__ import annotations

import itertools
from io import StringIO
from typing import IO

from xdsl.backend.assembly_printer import OneLineAssemblyPrintable
from xdsl.dialects import riscv, riscv_func
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation

from tnpu.dialects.rvv import rvx


def assembly(module: ModuleOp) -> str:
    stream = StringIO()
    print_assembly(module, stream)
    return stream.getvalue()


def print_assembly(module: ModuleOp, output: IO[str]) -> None:
    for op in module.ops:
        if isinstance(op, riscv_func.FuncOp):
            _Function(op, output).print()
        elif isinstance(op, riscv.AssemblySectionOp):
            output.write(f"    {op.directive.data}\n")
            for inner in op.data.block.ops:
                _line(inner, output)
        else:
            _line(op, output)


def _line(op: Operation, output: IO[str]) -> None:
    assert isinstance(op, OneLineAssemblyPrintable), f"{op.name} has no assembly"
    line = op.assembly_line()
    if line is not None:
        output.write(line + "\n")


class _Function:
    def __init__(self, func: riscv_func.FuncOp, output: IO[str]):
        self.func, self.output = func, output
        self.numbers = itertools.count()
        self.name = func.sym_name.data

    def label(self, kind: str) -> str:
        return f".L{self.name}_{kind}{next(self.numbers)}"

    def write(self, line: str) -> None:
        self.output.write(line + "\n")

    def print(self) -> None:
        symbol = self.name
        for line in ("    .text", "    .balign 4", f"    .globl {symbol}", f"    .type {symbol}, @function", f"{symbol}:"):
            self.write(line)
        self.block(self.func.body.block)
        self.write(f"    .size {symbol}, .-{symbol}")

    def block(self, block: Block) -> None:
        for op in block.ops:
            if isinstance(op, rvx.LoopOp):
                self.loop(op)
            elif isinstance(op, rvx.IfOp):
                self.branch(op)
            elif isinstance(op, riscv_func.ReturnOp):
                self.write("    ret")
            elif not isinstance(op, rvx.YieldOp | rvx.RepeatIfOp):
                _line(op, self.output)

    def loop(self, op: rvx.LoopOp) -> None:
        head = self.label("loop")
        self.write(f"{head}:")
        self.block(op.body.block)
        end = op.body.block.last_op
        assert isinstance(end, rvx.RepeatIfOp)
        self.write(rvx.branch_line(end.condition.data, end.lhs, end.rhs, head))

    def branch(self, op: rvx.IfOp) -> None:
        then = any(_prints(inner) for inner in op.then.block.ops)
        otherwise = any(_prints(inner) for inner in op.otherwise.block.ops)
        skip, end = self.label("else"), self.label("endif")
        if not then:  # only the second region has code: branch over it
            self.write(rvx.branch_line(op.condition.data, op.lhs, op.rhs, end))
            self.block(op.otherwise.block)
            self.write(f"{end}:")
            return
        negated = rvx.CONDITIONS[op.condition.data]
        self.write(rvx.branch_line(negated, op.lhs, op.rhs, skip if otherwise else end))
        self.block(op.then.block)
        if otherwise:
            self.write(f"    j {end}")
            self.write(f"{skip}:")
            self.block(op.otherwise.block)
        self.write(f"{end}:")


def _prints(op: Operation) -> bool:
    if isinstance(op, rvx.YieldOp):
        return False
    if isinstance(op, OneLineAssemblyPrintable):
        return op.assembly_line() is not None
    return True
