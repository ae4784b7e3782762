"""Vector-unit and matrix-unit tile ops on RVV.

* broadcast, transpose (and copies of tiles) are strided copies: rows of
  `vlse` (stride 0 for a broadcast dimension) into contiguous `vse`;
  reshape is a view and costs nothing;
* iota is `vid.v` plus a running start; take is an indexed load
  (`vluxei64`) from the source row, its indices checked against the axis;
* reduce: a single-op combiner along the last axis, but of 8- or 16-bit
  floats, uses RVV's reduction instructions (`vfredosum` for float sums:
  ordered, so the result is the same at every VLEN); any other reduction
  combines neighbours pairwise, level by level (`_tree_reduce`), the order
  of Triton's GPU code and of tnpu's interpreters: a 16-bit float sum
  folded in order would stop growing once its step exceeds an ulp (1024
  bf16 ones sum to 256).  Each step is the combiner region lowered as an
  elementwise program over all kept positions at once.  scan folds slice
  by slice, keeping every step;
* matmul: per output row, per strip of columns, `vfmacc.vf` (`vmacc.vx`
  for integers) over k with the row of the accumulator in registers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from xdsl.dialects import arith
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.asm import AsmWriter, Cursor, StripLoop, for_each_row
from tnpu.backend_riscv.elements import Element, lmul_name
from tnpu.backend_riscv.elementwise import ElementwiseProgram, Stream, emit_elementwise
from tnpu.backend_riscv.emitter import KernelEmitter
from tnpu.backend_riscv.storage import Constant, Scalar, Tile
from tnpu.diagnostics import CompileError
from tnpu.dialects import tile
from tnpu.dialects.dispatch import entry_for


def row_major_strides(shape: Sequence[int]) -> list[int]:
    strides, running = [], 1
    for size in reversed(shape):
        strides.append(running)
        running *= size
    return strides[::-1]


# -- copies -------------------------------------------------------------------


def emit_strided_copy(
    cg: KernelEmitter, source: Tile, dest: Tile, source_strides: Sequence[int], anchor: Operation
) -> None:
    """dest[i] := source[sum(i[d] * source_strides[d])] for every index i of dest."""
    asm, element = cg.asm, dest.element
    shape = dest.shape or (1,)
    source_strides = list(source_strides) or [0]
    inner = source_strides[-1] * element.bytes
    with asm.ints(3) as (source_row, dest_row, stride):
        asm.scratch_address(source_row, source.offset)
        asm.scratch_address(dest_row, dest.offset)
        asm.li(stride, inner)
        cursors = [
            Cursor(source_row, [s * element.bytes for s in source_strides]),
            Cursor(dest_row, [s * element.bytes for s in row_major_strides(shape)]),
        ]

        def row(addresses: list[str], valid: str | None) -> None:
            with asm.ints(2) as (from_pointer, to_pointer):
                asm.emit("mv", from_pointer, addresses[0])
                asm.emit("mv", to_pointer, addresses[1])
                with StripLoop.over(asm, shape[-1], element.bits, 64) as loop:
                    if inner == element.bytes:
                        asm.emit(f"vle{element.bits}.v", "v8", f"({from_pointer})")
                    else:
                        asm.emit(f"vlse{element.bits}.v", "v8", f"({from_pointer})", stride)
                    asm.emit(f"vse{element.bits}.v", "v8", f"({to_pointer})")
                    if inner:
                        loop.advance(from_pointer, stride if inner != element.bytes else element.bytes)
                    loop.advance(to_pointer, element.bytes)

        for_each_row(asm, shape, cursors, row)


def emit_broadcast(cg: KernelEmitter, op: tile.BroadcastOp) -> None:
    dest = cg.new_place(op.result, op)
    assert isinstance(dest, Tile)
    source = cg.place(op.source)
    if not isinstance(source, Tile):
        cg.fill(dest, source, op)  # type: ignore[arg-type]
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
    emit_strided_copy(cg, source, dest, [source_strides[p] for p in permutation], op)  # type: ignore[arg-type]


def emit_reshape(cg: KernelEmitter, op: tile.ReshapeOp) -> None:
    source = cg.tile_place(op.source)
    shape = tuple(op.result.type.get_shape())  # type: ignore[attr-defined]
    cg.scratchpad.bind(op.result, Tile(source.offset, source.element, shape))


def emit_iota(cg: KernelEmitter, op: tile.IotaOp) -> None:
    dest = cg.new_place(op.result, op)
    assert isinstance(dest, Tile)
    asm, bits = cg.asm, dest.element.bits
    with asm.ints(2) as (pointer, start):
        asm.scratch_address(pointer, dest.offset)
        asm.li(start, op.start.value.data)
        with StripLoop.over(asm, dest.count, bits, 64) as loop:
            asm.emit("vid.v", "v8")
            asm.emit("vadd.vx", "v8", "v8", start)
            asm.emit(f"vse{bits}.v", "v8", f"({pointer})")
            asm.emit("add", start, start, loop.vl)
            loop.advance(pointer, dest.element.bytes)


def emit_take(cg: KernelEmitter, op: tile.TakeOp) -> None:
    """result[i] := source at index idx[i] along the axis, one result row at a time.

    A row's indices are sign-extended to 64 bits, checked against the axis
    (unsigned, so a negative index fails too) and scaled to byte offsets
    (plus the column's own offset when the axis is not the last) for one
    `vluxei64` from the source row.  An index outside the axis fails the
    launch, as a failed `tile.assert` does.
    """
    asm = cg.asm
    source, indices = cg.tile_place(op.source), cg.tile_place(op.indices)
    dest = cg.new_place(op.result, op)
    assert isinstance(dest, Tile)
    axis = op.axis.value.data
    last = len(dest.shape) - 1
    element, index_element = dest.element, indices.element
    bits, index_bits = element.bits, index_element.bits
    source_strides = [s * element.bytes for s in row_major_strides(source.shape)]
    step = source_strides[axis]
    fail, done = asm.new_label("take_outside"), asm.new_label("taken")
    with asm.ints(3) as (source_row, index_row, dest_row):
        asm.scratch_address(source_row, source.offset)
        asm.scratch_address(index_row, indices.offset)
        asm.scratch_address(dest_row, dest.offset)
        cursors = [
            Cursor(source_row, [0 if d == axis else s for d, s in enumerate(source_strides)]),
            Cursor(index_row, [s * index_element.bytes for s in row_major_strides(indices.shape)]),
            Cursor(dest_row, [s * element.bytes for s in row_major_strides(dest.shape)]),
        ]

        def row(addresses: list[str], valid: str | None) -> None:
            source_pointer, index_start, dest_start = addresses
            with asm.ints(5) as (index_pointer, dest_pointer, column, limit, scale):
                asm.emit("mv", index_pointer, index_start)
                asm.emit("mv", dest_pointer, dest_start)
                if axis != last:
                    asm.li(column, 0)
                asm.li(limit, source.shape[axis])
                asm.li(scale, step)
                with StripLoop.over(asm, dest.shape[-1], 64, 64) as loop:
                    asm.load_indices_as_i64(index_pointer, index_bits)
                    asm.emit("vmsgeu.vx", "v0", "v16", limit)
                    with asm.ints(1) as (first,):
                        asm.emit("vfirst.m", first, "v0")
                        asm.emit("bgez", first, fail)
                    asm.emit("vmul.vx", "v16", "v16", scale)
                    if axis != last:
                        asm.emit("vid.v", "v24")
                        asm.emit("vadd.vx", "v24", "v24", column)
                        asm.emit("vsll.vi", "v24", "v24", element.log2_bytes)
                        asm.emit("vadd.vv", "v16", "v16", "v24")
                        asm.emit("add", column, column, loop.vl)
                    asm.emit("vsetvli", "zero", "zero", f"e{bits}", lmul_name(bits), "ta", "mu")
                    asm.emit("vluxei64.v", "v8", f"({source_pointer})", "v16")
                    asm.emit(f"vse{bits}.v", "v8", f"({dest_pointer})")
                    loop.advance(index_pointer, index_element.bytes)
                    loop.advance(dest_pointer, element.bytes)

        for_each_row(asm, dest.shape, cursors, row)
    asm.emit("j", done)
    asm.place(fail)
    cg.fail(f"tile.take: an index outside the {source.shape[axis]} elements of axis {axis}")
    asm.place(done)


# -- reductions and scans ---------------------------------------------------

# combiner op class -> reduction instruction (tables by class: see tnpu.dialects.dispatch)
_FLOAT_REDUCTIONS: dict[type[Operation], str] = {
    arith.AddfOp: "vfredosum.vs",
    arith.MaxnumfOp: "vfredmax.vs",
    arith.MinnumfOp: "vfredmin.vs",
    arith.MaximumfOp: "vfredmax.vs",
    arith.MinimumfOp: "vfredmin.vs",
}
_INT_REDUCTIONS: dict[type[Operation], str] = {
    arith.AddiOp: "vredsum.vs",
    arith.MaxSIOp: "vredmax.vs",
    arith.MinSIOp: "vredmin.vs",
    arith.MaxUIOp: "vredmaxu.vs",
    arith.MinUIOp: "vredminu.vs",
    arith.AndIOp: "vredand.vs",
    arith.OrIOp: "vredor.vs",
    arith.XOrIOp: "vredxor.vs",
}
_NAN_PROPAGATING = (arith.MaximumfOp, arith.MinimumfOp)


def _identity(combiner: Operation, element: Element) -> int:
    """Bits of the combiner's identity element."""
    bits = element.bits
    if element.is_float:
        negative_infinity = {32: 0xFF800000, 64: 0xFFF0000000000000}[bits]
        positive_infinity = {32: 0x7F800000, 64: 0x7FF0000000000000}[bits]
        negative_zero = {32: 0x80000000, 64: 0x8000000000000000}[bits]
        if isinstance(combiner, arith.AddfOp):
            value = negative_zero
        elif isinstance(combiner, arith.MaxnumfOp | arith.MaximumfOp):
            value = negative_infinity
        else:
            value = positive_infinity
        return value - (1 << bits) if value >= 1 << (bits - 1) else value
    if element.is_mask:
        return 1 if isinstance(combiner, arith.AndIOp) else 0
    smallest, largest = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    identities: dict[type[Operation], int] = {
        arith.AddiOp: 0, arith.OrIOp: 0, arith.XOrIOp: 0, arith.MaxUIOp: 0,
        arith.AndIOp: -1, arith.MinUIOp: -1,
        arith.MaxSIOp: smallest, arith.MinSIOp: largest,
    }  # fmt: skip
    identity = entry_for(identities, combiner)
    assert identity is not None, f"{combiner.name} has no reduction instruction"
    return identity


def _single_op_combiner(op: tile.ReduceOp) -> Operation | None:
    """The combiner's op if it is `yield op(acc, new)` (in either order)."""
    block = op.combiner.block
    ops = list(block.ops)
    if len(op.inputs) != 1 or len(ops) != 2:
        return None
    combine, yielded = ops
    if tuple(yielded.operands) != tuple(combine.results):
        return None
    if set(combine.operands) != set(block.args) or len(combine.operands) != 2:
        return None
    return combine


def emit_reduce(cg: KernelEmitter, op: tile.ReduceOp) -> None:
    source = cg.tile_place(op.inputs[0])
    element = source.element
    combiner = _single_op_combiner(op)
    table = _FLOAT_REDUCTIONS if element.is_float else _INT_REDUCTIONS
    if element.is_mask:
        table = {k: v for k, v in _INT_REDUCTIONS.items() if k in _MASK_REDUCIBLE}
    instruction = entry_for(table, combiner) if combiner is not None else None
    if (
        op.axis.value.data == len(source.shape) - 1
        and instruction is not None
        and not element.half_float
    ):
        _horizontal_reduce(cg, op, source, instruction, combiner)  # type: ignore[arg-type]
    else:
        _tree_reduce(cg, op)


def emit_scan(cg: KernelEmitter, op: tile.ScanOp) -> None:
    _scan(cg, op)


_MASK_REDUCIBLE = (arith.AndIOp, arith.OrIOp, arith.XOrIOp, arith.MaxUIOp, arith.MinUIOp)


def _horizontal_reduce(
    cg: KernelEmitter, op: tile.ReduceOp, source: Tile, instruction: str, combiner: Operation
) -> None:
    """Each row reduced by one RVV reduction instruction chained across strips."""
    asm, element = cg.asm, source.element
    bits, size = element.bits, element.bytes
    dest = cg.new_place(op.results_[0], op)
    columns = source.shape[-1]
    rows = source.count // columns
    propagate_nan = isinstance(combiner, _NAN_PROPAGATING)
    store = {8: "sb", 16: "sh", 32: "sw", 64: "sd"}[bits]
    with asm.ints(6) as (source_row, dest_pointer, identity, row, pointer, result):
        asm.scratch_address(source_row, source.offset)
        asm.scratch_address(dest_pointer, dest.offset)
        asm.li(identity, _identity(combiner, element))
        asm.li(row, rows)
        head = asm.new_label("reduce")
        asm.place(head)
        asm.emit("mv", pointer, source_row)
        asm.emit("vsetivli", "zero", 1, f"e{bits}", "m1", "ta", "mu")
        asm.emit("vmv.s.x", "v24", identity)
        with asm.ints(1) as (nan_seen,):
            if propagate_nan:
                asm.li(nan_seen, 0)
            with StripLoop.over(asm, columns, bits, 64) as loop:
                asm.emit(f"vle{bits}.v", "v8", f"({pointer})")
                asm.emit(instruction, "v24", "v8", "v24")
                if propagate_nan:
                    asm.emit("vmfne.vv", "v0", "v8", "v8")
                    with asm.ints(1) as (count,):
                        asm.emit("vcpop.m", count, "v0")
                        asm.emit("or", nan_seen, nan_seen, count)
                loop.advance(pointer, size)
            asm.emit("vsetivli", "zero", 1, f"e{bits}", "m1", "ta", "mu")
            asm.emit("vmv.x.s", result, "v24")
            if propagate_nan:
                done = asm.new_label("nonan")
                asm.emit("beqz", nan_seen, done)
                asm.li(result, {32: 0x7FC00000, 64: 0x7FF8000000000000}[bits])
                asm.place(done)
        asm.emit(store, result, f"0({dest_pointer})")
        asm.add_immediate(source_row, source_row, columns * size)
        asm.emit("addi", dest_pointer, dest_pointer, size)
        asm.emit("addi", row, row, -1)
        asm.emit("bnez", row, head)


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

    asm = cg.asm
    with asm.ints(2) as (position, position_start):
        asm.li(position, outer)
        asm.li(position_start, 0)
        head = asm.new_label("scan")
        asm.place(head)

        def at(place: Tile | Scalar, slices: int) -> Stream:
            """This position's elements of `place` from slice `slices` on."""
            return Stream(place.element, place.offset + slices * inner * place.element.bytes, position_start)

        def copy(froms: Sequence[Tile | Scalar], tos: Sequence[Tile | Scalar], first: int, count: int) -> None:
            _copy(cg, op, [at(p, first) for p in froms], [at(p, first) for p in tos], count * inner)

        if not distances:
            copy(sources, results, 0, 1)
        step_sources: Sequence[Tile | Scalar] = sources
        for step, distance in enumerate(distances):
            dests = results if step == len(distances) - 1 else scratch[step % 2]
            reached = length - distance
            copy(step_sources, dests, reached if reverse else 0, distance)
            earlier, later = (distance, 0) if reverse else (0, distance)
            _combine(
                cg, op, [at(s, earlier) for s in step_sources], [at(s, later) for s in step_sources],
                [at(d, later) for d in dests], reached * inner,
            )  # fmt: skip
            step_sources = dests
        asm.add_immediate(position_start, position_start, length * inner)
        asm.emit("addi", position, position, -1)
        asm.emit("bnez", position, head)


def _tree_reduce(cg: KernelEmitter, op: tile.ReduceOp) -> None:
    """Reduce along the axis by combining neighbours pairwise, lower index on the left.

    Level by level, as `interpreters.tt.tree_reduce` does: slices 2j and 2j+1
    of a level (the input viewed as [outer, n, inner]) combine into slice j
    of the next, an odd last slice moving up as it is, until one slice, the
    result, is left.  Levels alternate between two scratch tiles per input,
    so no program reads what it writes.  With inner > 1 a slice pair is one
    elementwise program over `inner` lanes, in a loop over the pairs; with
    inner == 1 the pairs are the lanes, read at a stride of two elements.
    """
    sources = [cg.tile_place(v) for v in op.inputs]
    results = [cg.new_place(r, op) for r in op.results]
    outer, length, inner = _slices(sources[0].shape, op.axis.value.data)
    lengths = [(length + 1) // 2, (length + 3) // 4]
    scratch = [
        [cg.scratchpad.new_tile(s.element, (outer, axis_length, inner)) for s in sources] for axis_length in lengths
    ] if length > 2 else []  # fmt: skip

    asm = cg.asm
    with asm.ints(4) as (position, position_index, source_offset, dest_offset):
        asm.li(position, outer)
        asm.li(position_index, 0)
        head = asm.new_label("tree")
        asm.place(head)

        def start(register: str, axis_length: int) -> None:
            """register = this position's first element in a tile of axis_length along the axis."""
            asm.li(register, axis_length * inner)
            asm.emit("mul", register, register, position_index)

        def copy(froms: Sequence[Tile | Scalar], tos: Sequence[Tile | Scalar]) -> None:
            """The slice at source_offset of each of `froms` to dest_offset in its `tos`."""
            _copy(
                cg, op, [Stream(p.element, p.offset, source_offset) for p in froms],
                [Stream(p.element, p.offset, dest_offset) for p in tos], inner,
            )  # fmt: skip

        if length == 1:
            start(source_offset, 1)
            start(dest_offset, 1)
            copy(sources, results)
        level_sources, source_length, count, level = list(sources), length, length, 0
        while count > 1:
            pairs, odd = divmod(count, 2)
            last = pairs + odd == 1
            level_dests = results if last else scratch[level % 2]
            dest_length = 1 if last else lengths[level % 2]
            start(source_offset, source_length)
            start(dest_offset, dest_length)
            lefts = [
                Stream(s.element, s.offset, source_offset, 2 * s.element.bytes if inner == 1 else None)
                for s in level_sources
            ]
            rights = [replace(left, offset=left.offset + inner * left.element.bytes) for left in lefts]
            outs = [Stream(d.element, d.offset, dest_offset) for d in level_dests]
            if inner == 1:
                _combine(cg, op, lefts, rights, outs, pairs)
                if odd:
                    asm.add_immediate(source_offset, source_offset, 2 * pairs)
                    asm.add_immediate(dest_offset, dest_offset, pairs)
            else:
                with asm.ints(1) as (pair,):
                    asm.li(pair, pairs)
                    pair_loop = asm.new_label("pair")
                    asm.place(pair_loop)
                    _combine(cg, op, lefts, rights, outs, inner)
                    asm.add_immediate(source_offset, source_offset, 2 * inner)
                    asm.add_immediate(dest_offset, dest_offset, inner)
                    asm.emit("addi", pair, pair, -1)
                    asm.emit("bnez", pair, pair_loop)
            if odd:
                copy(level_sources, level_dests)
            level_sources, source_length, count, level = level_dests, dest_length, pairs + odd, level + 1
        asm.emit("addi", position_index, position_index, 1)
        asm.emit("addi", position, position, -1)
        asm.emit("bnez", position, head)


def _slices(shape: Sequence[int], axis: int) -> tuple[int, int, int]:
    """A tile viewed as [outer, n, inner] around `axis`."""
    return math.prod(shape[:axis]), shape[axis], math.prod(shape[axis + 1 :])


def _copy(
    cg: KernelEmitter, op: tile.ReduceOp | tile.ScanOp, froms: Sequence[Stream], tos: Sequence[Stream], count: int
) -> None:
    """`count` elements of each stream of `froms` to its twin in `tos`: a program of no ops."""
    _, news, _, _ = _combiner_parts(op)
    emit_elementwise(cg.asm, ElementwiseProgram([], dict(zip(news, froms)), list(zip(news, tos)), count, op))


def _combine(
    cg: KernelEmitter, op: tile.ReduceOp | tile.ScanOp,
    lefts: Sequence[Stream], rights: Sequence[Stream], outs: Sequence[Stream], count: int,
) -> None:  # fmt: skip
    """outs = the combiner of lefts (the accumulated values) and rights (the new ones), `count` elements."""
    accumulators, news, body, yielded = _combiner_parts(op)
    captured = cg.captured(body, op.combiner.block)
    inputs: dict[SSAValue, Stream | Scalar | Constant] = captured  # type: ignore[assignment]
    for accumulator, new, left, right in zip(accumulators, news, lefts, rights):
        inputs[accumulator], inputs[new] = left, right  # operand by operand: the programs' load order
    emit_elementwise(cg.asm, ElementwiseProgram(body, inputs, list(zip(yielded.operands, outs)), count, op))


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
    asm, bits, size = cg.asm, element.bits, element.bytes
    with asm.ints(6) as (lhs_row, acc_row, dest_row, column, rhs_pointer, lhs_pointer):
        asm.scratch_address(lhs_row, lhs.offset)
        asm.scratch_address(acc_row, acc.offset)
        asm.scratch_address(dest_row, dest.offset)
        shape = (batch, rows, 1)
        with asm.ints(1) as (rhs_batch,):
            asm.scratch_address(rhs_batch, rhs.offset)
            cursors = [
                Cursor(lhs_row, [rows * depth * operand_size, depth * operand_size, 0]),
                Cursor(acc_row, [rows * columns * size, columns * size, 0]),
                Cursor(dest_row, [rows * columns * size, columns * size, 0]),
                Cursor(rhs_batch, [depth * columns * operand_size, 0, 0]),
            ]

            def row(addresses: list[str], valid: str | None) -> None:
                a_row, c_row, d_row, b_base = addresses
                with asm.ints(3) as (acc_pointer, dest_pointer, k):
                    asm.emit("mv", acc_pointer, c_row)
                    asm.emit("mv", dest_pointer, d_row)
                    asm.li(column, 0)
                    with StripLoop.over(asm, columns, bits, 64) as strip:
                        asm.emit(f"vle{bits}.v", "v8", f"({acc_pointer})")
                        asm.emit("slli", rhs_pointer, column, operand.log2_bytes)
                        asm.emit("add", rhs_pointer, rhs_pointer, b_base)
                        asm.emit("mv", lhs_pointer, a_row)
                        asm.li(k, depth)
                        inner = asm.new_label("k")
                        asm.place(inner)
                        if floats:
                            _multiply_accumulate_floats(asm, bits, lhs_pointer, rhs_pointer)
                        else:
                            _multiply_accumulate_integers(asm, operand.bits, bits, lhs_pointer, rhs_pointer)
                        asm.emit("addi", lhs_pointer, lhs_pointer, operand_size)
                        asm.add_immediate(rhs_pointer, rhs_pointer, columns * operand_size)
                        asm.emit("addi", k, k, -1)
                        asm.emit("bnez", k, inner)
                        asm.emit(f"vse{bits}.v", "v8", f"({dest_pointer})")
                        asm.emit("add", column, column, strip.vl)
                        strip.advance(acc_pointer, size)
                        strip.advance(dest_pointer, size)

            for_each_row(asm, shape, cursors, row)


def _multiply_accumulate_floats(asm: AsmWriter, bits: int, lhs_pointer: str, rhs_pointer: str) -> None:
    """v8 += lhs element * rhs row strip (e{bits}, m8)."""
    with asm.floats(1) as (a_value,):
        asm.emit("flw" if bits == 32 else "fld", a_value, f"0({lhs_pointer})")
        asm.emit(f"vle{bits}.v", "v16", f"({rhs_pointer})")
        asm.emit("vfmacc.vf", "v8", a_value, "v16")


def _multiply_accumulate_integers(
    asm: AsmWriter, operand_bits: int, bits: int, lhs_pointer: str, rhs_pointer: str
) -> None:
    """v8 += lhs element * rhs row strip, both sign-extended from `operand_bits` to e{bits}."""
    load = {8: "lb", 16: "lh", 32: "lw", 64: "ld"}[operand_bits]
    with asm.ints(1) as (a_value,):
        asm.emit(load, a_value, f"0({lhs_pointer})")
        if operand_bits == bits:
            asm.emit(f"vle{bits}.v", "v16", f"({rhs_pointer})")
        else:
            # The narrow row at the same vl: LMUL shrinks with the element width.
            ratio = bits // operand_bits
            asm.emit("vsetvli", "zero", "zero", f"e{operand_bits}", lmul_name(64 // ratio), "ta", "mu")
            asm.emit(f"vle{operand_bits}.v", "v24", f"({rhs_pointer})")
            asm.emit("vsetvli", "zero", "zero", f"e{bits}", "m8", "ta", "mu")
            asm.emit(f"vsext.vf{ratio}", "v16", "v24")
        asm.emit("vmacc.vx", "v8", a_value, "v16")
