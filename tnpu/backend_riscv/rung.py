"""The `qemu` rung of `tnpu run --exec qemu`: compile to RVV, run under qemu-riscv64.

The kernel goes through `tnpu-to-tile`, then the RISC-V target's steps
(`RVV_STEPS`, as in `tnpu-to-rvv`: `expand-math`, which rewrites the math
functions RVV lacks, and `widen-half-floats`, since it has no 16-bit float
arithmetic), then `backend_riscv`; the ELF runs at every
VLEN in `vlens`.  The code is vector-length agnostic, and floating-point
reductions are ordered, so every VLEN must give the same bits: a
difference is reported as an error of this rung, not averaged away.
"""

from __future__ import annotations

import os

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from tnpu.backend_riscv.codegen import CompiledKernel, compile_module
from tnpu.backend_riscv.launch import KernelSpec, LaunchError, launch
from tnpu.compiler.tnpu_to_rvv import RVV_STEPS
from tnpu.context import tnpu_context
from tnpu.diagnostics import CompileError, one_line
from tnpu.execution import tile_rung
from tnpu.execution.case import TensorArg
from tnpu.execution.rungs import Rung, RunContext, RungResult, register_rung

DEFAULT_VLENS = (128, 256, 512)


def configured_vlens() -> tuple[int, ...]:
    """VLENs from TNPU_QEMU_VLENS (comma-separated), else 128, 256 and 512."""
    text = os.environ.get("TNPU_QEMU_VLENS")
    if not text:
        return DEFAULT_VLENS
    return tuple(int(part) for part in text.split(","))


def lower_to_tile(module: ModuleOp) -> ModuleOp:
    """A copy of an imported TTIR module, lowered to fused tile IR for this target."""
    lowered = tile_rung.lower_to_tile(module)
    for step in RVV_STEPS:
        step.apply(tnpu_context(), lowered)
    return lowered


def compile_for_case(module: ModuleOp, kernel_name: str) -> CompiledKernel:
    """The compiled kernel `kernel_name` of an imported TTIR module."""
    lowered = lower_to_tile(module)
    (kernel,) = compile_module(tile_rung.tile_kernel(lowered, kernel_name))
    return kernel


class QemuRung(Rung):
    """Truth 4: the RISC-V ELF under qemu-riscv64, at each VLEN."""

    name = "qemu"
    modes = frozenset({"qemu"})

    def __init__(self, vlens: tuple[int, ...] | None = None):
        self.vlens = vlens

    def execute(self, context: RunContext) -> RungResult:
        case = context.case
        try:
            kernel = compile_for_case(context.module, case.kernel_name)
        except CompileError as error:
            return RungResult(self.name, "refused", message=one_line(error))
        names = list(case.args)
        arguments: list[object] = []
        storages: list[np.ndarray | None] = []
        for name, arg in case.args.items():
            if isinstance(arg, TensorArg):
                arguments.append({"shape": arg.shape, "stride": arg.stride, "dtype": arg.dtype})
                storages.append(context.inputs.storages[name])
            else:
                arguments.append(context.inputs.scalars[name])
                storages.append(None)
        vlens = self.vlens or configured_vlens()
        try:
            spec = KernelSpec.describe(kernel, case.grid, arguments, names)  # type: ignore[arg-type]
            runs = [launch(kernel, spec, storages, vlen=vlen) for vlen in vlens]
        except LaunchError as error:
            return RungResult(self.name, "error", message=str(error))
        first = runs[0].storages
        for vlen, other in zip(vlens[1:], runs[1:]):
            for name, a, b in zip(names, first, other.storages):
                if a is not None and a.tobytes() != b.tobytes():  # type: ignore[union-attr]
                    return RungResult(
                        self.name, "error",
                        message=f"'{name}' differs between VLEN {vlens[0]} and {vlen}",
                    )  # fmt: skip
        buffers = {n: s for n, s in zip(names, first) if s is not None}
        return RungResult(self.name, "ok", buffers, notes={"vlens": [str(v) for v in vlens]})


register_rung(QemuRung())
