"""Vector-unit and matrix-unit tile ops on RVV.

* broadcast, transpose (and copies of tiles) are strided copies: rows of
  `vlse` (stride 0 for a broadcast dimension) into contiguous `vse`, but
  for a broadcast of one value that only maps read, which they read as a
  uniform; reshape is a view and costs nothing;
* iota is `vid.v` plus a running start; take is an indexed load
  (`vluxei64`) from the source row, its indices checked against the axis;
* reduce: a single-op combiner along the last axis, but of 8- or 16-bit
  floats, uses RVV's reduction instructions (`vfredosum` for float sums:
  ordered, so the result is the same at every VLEN), and so does Inductor's
  argmax/argmin over an iota's indices (`arg_combiners`), the reduction
  followed by a search for the first position holding it (Inductor's
  Welford reduction arrives as sums, `welford-to-sums`); any other
  reduction combines neighbours pairwise, level by level (`_tree_reduce`),
  the order of Triton's GPU code and of tnpu's interpreters: a 16-bit float sum
  folded in order would stop growing once its step exceeds an ulp (1024
  bf16 ones sum to 256).  scan combines in doubling steps (`_scan`,
  Hillis-Steele), as a GPU scans across lanes.  Each step of either is the
  combiner region lowered as an elementwise program;
* matmul: per output row, per strip of columns, `vfmacc.vf` (`vmacc.vx`
  for integers) over k with the row of the accumulator in registers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace

from xdsl.dialects import arith, riscv
from xdsl.dialects.riscv import FloatRegisterType
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv import in_place
from tnpu.backend_riscv.arg_combiners import arg_reduction
from tnpu.backend_riscv.builder import Builder, Cursor, StripLoop, Var, for_each_row
from tnpu.backend_riscv.elements import Element, element_of
from tnpu.backend_riscv.elementwise.lowering import emit_elementwise
from tnpu.backend_riscv.elementwise.program import ElementwiseProgram, Fold, Stream
from tnpu.backend_riscv.elementwise.program_code import nan_mask
from tnpu.backend_riscv.emitter import KernelEmitter
from tnpu.backend_riscv.storage import Constant, Iota, Scalar, Tile
from tnpu.diagnostics import CompileError
from tnpu.dialects import tile
from tnpu.dialects.dispatch import entry_for
from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv.types import VectorRegisterType
from tnpu.dialects.shapes import element_type_of, row_major_strides, shape_of


def _vector() -> VectorRegisterType:
    return StripLoop.vector_type()


@contextmanager
def _repeat(b: Builder, trips: int) -> Iterator[None]:
    """A loop whose body runs `trips` (at least one) times, counting down to zero; no loop for one."""
    if trips == 1:
        yield
        return
    left = b.var(trips)
    with b.loop() as loop:
        yield
        left.set(b.emit(riscv.AddiOp(left.value, -1)))
        loop.repeat_if("ne", left, b.zero)


def load_indices_as_i64(b: Builder, loop: StripLoop, pointer: SSAValue, index_bits: int) -> SSAValue:
    """The `vl` integers of `index_bits` at `pointer`, sign-extended to 64 bits (left at e64)."""
    loop.sew(index_bits)
    indices = b.vector(rvv.UNIT_STRIDE_LOADS[index_bits](pointer, result_type=_vector()))
    loop.sew(64)
    if index_bits == 64:
        return indices
    extend = {8: rvv.VsextVf8Op, 16: rvv.VsextVf4Op, 32: rvv.VsextVf2Op}[index_bits]
    return b.vector(extend(indices, result_type=_vector()))


# -- copies -------------------------------------------------------------------


def emit_strided_copy(
    cg: KernelEmitter, source: Tile, dest: Tile, source_strides: Sequence[int], anchor: Operation
) -> None:
    """dest[i] := source[sum(i[d] * source_strides[d])] for every index i of dest."""
    b, element = cg.b, dest.element
    shape = dest.shape or (1,)
    source_strides = list(source_strides) or [0]
    inner = source_strides[-1] * element.bytes
    stride = b.li(inner) if inner != element.bytes else None
    cursors = [
        Cursor(b.scratch_address(source.offset), [s * element.bytes for s in source_strides]),
        Cursor(b.scratch_address(dest.offset), [s * element.bytes for s in row_major_strides(shape)]),
    ]

    def row(addresses: list[SSAValue], valid: SSAValue | None) -> None:
        from_pointer, to_pointer = b.var(addresses[0]), b.var(addresses[1])
        with StripLoop.over(b, shape[-1], element.bits) as loop:
            if stride is None:
                data = b.vector(rvv.UNIT_STRIDE_LOADS[element.bits](from_pointer.value, result_type=_vector()))
            else:
                data = b.vector(rvv.STRIDED_LOADS[element.bits](from_pointer.value, stride, result_type=_vector()))
            b.insert(rvv.UNIT_STRIDE_STORES[element.bits](data, to_pointer.value))
            if inner:
                loop.advance(from_pointer, stride if stride is not None else element.bytes)
            loop.advance(to_pointer, element.bytes)

    for_each_row(b, shape, cursors, row)


def emit_broadcast(cg: KernelEmitter, op: tile.BroadcastOp) -> None:
    """One value (a scalar, or a tile of one element) that only maps read stays one
    value, which they read as a uniform; anything else becomes a tile of copies."""
    source = cg.place(op.source)
    if _only_maps_read(op.result):
        if isinstance(source, Tile) and source.count == 1:
            slot = cg.scratchpad.new_scalar(source.element)
            cg.b.store_scalar(cg.b.load_scalar(source.offset, source.element), slot.offset, source.element)
            source = slot
        if isinstance(source, Scalar | Constant):
            cg.scratchpad.bind(op.result, source)
            return
    dest = cg.new_place(op.result, op)
    assert isinstance(dest, Tile)
    if not isinstance(source, Tile):
        cg.fill(dest, source, op)  # pyright: ignore[reportArgumentType]
        return
    strides = [
        0 if size == 1 and wanted != 1 else stride
        for size, wanted, stride in zip(source.shape, dest.shape, row_major_strides(source.shape))
    ]
    emit_strided_copy(cg, source, dest, strides, op)


def emit_transpose(cg: KernelEmitter, op: tile.TransposeOp) -> None:
    dest = cg.new_place(op.result, op)
    source = cg.tile_place(op.source)
    source_strides = row_major_strides(source.shape)
    permutation = op.permutation.get_values()
    emit_strided_copy(cg, source, dest, [source_strides[p] for p in permutation], op)  # pyright: ignore[reportArgumentType]


def emit_reshape(cg: KernelEmitter, op: tile.ReshapeOp) -> None:
    if op.source not in cg.scratchpad:  # its producer wrote it where the one store of it puts it
        return
    source = cg.place(op.source)
    if isinstance(source, Scalar | Constant):  # a broadcast value only maps read, the same everywhere
        cg.scratchpad.bind(op.result, source)
        return
    assert isinstance(source, Tile | Iota)
    shape = tuple(op.result.type.get_shape())
    cg.scratchpad.bind(op.result, replace(source, shape=shape))


def emit_iota(cg: KernelEmitter, op: tile.IotaOp) -> None:
    """Nothing if only maps read the iota (`Iota`: they compute it), else `vid.v` plus a running start."""
    if _only_maps_read(op.result):
        cg.scratchpad.bind(op.result, Iota(op.start.value.data, cg.element(op.result, op), (op.element_count(),)))
        return
    dest = cg.new_place(op.result, op)
    assert isinstance(dest, Tile)
    b, bits = cg.b, dest.element.bits
    pointer = b.var(b.scratch_address(dest.offset))
    start = b.var(op.start.value.data)
    with StripLoop.over(b, dest.count, bits) as loop:
        indices = b.vector(rvv.VidVOp(result_type=_vector()))
        shifted = b.vector(rvv.VaddVxOp(indices, start.value, result_type=_vector()))
        b.insert(rvv.UNIT_STRIDE_STORES[bits](shifted, pointer.value))
        start.set(b.add(start, loop.vl))
        loop.advance(pointer, dest.element.bytes)


def _only_maps_read(value: SSAValue) -> bool:
    """Whether only `tile.map`s read `value`, directly or through reshapes."""
    return all(
        isinstance(use.operation, tile.MapOp)
        or isinstance(use.operation, tile.ReshapeOp) and _only_maps_read(use.operation.result)
        for use in value.uses
    )


def emit_take(cg: KernelEmitter, op: tile.TakeOp) -> None:
    """result[i] := source at index idx[i] along the axis, one result row at a time.

    A row's indices are sign-extended to 64 bits, checked against the axis
    (unsigned, so a negative index fails too) and scaled to byte offsets
    (plus the column's own offset when the axis is not the last) for one
    `vluxei64` from the source row.  An index outside the axis fails the
    launch, as a failed `tile.assert` does.
    """
    b = cg.b
    source, indices = cg.tile_place(op.source), cg.tile_place(op.indices)
    dest = cg.new_place(op.result, op)
    assert isinstance(dest, Tile)
    axis = op.axis.value.data
    last = len(dest.shape) - 1
    element, index_element = dest.element, indices.element
    bits = element.bits
    source_strides = [s * element.bytes for s in row_major_strides(source.shape)]
    cursors = [
        Cursor(b.scratch_address(source.offset), [0 if d == axis else s for d, s in enumerate(source_strides)]),
        Cursor(b.scratch_address(indices.offset), [s * index_element.bytes for s in row_major_strides(indices.shape)]),
        Cursor(b.scratch_address(dest.offset), [s * element.bytes for s in row_major_strides(dest.shape)]),
    ]
    limit, scale = b.li(source.shape[axis]), b.li(source_strides[axis])
    message = f"tile.take: an index outside the {source.shape[axis]} elements of axis {axis}"

    def row(addresses: list[SSAValue], valid: SSAValue | None) -> None:
        source_pointer = addresses[0]
        index_pointer, dest_pointer = b.var(addresses[1]), b.var(addresses[2])
        column = b.var(0) if axis != last else None
        with StripLoop.over(b, dest.shape[-1], 64) as loop:
            offsets = load_indices_as_i64(b, loop, index_pointer.value, index_element.bits)
            outside = b.vector(rvv.VmsgeuVxOp(offsets, limit, result_type=StripLoop.mask_type()))
            with b.branch("ge", b.emit(rvv.VfirstMOp(outside)), b.zero):
                cg.fail(message)
            offsets = b.vector(rvv.VmulVxOp(offsets, scale, result_type=_vector()))
            if column is not None:
                columns = b.vector(rvv.VidVOp(result_type=_vector()))
                columns = b.vector(rvv.VaddVxOp(columns, column.value, result_type=_vector()))
                columns = b.vector(rvv.VsllViOp(columns, element.log2_bytes, result_type=_vector()))
                offsets = b.vector(rvv.VaddVvOp(offsets, columns, result_type=_vector()))
                column.set(b.add(column, loop.vl))
            loop.sew(bits)
            taken = b.vector(rvv.Vluxei64VOp(source_pointer, offsets, result_type=_vector()))
            b.insert(rvv.UNIT_STRIDE_STORES[bits](taken, dest_pointer.value))
            loop.advance(index_pointer, index_element.bytes)
            loop.advance(dest_pointer, element.bytes)

    for_each_row(b, dest.shape, cursors, row)


# -- reductions and scans ---------------------------------------------------

# combiner op class -> reduction instruction (tables by class: see tnpu.dialects.dispatch)
_FLOAT_REDUCTIONS: dict[type[Operation], type[rvv.VectorVectorOp]] = {
    arith.AddfOp: rvv.VfredosumVsOp,
    arith.MaxnumfOp: rvv.VfredmaxVsOp,
    arith.MinnumfOp: rvv.VfredminVsOp,
    arith.MaximumfOp: rvv.VfredmaxVsOp,
    arith.MinimumfOp: rvv.VfredminVsOp,
}
_INT_REDUCTIONS: dict[type[Operation], type[rvv.VectorVectorOp]] = {
    arith.AddiOp: rvv.VredsumVsOp,
    arith.MaxSIOp: rvv.VredmaxVsOp,
    arith.MinSIOp: rvv.VredminVsOp,
    arith.MaxUIOp: rvv.VredmaxuVsOp,
    arith.MinUIOp: rvv.VredminuVsOp,
    arith.AndIOp: rvv.VredandVsOp,
    arith.OrIOp: rvv.VredorVsOp,
    arith.XOrIOp: rvv.VredxorVsOp,
}
_NAN_PROPAGATING = (arith.MaximumfOp, arith.MinimumfOp)
_MASK_REDUCIBLE = (arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.MaxUIOp, arith.MinUIOp)


def _identity(combiner: type[Operation], element: Element) -> int:
    """Bits of the combiner's identity element."""
    bits = element.bits
    if element.is_float:
        negative_infinity = {32: 0xFF800000, 64: 0xFFF0000000000000}[bits]
        positive_infinity = {32: 0x7F800000, 64: 0x7FF0000000000000}[bits]
        negative_zero = {32: 0x80000000, 64: 0x8000000000000000}[bits]
        if issubclass(combiner, arith.AddfOp):
            value = negative_zero
        elif issubclass(combiner, arith.MaxnumfOp | arith.MaximumfOp):
            value = negative_infinity
        else:
            value = positive_infinity
        return value - (1 << bits) if value >= 1 << (bits - 1) else value
    if element.is_mask:
        return 1 if issubclass(combiner, arith.AndIOp) else 0
    smallest, largest = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    identities: dict[type[Operation], int] = {
        arith.AddiOp: 0, arith.OrIOp: 0, arith.XOrIOp: 0, arith.MaxUIOp: 0,
        arith.AndIOp: -1, arith.MinUIOp: -1,
        arith.MaxSIOp: smallest, arith.MinSIOp: largest,
    }  # fmt: skip
    identity = entry_for(identities, combiner)
    assert identity is not None, f"{combiner.name} has no reduction instruction"
    return identity


def _reduction_instruction(combiner: type[Operation], element: Element) -> type[rvv.VectorVectorOp] | None:
    """The RVV instruction that reduces `element`s as `combiner` combines them, if any."""
    if element.half_float:
        return None
    if element.is_mask:
        return entry_for({k: v for k, v in _INT_REDUCTIONS.items() if k in _MASK_REDUCIBLE}, combiner)
    return entry_for(_FLOAT_REDUCTIONS if element.is_float else _INT_REDUCTIONS, combiner)


def _single_op_combiner(op: tile.ReduceOp) -> type[Operation] | None:
    """The class of the combiner's op if it is `yield op(acc, new)` (in either order)."""
    block = op.combiner.block
    ops = list(block.ops)
    if len(op.inputs) != 1 or len(ops) != 2:
        return None
    combine, yielded = ops
    if tuple(yielded.operands) != tuple(combine.results):
        return None
    if set(combine.operands) != set(block.args) or len(combine.operands) != 2:
        return None
    return type(combine)


def emit_reduce(cg: KernelEmitter, op: tile.ReduceOp) -> None:
    combiner = _row_instruction_combiner(op)
    if combiner is not None:
        _horizontal_reduce(cg, op, combiner)
        return
    element = cg.tile_place(op.inputs[0]).element
    extreme = arg_reduction(op)
    if extreme is not None and _reduction_instruction(extreme, element) is not None:
        _arg_reduce(cg, op, extreme)
    else:
        _tree_reduce(cg, op)


def _row_instruction_combiner(op: tile.ReduceOp) -> type[Operation] | None:
    """The combiner of a reduction along the last axis that one RVV instruction computes, if it is one."""
    shape = shape_of(op.inputs[0].type)
    combiner = _single_op_combiner(op) if op.axis.value.data == len(shape) - 1 else None
    element = element_of(element_type_of(op.inputs[0].type))
    if combiner is None or element is None or _reduction_instruction(combiner, element) is None:
        return None
    return combiner


def reduction_computing(op: tile.MapOp) -> tile.ReduceOp | None:
    """The reduction that computes `op`'s result strip by strip, instead of reading it from
    the scratchpad: the op right after the map, reducing with one RVV instruction
    along the last axis, and the only reader of the map's only result.  Right
    after, because what the map reads in place must not change before it is read."""
    reduction = op.next_op
    if len(op.results) != 1 or not isinstance(reduction, tile.ReduceOp) or reduction.inputs[0] is not op.results[0]:
        return None
    if len(list(op.results[0].uses)) != 1 or _row_instruction_combiner(reduction) is None:
        return None
    return reduction


def emit_scan(cg: KernelEmitter, op: tile.ScanOp) -> None:
    _scan(cg, op)


def _horizontal_reduce(cg: KernelEmitter, op: tile.ReduceOp, combiner: type[Operation]) -> None:
    """Each row reduced by one RVV reduction instruction chained across strips; the map
    whose result only this reduction reads (`reduction_computing`) is computed
    strip by strip in the same loop."""
    b, source = cg.b, op.inputs[0]
    element = cg.element(source, op)
    shape = shape_of(source.type)
    columns = shape[-1]
    rows = math.prod(shape) // columns
    producer = source.owner if isinstance(source.owner, tile.MapOp) and reduction_computing(source.owner) else None
    dest_pointer, stored = _result_destination(cg, op, element, rows)
    row_start = b.var(0) if rows > 1 else None
    with _repeat(b, rows):
        base = row_start.value if row_start is not None else None
        if producer is None:
            program = ElementwiseProgram([], {source: cg.as_stream(cg.place(source), base)}, [], columns, op)
            value = source
        else:
            body = producer.body.block
            program = ElementwiseProgram(list(body.ops)[:-1], cg.map_inputs(producer, base), [], columns, producer)
            value = body.last_op.operands[0]  # pyright: ignore[reportOptionalMemberAccess]  # a block ends with its terminator
        reduced, nan_seen = _reduce_row(b, program, value, element, combiner)
        result = b.var(reduced)
        if nan_seen is not None:
            with b.branch("ne", nan_seen, b.zero):
                result.set(b.li({32: 0x7FC00000, 64: 0x7FF8000000000000}[element.bits]))
        if stored is None:
            b.store_scalar(result.value, 0, element, dest_pointer.value)
        else:
            with b.branch("lt", b.zero, stored):
                b.store_scalar(result.value, 0, element, dest_pointer.value)
        if row_start is not None:
            b.advance(dest_pointer, element.bytes)
            b.advance(row_start, columns)


def _result_destination(cg: KernelEmitter, op: tile.ReduceOp, element: Element, rows: int) -> tuple[Var, SSAValue | None]:
    """Where a reduction writes its one result: where the store of it would
    (`in_place.store_of_result`), under the store's bound (whether the one element is in
    bounds, as a register), or its scratchpad place.  Only a one-row reduction stores
    its result: with more rows, writing one row's result before reading the next row
    could overwrite that row."""
    store = in_place.store_of_result(cg, op.results_[0]) if rows == 1 else None
    if store is None:
        return cg.b.var(cg.b.scratch_address(cg.new_place(op.results_[0], op).offset)), None
    cg.stored_by_producers.add(store)
    destination = cg.b.var(in_place.first_element_address(cg, store, element))
    return destination, in_place.in_bounds_prefix(cg, store)


def _reduce_row(
    b: Builder, row: ElementwiseProgram, value: SSAValue, element: Element, combiner: type[Operation]
) -> tuple[SSAValue, Var | None]:
    """`value` of the elementwise program `row` reduced by `combiner`'s RVV instruction
    chained across the program's strips.

    Gives the result's bits in an integer register and, for a
    NaN-propagating combiner, a register that is not zero when the row
    holds a NaN: the instructions skip NaNs, as IEEE's maximumNumber does.
    """
    bits = element.bits
    instruction = _reduction_instruction(combiner, element)
    assert instruction is not None, f"{combiner.name} has no reduction instruction for {element}"
    with b.hoisted():
        identity = b.li(_identity(combiner, element))
    b.insert(rvv.VsetivliOp(1, bits, 8))
    accumulator = b.var(b.vector(rvv.VmvSXOp(identity, result_type=VectorRegisterType.group(1))))
    nan_seen = b.var(0) if issubclass(combiner, _NAN_PROPAGATING) else None
    emit_elementwise(b, replace(row, folds=[Fold(value, instruction, accumulator, nan_seen)]))
    b.insert(rvv.VsetivliOp(1, bits, 8))
    return b.emit(rvv.VmvXSOp(accumulator.value)), nan_seen


def _row_of(cg: KernelEmitter, value: SSAValue, row: SSAValue, anchor: Operation) -> ElementwiseProgram:
    """The program that reads the row of `value`'s tile at address `row`."""
    place = cg.tile_place(value)
    return ElementwiseProgram([], {value: Stream(place.element, 0, address=row)}, [], place.shape[-1], anchor)


def _arg_reduce(cg: KernelEmitter, op: tile.ReduceOp, extreme: type[Operation]) -> None:
    """Each row's value and index at the first position holding the row's `extreme` (`arg_combiners`).

    Two passes over the row: the first reduces it with `extreme`'s
    instruction (`vfredmax`, ...) and notes whether it holds a NaN; the
    second looks for the first element equal to that (a NaN, if there is
    one), strip by strip until it finds it.  Value and index are then
    copied from that position, so the value keeps its bits: -0.0 where
    `vfredmax` says +0.0.
    """
    b = cg.b
    values, indices = (cg.tile_place(v) for v in op.inputs)
    value_dest, index_dest = (cg.new_place(r, op) for r in op.results)
    value_row, index_row, value_out, index_out = (
        b.var(b.scratch_address(place.offset)) for place in (values, indices, value_dest, index_dest)
    )
    element, index_element = values.element, indices.element
    columns = values.shape[-1]
    with _repeat(b, values.count // columns):
        reduced, nan_seen = _reduce_row(b, _row_of(cg, op.inputs[0], value_row.value, op), op.inputs[0], element, extreme)
        column = _first_column_holding(b, value_row.value, columns, element, reduced, nan_seen)
        _copy_element(b, value_row.value, column, element, value_out.value)
        _copy_element(b, index_row.value, column, index_element, index_out.value)
        b.advance(value_row, columns * element.bytes)
        b.advance(index_row, columns * index_element.bytes)
        b.advance(value_out, element.bytes)
        b.advance(index_out, index_element.bytes)


def _first_column_holding(
    b: Builder, row: SSAValue, columns: int, element: Element, wanted: SSAValue, nan_seen: Var | None
) -> SSAValue:
    """The first of the row's columns equal to `wanted` (bits in an integer register; floats compare
    as floats, -0.0 equal to +0.0), or the first NaN when `nan_seen` is set."""
    equal = _equal_to(b, wanted, element)
    if nan_seen is None:
        return _first_column_where(b, row, columns, element, equal)
    column = b.var(0)
    with b.branch("ne", nan_seen, b.zero) as otherwise:
        column.set(_first_column_where(b, row, columns, element, lambda data: nan_mask(b, data)))
        otherwise()
        column.set(_first_column_where(b, row, columns, element, equal))
    return column.value


def _equal_to(b: Builder, wanted: SSAValue, element: Element) -> Callable[[SSAValue], SSAValue]:
    """What builds a strip's mask of the elements equal to `wanted` (bits in an integer register)."""
    mask = StripLoop.mask_type()
    if not element.is_float:
        return lambda data: b.vector(rvv.VmseqVxOp(data, wanted, result_type=mask))
    number = b.float_from_bits(wanted, element.bits)
    return lambda data: b.vector(rvv.VmfeqVfOp(data, number, result_type=mask))


def _first_column_where(
    b: Builder, row: SSAValue, columns: int, element: Element, matches: Callable[[SSAValue], SSAValue]
) -> SSAValue:
    """The first of the row's columns set in `matches(strip)`, which must be set somewhere in the
    row: the search stops at the strip where it is."""
    pointer, start, found = b.var(row), b.var(0), b.var(0)
    with StripLoop.over(b, columns, element.bits) as strip:
        data = b.vector(rvv.UNIT_STRIDE_LOADS[element.bits](pointer.value, result_type=_vector()))
        first = b.emit(rvv.VfirstMOp(matches(data)))
        found.set(b.add(start, first))
        strip.repeat_while("lt", first, b.zero)
        strip.advance(pointer, element.bytes)
        strip.advance(start, 1)
    return found.value


def _copy_element(b: Builder, row: SSAValue, column: SSAValue, element: Element, dest: SSAValue) -> None:
    """The element at `column` of the row at `row` to `dest`, bit for bit."""
    address = b.add(row, b.slli(column, element.log2_bytes))
    b.store_scalar(b.load_scalar(0, element, address), 0, element, dest)


def _scan(cg: KernelEmitter, op: tile.ScanOp) -> None:
    """Inclusive scan along the axis in doubling steps, as `interpreters.tt.inclusive_scan` does.

    Hillis-Steele, as a GPU scans across lanes: at distance d (1, 2, 4, ...)
    slice i (the input viewed as [outer, n, inner]) becomes the combiner of
    slice i - d (i + d, reversed) and itself; the d slices it cannot reach
    are copied.  So every value is rounded ceil(log2 n) times, not up to n
    times, and the result is bit-identical to tnpu's interpreters.  For one
    position the slices a step combines are contiguous: one elementwise
    program of (n - d) * inner lanes.  Steps alternate between two scratch
    tiles per input, so no program reads what it writes; the last writes
    the result.
    """
    sources = [cg.tile_place(v) for v in op.inputs]
    results = [cg.new_place(r, op) for r in op.results]
    outer, length, inner = _slices(sources[0].shape, op.axis.value.data)
    reverse = bool(op.reverse.value.data)
    distances = [1 << step for step in range((length - 1).bit_length())]
    scratch = [[cg.scratchpad.new_tile(s.element, s.shape) for s in sources] for _ in distances[1:3]]

    b = cg.b
    position_start = b.var(0)
    with _repeat(b, outer):

        def at(places: Sequence[Tile | Scalar], first: int) -> list[Stream]:
            """This position's elements of each of `places` from slice `first` on."""
            return _streams(places, position_start, first * inner)

        if not distances:
            _copy(cg, op, at(sources, 0), at(results, 0), inner)
        step_sources: Sequence[Tile | Scalar] = sources
        for step, distance in enumerate(distances):
            dests = results if step == len(distances) - 1 else scratch[step % 2]
            reached = length - distance
            unreached = reached if reverse else 0
            _copy(cg, op, at(step_sources, unreached), at(dests, unreached), distance * inner)
            earlier, later = (distance, 0) if reverse else (0, distance)
            _combine(cg, op, at(step_sources, earlier), at(step_sources, later), at(dests, later), reached * inner)
            step_sources = dests
        b.advance(position_start, length * inner)


def _tree_reduce(cg: KernelEmitter, op: tile.ReduceOp) -> None:
    """Reduce along the axis by combining neighbours pairwise, lower index on the left.

    Level by level, as `interpreters.tt.tree_reduce` does: slices 2j and 2j+1
    of a level (the input viewed as [outer, n, inner]) combine into slice j
    of the next, an odd last slice moving up as it is, until one slice, the
    result, is left.  Levels alternate between two scratch tiles per input,
    so no program reads what it writes.
    """
    sources = [cg.tile_place(v) for v in op.inputs]
    results = [cg.new_place(r, op) for r in op.results]
    outer, length, inner = _slices(sources[0].shape, op.axis.value.data)
    lengths = [(length + 1) // 2, (length + 3) // 4]
    scratch = [
        [cg.scratchpad.new_tile(s.element, (outer, axis_length, inner)) for s in sources] for axis_length in lengths
    ] if length > 2 else []  # fmt: skip

    b = cg.b
    position = b.var(0)
    with _repeat(b, outer):

        def start(axis_length: int) -> Var:
            """This position's first element in a tile of `axis_length` along the axis."""
            return b.var(b.mul(position, axis_length * inner))

        if length == 1:
            offset = start(1)
            _copy(cg, op, _streams(sources, offset), _streams(results, offset), inner)
        level_sources, source_length, count, level = list(sources), length, length, 0
        while count > 1:
            last = count == 2
            level_dests = results if last else scratch[level % 2]
            dest_length = 1 if last else lengths[level % 2]
            _tree_level(cg, op, level_sources, start(source_length), level_dests, start(dest_length), count, inner)
            level_sources, source_length, count, level = level_dests, dest_length, (count + 1) // 2, level + 1
        b.advance(position, 1)


def _tree_level(
    cg: KernelEmitter, op: tile.ReduceOp, froms: Sequence[Tile | Scalar], source: Var,
    tos: Sequence[Tile | Scalar], dest: Var, count: int, inner: int,
) -> None:  # fmt: skip
    """One level of `_tree_reduce` at one position: `count` slices, neighbours combined.

    The slices of `froms` from element `source` on combine into those of
    `tos` from element `dest` on.  With inner > 1 a slice pair is one
    elementwise program over `inner` lanes, in a loop over the pairs; with
    inner == 1 the pairs are the lanes, read at a stride of two elements.
    """
    b = cg.b
    pairs, odd = divmod(count, 2)
    every = 2 if inner == 1 else 1

    def combine_pairs(lanes: int) -> None:
        lefts, rights = _streams(froms, source, every=every), _streams(froms, source, inner, every)
        _combine(cg, op, lefts, rights, _streams(tos, dest), lanes)

    if inner == 1:
        combine_pairs(pairs)
        if odd:  # on to the odd slice
            b.advance(source, 2 * pairs)
            b.advance(dest, pairs)
    else:
        with _repeat(b, pairs):
            combine_pairs(inner)
            b.advance(source, 2 * inner)
            b.advance(dest, inner)
    if odd:
        _copy(cg, op, _streams(froms, source), _streams(tos, dest), inner)


def _streams(places: Sequence[Tile | Scalar], base: Var, skip: int = 0, every: int = 1) -> list[Stream]:
    """Each place's elements from element `base` + `skip` on, `every` elements apart."""
    return [
        Stream(p.element, p.offset + skip * p.element.bytes, base.value, every * p.element.bytes if every > 1 else None)
        for p in places
    ]


def _slices(shape: Sequence[int], axis: int) -> tuple[int, int, int]:
    """A tile viewed as [outer, n, inner] around `axis`."""
    return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :])


def _copy(
    cg: KernelEmitter, op: tile.ReduceOp | tile.ScanOp, froms: Sequence[Stream], tos: Sequence[Stream], count: int
) -> None:
    """`count` elements of each stream of `froms` to its twin in `tos`: a program of no ops."""
    _, news, _, _ = _combiner_parts(op)
    emit_elementwise(cg.b, ElementwiseProgram([], dict(zip(news, froms)), list(zip(news, tos)), count, op))


def _combine(
    cg: KernelEmitter, op: tile.ReduceOp | tile.ScanOp,
    lefts: Sequence[Stream], rights: Sequence[Stream], outs: Sequence[Stream], count: int,
) -> None:  # fmt: skip
    """outs = the combiner of lefts (the accumulated values) and rights (the new ones), `count` elements."""
    accumulators, news, body, yielded = _combiner_parts(op)
    inputs: dict[SSAValue, Stream | Scalar | Constant] = cg.captured(body, op.combiner.block)  # pyright: ignore[reportAssignmentType]
    for accumulator, new, left, right in zip(accumulators, news, lefts, rights):
        inputs[accumulator], inputs[new] = left, right  # operand by operand: the programs' load order
    emit_elementwise(cg.b, ElementwiseProgram(body, inputs, list(zip(yielded.operands, outs)), count, op))


def _combiner_parts(
    op: tile.ReduceOp | tile.ScanOp,
) -> tuple[Sequence[SSAValue], Sequence[SSAValue], list[Operation], Operation]:
    """The combiner's accumulator and new-value arguments, its ops and its yield."""
    block = op.combiner.block
    count = len(op.inputs)
    yielded = block.last_op
    assert yielded is not None
    return block.args[:count], block.args[count:], [o for o in block.ops if o is not yielded], yielded


# -- matmul -------------------------------------------------------------------


def emit_matmul(cg: KernelEmitter, op: tile.MatmulOp) -> None:
    """acc + lhs @ rhs, each output row strip accumulated in registers over k, in k order.

    Floats: f32/f64 operands of the accumulator's type, `vfmacc.vf`
    (widen-half-floats has made f16/bf16 matmuls f32 ones).  Integers:
    signed operands no wider than the accumulator, sign-extended as they are
    read (int8 x int8 -> int32), `vmacc.vx`, the sum wrapping in the
    accumulator's width.  One product is added per element and step, in k
    order, so every VLEN gives the same bits.
    """
    lhs, rhs, acc = cg.tile_place(op.lhs), cg.tile_place(op.rhs), cg.tile_place(op.acc)
    element, operand = acc.element, lhs.element
    floats = element.fpu and operand == rhs.element == element
    integers = (
        not element.is_float and not element.is_mask and operand == rhs.element
        and not operand.is_float and not operand.is_mask and operand.bits <= element.bits
    )
    if not (floats or integers):
        raise CompileError(
            op, f"matmul of {op.lhs.type} and {op.rhs.type} into {op.acc.type}: only f32/f64 "
            "operands of the accumulator's type (f16/bf16 after widen-half-floats) or signed "
            "integers no wider than an integer accumulator are lowered"
        )
    operand_size = operand.bytes
    dest = cg.new_place(op.result, op)
    batch, rows, columns, depth = op.dims()
    b, bits, size = cg.b, element.bits, element.bytes
    cursors = [
        Cursor(b.scratch_address(lhs.offset), [rows * depth * operand_size, depth * operand_size, 0]),
        Cursor(b.scratch_address(acc.offset), [rows * columns * size, columns * size, 0]),
        Cursor(b.scratch_address(dest.offset), [rows * columns * size, columns * size, 0]),
        Cursor(b.scratch_address(rhs.offset), [depth * columns * operand_size, 0, 0]),
    ]
    rhs_row_bytes = columns * operand_size

    def row(addresses: list[SSAValue], valid: SSAValue | None) -> None:
        a_row, c_row, d_row, b_base = addresses
        acc_pointer, dest_pointer = b.var(c_row), b.var(d_row)
        column = b.var(0)
        with StripLoop.over(b, columns, bits) as strip:
            total = b.var(b.vector(rvv.UNIT_STRIDE_LOADS[bits](acc_pointer.value, result_type=_vector())))
            rhs_pointer = b.var(b.add(b.slli(column, operand.log2_bytes), b_base))
            lhs_pointer = b.var(a_row)
            with _repeat(b, depth):
                if floats:
                    scalar = b.emit((riscv.FLwOp if bits == 32 else riscv.FLdOp)(lhs_pointer.value, 0, rd=FloatRegisterType.unallocated()))
                    strip_row = b.vector(rvv.UNIT_STRIDE_LOADS[bits](rhs_pointer.value, result_type=_vector()))
                    total.set(b.vector(rvv.VfmaccVfOp(total.value, scalar, strip_row)))
                else:
                    scalar = b.load_scalar(0, operand, lhs_pointer.value)
                    strip_row = _narrow_row(b, strip, rhs_pointer.value, operand.bits, bits)
                    total.set(b.vector(rvv.VmaccVxOp(total.value, scalar, strip_row)))
                b.advance(lhs_pointer, operand_size)
                b.advance(rhs_pointer, rhs_row_bytes)
            b.insert(rvv.UNIT_STRIDE_STORES[bits](total.value, dest_pointer.value))
            column.set(b.add(column, strip.vl))
            strip.advance(acc_pointer, size)
            strip.advance(dest_pointer, size)

    for_each_row(b, (batch, rows, 1), cursors, row)


def _narrow_row(b: Builder, strip: StripLoop, pointer: SSAValue, operand_bits: int, bits: int) -> SSAValue:
    """A row strip of `operand_bits` integers at `pointer`, sign-extended to `bits`."""
    if operand_bits == bits:
        return b.vector(rvv.UNIT_STRIDE_LOADS[bits](pointer, result_type=_vector()))
    strip.sew(operand_bits)  # the narrow row at the same vl: LMUL shrinks with the element width
    narrow = b.vector(rvv.UNIT_STRIDE_LOADS[operand_bits](pointer, result_type=_vector()))
    strip.sew(bits)
    extend = {2: rvv.VsextVf2Op, 4: rvv.VsextVf4Op, 8: rvv.VsextVf8Op}[bits // operand_bits]
    return b.vector(extend(narrow, result_type=_vector()))
