"""`tile-to-rvv`: tile.kernel → a riscv_func.func of `riscv`/`rv64`/`rvv`/`rvx` ops, unallocated.

The function is a C function of the kernel's arguments (buffers as
pointers, scalars by value) followed by the grid, `num_programs_x, _y, _z`
(int32): one call runs every program instance of the grid, x fastest, as
Triton's launch numbers them, the body in a loop over the program ids
(kept in scratchpad slots, so no register is held across the body).  A
program costs its loop's few instructions rather than a call, the
arguments' stores and the frame.  The arguments arrive in the psABI's
registers (the block arguments, `a0`..., `fa0`...) or on the stack
(`rvx.stack_argument`), and are stored in their scratchpad slots
(`storage`) at once; each op then reads its operands from the scratchpad
and writes its results there:

* runs of scalar integer `arith` ops become integer code (`scalar_program`),
  other runs of scalar `arith`/`math` ops one one-element vector program;
* `tile.map` is one strip loop whose body stays in vector registers
  (`elementwise`); it reads loads read in place (`in_place.read_in_place`)
  from global memory and computes iotas only maps read, writes a result
  only a store reads where the store would
  (`in_place.store_of_result`), and one only the reduction after it
  reads is computed inside that reduction's loop (`vector_unit`);
* DMA, gather/scatter, atomics and asserts are lowered by `transfers`,
  broadcast/transpose/iota/take, reductions, scans and matmul by
  `vector_unit`: each op family's lowerings are small functions registered
  by op class (`_LOWERINGS`), each documented where it is defined;
* `scf.for`/`if`/`while` become `rvx.loop`/`rvx.if` on scalar slots, with
  tile-typed iteration values copied between their places.

The scratchpad is a `.bss` block (`riscv.assembly_section`) addressed from
`s0`; failure messages are `.rodata` strings.  Every value the code
computes has an unallocated register type: `rvv-allocate-registers` gives
them registers, `rvv-insert-frame` the stack frame, and the
`tnpu-riscv-asm` target prints the assembly.  Anything without a lowering
raises `CompileError` naming the op.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, riscv, riscv_func, rv64, scf
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, TensorType
from xdsl.dialects.riscv import FloatRegisterType, IntRegisterType, Registers
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tnpu.backend_riscv import in_place, transfers, vector_unit
from tnpu.backend_riscv.builder import Builder, fits_imm12
from tnpu.backend_riscv.elements import Element
from tnpu.backend_riscv.elementwise.lowering import emit_elementwise
from tnpu.backend_riscv.elementwise.program import ElementwiseProgram, Stream
from tnpu.backend_riscv.emitter import KernelEmitter
from tnpu.backend_riscv.scalar_program import ScalarProgram, emit_scalar_program, lowers_to_scalar_code
from tnpu.backend_riscv.storage import Constant, InPlace, Location, Scalar, Tile, constant_bits
from tnpu.diagnostics import CompileError
from tnpu.dialects import tile
from tnpu.dialects.arith import is_scalar_arithmetic, is_splat
from tnpu.dialects.dispatch import entry_for
from tnpu.dialects.rvv import rvx
from tnpu.dialects.shapes import row_major_strides

GRID_ARGUMENTS = ("num_programs_x", "num_programs_y", "num_programs_z")
"""Trailing int32 arguments of every generated kernel function: the grid it runs."""

_I32 = Element(32, False)


def kernel_symbol(name: str) -> str:
    return f"tnpu_kernel_{name}"


class RvvKernelLowering(KernelEmitter):
    """The function (and its data sections) of one tile.kernel."""

    def __init__(self, kernel: tile.KernelOp):
        self.kernel = kernel
        name = kernel.sym_name.data
        self.grid: list[Scalar] = []
        """The slots of `GRID_ARGUMENTS`."""
        self.program_ids: list[Scalar] = []
        """The slots of the running program's ids, x, y and z."""
        block = Block()
        self._block = block
        zero = rv64.GetRegisterOp(Registers.ZERO)
        scratchpad = rvx.LlaOp(f"tnpu_scratchpad_{name}", rd=Registers.S0)
        block.add_ops([zero, scratchpad])
        super().__init__(name, Builder(block, zero.res, scratchpad.rd))

    # -- driver ---------------------------------------------------------------

    def lower(self) -> list[Operation]:
        arguments = self._bind_arguments()
        with self._each_program():
            self.emit_ops(self.kernel.body.block.ops)
        self.b.insert(riscv_func.ReturnOp())
        symbol = kernel_symbol(self.name)
        func = riscv_func.FuncOp(symbol, Region(self._block), (arguments, []), visibility="public")
        return [func, *self._sections()]

    def _bind_arguments(self) -> list[IntRegisterType | FloatRegisterType]:
        """Give every argument a slot and store it there if the kernel reads it;
        return the argument registers."""
        values: list[tuple[SSAValue | None, Element]] = [
            (arg, self.element(arg, self.kernel)) for arg in self.kernel.body.block.args
        ]
        values += [(None, _I32)] * len(GRID_ARGUMENTS)
        read = [bool(arg.uses) for arg in self.kernel.body.block.args] + [True] * len(GRID_ARGUMENTS)
        ints, floats = list(Registers.A), list(Registers.FA)
        registers: list[IntRegisterType | FloatRegisterType] = []
        on_stack = 0
        b = self.b
        for (value, element), is_read in zip(values, read):
            slot = self.scratchpad.new_scalar(element)
            if value is None:
                self.grid.append(slot)
            else:
                self.scratchpad.bind(value, slot)
            if element.fpu and floats:
                register = floats.pop(0)
                argument = self._block.insert_arg(register, len(self._block.args))
                store = riscv.FSwOp if slot.element.bits == 32 else riscv.FSdOp
                if is_read:
                    b.insert(store(b.scratchpad, argument, slot.offset))
            elif ints:
                register = ints.pop(0)
                argument = self._block.insert_arg(register, len(self._block.args))
                if is_read:
                    b.insert(rv64.SdOp(b.scratchpad, argument, slot.offset))
            else:
                if is_read:
                    b.store_scalar(b.emit(rvx.StackArgumentOp(on_stack)), slot.offset, slot.element)
                on_stack += 1
                continue
            registers.append(register)
        return registers

    @contextmanager
    def _each_program(self) -> Iterator[None]:
        """The code built inside, once per program of the grid (none if the grid is empty):
        loops over z, y and x, each id counted up in its slot."""
        b = self.b
        self.program_ids = [self.scratchpad.new_scalar(_I32) for _ in self.grid]
        with ExitStack() as nest:
            for count in reversed(self.grid):
                nest.enter_context(b.branch("lt", b.zero, b.load_scalar(count.offset, _I32)))
            for program_id, count in reversed(list(zip(self.program_ids, self.grid))):
                b.store_scalar(b.zero, program_id.offset, _I32)
                nest.enter_context(self._counting(program_id, count))
            yield

    @contextmanager
    def _counting(self, program_id: Scalar, count: Scalar) -> Iterator[None]:
        """A loop whose body runs for each `program_id` from its slot's value up to `count`.
        Nothing inside is hoisted out of it: a program's values are its own."""
        b = self.b
        with b.loop(hoist_barrier=True) as loop:
            yield
            b.source = None
            following = b.emit(riscv.AddiOp(b.load_scalar(program_id.offset, _I32), 1))
            b.store_scalar(following, program_id.offset, _I32)
            loop.repeat_if("lt", following, b.load_scalar(count.offset, _I32))

    def _sections(self) -> list[Operation]:
        scratch = f"tnpu_scratchpad_{self.name}"
        bss = Block([
            riscv.DirectiveOp(".balign", "64"),
            riscv.DirectiveOp(".zero", str(self.scratchpad.scalar_bytes)),
            riscv.LabelOp(scratch),
            riscv.DirectiveOp(".zero", str(max(self.scratchpad.tile_bytes, 8))),
        ])  # fmt: skip
        sections: list[Operation] = [riscv.AssemblySectionOp(".bss", Region(bss))]
        if self.strings:
            strings = Block()
            for label, text in self.strings:
                escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                strings.add_ops([riscv.LabelOp(label), riscv.DirectiveOp(".string", f'"{escaped}"')])
            sections.append(riscv.AssemblySectionOp(".section .rodata", Region(strings)))
        return sections

    # -- blocks ---------------------------------------------------------------

    def emit_ops(self, ops: Iterable[Operation]) -> None:
        """Emit ops in order; runs of scalar arith/math ops go out as one program."""
        scalar_run: list[Operation] = []
        for op in ops:
            if is_scalar_arithmetic(op):
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
        """A run of scalar ops (constants take no code): integer code when every op is
        integer arithmetic (`scalar_program`), else one one-element vector program."""
        ops = [op for op in ops if not self._bind_constant(op)]
        if not ops:
            return
        produced = {r for op in ops for r in op.results}
        inputs: dict[SSAValue, Scalar | Constant] = {}
        for op in ops:
            for operand in op.operands:
                if operand not in produced:
                    inputs[operand] = self.place(operand)  # pyright: ignore[reportArgumentType]
        outputs: list[tuple[SSAValue, Scalar]] = []
        for op in ops:
            for result in op.results:
                if any(use.operation not in ops for use in result.uses):
                    outputs.append((result, self.new_place(result, op)))  # pyright: ignore[reportArgumentType]
        self.b.insert(riscv.CommentOp(f"scalar ops: {', '.join(op.name for op in ops)}"))
        self.b.source = ops[0]
        if all(map(lowers_to_scalar_code, ops)):
            emit_scalar_program(self.b, ScalarProgram(ops, inputs, outputs))
            return
        streams = [(result, Stream(slot.element, slot.offset)) for result, slot in outputs]
        emit_elementwise(self.b, ElementwiseProgram(ops, inputs, streams, 1, ops[0]))  # pyright: ignore[reportArgumentType]

    def _bind_constant(self, op: Operation) -> bool:
        """Bind a scalar constant's value at compile time; False for other ops."""
        if not isinstance(op, arith.ConstantOp) or isinstance(op.results[0].type, TensorType):
            return False
        element = self.element(op.results[0], op)
        bits = constant_bits(op.properties["value"], element)
        if bits is None:
            raise CompileError(op, f"constant {op.properties['value']} has no bit pattern")
        self.scratchpad.bind(op.results[0], Constant(bits, element))
        return True

    def emit_op(self, op: Operation) -> None:
        lowering = entry_for(_LOWERINGS, op)
        if lowering is None:
            raise CompileError(op, "has no RISC-V lowering")
        self.b.insert(riscv.CommentOp(op.name))
        self.b.source = op
        lowering(self, op)

    # -- grid and buffers -----------------------------------------------------

    def _program_id(self, op: tile.ProgramIdOp) -> None:
        self.scratchpad.bind(op.result, self.program_ids[op.axis.value.data])

    def _num_programs(self, op: tile.NumProgramsOp) -> None:
        self.scratchpad.bind(op.result, self.grid[op.axis.value.data])

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
        if vector_unit.reduction_computing(op) is not None:
            return  # the reduction computes it strip by strip
        block = op.body.block
        yielded = block.last_op
        assert isinstance(yielded, tile.YieldOp)
        body_ops = [o for o in block.ops if o is not yielded]
        inputs = self.map_inputs(op)
        outputs = []
        overlapped_stores: list[tuple[SSAValue, tile.StoreOp, Tile]] = []
        for result, value in zip(op.results_, yielded.values):
            store = in_place.store_of_result(self, result)
            if store is None or not self._same_widths_in_place(op, result):
                place = self.new_place(result, op)
                outputs.append((value, Stream(place.element, place.offset)))
                continue
            stream, overlap = self._written_where_stored(op, result, store)
            outputs.append((value, stream))
            if overlap is not None:
                overlapped_stores.append((overlap, store, self.tile_place(result)))
        count = tile.element_count(op.results_[0].type)
        emit_elementwise(self.b, ElementwiseProgram(body_ops, inputs, outputs, count, op))
        for overlap, store, scratch in overlapped_stores:
            with self.b.if_set(overlap):
                transfers.store_from(self, store, scratch)

    def _same_widths_in_place(self, op: tile.MapOp, result: SSAValue) -> bool:
        """Whether every input `op` reads in place has `result`'s element width."""
        bits = self.element(result, op).bits
        return all(p.element.bits == bits for p in map(self.place, op.inputs) if isinstance(p, InPlace))

    def _written_where_stored(self, op: tile.MapOp, result: SSAValue, store: tile.StoreOp) -> tuple[Stream, SSAValue | None]:
        """The stream of `result` written straight to where `store` puts it, and the flag
        (None when no input is read in place) of an overlap that makes it write into
        the scratchpad instead, for the store to copy after the map.

        An input read in place that starts before the destination and reaches it
        would be read after the map has written over it (a GPU reads the whole
        block first); one that starts at the destination or after, or ends
        before it, is read before it is written.  That is `0 < destination -
        input < size`, one unsigned compare of `destination - input - 1`.
        """
        b, element = self.b, self.element(result, op)
        destination = in_place.first_element_address(self, store, element)
        valid = in_place.in_bounds_prefix(self, store)
        self.stored_by_producers.add(store)
        sources = [p.address for p in map(self.place, op.inputs) if isinstance(p, InPlace)]
        if not sources:
            return Stream(element, 0, address=destination, valid=valid), None
        scratch = self.new_place(result, op)
        assert isinstance(scratch, Tile)
        overlap: SSAValue | None = None
        for source in dict.fromkeys(sources):
            distance = b.add_immediate(b.sub(destination, source), -1)
            if fits_imm12(scratch.size - 1):
                ahead = b.emit(riscv.SltiuOp(distance, scratch.size - 1))
            else:
                ahead = b.emit(riscv.SltuOp(distance, b.li(scratch.size - 1)))
            overlap = ahead if overlap is None else b.emit(riscv.OrOp(overlap, ahead))
        assert overlap is not None
        detour = b.mul(b.sub(b.scratch_address(scratch.offset), destination), overlap)
        return Stream(element, 0, address=b.add(destination, detour), valid=valid), overlap

    # -- control flow ---------------------------------------------------------

    def copy(self, source: Location, dest: Scalar | Tile, anchor: Operation) -> None:
        """dest := source (a tile or a scalar), unless they are the same place."""
        if source == dest:
            return
        if isinstance(dest, Tile):
            assert isinstance(source, Tile)
            vector_unit.emit_strided_copy(self, source, dest, row_major_strides(dest.shape), anchor)
            return
        bits = self.load_bits(source)
        self.b.store_scalar(bits, dest.offset, _bits_element(dest.element))

    def parallel_copy(self, sources: Sequence[Location], dests: Sequence[Scalar | Tile], anchor: Operation) -> None:
        """dests := sources all at once, even when a source is another copy's destination."""
        pending = [(s, d) for s, d in zip(sources, dests) if s != d]
        clobbered = {d for _, d in pending}
        staged = []
        for source, dest in pending:
            if source in clobbered:
                temporary = (
                    self.scratchpad.new_tile(source.element, source.shape)
                    if isinstance(source, Tile)
                    else self.scratchpad.new_scalar(source.element)
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
        b = self.b
        b.store_scalar(self.load_int(op.lb), counter.offset, counter.element)
        first = b.load_scalar(counter.offset, counter.element)
        with b.branch("lt", first, self.load_int(op.ub)):
            with b.loop() as loop:
                self.emit_region_block(body, places)
                b.source = op
                index = b.add(b.load_scalar(counter.offset, counter.element), self.load_int(op.step))
                b.store_scalar(index, counter.offset, counter.element)
                loop.repeat_if("lt", index, self.load_int(op.ub))

    def _if(self, op: scf.IfOp) -> None:
        places = [self.new_place(r, op) for r in op.results]
        with self.b.branch("ne", self.load_int(op.cond), self.b.zero) as otherwise:
            self.emit_region_block(op.true_region.block, places)
            if op.false_region.blocks:
                otherwise()
                self.emit_region_block(op.false_region.block, places)

    def _while(self, op: scf.WhileOp) -> None:
        before, after = op.before_region.block, op.after_region.block
        before_places = [self.new_place(arg, op) for arg in before.args]
        after_places = [self.new_place(arg, op) for arg in after.args]
        for result, place in zip(op.results, after_places):
            self.scratchpad.bind(result, place)
        self.parallel_copy([self.place(v) for v in op.arguments], before_places, op)
        condition_op = before.last_op
        assert isinstance(condition_op, scf.ConditionOp)
        b = self.b
        with b.loop() as loop:
            self.emit_region_block(before, None)
            self.parallel_copy([self.place(v) for v in condition_op.args], after_places, condition_op)
            condition = self.load_int(condition_op.condition)
            with b.branch("ne", condition, b.zero):
                self.emit_region_block(after, before_places)
            loop.repeat_if("ne", condition, b.zero)

    def _return(self, op: tile.ReturnOp) -> None:
        pass


def _bits_element(element: Element) -> Element:
    """The element as raw bits (floats moved through integer registers unchanged)."""
    return Element(element.bits, False, is_mask=element.is_mask)


_LOWERINGS: dict[type[Operation], Callable[..., None]] = {
    tile.ProgramIdOp: RvvKernelLowering._program_id,
    tile.NumProgramsOp: RvvKernelLowering._num_programs,
    tile.BufferCastOp: RvvKernelLowering._buffer_cast,
    tile.MapOp: RvvKernelLowering._map,
    tile.ReturnOp: RvvKernelLowering._return,
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
    arith.ConstantOp: RvvKernelLowering._tensor_constant,
    scf.ForOp: RvvKernelLowering._for,
    scf.IfOp: RvvKernelLowering._if,
    scf.WhileOp: RvvKernelLowering._while,
}
"""The lowering of each op, by class (see tnpu.dialects.dispatch)."""


@dataclass(frozen=True)
class TileToRvvPass(ModulePass):
    """Lower each tile.kernel to a riscv_func.func of RISC-V ops (RVV, A extension), registers unallocated.

    Reads tile IR after `tnpu-to-rvv`'s tile steps (math RVV lacks expanded,
    16-bit float arithmetic widened); the module docstring of
    `tnpu.backend_riscv.tile_to_rvv` describes the function, its arguments
    and each op family's code.  Refuses an op without a lowering, naming it.
    """

    name = "tile-to-rvv"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for kernel in [k for k in op.ops if isinstance(k, tile.KernelOp)]:
            Rewriter.replace_op(kernel, RvvKernelLowering(kernel).lower(), [])
