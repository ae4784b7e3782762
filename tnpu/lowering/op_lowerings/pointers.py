"""Pointer arithmetic: `tt.addptr`, `tt.bitcast`, `arith.select` of pointers, and
pointers cast from and to integers.

A pointer's buffer never changes; `tt.addptr` adds to its offset (a scalar's
`index` offset, a tensor's affine index where both sides have one, and its
i64 offset tile always); `tt.bitcast` of a pointer becomes
`tile.buffer_cast` of its buffer, and of data a one-op map.

`arith.select` (`tl.where`) of pointers into one buffer selects their
offsets (an `index` select for scalars, a `tile.map` of the offset tiles
for tensors); of pointers into two buffers it is a `PointerChoice` of both,
which `addptr`, `bitcast`, splats and shape ops apply to on each side, and
accesses through which are one per side (`memory`, `atomics`).  A select of
data is elementwise compute.

A pointer cast from an integer (`tt.int_to_ptr`) points into no known
buffer: it is data, its i64 tile, which selects choose between and
`tt.ptr_to_int` turns back into the integer (Triton's `test_where` of
`tl.pi32_t` values).  Accessing memory through it is refused
(`KernelLowering.pointer_of`), and so is `tt.ptr_to_int` of a buffer
pointer: a buffer has no address the kernel could compute with.
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects import arith
from xdsl.dialects.builtin import i64
from xdsl.ir import SSAValue

from tnpu.diagnostics import CompileError
from tnpu.dialects import arith as tarith
from tnpu.dialects import tile, tt
from tnpu.lowering import affine
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.op_lowerings.elementwise import lower_arith_or_math, lower_as
from tnpu.lowering.op_lowerings.memory import select
from tnpu.lowering.pointer_analysis import (
    Lowered,
    Pointer,
    PointerChoice,
    PointerTensor,
    ScalarPointer,
    map_pointer,
    quasi_of,
    settled,
)

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.AddPtrOp)
def lower_addptr(lowering: KernelLowering, op: tt.AddPtrOp) -> None:
    delta = lowering.values[op.offset]

    def advanced(pointer: Pointer) -> Pointer:
        if isinstance(pointer, ScalarPointer):
            offset = lowering.emit.add(pointer.offset, lowering.index_of(op.offset))
            return ScalarPointer(pointer.buffer, offset)
        index, quasi = None, None
        if pointer.index is not None and delta.index is not None:
            index = affine.add(pointer.index, delta.index, lowering.emit)
        else:  # quotient and remainder terms may recombine into an index
            left = quasi_of(pointer.index, pointer.quasi)
            right = quasi_of(delta.index, delta.quasi)
            if left is not None and right is not None:
                index, quasi = settled(affine.quasi_add(left, right, lowering.emit))
        wide = lowering.widen_to_i64(lowering.operand_of_map(op.offset))
        offsets = lowering.map_binary(arith.AddiOp, lowering.offsets_of(pointer), wide)
        return PointerTensor(pointer.buffer, index=index, offsets=offsets, quasi=quasi)

    pointer = map_pointer(lowering.pointer_of(op, op.ptr), advanced)
    lowering.values[op.result] = Lowered(pointer=pointer)


@LOWERINGS.lowers(tt.BitcastOp)
def lower_bitcast(lowering: KernelLowering, op: tt.BitcastOp) -> None:
    pointer = lowering.values[op.src].pointer
    if pointer is None:
        lower_as(lowering, op, tarith.BitcastOp)
        return
    old = tt.element_type_of(op.src.type)
    new = tt.element_type_of(op.result.type)
    assert isinstance(old, tt.PointerType) and isinstance(new, tt.PointerType)
    same_width = tile.element_bytes(old.pointee_type) == tile.element_bytes(new.pointee_type)

    def cast(pointer: Pointer) -> Pointer:
        at_start = isinstance(pointer, ScalarPointer) and pointer.offset == 0
        if not (same_width or at_start):
            raise CompileError(
                op, "a pointer with an offset is cast to an element type of another width"
            )
        buffer = lowering.insert(
            tile.BufferCastOp.create(
                operands=[pointer.buffer], result_types=[tile.BufferType(new.pointee_type)]
            )
        ).results[0]
        return replace(pointer, buffer=buffer)

    lowering.values[op.result] = Lowered(pointer=map_pointer(pointer, cast))


def address_of(lowering: KernelLowering, pointer: SSAValue) -> SSAValue | None:
    """The i64 tile (or scalar) of a pointer cast from an integer, else None."""
    lowered = lowering.values[pointer]
    address = lowered.value
    if lowered.pointer is None and address is not None and tt.element_type_of(address.type) == i64:
        return address
    return None


@LOWERINGS.lowers(tt.IntToPtrOp)
def lower_int_to_ptr(lowering: KernelLowering, op: tt.IntToPtrOp) -> None:
    lowering.values[op.result] = Lowered(value=lowering.tile_of(op.src))


@LOWERINGS.lowers(tt.PtrToIntOp)
def lower_ptr_to_int(lowering: KernelLowering, op: tt.PtrToIntOp) -> None:
    address = address_of(lowering, op.src)
    if address is None:
        raise CompileError(
            op, "a buffer pointer has no address on the NPU; only pointers cast from integers "
            "(tt.int_to_ptr) can be cast back",
        )
    lowering.values[op.result] = Lowered(value=address)


@LOWERINGS.lowers(tarith.SelectOp)
def lower_select(lowering: KernelLowering, op: tarith.SelectOp) -> None:
    if not isinstance(tt.element_type_of(op.result.type), tt.PointerType):
        lower_arith_or_math(lowering, op)
        return
    addresses = [address_of(lowering, v) for v in (op.lhs, op.rhs)]
    if addresses[0] is not None and addresses[1] is not None:
        chosen = select(lowering, lowering.tile_of(op.cond), *addresses)  # pyright: ignore[reportArgumentType]
        lowering.values[op.result] = Lowered(value=chosen)
        return
    condition = lowering.values[op.cond]
    if_true, if_false = (lowering.pointer_of(op, v) for v in (op.lhs, op.rhs))
    same_buffer = (
        not isinstance(if_true, PointerChoice)
        and not isinstance(if_false, PointerChoice)
        and if_true.buffer is if_false.buffer
    )
    if not same_buffer:
        pointer: Pointer | PointerChoice = PointerChoice(condition, if_true, if_false)
    elif isinstance(if_true, ScalarPointer):
        assert isinstance(if_false, ScalarPointer)
        offset = lowering.emit.select(lowering.tile_of(op.cond), if_true.offset, if_false.offset)
        pointer = ScalarPointer(if_true.buffer, offset)
    else:
        assert isinstance(if_true, PointerTensor) and isinstance(if_false, PointerTensor)
        offsets = select(
            lowering,
            lowering.tile_of(op.cond),
            lowering.offsets_of(if_true),
            lowering.offsets_of(if_false),
        )
        pointer = PointerTensor(if_true.buffer, offsets=offsets)
    lowering.values[op.result] = Lowered(pointer=pointer)
