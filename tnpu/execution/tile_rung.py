"""Truth 3, the `tile` rung: the kernel lowered to tile IR, run by the tile interpreter.

The run's compiled kernel (`RunContext.kernel`, the compile API) holds the
tile IR after `tnpu-to-tile`, the IR the backends start from; then
`tnpu.interpreters.tile.launch` runs the kernel over the case's grid on
copies of the input storages.  A kernel the lowering cannot describe is
`refused` with the lowering's one-line reason; lowered IR that does not
verify or holds an op the interpreter lacks, and a fault while the kernel
runs (an access outside a buffer, a failed assert), are `error`s.
"""

from __future__ import annotations

from tnpu.diagnostics import CompileError, one_line
from tnpu.execution.case import TensorArg
from tnpu.execution.rungs import RunContext, Rung, RungResult
from tnpu.interpreters.tile import Buffer, check_interpretable, launch
from tnpu.interpreters.tt import KernelError
from tnpu.verifier import verify_with_diagnostics


class TileInterpreterRung(Rung):
    """Truth 3: tnpu's lowering to the tile dialect, run by the tile interpreter."""

    name = "tile"
    modes = frozenset({"interp", "qemu"})

    def execute(self, context: RunContext) -> RungResult:
        case = context.case
        try:
            module = context.kernel.tile
        except CompileError as error:
            return RungResult(self.name, "refused", message=one_line(error))
        try:
            verify_with_diagnostics(module)
            kernel = context.kernel.tile_kernel
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

