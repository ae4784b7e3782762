"""The RISC-V target: what backend_riscv executes natively, and `-t tnpu-riscv-asm`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from tnpu.backend_riscv.allocate_registers import RvvAllocateRegistersPass
from tnpu.backend_riscv.insert_frame import RvvInsertFramePass
from tnpu.backend_riscv.printer import print_assembly
from tnpu.backend_riscv.tile_to_rvv import TileToRvvPass

NATIVE_MATH = ("sqrt", "absf", "absi", "fma", "floor", "ceil", "round", "roundeven", "trunc",
               "copysign", "rsqrt")  # fmt: skip
"""math ops backend_riscv lowers itself (RVV instructions or short exact sequences);
`expand-math` expands the others before codegen (`tnpu-to-rvv`)."""


@dataclass(frozen=True)
class RiscvAssemblyTarget(Target):
    """Assembly for riscv64-linux-gnu-gcc -march=rv64gcv (one function per kernel).

    Prints the RISC-V IR of `tnpu-to-rvv` (or of `tile-to-rvv`), running what
    has not run yet of `tile-to-rvv` (a tile.kernel left), `rvv-allocate-registers`
    and `rvv-insert-frame` first: `-p tnpu-to-rvv -t tnpu-riscv-asm` prints the
    code `tnpu run --exec qemu` runs.
    """

    name = "tnpu-riscv-asm"

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        for step in (TileToRvvPass(), RvvAllocateRegistersPass(), RvvInsertFramePass()):
            step.apply(ctx, module)
        print_assembly(module, output)
