"""The compile API: a TTIR kernel lowered once, and what each target builds from it.

    kernel = compile_ttir(ttir_text)             # or an imported module
    kernel = Kernel.from_tile(tile_text)         # or from tile IR a Kernel printed earlier
    kernel.tile                                  # tile IR after tnpu-to-tile
    kernel.rvv.ir, kernel.rvv.assembly, kernel.rvv.elf   # the RISC-V target
    kernel.timer(load_npu_config("tpuv3")).time(Launch(grid, arguments)).cycles

`Kernel` lowers its TTIR with `tnpu-to-tile` on first use of `tile`, once;
each target applies its own steps (`RVV_STEPS`, `npu_steps`, the ones the
`tnpu-to-rvv` and `tnpu-to-npu` pipelines run) to a clone of that tile
IR, on first use, once.  The NPU's tile IR depends only on the math ops
its vector unit executes (`native_math`), so configurations that agree on
them share it; a `KernelTimer` is built once per configuration.  Every
artefact is cached on the `Kernel`, and so is a refusal: a kernel that
cannot be compiled is refused once, and the same `CompileError` is raised
to every consumer that asks again.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from pathlib import Path
from typing import TypeVar

import numpy as np
from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from tnpu.backend_riscv.codegen import CompiledKernel, compile_kernel, lower_kernel
from tnpu.backend_riscv.qemu_launch import KernelSpec, LaunchResult, build_elf, launch
from tnpu.compiler.tnpu_to_npu import native_math, npu_steps
from tnpu.compiler.tnpu_to_rvv import RVV_STEPS
from tnpu.compiler.tnpu_to_tile import TnpuToTilePipeline
from tnpu.context import tnpu_context
from tnpu.diagnostics import CompileError, clone_keeping_text_positions, compiling
from tnpu.dialects import tile
from tnpu.ir_helpers import apply_passes, kernel_function
from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.timer import KernelTimer
from tnpu.ttir_import import import_ttir

T = TypeVar("T")


def compile_ttir(ttir: str | ModuleOp, kernel_name: str | None = None, *, source: str = "<ttir>") -> Kernel:
    """`ttir` (text as Triton prints it, or an imported module) lowered to tile IR.

    `kernel_name` names the kernel's `tt.func`; without it the module's only
    public one.  Raises `ParseError` for malformed text (`source` names it
    in the message) and `CompileError` (op, reason, source location) for a
    kernel tnpu cannot lower.
    """
    module = import_ttir(ttir, source) if isinstance(ttir, str) else ttir
    kernel = Kernel(module, kernel_name)
    kernel.tile  # lowers now, so that a refusal is raised here
    return kernel


class Kernel:
    """One TTIR kernel; its tile IR and per-target artefacts, each built on first use.

    Constructing it only finds the kernel (`CompileError` if there is no
    such `tt.func`); `compile_ttir` also lowers it at once.  `ttir` is never
    modified.  `Kernel.from_tile` starts from tile IR instead, and has no TTIR.
    """

    def __init__(self, ttir: ModuleOp, kernel_name: str | None = None):
        self.ttir: ModuleOp | None = ttir
        self.name = kernel_function(ttir, kernel_name).sym_name.data
        self._context = tnpu_context()
        self._outcomes: list[tuple[object, object]] = []

    @classmethod
    def from_tile(cls, tile_ir: str | ModuleOp, kernel_name: str | None = None, *, source: str = "<tile>") -> Kernel:
        """The kernel of tile IR as `Kernel.tile` is printed (with `print_debuginfo` to keep
        source locations): every target builds from it, nothing is lowered again.

        A cache keeps this text to rebuild a kernel's targets without its TTIR.
        `kernel_name` names the `tile.kernel`; without it the module's only one.
        Raises `ParseError` (naming `source`) for malformed text.
        """
        context = tnpu_context()
        module = Parser(context, tile_ir, source).parse_module() if isinstance(tile_ir, str) else tile_ir
        kernels = [op for op in module.ops if isinstance(op, tile.KernelOp)]
        if kernel_name is None and len(kernels) != 1:
            raise CompileError(module, f"holds {len(kernels)} tile.kernel ops; name the one to use")
        name = kernel_name or kernels[0].sym_name.data
        find_tile_kernel(module, name)
        kernel = cls.__new__(cls)
        kernel.ttir = None
        kernel.name = name
        kernel._context = context
        kernel._outcomes = [("tile", module)]
        return kernel

    @property
    def tile(self) -> ModuleOp:
        """The module after `tnpu-to-tile`, shared by every target: do not modify it."""
        return self._once("tile", self._lower)

    @property
    def tile_kernel(self) -> tile.KernelOp:
        """The kernel's `tile.kernel` in `tile`."""
        return find_tile_kernel(self.tile, self.name)

    @property
    def rvv(self) -> RvvKernel:
        """The RISC-V target's artefacts: its tile IR, the assembly, the ELF."""
        return self._once("rvv", self._compile_rvv)

    def npu_tile(self, npu: NPUConfig) -> ModuleOp:
        """The module the timer of `npu` reads: `tile` with the NPU's steps applied."""
        native = native_math(npu)
        return self._once(("npu", native), lambda: self._transformed(self.tile, npu_steps(native)))

    def timer(self, npu: NPUConfig) -> KernelTimer:
        """A `KernelTimer` of the kernel on `npu`; `.time(Launch(grid, arguments))` times a launch."""
        return self._once(("timer", npu), lambda: self._timer(npu))

    def _lower(self) -> ModuleOp:
        assert self.ttir is not None, "a kernel from tile IR is never lowered"
        module = clone_keeping_text_positions(self.ttir)
        TnpuToTilePipeline().apply(self._context, module)
        return module

    def _compile_rvv(self) -> RvvKernel:
        module = self._transformed(self.tile, RVV_STEPS)
        kernel = find_tile_kernel(module, self.name)
        with compiling("backend_riscv"):
            lowered = lower_kernel(kernel)
            return RvvKernel(module, lowered, compile_kernel(kernel, lowered))

    def _timer(self, npu: NPUConfig) -> KernelTimer:
        kernel = find_tile_kernel(self.npu_tile(npu), self.name)
        with compiling("timing"):
            return KernelTimer(kernel, npu)

    def _transformed(self, module: ModuleOp, steps: Sequence[ModulePass]) -> ModuleOp:
        """A clone of `module` after `steps`."""
        result = clone_keeping_text_positions(module)
        apply_passes(self._context, result, steps)
        return result

    def _once(self, key: object, build: Callable[[], T]) -> T:
        """What `build` returned or refused the first time `key` was asked for.

        Keys are compared by equality (an `NPUConfig` holds dicts, so it is
        not hashable); a kernel has a handful of artefacts.
        """
        for known, outcome in self._outcomes:
            if known == key:
                break
        else:
            try:
                outcome = build()
            except DiagnosticException as refusal:
                outcome = refusal
            self._outcomes.append((key, outcome))
        if isinstance(outcome, DiagnosticException):
            raise outcome
        return outcome  # pyright: ignore[reportReturnType]


class RvvKernel:
    """A kernel compiled for RISC-V: its tile IR after `RVV_STEPS`, its RISC-V IR, its code, its ELF."""

    def __init__(self, tile: ModuleOp, ir: ModuleOp, code: CompiledKernel):
        self.tile = tile
        self.ir = ir
        """The RISC-V IR after tile-to-rvv, before allocation (what `-p tnpu-to-rvv` prints)."""
        self.code = code
        """The assembly and what a launch must know: argument C types, written buffers."""

    @property
    def assembly(self) -> str:
        return self.code.assembly

    @cached_property
    def elf(self) -> Path:
        """The ELF (assembly, launch runtime), built with the cross gcc on first use."""
        return build_elf(self.code)

    def launch(
        self,
        spec: KernelSpec,
        storages: Sequence[np.ndarray | None],
        *,
        vlen: int = 256,
        count_instructions: bool = False,
    ) -> LaunchResult:
        """Run `spec`'s grid under qemu-riscv64 at `vlen` (see `backend_riscv.qemu_launch.launch`)."""
        return launch(
            self.code, spec, storages, elf=self.elf, vlen=vlen, count_instructions=count_instructions
        )


def find_tile_kernel(module: ModuleOp, name: str) -> tile.KernelOp:
    """The `tile.kernel` called `name` in `module`."""
    for op in module.ops:
        if isinstance(op, tile.KernelOp) and op.sym_name.data == name:
            return op
    raise CompileError(module, f"has no tile.kernel named '{name}' after tnpu-to-tile")
