"""The RISC-V target: what backend_riscv executes natively, and `-t tnpu-riscv-asm`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from tnpu.backend_riscv.codegen import compile_module

NATIVE_MATH = ("sqrt", "absf", "absi", "fma", "floor", "ceil", "round", "roundeven", "trunc",
               "copysign", "rsqrt")  # fmt: skip
"""math ops backend_riscv lowers itself (RVV instructions or short exact sequences);
`expand-math` expands the others before codegen (`tnpu-to-rvv`)."""


@dataclass(frozen=True)
class RiscvAssemblyTarget(Target):
    """Assembly for riscv64-linux-gnu-gcc -march=rv64gcv (one function per kernel).

    Reads tile IR after `tnpu-to-rvv`: `-p tnpu-to-rvv -t tnpu-riscv-asm`
    prints the code `tnpu run --exec qemu` runs.
    """

    name = "tnpu-riscv-asm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        for kernel in compile_module(module):
            output.write(kernel.assembly)
