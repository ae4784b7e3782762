"""`-t tnpu-riscv-asm`: print the RV64GCV assembly of every tile.kernel in the module."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from tnpu.backend_riscv.codegen import compile_module


@dataclass(frozen=True)
class RiscvAssemblyTarget(Target):
    """Assembly for riscv64-linux-gnu-gcc -march=rv64gcv (one function per kernel)."""

    name = "tnpu-riscv-asm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        for kernel in compile_module(module):
            output.write(kernel.assembly)
