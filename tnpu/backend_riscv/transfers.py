"""DMA on RVV: structured loads/stores, gather/scatter, atomics, asserts.

A structured transfer walks the tile row by row (`for_each_row` over all
dimensions but the last); a row is one strip loop of unit-stride
(`vle`/`vse`) or strided (`vlse`/`vsse`) transfers.  Bounds cut the row
into three parts: the valid columns `[lo, hi)` move (under the mask tile,
if any, as a `v0.t` mask), the columns before and after read the pad
value.  An outer index out of bounds empties the row (`hi = lo`).  A
contiguous load only maps read moves nothing (`in_place.read_in_place`): they read
it where it lies, its elements past the in-bounds prefix (a tile cut by
one bound, as a row of Inductor's `r0_mask`) as the pad value, under a
`v0.t` mask; and a store of a map's or a reduction's result its producer
does (`in_place.store_of_result`).

Gather/scatter use indexed `vluxei64`/`vsoxei64` (ordered, so the last
write to an element wins, as the tile dialect specifies); atomics are one
AMO (or an LR/SC loop for float add and compare-and-swap) per element, and
16-bit ones (RVA has no AMO for them) a compare-and-swap of their aligned
32-bit word.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext

from xdsl.dialects import riscv, rv64
from xdsl.dialects.builtin import IntegerAttr, TensorType
from xdsl.dialects.riscv import FloatRegisterType
from xdsl.dialects.riscv.attrs import ui6
from xdsl.ir import SSAValue

from tnpu.backend_riscv import in_place
from tnpu.backend_riscv.builder import Bound, Builder, Cursor, StripLoop, clamped, for_each_row
from tnpu.backend_riscv.elements import Element
from tnpu.backend_riscv.emitter import KernelEmitter, static_or_loader
from tnpu.backend_riscv.float_algorithms import f32_to_half, float_bits, half_to_f32
from tnpu.backend_riscv.storage import Constant, InPlace, Scalar, Tile
from tnpu.backend_riscv.vector_unit import load_indices_as_i64
from tnpu.diagnostics import CompileError
from tnpu.dialects import tile
from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv import rvx
from tnpu.dialects.rvv.types import MaskRegisterType, VectorRegisterType
from tnpu.dialects.shapes import row_major_strides


def emit_load(cg: KernelEmitter, op: tile.LoadOp) -> None:
    if in_place.read_in_place(op):
        element = cg.element(op.result, op)
        address = in_place.first_element_address(cg, op, element)
        shape = tuple(op.tile_type.get_shape())
        pad = cg.place(op.pad) if op.pad is not None else Constant(0, element)
        valid = in_place.in_bounds_prefix(cg, op)
        cg.scratchpad.bind(op.result, InPlace(address, element, shape, valid, pad if valid is not None else None))  # pyright: ignore[reportArgumentType]
        return
    place = cg.new_place(op.result, op)
    assert isinstance(place, Tile)
    pad = cg.place(op.pad) if op.pad is not None else Constant(0, place.element)
    _StructuredTransfer(cg, op, place, pad).emit()  # pyright: ignore[reportArgumentType]


def emit_store(cg: KernelEmitter, op: tile.StoreOp) -> None:
    if op not in cg.stored_by_producers:
        store_from(cg, op, cg.tile_place(op.value))


def store_from(cg: KernelEmitter, op: tile.StoreOp, place: Tile) -> None:
    """`op`'s store of the tile at `place`."""
    _StructuredTransfer(cg, op, place, None).emit()


def mask_from_bytes(b: Builder, loop: StripLoop, pointer: SSAValue, data_bits: int) -> SSAValue:
    """v0 := the `vl` i1 bytes at `pointer` (at e8, back to e`data_bits` after)."""
    loop.sew(8)
    bytes_ = b.vector(rvv.UNIT_STRIDE_LOADS[8](pointer, result_type=StripLoop.vector_type()))
    mask = b.vector(rvv.VmsneViOp(bytes_, 0, result_type=MaskRegisterType.group(1, 0)))
    loop.sew(data_bits)
    return mask


class _StructuredTransfer:
    def __init__(self, cg: KernelEmitter, op: tile.LoadOp | tile.StoreOp, place: Tile,
                 pad: Scalar | Constant | None):  # fmt: skip
        self.cg, self.b, self.op = cg, cg.b, op
        self.place, self.pad = place, pad
        self.element = place.element
        self.shape = place.shape
        self.columns = self.shape[-1]
        self.is_load = isinstance(op, tile.LoadOp)
        self.mask = cg.tile_place(op.mask) if op.mask is not None else None

    def emit(self) -> None:
        b, cg, op, element = self.b, self.cg, self.op, self.element
        lower = [static_or_loader(cg, v) for v in op.mixed_lower()]
        upper = [static_or_loader(cg, v) for v in op.mixed_upper()]
        bounds: list[Bound | None] = []
        for size, low, high in zip(self.shape, lower, upper):
            full = isinstance(low, int) and low <= 0 and isinstance(high, int) and high >= size
            bounds.append(None if full else (low, high))
        global_row = in_place.first_element_address(cg, op, element)
        strides: list[int | SSAValue] = []
        for stride in op.mixed_strides():
            location = cg.place(stride) if isinstance(stride, SSAValue) else None
            if isinstance(stride, int) or isinstance(location, Constant):
                value = stride if isinstance(stride, int) else location.bits  # pyright: ignore[reportAttributeAccessIssue, reportOptionalMemberAccess]
                strides.append(value * element.bytes)
            else:
                strides.append(b.slli(cg.load_int(stride), element.log2_bytes))
        cursors = [
            Cursor(global_row, strides),
            Cursor(b.scratch_address(self.place.offset), _row_major(self.shape, element.bytes)),
        ]
        if self.mask is not None:
            cursors.append(Cursor(b.scratch_address(self.mask.offset), _row_major(self.shape, 1)))
        self.pad_bits = self.cg.load_bits(self.pad) if self.pad is not None else None
        inner = strides[-1]
        self.inner_stride: int | SSAValue = b.li(inner) if isinstance(inner, int) and inner not in (0, element.bytes) else inner

        def row(addresses: list[SSAValue], valid: SSAValue | None) -> None:
            self._row(addresses, valid, bounds[-1])

        for_each_row(b, self.shape, cursors, row, bounds[:-1])

    def _row(self, addresses: list[SSAValue], valid: SSAValue | None, bound: Bound | None) -> None:
        b, columns = self.b, self.columns
        global_row, local_row = addresses[0], addresses[1]
        mask_row = addresses[2] if self.mask is not None else None
        if bound is None and valid is None:
            self._middle(global_row, local_row, mask_row, None, columns)
            return
        low_value, high_value = bound if bound is not None else (0, columns)
        low = clamped(b, low_value, 0, columns)
        high = b.var(clamped(b, high_value, 0, columns))
        with b.branch("lt", high, low):
            high.set(low)
        if valid is not None:
            with b.branch("eq", valid, b.zero):
                high.set(low)
        if self.is_load:
            self._pad_fill(local_row, b.zero, low)
        self._middle(global_row, local_row, mask_row, low, high.value)
        if self.is_load:
            self._pad_fill(local_row, high.value, b.li(columns))

    def _pad_fill(self, local_row: SSAValue, start: SSAValue, end: SSAValue) -> None:
        """Columns [start, end) of the local row := pad."""
        b, element = self.b, self.element
        assert self.pad_bits is not None
        pointer = b.var(b.add(b.slli(start, element.log2_bytes), local_row))
        with StripLoop.over(b, b.sub(end, start), element.bits) as loop:
            pad = b.vector(rvv.VmvVXOp(self.pad_bits, result_type=StripLoop.vector_type()))
            b.insert(rvv.UNIT_STRIDE_STORES[element.bits](pad, pointer.value))
            loop.advance(pointer, element.bytes)

    def _middle(self, global_row: SSAValue, local_row: SSAValue, mask_row: SSAValue | None,
                low: SSAValue | None, high: SSAValue | int) -> None:  # fmt: skip
        """Move columns [low, high) between the buffer and the tile."""
        b, element = self.b, self.element
        bits = element.bits
        global_pointer, local_pointer = b.var(global_row), b.var(local_row)
        mask_pointer = b.var(mask_row) if mask_row is not None else None
        if low is not None:
            stride = self.inner_stride
            global_pointer.set(b.add(global_pointer, b.mul(b.scalar(stride) if isinstance(stride, int) else stride, low)))
            local_pointer.set(b.add(local_pointer, b.slli(low, element.log2_bytes)))
            if mask_pointer is not None:
                mask_pointer.set(b.add(mask_pointer, low))
            count: SSAValue | int = b.sub(high, low)  # pyright: ignore[reportArgumentType]
        else:
            count = high
        unit = isinstance(self.inner_stride, int) and self.inner_stride == element.bytes
        with StripLoop.over(b, count, bits) as loop:
            mask = None
            if mask_pointer is not None:
                mask = mask_from_bytes(b, loop, mask_pointer.value, bits)
                loop.advance(mask_pointer, 1)
            if self.is_load:
                assert self.pad_bits is not None
                passthru = (
                    b.vector(rvv.VmvVXOp(self.pad_bits, result_type=StripLoop.vector_type())) if mask is not None else None
                )
                if unit:
                    data = rvv.UNIT_STRIDE_LOADS[bits](global_pointer.value, result_type=StripLoop.vector_type(),
                                                       mask=mask, passthru=passthru)  # fmt: skip
                else:
                    data = rvv.STRIDED_LOADS[bits](global_pointer.value, self._stride_register(), mask=mask,
                                                   passthru=passthru, result_type=StripLoop.vector_type())  # fmt: skip
                b.insert(rvv.UNIT_STRIDE_STORES[bits](b.vector(data), local_pointer.value))
            else:
                data = b.vector(rvv.UNIT_STRIDE_LOADS[bits](local_pointer.value, result_type=StripLoop.vector_type()))
                if unit:
                    b.insert(rvv.UNIT_STRIDE_STORES[bits](data, global_pointer.value, mask=mask))
                else:
                    b.insert(rvv.STRIDED_STORES[bits](data, global_pointer.value, self._stride_register(), mask=mask))
            loop.advance(local_pointer, element.bytes)
            if not (isinstance(self.inner_stride, int) and self.inner_stride == 0):
                loop.advance(global_pointer, self.inner_stride)

    def _stride_register(self) -> SSAValue:
        stride = self.inner_stride
        return self.b.zero if isinstance(stride, int) else stride


def _row_major(shape: Sequence[int], element_bytes: int) -> list[int]:
    """Byte strides of a contiguous row-major tile."""
    return [s * element_bytes for s in row_major_strides(shape)]


# -- indexed access -----------------------------------------------------------


def emit_gather(cg: KernelEmitter, op: tile.GatherOp) -> None:
    if not isinstance(op.result.type, TensorType):
        _scalar_access(cg, op, cg.new_place(op.result, op), is_load=True)  # pyright: ignore[reportArgumentType]
        return
    dest = cg.new_place(op.result, op)
    pad = cg.place(op.pad) if op.pad is not None else Constant(0, dest.element)
    _indexed(cg, op, dest, pad, is_load=True)  # pyright: ignore[reportArgumentType]


def emit_scatter(cg: KernelEmitter, op: tile.ScatterOp) -> None:
    value = cg.place(op.value)
    if not isinstance(value, Tile):
        _scalar_access(cg, op, value, is_load=False)  # pyright: ignore[reportArgumentType]
        return
    _indexed(cg, op, value, None, is_load=False)


def _indexed(cg: KernelEmitter, op: tile.GatherOp | tile.ScatterOp, data: Tile,
             pad: Scalar | Constant | None, is_load: bool) -> None:  # fmt: skip
    """vluxei64/vsoxei64 over the tile, indices widened to 64-bit byte offsets.

    Every register group keeps the ratio SEW/LMUL = 8 of the 64-bit offsets,
    so the data and indices take proportionally less.
    """
    b = cg.b
    index = cg.tile_place(op.indices)
    mask = cg.tile_place(op.mask) if op.mask is not None else None
    bits = data.element.bits
    base = cg.load_int(op.buffer)
    data_pointer = b.var(b.scratch_address(data.offset))
    index_pointer = b.var(b.scratch_address(index.offset))
    mask_pointer = b.var(b.scratch_address(mask.offset)) if mask is not None else None
    pad_bits = cg.load_bits(pad) if pad is not None else None
    with StripLoop.over(b, data.count, 64) as loop:
        offsets = load_indices_as_i64(b, loop, index_pointer.value, index.element.bits)
        offsets = b.vector(rvv.VsllViOp(offsets, data.element.log2_bytes, result_type=StripLoop.vector_type()))
        in_v0 = None
        if mask_pointer is not None:
            in_v0 = mask_from_bytes(b, loop, mask_pointer.value, 64)
            loop.advance(mask_pointer, 1)
        loop.sew(bits)
        if is_load:
            assert pad_bits is not None
            passthru = b.vector(rvv.VmvVXOp(pad_bits, result_type=StripLoop.vector_type())) if in_v0 is not None else None
            value = b.vector(rvv.Vluxei64VOp(base, offsets, result_type=StripLoop.vector_type(), mask=in_v0,
                                             passthru=passthru))  # fmt: skip
            b.insert(rvv.UNIT_STRIDE_STORES[bits](value, data_pointer.value))
        else:
            value = b.vector(rvv.UNIT_STRIDE_LOADS[bits](data_pointer.value, result_type=StripLoop.vector_type()))
            b.insert(rvv.Vsoxei64VOp(value, base, offsets, mask=in_v0))
        loop.advance(data_pointer, data.element.bytes)
        loop.advance(index_pointer, index.element.bytes)


def _scalar_access(cg: KernelEmitter, op: tile.GatherOp | tile.ScatterOp, data: Scalar, is_load: bool) -> None:
    """One element read or written at a scalar index (under a scalar mask)."""
    b, element = cg.b, data.element
    value = b.var(cg.load_bits(cg.place(op.pad) if op.pad is not None else Constant(0, element))) if is_load else None  # pyright: ignore[reportAttributeAccessIssue]
    with b.if_set(cg.load_int(op.mask) if op.mask is not None else None):
        address = b.add(b.slli(cg.load_int(op.indices), element.log2_bytes), cg.load_int(op.buffer))
        if value is not None:
            value.set(b.load_scalar(0, element, address))
        else:
            b.store_scalar(cg.load_bits(data), 0, element, address)
    if value is not None:
        b.store_scalar(value.value, data.offset, element)


_AMO = {"add": "amoadd", "and": "amoand", "or": "amoor", "xor": "amoxor", "max": "amomax",
        "min": "amomin", "umax": "amomaxu", "umin": "amominu", "exch": "amoswap"}  # fmt: skip
_HALFWORD_KINDS = ("fadd", "cas")
"""The 16-bit atomics Triton allows that are built (RVA has no 16-bit AMO)."""


def emit_atomic(cg: KernelEmitter, op: tile.AtomicRMWOp | tile.AtomicCASOp) -> None:
    """One AMO (or LR/SC loop) per element, in row-major order; old values to the result."""
    b = cg.b
    result = cg.new_place(op.result, op)
    element = result.element
    kind = op.kind.data if isinstance(op, tile.AtomicRMWOp) else "cas"
    if element.bits == 16 and kind not in _HALFWORD_KINDS:
        raise CompileError(op, f"atomic {kind} on 16-bit elements (only {', '.join(_HALFWORD_KINDS)})")
    if element.bits not in (16, 32, 64) or element.is_mask:
        raise CompileError(
            op, f"atomics on {element.bits}-bit elements: RVA has 32/64-bit AMOs (16-bit go through their word)"
        )
    width = "w" if element.bits == 32 else "d"
    if kind in ("max", "min", "umax", "umin", "add") and element.is_float:
        raise CompileError(op, f"atomic {kind} on floats")
    value = cg.place(op.value)
    compare = cg.place(op.compare) if isinstance(op, tile.AtomicCASOp) else None
    indices = cg.place(op.indices)
    mask = cg.place(op.mask) if op.mask is not None else None
    count = result.count if isinstance(result, Tile) else 1
    base = cg.load_int(op.buffer)
    counter = b.var(0)
    limit = b.li(count)
    with b.loop() as loop:
        old = b.var(0)
        with b.if_set(_element_at(cg, mask, counter.value) if mask is not None else None):
            address = b.add(b.slli(_element_at(cg, indices, counter.value), element.log2_bytes), base)
            operand = _element_at(cg, value, counter.value)
            expected = _element_at(cg, compare, counter.value) if compare is not None else None
            if element.bits == 16 and expected is not None:
                expected_halfword = _zero_extended_halfword(b, expected)
                old.set(_halfword_atomic(b, address, lambda _: operand, expected=expected_halfword))
            elif element.bits == 16:
                half_float = element.half_float
                assert half_float is not None
                old.set(
                    _halfword_atomic(b, address, lambda halfword: _add_half_floats(b, half_float, halfword, operand))
                )
            elif kind == "fadd":
                old.set(_float_add(b, address, operand, width))
            elif expected is not None:
                old.set(_compare_and_swap(b, address, operand, expected, width))
            else:
                old.set(b.emit(rvx.AMOS[_AMO[kind], width](address, operand)))
        _store_element(cg, old.value, result, counter.value)
        counter.set(b.emit(riscv.AddiOp(counter.value, 1)))
        loop.repeat_if("lt", counter, limit)


def _float_add(b: Builder, address: SSAValue, operand: SSAValue, width: str) -> SSAValue:
    """old := *address; *address = old + operand (floats), retried until the SC succeeds."""
    old = b.var(b.li(0))
    with b.loop() as retry:
        old.set(b.emit(rvx.LOAD_RESERVED[width](address)))
        move_in = riscv.FMvWXOp if width == "w" else rvx.FMvDXOp
        add = riscv.FAddSOp if width == "w" else riscv.FAddDOp
        move_out = riscv.FMvXWOp if width == "w" else rvx.FMvXDOp
        accumulated = b.emit(move_in(old.value, rd=FloatRegisterType.unallocated()))
        addend = b.emit(move_in(operand, rd=FloatRegisterType.unallocated()))
        total = b.emit(move_out(b.emit(add(accumulated, addend))))
        failed = b.emit(rvx.STORE_CONDITIONAL[width](address, total))
        retry.repeat_if("ne", failed, b.zero)
    return old.value


def _compare_and_swap(b: Builder, address: SSAValue, operand: SSAValue, expected: SSAValue, width: str) -> SSAValue:
    """old := *address; *address = operand if old == expected, retried until the SC succeeds."""
    old = b.var(b.li(0))
    with b.loop() as retry:
        old.set(b.emit(rvx.LOAD_RESERVED[width](address)))
        failed = b.var(b.li(0))
        with b.branch("eq", old, expected):
            failed.set(b.emit(rvx.STORE_CONDITIONAL[width](address, operand)))
        retry.repeat_if("ne", failed, b.zero)
    return old.value


def _halfword_atomic(b: Builder, address: SSAValue, update: Callable[[SSAValue], SSAValue],
                     expected: SSAValue | None = None) -> SSAValue:  # fmt: skip
    """old := the halfword at `address` (zero-extended), replaced by update(old) in its aligned word.

    With `expected`, only an old halfword equal to it is replaced.  The new
    word is computed from a plain load and swapped in by a compare-and-swap
    of the whole word, the whole step retried if the word changed since the
    load: `update` may then be any code, which an LR/SC loop's may not.
    """
    shift = b.slli(b.emit(riscv.AndiOp(address, 3)), 3)
    word = b.emit(riscv.AndiOp(address, -4))
    field = b.emit(riscv.SllOp(b.li(0xFFFF), shift))
    others = b.emit(riscv.XoriOp(field, -1))
    old = b.var(0)
    with b.loop() as retry:
        seen = b.emit(riscv.LwOp(word, 0))
        old.set(b.emit(riscv.SrlOp(b.emit(riscv.AndOp(seen, field)), shift)))
        found = b.var(seen)  # what the swap found in the word; no swap (a cas mismatch) ends the loop
        with b.branch("eq", old, expected) if expected is not None else nullcontext():
            placed = b.emit(riscv.AndOp(b.emit(riscv.SllOp(update(old.value), shift)), field))
            updated = b.emit(riscv.OrOp(placed, b.emit(riscv.AndOp(seen, others))))
            found.set(_compare_and_swap(b, word, updated, seen, "w"))
        retry.repeat_if("ne", found, seen)
    return old.value


def _zero_extended_halfword(b: Builder, value: SSAValue) -> SSAValue:
    """The low 16 bits of `value`, as `_halfword_atomic` reads the old halfword."""
    return b.emit(rv64.SrliOp(b.slli(value, 48), IntegerAttr(48, ui6)))


def _add_half_floats(b: Builder, kind: str, x: SSAValue, y: SSAValue) -> SSAValue:
    """x + y, 16-bit floats' bits in integer registers, rounded once (through f32).

    The sum is exact in f32 or rounded there first; rounding it again to
    f16/bf16 gives the correctly rounded sum all the same, as f32 has more
    than twice their precision plus two bits.
    """
    code = _OneElement(b)
    code.sew(16)
    left, right = (code.vector(rvv.VmvSXOp, half) for half in (x, y))
    total = code.vector(rvv.VfaddVvOp, half_to_f32(code, left, kind), half_to_f32(code, right, kind))
    return b.emit(rvv.VmvXSOp(f32_to_half(code, total, kind)))


class _OneElement:
    """The float algorithms' `VectorCode` on one element (vl = 1), for scalar code.

    SEW/LMUL stays that of e32 at m1 (e16 at mf2, as in a strip loop), so
    every value, a narrowing op's source too, is one register.
    """

    def __init__(self, b: Builder):
        self.b = b
        self.current_bits = 0

    def sew(self, bits: int) -> None:
        if bits != self.current_bits:
            self.b.insert(rvv.VsetivliOp(1, bits, 8 * bits // 32))
            self.current_bits = bits

    def vector(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int, **kwargs: SSAValue | None) -> SSAValue:
        return self.b.vector(op(*operands, result_type=VectorRegisterType.group(1), **kwargs))  # pyright: ignore[reportCallIssue]  # an op class from a table: pyright sees the base class's __init__

    def mask(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int) -> SSAValue:
        return self.b.vector(op(*operands, result_type=MaskRegisterType.group(1)))  # pyright: ignore[reportCallIssue]  # an op class from a table: pyright sees the base class's __init__

    def mask_in_v0(self, op: type[rvv.RvvInstruction], *operands: SSAValue | int) -> SSAValue:
        return self.b.vector(op(*operands, result_type=MaskRegisterType.group(1, 0)))  # pyright: ignore[reportCallIssue]  # an op class from a table: pyright sees the base class's __init__

    def int_constant(self, value: int) -> SSAValue:
        return self.b.li(value)

    def float_constant(self, value: float, bits: int) -> SSAValue:
        return self.b.float_from_bits(self.b.li(float_bits(value, bits)), bits)


def _element_at(cg: KernelEmitter, place, counter: SSAValue) -> SSAValue:
    """Element `counter` of a tile (sign-extended bits), or the scalar itself."""
    if not isinstance(place, Tile):
        return cg.load_bits(place)
    b = cg.b
    address = b.add(b.scratch_address(place.offset), b.slli(counter, place.element.log2_bytes))
    bits = Element(place.element.bits, False, is_mask=place.element.is_mask)
    return b.load_scalar(0, bits, address)


def _store_element(cg: KernelEmitter, source: SSAValue, place, counter: SSAValue) -> None:
    b = cg.b
    if not isinstance(place, Tile):
        b.store_scalar(source, place.offset, place.element)
        return
    address = b.add(b.scratch_address(place.offset), b.slli(counter, place.element.log2_bytes))
    b.store_scalar(source, 0, place.element, address)


# -- checks -----------------------------------------------------------------


def emit_assert(cg: KernelEmitter, op: tile.AssertOp) -> None:
    """Call the runtime's tnpu_assert_fail(message) if any condition element is false."""
    b = cg.b
    condition = cg.place(op.condition)
    if isinstance(condition, Tile):
        pointer = b.var(b.scratch_address(condition.offset))
        with StripLoop.over(b, condition.count, 8) as loop:
            flags = b.vector(rvv.UNIT_STRIDE_LOADS[8](pointer.value, result_type=StripLoop.vector_type()))
            false = b.vector(rvv.VmseqViOp(flags, 0, result_type=StripLoop.mask_type()))
            first = b.emit(rvv.VfirstMOp(false))
            with b.branch("ge", first, b.zero):
                cg.fail(op.message.data)
            loop.advance(pointer, 1)
    else:
        with b.branch("eq", cg.load_int(op.condition), b.zero):
            cg.fail(op.message.data)
