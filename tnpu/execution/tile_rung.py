"""Truth 3, the `tile` rung: the kernel lowered to tile IR, run by the tile interpreter.

The imported TTIR goes through `tnpu-to-tile` (the pipeline the backends
start from), then `tnpu.interpreters.tile.launch` runs the kernel over the
case's grid on copies of the input storages.  A kernel the lowering cannot
describe is `refused` with the lowering's one-line reason; lowered IR that
does not verify or holds an op the interpreter lacks, and a fault while the
kernel runs (an access outside a buffer, a failed assert), are `error`s.
"""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp

from tnpu.context import tnpu_context
from tnpu.diagnostics import CompileError, one_line
from tnpu.dialects import tile
from tnpu.execution.case import TensorArg
from tnpu.execution.rungs import Rung, RunContext, RungResult, register_rung
from tnpu.interpreters.tile import Buffer, check_interpretable, launch
from tnpu.interpreters.tt import KernelError
from tnpu.lowering.pipeline import TnpuToTilePipeline
from tnpu.ttir_import import verify_with_diagnostics


def lower_to_tile(ttir: ModuleOp) -> ModuleOp:
    """A copy of `ttir` after `tnpu-to-tile`; `CompileError` if it cannot be lowered."""
    module = ttir.clone()
    TnpuToTilePipeline().apply(tnpu_context(), module)
    return module


def tile_kernel(module: ModuleOp, name: str) -> tile.KernelOp:
    for op in module.ops:
        if isinstance(op, tile.KernelOp) and op.sym_name.data == name:
            return op
    raise CompileError(module, f"has no tile.kernel named '{name}' after tnpu-to-tile")


class TileInterpreterRung(Rung):
    """Truth 3: tnpu's lowering to the tile dialect, run by the tile interpreter."""

    name = "tile"
    modes = frozenset({"interp", "qemu"})

    def execute(self, context: RunContext) -> RungResult:
        case = context.case
        try:
            module = lower_to_tile(context.module)
        except CompileError as error:
            return RungResult(self.name, "refused", message=one_line(error))
        try:
            verify_with_diagnostics(module)
            kernel = tile_kernel(module, case.kernel_name)
            check_interpretable(kernel)
        except CompileError as error:
            message = f"tnpu-to-tile produced IR the tile interpreter cannot run: {one_line(error)}"
            return RungResult(self.name, "error", message=message)
        storages = {name: storage.copy() for name, storage in context.inputs.storages.items()}
        arguments = [
            Buffer(storages[name]) if isinstance(arg, TensorArg) else context.inputs.scalars[name]
            for name, arg in case.args.items()
        ]
        try:
            launch(kernel, case.grid, arguments)
        except KernelError as error:
            return RungResult(self.name, "error", message=one_line(error))
        return RungResult(self.name, "ok", storages)


register_rung(TileInterpreterRung())
