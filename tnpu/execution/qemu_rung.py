"""The `qemu` rung of `tnpu run --exec qemu`: compile to RVV, run under qemu-riscv64.

The run's compiled kernel (`RunContext.kernel`) gives the RISC-V target's
artefacts (`Kernel.rvv`: its tile IR after `tnpu-to-rvv`'s steps, which
expand the math functions RVV lacks and widen 16-bit float arithmetic,
the assembly and the ELF); the ELF runs at every VLEN in `vlens`.  The
code is vector-length agnostic, and floating-point reductions are
ordered, so every VLEN must give the same bits: a difference is reported
as an error of this rung, not averaged away.
"""

from __future__ import annotations

import os

import numpy as np

from tnpu.backend_riscv.qemu_launch import KernelSpec, LaunchError
from tnpu.diagnostics import CompileError, one_line
from tnpu.execution.case import TensorArg
from tnpu.execution.rungs import RunContext, Rung, RungResult

DEFAULT_VLENS = (128, 256, 512)


def configured_vlens() -> tuple[int, ...]:
    """VLENs from TNPU_QEMU_VLENS (comma-separated), else 128, 256 and 512."""
    text = os.environ.get("TNPU_QEMU_VLENS")
    if not text:
        return DEFAULT_VLENS
    return tuple(int(part) for part in text.split(","))


class QemuRung(Rung):
    """Truth 4: the RISC-V ELF under qemu-riscv64, at each VLEN."""

    name = "qemu"
    modes = frozenset({"qemu"})

    def __init__(self, vlens: tuple[int, ...] | None = None):
        self.vlens = vlens

    def execute(self, context: RunContext) -> RungResult:
        case = context.case
        try:
            kernel = context.kernel.rvv
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
            spec = KernelSpec.describe(kernel.code, case.grid, arguments, names)  # pyright: ignore[reportArgumentType]
            runs = [kernel.launch(spec, storages, vlen=vlen) for vlen in vlens]
        except LaunchError as error:
            return RungResult(self.name, "error", message=str(error))
        first = runs[0].storages
        for vlen, other in zip(vlens[1:], runs[1:]):
            for name, a, b in zip(names, first, other.storages):
                if a is not None and a.tobytes() != b.tobytes():  # pyright: ignore[reportOptionalMemberAccess]
                    return RungResult(
                        self.name, "error",
                        message=f"'{name}' differs between VLEN {vlens[0]} and {vlen}",
                    )  # fmt: skip
        buffers = {n: s for n, s in zip(names, first) if s is not None}
        return RungResult(self.name, "ok", buffers, notes={"vlens": [str(v) for v in vlens]})

