"""tile.kernel → RV64GCV assembly: the RISC-V target's steps after the tile IR, in order.

`lower_kernel` lowers a tile.kernel (a copy) with `tile-to-rvv`;
`compile_kernel` gives the values of that IR registers
(`rvv-allocate-registers`) and its function a frame (`rvv-insert-frame`),
and prints the assembly (`printer`), with what a launch must know of the
kernel's signature (`CompiledKernel`): the C types of its arguments and
the buffers it writes.  `compile_module` does both for every kernel of a
module.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import IndexType, IntegerType, ModuleOp
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.allocate_registers import RvvAllocateRegistersPass
from tnpu.backend_riscv.elements import element_of
from tnpu.backend_riscv.insert_frame import RvvInsertFramePass
from tnpu.backend_riscv.printer import assembly
from tnpu.backend_riscv.tile_to_rvv import TileToRvvPass, kernel_symbol
from tnpu.diagnostics import CompileError, clone_keeping_text_positions, keep_positions
from tnpu.dialects import tile
from tnpu.ir_helpers import apply_passes


@dataclass(frozen=True)
class CompiledKernel:
    """The assembly of one kernel and what a launch must know of its signature."""

    name: str
    symbol: str
    assembly: str
    argument_types: tuple[str, ...]
    """C types of the kernel's own arguments (buffers as `T *`), in order."""
    written_buffers: frozenset[int]
    """Indices of buffer arguments the kernel stores to (written back after a launch)."""


def compile_module(module: Operation) -> list[CompiledKernel]:
    """Every tile.kernel in `module` (or `module` itself, if a kernel), compiled."""
    kernels = [op for op in module.walk() if isinstance(op, tile.KernelOp)]
    if not kernels:
        raise CompileError(module, "holds no tile.kernel (lower with tnpu-to-tile first)")
    return [compile_kernel(kernel, lower_kernel(kernel)) for kernel in kernels]


def lower_kernel(kernel: tile.KernelOp) -> ModuleOp:
    """A module of `kernel` after tile-to-rvv: its RISC-V IR, registers not allocated.

    The lowering works on a clone whose ops keep their TTIR positions, so that a
    refusal names the line of the kernel's source."""
    clone = clone_keeping_text_positions(kernel)
    keep_positions(kernel, clone)
    module = ModuleOp([clone])
    apply_passes(Context(), module, (TileToRvvPass(),))
    return module


def compile_kernel(kernel: tile.KernelOp, lowered: ModuleOp) -> CompiledKernel:
    """`kernel`'s code from its RISC-V IR `lowered` (a copy allocated, framed, printed)."""
    module = lowered.clone()
    apply_passes(Context(), module, (RvvAllocateRegistersPass(), RvvInsertFramePass()))
    return dataclasses.replace(signature_only(kernel), assembly=assembly(module))


def signature_only(kernel: tile.KernelOp) -> CompiledKernel:
    """What a launch must know of `kernel` without its code (no assembly): for a kernel only
    timed, never run, whose RISC-V code is not worth building."""
    name = kernel.sym_name.data
    types = tuple(c_type(t, kernel) for t in kernel.function_type.inputs.data)
    return CompiledKernel(name, kernel_symbol(name), "", types, written_buffers(kernel))


def written_buffers(kernel: tile.KernelOp) -> frozenset[int]:
    """Indices of the buffer arguments `kernel` stores to."""
    args = list(kernel.body.block.args)
    roots: dict[SSAValue, int] = {a: i for i, a in enumerate(args)}
    for op in kernel.walk():
        if isinstance(op, tile.BufferCastOp) and op.source in roots:
            roots[op.result] = roots[op.source]
    return frozenset(
        roots[op.buffer]
        for op in kernel.walk()
        if isinstance(op, tile.StoreOp | tile.ScatterOp | tile.AtomicRMWOp | tile.AtomicCASOp)
    )


def c_type(type_: object, op: Operation) -> str:
    """The C type a launch passes for a kernel argument type."""
    if isinstance(type_, tile.BufferType):
        return c_type(type_.element_type, op).replace("bool", "uint8_t") + " *"
    if isinstance(type_, IndexType):
        return "int64_t"
    if isinstance(type_, IntegerType):
        width = type_.width.data
        return "bool" if width == 1 else f"int{width}_t"
    element = element_of(type_)  # pyright: ignore[reportArgumentType]
    if element is not None and element.half_float:
        return f"uint{element.bits}_t"
    if element is not None and element.is_float:
        return "float" if element.bits == 32 else "double"
    raise CompileError(op, f"argument type {type_} has no C equivalent")

