"""DMA on RVV: structured loads/stores, gather/scatter, atomics.

A structured transfer walks the tile row by row (`for_each_row` over all
dimensions but the last); a row is one strip-mined unit-stride
(`vle`/`vse`) or strided (`vlse`/`vsse`) transfer.  Bounds cut the row into
three parts: the valid columns `[lo, hi)` move (under the mask tile, if
any, as a `v0.t` mask), the columns before and after read the pad value.
An outer index out of bounds empties the row (`hi = lo`).

Gather/scatter use indexed `vluxei64`/`vsoxei64` (ordered, so the last
write to an element wins, as the tile dialect specifies); atomics are one
AMO (or an LR/SC loop for float add and compare-and-swap) per element, and
16-bit ones (RVA has no AMO for them) a compare-and-swap of their aligned
32-bit word.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import ExitStack

from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation, SSAValue

from tnpu.backend_riscv.asm import AsmWriter, Bound, Cursor, StripLoop, for_each_row
from tnpu.backend_riscv.elements import Element
from tnpu.backend_riscv.emitter import KernelEmitter
from tnpu.backend_riscv.float_algorithms import ScalarTemps, f32_to_half, half_to_f32
from tnpu.backend_riscv.storage import Constant, Scalar, Tile
from tnpu.backend_riscv.vector_unit import row_major_strides
from tnpu.diagnostics import CompileError
from tnpu.dialects import tile

_DATA, _PAD, _MASK_BYTES = "v8", "v16", "v24"


def emit_load(cg: KernelEmitter, op: tile.LoadOp) -> None:
    place = cg.new_place(op.result, op)
    assert isinstance(place, Tile)
    pad = cg.place(op.pad) if op.pad is not None else Constant(0, place.element)
    _StructuredTransfer(cg, op, place, pad).emit()  # type: ignore[arg-type]


def emit_store(cg: KernelEmitter, op: tile.StoreOp) -> None:
    _StructuredTransfer(cg, op, cg.tile_place(op.value), None).emit()


def _mask_lmul(bits: int) -> str:
    """LMUL of byte-sized mask elements at the same vl as `bits`-bit data at m8."""
    return f"m{8 * 8 // bits}"


class _StructuredTransfer:
    def __init__(
        self,
        cg: KernelEmitter,
        op: tile.LoadOp | tile.StoreOp,
        place: Tile,
        pad: Scalar | Constant | None,
    ):
        self.cg, self.asm, self.op = cg, cg.asm, op
        self.place, self.pad = place, pad
        self.element = place.element
        self.shape = place.shape
        self.columns = self.shape[-1]
        self.is_load = isinstance(op, tile.LoadOp)
        self.mask = cg.tile_place(op.mask) if op.mask is not None else None

    def _static_or_loader(self, value: int | SSAValue):
        if isinstance(value, int):
            return value
        location = self.cg.place(value)
        if isinstance(location, Constant):
            return location.bits
        return lambda register: self.cg.load_int(register, value)

    def emit(self) -> None:
        asm, cg, op, element = self.asm, self.cg, self.op, self.element
        strides = op.mixed_strides()
        lower = [self._static_or_loader(v) for v in op.mixed_lower()]
        upper = [self._static_or_loader(v) for v in op.mixed_upper()]
        bounds: list[Bound | None] = []
        for size, low, high in zip(self.shape, lower, upper):
            full = isinstance(low, int) and low <= 0 and isinstance(high, int) and high >= size
            bounds.append(None if full else (low, high))
        with asm.ints(4 + len(strides)) as (global_row, local_row, mask_row, pad, *stride_bytes):
            cg.load_int(global_row, op.buffer)
            with asm.ints(1) as (offset,):
                cg.load_int(offset, op.mixed_offset())
                asm.emit("slli", offset, offset, element.log2_bytes)
                asm.emit("add", global_row, global_row, offset)
            static_strides: list[int | str] = []
            for register, stride in zip(stride_bytes, strides):
                location = cg.place(stride) if isinstance(stride, SSAValue) else None
                if isinstance(stride, int) or isinstance(location, Constant):
                    value = stride if isinstance(stride, int) else location.bits  # type: ignore[union-attr]
                    static_strides.append(value * element.bytes)
                else:
                    cg.load_int(register, stride)
                    asm.emit("slli", register, register, element.log2_bytes)
                    static_strides.append(register)
            asm.scratch_address(local_row, self.place.offset)
            cursors = [
                Cursor(global_row, static_strides),
                Cursor(local_row, _row_major(self.shape, element.bytes)),
            ]
            if self.mask is not None:
                asm.scratch_address(mask_row, self.mask.offset)
                cursors.append(Cursor(mask_row, _row_major(self.shape, 1)))
            if self.pad is not None:
                self._materialize_pad(pad)
            inner = static_strides[-1]
            if isinstance(inner, int) and inner not in (0, element.bytes):
                asm.li(stride_bytes[-1], inner)
                inner = stride_bytes[-1]
            self.inner_stride: int | str = inner

            def row(addresses: list[str], valid: str | None) -> None:
                self._row(addresses, valid, bounds[-1], pad)

            for_each_row(asm, self.shape, cursors, row, bounds[:-1])

    def _materialize_pad(self, register: str) -> None:
        pad = self.pad
        if isinstance(pad, Constant):
            self.asm.li(register, pad.bits)
        else:
            assert isinstance(pad, Scalar)
            self.asm.load_scalar(register, pad.offset, pad.element)

    def _row(self, addresses: list[str], valid: str | None, bound: Bound | None, pad: str) -> None:
        asm, columns = self.asm, self.columns
        global_row, local_row = addresses[0], addresses[1]
        mask_row = addresses[2] if self.mask is not None else None
        if bound is None and valid is None:
            self._middle(global_row, local_row, mask_row, None, columns, pad)
            return
        with asm.ints(2) as (low, high):
            low_value, high_value = bound if bound is not None else (0, columns)
            _clamped(asm, low, low_value, 0, columns)
            _clamped(asm, high, high_value, 0, columns)
            skip = asm.new_label("ordered")
            asm.emit("bge", high, low, skip)
            asm.emit("mv", high, low)
            asm.place(skip)
            if valid is not None:
                keep = asm.new_label("valid")
                asm.emit("bnez", valid, keep)
                asm.emit("mv", high, low)
                asm.place(keep)
            if self.is_load:
                self._pad_fill(local_row, "zero", low, pad)
            self._middle(global_row, local_row, mask_row, low, high, pad)
            if self.is_load:
                with asm.ints(1) as (limit,):
                    asm.li(limit, columns)
                    self._pad_fill(local_row, high, limit, pad)

    def _pad_fill(self, local_row: str, start: str, end: str, pad: str) -> None:
        """Columns [start, end) of the local row := pad."""
        asm, element = self.asm, self.element
        with asm.ints(2) as (pointer, count):
            asm.emit("sub", count, end, start)
            asm.emit("slli", pointer, start, element.log2_bytes)
            asm.emit("add", pointer, pointer, local_row)
            with StripLoop.over(asm, count, element.bits, 64) as loop:
                asm.emit("vmv.v.x", _PAD, pad)
                asm.emit(f"vse{element.bits}.v", _PAD, f"({pointer})")
                loop.advance(pointer, element.bytes)

    def _middle(
        self,
        global_row: str,
        local_row: str,
        mask_row: str | None,
        low: str | None,
        high: str | int,
        pad: str,
    ) -> None:
        """Move columns [low, high) between the buffer and the tile."""
        asm, element = self.asm, self.element
        bits = element.bits
        with asm.ints(4) as (global_pointer, local_pointer, mask_pointer, count):
            asm.emit("mv", global_pointer, global_row)
            asm.emit("mv", local_pointer, local_row)
            if mask_row is not None:
                asm.emit("mv", mask_pointer, mask_row)
            if low is not None:
                with asm.ints(1) as (temp,):
                    if isinstance(self.inner_stride, int):
                        asm.li(temp, self.inner_stride)
                    else:
                        asm.emit("mv", temp, self.inner_stride)
                    asm.emit("mul", temp, temp, low)
                    asm.emit("add", global_pointer, global_pointer, temp)
                    asm.emit("slli", temp, low, element.log2_bytes)
                    asm.emit("add", local_pointer, local_pointer, temp)
                    if mask_row is not None:
                        asm.emit("add", mask_pointer, mask_pointer, low)
                asm.emit("sub", count, high, low)
            else:
                asm.li(count, high)  # type: ignore[arg-type]
            masked = ", v0.t" if mask_row is not None else ""
            with StripLoop.over(asm, count, bits, 64) as loop:
                if mask_row is not None:
                    asm.emit("vsetvli", "zero", "zero", "e8", _mask_lmul(bits), "ta", "mu")
                    asm.emit("vle8.v", _MASK_BYTES, f"({mask_pointer})")
                    asm.emit("vmsne.vi", "v0", _MASK_BYTES, 0)
                    asm.emit("vsetvli", "zero", "zero", f"e{bits}", "m8", "ta", "mu")
                    loop.advance(mask_pointer, 1)
                unit = self.inner_stride == element.bytes
                stride_operand = "" if unit else f", {self.inner_stride or 'zero'}"
                kind = "" if unit else "s"
                if self.is_load:
                    if mask_row is not None:
                        asm.emit("vmv.v.x", _DATA, pad)
                    asm.emit(f"vl{kind}e{bits}.v", _DATA, f"({global_pointer}){stride_operand}{masked}")
                    asm.emit(f"vse{bits}.v", _DATA, f"({local_pointer})")
                else:
                    asm.emit(f"vle{bits}.v", _DATA, f"({local_pointer})")
                    asm.emit(f"vs{kind}e{bits}.v", _DATA, f"({global_pointer}){stride_operand}{masked}")
                loop.advance(local_pointer, element.bytes)
                if self.inner_stride != 0:
                    loop.advance(global_pointer, self.inner_stride)


def _row_major(shape: Sequence[int], element_bytes: int) -> list[int]:
    """Byte strides of a contiguous row-major tile."""
    return [s * element_bytes for s in row_major_strides(shape)]


def _clamped(asm: AsmWriter, register: str, value, low: int, high: int) -> None:  # noqa: ANN001
    """register = min(max(value, low), high)."""
    if isinstance(value, int):
        asm.li(register, min(max(value, low), high))
        return
    value(register)
    with asm.ints(1) as (limit,):
        for bound, branch in ((low, "bge"), (high, "ble")):
            done = asm.new_label("clamp")
            asm.li(limit, bound)
            asm.emit(branch, register, limit, done)
            asm.emit("mv", register, limit)
            asm.place(done)


# -- indexed access -----------------------------------------------------------


def _index_element(cg: KernelEmitter, op: Operation) -> Element:
    return cg.element(op.indices, op)  # type: ignore[attr-defined]


def emit_gather(cg: KernelEmitter, op: tile.GatherOp) -> None:
    if not isinstance(op.result.type, TensorType):
        _scalar_access(cg, op, cg.new_place(op.result, op), is_load=True)  # type: ignore[arg-type]
        return
    dest = cg.new_place(op.result, op)
    pad = cg.place(op.pad) if op.pad is not None else Constant(0, dest.element)
    _indexed(cg, op, dest, pad, is_load=True)  # type: ignore[arg-type]


def emit_scatter(cg: KernelEmitter, op: tile.ScatterOp) -> None:
    value = cg.place(op.value)
    if not isinstance(value, Tile):
        _scalar_access(cg, op, value, is_load=False)  # type: ignore[arg-type]
        return
    _indexed(cg, op, value, None, is_load=False)


def _indexed(
    cg: KernelEmitter,
    op: tile.GatherOp | tile.ScatterOp,
    data: Tile,
    pad: Scalar | Constant | None,
    is_load: bool,
) -> None:
    """vluxei64/vsoxei64 over the tile, indices widened to 64-bit byte offsets.

    Every register group keeps the ratio SEW/LMUL = 8, so the 64-bit offsets
    use m8 and the data and indices proportionally less.
    """
    asm = cg.asm
    index = cg.tile_place(op.indices)
    mask = cg.tile_place(op.mask) if op.mask is not None else None
    bits, index_bits = data.element.bits, index.element.bits
    masked = ", v0.t" if mask is not None else ""
    with asm.ints(5) as (base, data_pointer, index_pointer, mask_pointer, pad_bits):
        cg.load_int(base, op.buffer)
        asm.scratch_address(data_pointer, data.offset)
        asm.scratch_address(index_pointer, index.offset)
        if mask is not None:
            asm.scratch_address(mask_pointer, mask.offset)
        if pad is not None:
            cg.load_bits(pad_bits, pad)
        with StripLoop.over(asm, data.count, 64, 64) as loop:
            asm.load_indices_as_i64(index_pointer, index_bits)
            asm.emit("vsll.vi", "v16", "v16", data.element.log2_bytes)
            if mask is not None:
                asm.emit("vsetvli", "zero", "zero", "e8", "m1", "ta", "mu")
                asm.emit("vle8.v", "v24", f"({mask_pointer})")
                asm.emit("vmsne.vi", "v0", "v24", 0)
                loop.advance(mask_pointer, 1)
            asm.emit("vsetvli", "zero", "zero", f"e{bits}", f"m{bits // 8}", "ta", "mu")
            if is_load:
                if mask is not None:
                    asm.emit("vmv.v.x", "v8", pad_bits)
                asm.emit("vluxei64.v", "v8", f"({base})", f"v16{masked}")
                asm.emit(f"vse{bits}.v", "v8", f"({data_pointer})")
            else:
                asm.emit(f"vle{bits}.v", "v8", f"({data_pointer})")
                asm.emit("vsoxei64.v", "v8", f"({base})", f"v16{masked}")
            loop.advance(data_pointer, data.element.bytes)
            loop.advance(index_pointer, index.element.bytes)


def _scalar_access(
    cg: KernelEmitter, op: tile.GatherOp | tile.ScatterOp, data: Scalar, is_load: bool
) -> None:
    """One element read or written at a scalar index (under a scalar mask)."""
    asm, element = cg.asm, data.element
    skip = asm.new_label("masked")
    with asm.ints(2) as (address, value):
        if is_load:
            pad = cg.place(op.pad) if op.pad is not None else Constant(0, element)  # type: ignore[union-attr]
            cg.load_bits(value, pad)  # type: ignore[arg-type]
        if op.mask is not None:
            cg.load_int(address, op.mask)
            asm.emit("beqz", address, skip)
        cg.load_int(address, op.indices)
        asm.emit("slli", address, address, element.log2_bytes)
        with asm.ints(1) as (base,):
            cg.load_int(base, op.buffer)
            asm.emit("add", address, address, base)
        load, store = _SCALAR_MEMORY[element.bits]
        if is_load:
            asm.emit(load, value, f"0({address})")
        else:
            cg.load_bits(value, data)
            asm.emit(store, value, f"0({address})")
        asm.place(skip)
        if is_load:
            asm.store_scalar(value, data.offset, element)


_SCALAR_MEMORY = {8: ("lb", "sb"), 16: ("lh", "sh"), 32: ("lw", "sw"), 64: ("ld", "sd")}

_AMO = {"add": "amoadd", "and": "amoand", "or": "amoor", "xor": "amoxor", "max": "amomax",
        "min": "amomin", "umax": "amomaxu", "umin": "amominu", "exch": "amoswap"}  # fmt: skip


def emit_atomic(cg: KernelEmitter, op: tile.AtomicRMWOp | tile.AtomicCASOp) -> None:
    """One AMO (or LR/SC loop) per element, in row-major order; old values to the result."""
    asm = cg.asm
    result = cg.new_place(op.result, op)
    element = result.element
    kind = op.kind.data if isinstance(op, tile.AtomicRMWOp) else "cas"
    halfword = element.bits == 16
    if halfword and kind not in _HALFWORD_KINDS:
        raise CompileError(op, f"atomic {kind} on 16-bit elements (only {', '.join(_HALFWORD_KINDS)})")
    if element.bits not in (16, 32, 64) or element.is_mask:
        raise CompileError(
            op, f"atomics on {element.bits}-bit elements: RVA has 32/64-bit AMOs (16-bit go through their word)"
        )
    suffix = "w" if element.bits == 32 else "d"
    if kind in ("max", "min", "umax", "umin", "add") and element.is_float:
        raise CompileError(op, f"atomic {kind} on floats")
    value = cg.place(op.value)
    compare = cg.place(op.compare) if isinstance(op, tile.AtomicCASOp) else None
    indices = cg.place(op.indices)
    mask = cg.place(op.mask) if op.mask is not None else None
    count = result.count if isinstance(result, Tile) else 1
    with asm.ints(8) as (counter, base, address, operand, old, expected, flag, temp):
        cg.load_int(base, op.buffer)
        asm.li(counter, 0)
        head, skip = asm.new_label("atomic"), asm.new_label("skip")
        asm.place(head)
        if mask is not None:
            _element_at(cg, flag, mask, counter, temp)
            asm.li(old, 0)
            asm.emit("beqz", flag, skip)
        _element_at(cg, address, indices, counter, temp)
        asm.emit("slli", address, address, element.log2_bytes)
        asm.emit("add", address, address, base)
        _element_at(cg, operand, value, counter, temp)
        if halfword:
            if compare is not None:
                _element_at(cg, expected, compare, counter, temp)
                asm.emit("slli", expected, expected, 48)
                asm.emit("srli", expected, expected, 48)
            _halfword_atomic(cg, kind, element, address, operand, expected, old, flag, skip)
        elif kind == "fadd":
            retry = asm.new_label("retry")
            move_in, move_out = ("fmv.w.x", "fmv.x.w") if suffix == "w" else ("fmv.d.x", "fmv.x.d")
            add = "fadd.s" if suffix == "w" else "fadd.d"
            asm.place(retry)
            asm.emit(f"lr.{suffix}", old, f"({address})")
            with asm.floats(2) as (accumulated, addend):
                asm.emit(move_in, accumulated, old)
                asm.emit(move_in, addend, operand)
                asm.emit(add, accumulated, accumulated, addend)
                asm.emit(move_out, expected, accumulated)
            asm.emit(f"sc.{suffix}", flag, expected, f"({address})")
            asm.emit("bnez", flag, retry)
        elif kind == "cas":
            retry = asm.new_label("retry")
            assert compare is not None
            _element_at(cg, expected, compare, counter, temp)
            asm.place(retry)
            asm.emit(f"lr.{suffix}", old, f"({address})")
            asm.emit("bne", old, expected, skip)
            asm.emit(f"sc.{suffix}", flag, operand, f"({address})")
            asm.emit("bnez", flag, retry)
        else:
            asm.emit(f"{_AMO[kind]}.{suffix}", old, operand, f"({address})")
        asm.place(skip)
        _store_element(cg, old, result, counter, temp)
        asm.emit("addi", counter, counter, 1)
        asm.li(temp, count)
        asm.emit("blt", counter, temp, head)


_HALFWORD_KINDS = ("fadd", "cas")


def _halfword_atomic(
    cg: KernelEmitter, kind: str, element: Element,
    address: str, operand: str, expected: str, old: str, flag: str, skip: str,
) -> None:  # fmt: skip
    """A 16-bit atomic through the aligned word holding it: `old` = the halfword.

    The new word is computed from a plain load; LR/SC then swaps it in only
    if the word still holds what was loaded, else the whole step is retried
    (a compare-and-swap loop, whose body may be any code, unlike an LR/SC
    loop's).  cas skips to `skip` when the halfword differs from `expected`
    (zero-extended).  Clobbers `address` (the word's address from then on).
    """
    asm = cg.asm
    retry = asm.new_label("retry")
    with asm.ints(4) as (seen, shift, field, updated):
        asm.emit("andi", shift, address, 3)
        asm.emit("slli", shift, shift, 3)
        asm.emit("andi", address, address, -4)
        asm.li(field, 0xFFFF)
        asm.emit("sll", field, field, shift)
        asm.place(retry)
        asm.emit("lw", seen, f"0({address})")
        asm.emit("and", old, seen, field)
        asm.emit("srl", old, old, shift)
        new = operand
        if kind == "cas":
            asm.emit("bne", old, expected, skip)
        elif kind == "fadd":
            assert element.half_float is not None
            _add_half_floats(asm, element.half_float, updated, old, operand)
            new = updated
        asm.emit("sll", updated, new, shift)
        asm.emit("and", updated, updated, field)
        asm.emit("not", flag, field)
        asm.emit("and", flag, flag, seen)
        asm.emit("or", updated, updated, flag)
        asm.emit("lr.w", flag, f"({address})")
        asm.emit("bne", flag, seen, retry)
        asm.emit("sc.w", flag, updated, f"({address})")
        asm.emit("bnez", flag, retry)


def _add_half_floats(asm: AsmWriter, kind: str, dest: str, a: str, b: str) -> None:
    """dest = a + b, 16-bit floats' bits in integer registers, rounded once (through f32).

    The sum is exact in f32 or rounded there first; rounding it again to
    f16/bf16 gives the correctly rounded sum all the same, as f32 has more
    than twice their precision plus two bits.
    """
    with ExitStack() as scope:
        code = _OneElement(asm, scope)
        code.sew(16)
        left, right, out = code.temp(), code.temp(), code.temp()
        asm.emit("vmv.s.x", left, a)
        asm.emit("vmv.s.x", right, b)
        left, right = half_to_f32(code, left, kind), half_to_f32(code, right, kind)
        asm.emit("vfadd.vv", left, left, right)
        f32_to_half(code, left, kind, out)
        asm.emit("vmv.x.s", dest, out)


class _OneElement(ScalarTemps):
    """The float algorithms' `VectorCode` on one element (vl = 1), for scalar code.

    Groups are even registers at LMUL 1, so a narrowing op's two-register
    source is aligned; none holds a value across tile ops, so all are free.
    """

    def __init__(self, asm: AsmWriter, scope: ExitStack):
        self.asm = asm
        self.op_scope = scope
        self._free = [f"v{i}" for i in range(2, 32, 2)]

    def temp(self) -> str:
        return self._free.pop(0)

    def sew(self, bits: int) -> None:
        self.asm.emit("vsetivli", "zero", 1, f"e{bits}", "m1", "ta", "mu")

    def clobber_v0(self) -> None:
        """v0 holds no value here."""


def _element_at(cg: KernelEmitter, dest: str, place, counter: str, temp: str) -> None:  # noqa: ANN001
    """dest = element `counter` of a tile (sign-extended bits), or the scalar itself."""
    if not isinstance(place, Tile):
        cg.load_bits(dest, place)
        return
    asm = cg.asm
    asm.emit("slli", temp, counter, place.element.log2_bytes)
    asm.scratch_address(dest, place.offset)
    asm.emit("add", dest, dest, temp)
    load = "lbu" if place.element.is_mask else _SCALAR_MEMORY[place.element.bits][0]
    asm.emit(load, dest, f"0({dest})")


def _store_element(cg: KernelEmitter, source: str, place, counter: str, temp: str) -> None:  # noqa: ANN001
    asm = cg.asm
    if not isinstance(place, Tile):
        asm.store_scalar(source, place.offset, place.element)
        return
    with asm.ints(1) as (address,):
        asm.emit("slli", temp, counter, place.element.log2_bytes)
        asm.scratch_address(address, place.offset)
        asm.emit("add", address, address, temp)
        asm.emit(_SCALAR_MEMORY[place.element.bits][1], source, f"0({address})")


# -- checks -----------------------------------------------------------------


def emit_assert(cg: KernelEmitter, op: tile.AssertOp) -> None:
    """Call the runtime's tnpu_assert_fail(message) if any condition element is false."""
    asm = cg.asm
    condition = cg.place(op.condition)
    fail, ok = asm.new_label("assert_failed"), asm.new_label("assert_ok")
    if isinstance(condition, Tile):
        with asm.ints(2) as (pointer, first):
            asm.scratch_address(pointer, condition.offset)
            with StripLoop.over(asm, condition.count, 8, 64) as loop:
                asm.emit("vle8.v", "v8", f"({pointer})")
                asm.emit("vmseq.vi", "v0", "v8", 0)
                asm.emit("vfirst.m", first, "v0")
                asm.emit("bgez", first, fail)
                loop.advance(pointer, 1)
    else:
        with asm.ints(1) as (flag,):
            cg.load_int(flag, op.condition)
            asm.emit("beqz", flag, fail)
    asm.emit("j", ok)
    asm.place(fail)
    cg.fail(op.message.data)
    asm.place(ok)
