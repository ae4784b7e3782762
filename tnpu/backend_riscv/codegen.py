"""tile.kernel → RV64GCV assembly: one function per kernel, one loop nest per tile op.

The generated function is a C function of the kernel's arguments (buffers
as pointers, scalars by value) followed by `pid_x, pid_y, pid_z,
num_programs_x, _y, _z` (int32): one call runs one program instance.  Its
prologue stores every argument in its scratchpad slot (`storage`); each op
then reads its operands from the scratchpad and writes its results there:

* runs of scalar `arith`/`math` ops become one one-element vector program;
* `tile.map` is one strip-mined loop whose body stays in vector registers;
* DMA, gather/scatter and atomics are in `transfers`, reductions, scans
  and matmul in `vector_unit`; both write through `emitter.KernelEmitter`,
  which `KernelCodegen` extends, and never call back into this module;
* `scf.for`/`if`/`while` become branches on scalar slots, with tile-typed
  iteration values copied between their places.

Anything without a lowering raises `CompileError` naming the op.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    TensorType,
)
from xdsl.ir import Block, Operation, SSAValue

from tnpu.backend_riscv import transfers, vector_unit
from tnpu.backend_riscv.asm import SCRATCHPAD_BASE, AsmWriter, OutOfRegisters
from tnpu.backend_riscv.elements import Element, element_of
from tnpu.backend_riscv.elementwise import ElementwiseProgram, Stream, emit_elementwise
from tnpu.backend_riscv.emitter import KernelEmitter
from tnpu.backend_riscv.storage import Constant, Location, Scalar, Tile, constant_bits
from tnpu.diagnostics import CompileError
from tnpu.dialects import tile
from tnpu.dialects.dispatch import entry_for
from tnpu.dialects.arith import is_splat

GRID_ARGUMENTS = ("pid_x", "pid_y", "pid_z", "num_programs_x", "num_programs_y", "num_programs_z")
"""Trailing int32 arguments of every generated kernel function."""

_INT_ARGUMENT_REGISTERS = tuple(f"a{i}" for i in range(8))
_FLOAT_ARGUMENT_REGISTERS = tuple(f"fa{i}" for i in range(8))
_I32 = Element(32, False)


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
    """Every tile.kernel in `module` (or `module` itself, if a kernel)."""
    kernels = [op for op in module.walk() if isinstance(op, tile.KernelOp)]
    if not kernels:
        raise CompileError(module, "holds no tile.kernel (lower with tnpu-to-tile first)")
    return [KernelCodegen(kernel).compile() for kernel in kernels]


def c_type(type_: object, op: Operation) -> str:
    """The C type a launch passes for a kernel argument type."""
    if isinstance(type_, tile.BufferType):
        return c_type(type_.element_type, op).replace("bool", "uint8_t") + " *"
    if isinstance(type_, IndexType):
        return "int64_t"
    if isinstance(type_, IntegerType):
        width = type_.width.data
        return "bool" if width == 1 else f"int{width}_t"
    element = element_of(type_)  # type: ignore[arg-type]
    if element is not None and element.half_float:
        return f"uint{element.bits}_t"
    if element is not None and element.is_float:
        return "float" if element.bits == 32 else "double"
    raise CompileError(op, f"argument type {type_} has no C equivalent")


class KernelCodegen(KernelEmitter):
    def __init__(self, kernel: tile.KernelOp):
        super().__init__(kernel.sym_name.data)
        self.kernel = kernel
        self.name = kernel.sym_name.data
        self.symbol = f"tnpu_kernel_{self.name}"
        self.grid: list[Scalar] = []

    # -- driver ---------------------------------------------------------------

    def compile(self) -> CompiledKernel:
        arguments = self._bind_arguments()
        self.asm.place(f"{self.symbol}_body")
        self.emit_ops(self.kernel.body.block.ops)
        body = self.asm.lines
        assembly = self._function(arguments, body)
        types = tuple(c_type(t, self.kernel) for t in self.kernel.function_type.inputs.data)
        return CompiledKernel(self.name, self.symbol, assembly, types, self._written_buffers())

    def _written_buffers(self) -> frozenset[int]:
        args = list(self.kernel.body.block.args)
        roots: dict[SSAValue, int] = {a: i for i, a in enumerate(args)}
        for op in self.kernel.walk():
            if isinstance(op, tile.BufferCastOp) and op.source in roots:
                roots[op.result] = roots[op.source]
        written = {
            roots[op.buffer]
            for op in self.kernel.walk()
            if isinstance(op, tile.StoreOp | tile.ScatterOp | tile.AtomicRMWOp | tile.AtomicCASOp)
        }
        return frozenset(written)

    def _bind_arguments(self) -> list[tuple[Scalar, str]]:
        """Give every argument a slot; return (slot, where the psABI passes it)."""
        values: list[tuple[SSAValue | None, Element]] = [
            (arg, self.element(arg, self.kernel)) for arg in self.kernel.body.block.args
        ]
        values += [(None, _I32)] * len(GRID_ARGUMENTS)
        int_registers = list(_INT_ARGUMENT_REGISTERS)
        float_registers = list(_FLOAT_ARGUMENT_REGISTERS)
        stack_index = 0
        bound: list[tuple[Scalar, str]] = []
        for value, element in values:
            slot = self.scratchpad.new_scalar(element)
            if value is None:
                self.grid.append(slot)
            else:
                self.scratchpad.bind(value, slot)
            if element.fpu and float_registers:
                source = float_registers.pop(0)
            elif int_registers:
                source = int_registers.pop(0)
            else:
                source = f"stack:{8 * stack_index}"
                stack_index += 1
            bound.append((slot, source))
        return bound

    def _function(self, arguments: list[tuple[Scalar, str]], body: list[str]) -> str:
        saved = ["ra", *self.asm.saved_registers_used()]
        if SCRATCHPAD_BASE not in saved:
            saved.insert(1, SCRATCHPAD_BASE)
        frame = -(-8 * len(saved) // 16) * 16
        scratch = f"tnpu_scratchpad_{self.name}"
        out = AsmWriter(self.name)
        out.lines += [
            "    .text",
            "    .balign 4",
            f"    .globl {self.symbol}",
            f"    .type {self.symbol}, @function",
            f"{self.symbol}:",
        ]
        out.emit("addi", "sp", "sp", -frame)
        for index, register in enumerate(saved):
            out.emit("sd", register, f"{8 * index}(sp)")
        out.emit("lla", SCRATCHPAD_BASE, scratch)
        for slot, source in arguments:
            if source.startswith("stack:"):
                out.emit("ld", "t0", f"{frame + int(source[6:])}(sp)")
                out.store_scalar("t0", slot.offset, slot.element)
            elif source.startswith("fa"):
                mnemonic = "fsw" if slot.element.bits == 32 else "fsd"
                out.emit(mnemonic, source, f"{slot.offset}({SCRATCHPAD_BASE})")
            else:
                out.emit("sd", source, f"{slot.offset}({SCRATCHPAD_BASE})")
        out.lines += body
        for index, register in enumerate(saved):
            out.emit("ld", register, f"{8 * index}(sp)")
        out.emit("addi", "sp", "sp", frame)
        out.emit("ret")
        out.lines += [
            f"    .size {self.symbol}, .-{self.symbol}",
            "    .bss",
            "    .balign 64",
            f"    .zero {self.scratchpad.scalar_bytes}",
            f"{scratch}:",
            f"    .zero {max(self.scratchpad.tile_bytes, 8)}",
        ]
        if self.strings:
            out.lines += ["    .section .rodata", *self.strings]
        out.lines.append("")
        return "\n".join(out.lines)

    # -- blocks ---------------------------------------------------------------

    def emit_ops(self, ops: Iterable[Operation]) -> None:
        """Emit ops in order; runs of scalar arith/math ops go out as one program."""
        scalar_run: list[Operation] = []
        for op in ops:
            if _is_scalar_compute(op):
                scalar_run.append(op)
                continue
            self._flush_scalars(scalar_run)
            scalar_run = []
            self.emit_op(op)
        self._flush_scalars(scalar_run)

    def emit_region_block(self, block: Block, places: Sequence[Scalar | Tile] | None) -> None:
        """Emit a region's block; the terminator's operands are copied to `places`."""
        terminator = block.last_op
        assert terminator is not None
        self.emit_ops(list(block.ops)[:-1])
        if places is not None:
            self.parallel_copy([self.place(v) for v in terminator.operands], places, terminator)

    def _flush_scalars(self, ops: Sequence[Operation]) -> None:
        """One one-element vector program for a run of scalar ops (constants take no code)."""
        ops = [op for op in ops if not self._bind_constant(op)]
        if not ops:
            return
        produced = {r for op in ops for r in op.results}
        inputs: dict[SSAValue, Stream | Scalar | Constant] = {}
        for op in ops:
            for operand in op.operands:
                if operand not in produced:
                    inputs[operand] = self.as_stream(self.place(operand))  # type: ignore[assignment]
        outputs = []
        for op in ops:
            for result in op.results:
                if any(use.operation not in ops for use in result.uses):
                    slot = self.new_place(result, op)
                    outputs.append((result, Stream(slot.element, slot.offset)))
        self.asm.comment(f"scalar ops: {', '.join(op.name for op in ops)}")
        with refused_if_out_of_registers(ops[0]):
            emit_elementwise(self.asm, ElementwiseProgram(ops, inputs, outputs, 1, ops[0]))

    def _bind_constant(self, op: Operation) -> bool:
        """Bind a scalar constant's value at compile time; False for other ops."""
        if not isinstance(op, arith.ConstantOp) or isinstance(op.results[0].type, TensorType):
            return False
        element = self.element(op.results[0], op)
        bits = constant_bits(op.properties["value"], element)  # type: ignore[arg-type]
        if bits is None:
            raise CompileError(op, f"constant {op.properties['value']} has no bit pattern")
        self.scratchpad.bind(op.results[0], Constant(bits, element))
        return True

    def emit_op(self, op: Operation) -> None:
        handler = entry_for(_HANDLERS, op)
        if handler is None:
            raise CompileError(op, "has no RISC-V lowering")
        self.asm.comment(op.name)
        with refused_if_out_of_registers(op):
            handler(self, op)  # type: ignore[operator]

    # -- grid and buffers -----------------------------------------------------

    def _program_id(self, op: tile.ProgramIdOp) -> None:
        self.scratchpad.bind(op.result, self.grid[op.axis.value.data])

    def _num_programs(self, op: tile.NumProgramsOp) -> None:
        self.scratchpad.bind(op.result, self.grid[3 + op.axis.value.data])

    def _buffer_cast(self, op: tile.BufferCastOp) -> None:
        self.scratchpad.bind(op.result, self.place(op.source))

    def _tensor_constant(self, op: Operation) -> None:
        value = op.properties["value"]
        result = op.results[0]
        if not isinstance(value, DenseIntOrFPElementsAttr) or not is_splat(value):
            raise CompileError(op, "only splat tensor constants are supported")
        element = self.element(result, op)
        bits = constant_bits(value.get_attrs()[0], element)
        assert bits is not None
        place = self.new_place(result, op)
        assert isinstance(place, Tile)
        self.fill(place, Constant(bits, element), op)

    # -- vector unit: map -----------------------------------------------------

    def _map(self, op: tile.MapOp) -> None:
        block = op.body.block
        inputs: dict[SSAValue, Stream | Scalar | Constant] = {
            arg: self.as_stream(self.place(operand))  # type: ignore[misc]
            for arg, operand in zip(block.args, op.inputs)
        }
        yielded = block.last_op
        assert isinstance(yielded, tile.YieldOp)
        body_ops = [o for o in block.ops if o is not yielded]
        inputs |= self.captured(body_ops, block)
        outputs = []
        for result, value in zip(op.results_, yielded.values):
            place = self.new_place(result, op)
            outputs.append((value, Stream(place.element, place.offset)))
        count = tile.element_count(op.results_[0].type)
        emit_elementwise(self.asm, ElementwiseProgram(body_ops, inputs, outputs, count, op))

    # -- control flow ---------------------------------------------------------

    def copy(self, source: Location, dest: Scalar | Tile, anchor: Operation) -> None:
        """dest := source (a tile or a scalar), unless they are the same place."""
        if source == dest:
            return
        if isinstance(dest, Tile):
            assert isinstance(source, Tile)
            self.copy_strided(source, dest, vector_unit.row_major_strides(dest.shape), anchor)
            return
        if isinstance(source, Constant):
            with self.asm.ints(1) as (register,):
                self.asm.li(register, source.bits)
                self.asm.store_scalar(register, dest.offset, _bits_element(dest.element))
            return
        assert isinstance(source, Scalar)
        with self.asm.ints(1) as (register,):
            self.asm.load_scalar(register, source.offset, _bits_element(source.element))
            self.asm.store_scalar(register, dest.offset, _bits_element(dest.element))

    def copy_strided(
        self, source: Tile, dest: Tile, source_strides: Sequence[int], anchor: Operation
    ) -> None:
        """dest[i] := source[sum(i[d] * source_strides[d])] for every index i of dest."""
        vector_unit.emit_strided_copy(self, source, dest, source_strides, anchor)

    def parallel_copy(
        self, sources: Sequence[Location], dests: Sequence[Scalar | Tile], anchor: Operation
    ) -> None:
        """dests := sources all at once, even when a source is another copy's destination."""
        pending = [(s, d) for s, d in zip(sources, dests) if s != d]
        clobbered = {d for _, d in pending}
        staged = []
        for source, dest in pending:
            if source in clobbered:
                temporary = (
                    self.scratchpad.new_tile(source.element, source.shape)
                    if isinstance(source, Tile)
                    else self.scratchpad.new_scalar(source.element)  # type: ignore[union-attr]
                )
                self.copy(source, temporary, anchor)
                source = temporary
            staged.append((source, dest))
        for source, dest in staged:
            self.copy(source, dest, anchor)

    def _for(self, op: scf.ForOp) -> None:
        body = op.body.block
        induction, *carried = body.args
        places = [self.new_place(arg, op) for arg in carried]
        for result, place in zip(op.results, places):
            self.scratchpad.bind(result, place)
        self.parallel_copy([self.place(v) for v in op.iter_args], places, op)
        counter = self.new_place(induction, op)
        asm = self.asm
        head, end = asm.new_label("for"), asm.new_label("endfor")
        with asm.ints(1) as (register,):
            self.load_int(register, op.lb)
            asm.store_scalar(register, counter.offset, counter.element)
        asm.place(head)
        with asm.ints(2) as (index, bound):
            asm.load_scalar(index, counter.offset, counter.element)
            self.load_int(bound, op.ub)
            asm.emit("bge", index, bound, end)
        self.emit_region_block(body, places)
        with asm.ints(2) as (index, step):
            asm.load_scalar(index, counter.offset, counter.element)
            self.load_int(step, op.step)
            asm.emit("add", index, index, step)
            asm.store_scalar(index, counter.offset, counter.element)
        asm.emit("j", head)
        asm.place(end)

    def _if(self, op: scf.IfOp) -> None:
        places = [self.new_place(r, op) for r in op.results]
        asm = self.asm
        otherwise, end = asm.new_label("else"), asm.new_label("endif")
        with asm.ints(1) as (condition,):
            self.load_int(condition, op.cond)
            asm.emit("beqz", condition, otherwise)
        self.emit_region_block(op.true_region.block, places)
        asm.emit("j", end)
        asm.place(otherwise)
        if op.false_region.blocks:
            self.emit_region_block(op.false_region.block, places)
        asm.place(end)

    def _while(self, op: scf.WhileOp) -> None:
        before, after = op.before_region.block, op.after_region.block
        before_places = [self.new_place(arg, op) for arg in before.args]
        after_places = [self.new_place(arg, op) for arg in after.args]
        for result, place in zip(op.results, after_places):
            self.scratchpad.bind(result, place)
        self.parallel_copy([self.place(v) for v in op.arguments], before_places, op)
        asm = self.asm
        head, end = asm.new_label("while"), asm.new_label("endwhile")
        asm.place(head)
        condition_op = before.last_op
        assert isinstance(condition_op, scf.ConditionOp)
        self.emit_region_block(before, None)
        self.parallel_copy(
            [self.place(v) for v in condition_op.args], after_places, condition_op
        )
        with asm.ints(1) as (condition,):
            self.load_int(condition, condition_op.condition)
            asm.emit("beqz", condition, end)
        self.emit_region_block(after, before_places)
        asm.emit("j", head)
        asm.place(end)

    def _return(self, op: tile.ReturnOp) -> None:
        pass


@contextmanager
def refused_if_out_of_registers(op: Operation) -> Iterator[None]:
    """Refuse `op`, naming it, if its code needs more scratch registers at once than there are."""
    try:
        yield
    except OutOfRegisters as error:
        raise CompileError(op, f"cannot be compiled for RISC-V: its code {error}") from None


def _bits_element(element: Element) -> Element:
    """The element as raw bits (floats moved through integer registers unchanged)."""
    return Element(element.bits, False, is_mask=element.is_mask)


def _is_scalar_compute(op: Operation) -> bool:
    """A scalar arith/math op (no tiles), lowered as part of a one-element program."""
    if op.dialect_name() not in ("arith", "math"):
        return False
    if isinstance(op, arith.ConstantOp):
        return not isinstance(op.results[0].type, TensorType)
    return not any(isinstance(v.type, TensorType) for v in (*op.operands, *op.results))


_HANDLERS: dict[type[Operation], Callable[..., None]] = {
    tile.ProgramIdOp: KernelCodegen._program_id,
    tile.NumProgramsOp: KernelCodegen._num_programs,
    tile.BufferCastOp: KernelCodegen._buffer_cast,
    tile.MapOp: KernelCodegen._map,
    tile.ReturnOp: KernelCodegen._return,
    tile.LoadOp: transfers.emit_load,
    tile.StoreOp: transfers.emit_store,
    tile.GatherOp: transfers.emit_gather,
    tile.ScatterOp: transfers.emit_scatter,
    tile.AtomicRMWOp: transfers.emit_atomic,
    tile.AtomicCASOp: transfers.emit_atomic,
    tile.AssertOp: transfers.emit_assert,
    tile.BroadcastOp: vector_unit.emit_broadcast,
    tile.TransposeOp: vector_unit.emit_transpose,
    tile.ReshapeOp: vector_unit.emit_reshape,
    tile.IotaOp: vector_unit.emit_iota,
    tile.TakeOp: vector_unit.emit_take,
    tile.ReduceOp: vector_unit.emit_reduce,
    tile.ScanOp: vector_unit.emit_scan,
    tile.MatmulOp: vector_unit.emit_matmul,
    arith.ConstantOp: KernelCodegen._tensor_constant,
    scf.ForOp: KernelCodegen._for,
    scf.IfOp: KernelCodegen._if,
    scf.WhileOp: KernelCodegen._while,
}
"""Lowering of each op, by class (see tnpu.dialects.dispatch)."""
