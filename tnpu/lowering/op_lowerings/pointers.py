"""Pointer arithmetic: `tt.addptr` and `tt.bitcast`.

A pointer's buffer never changes; `tt.addptr` adds to its offset (a scalar's
`index` offset, a tensor's affine index where both sides have one, and its
i64 offset tile always); `tt.bitcast` of a pointer becomes
`tile.buffer_cast` of its buffer, and of data a one-op map.
"""

from __future__ import annotations

from dataclasses import replace

from xdsl.dialects import arith

from tnpu.diagnostics import CompileError
from tnpu.dialects import arith as tarith
from tnpu.dialects import tile, tt
from tnpu.lowering import affine
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.op_lowerings.elementwise import lower_as
from tnpu.lowering.pointer_analysis import Lowered, PointerTensor, ScalarPointer

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.AddPtrOp)
def lower_addptr(lowering: KernelLowering, op: tt.AddPtrOp) -> None:
    pointer = lowering.pointer_of(op, op.ptr)
    if isinstance(pointer, ScalarPointer):
        offset = lowering.emit.add(pointer.offset, lowering.index_of(op.offset))
        lowering.values[op.result] = Lowered(pointer=ScalarPointer(pointer.buffer, offset))
        return
    delta = lowering.values[op.offset]
    index = None
    if pointer.index is not None and delta.index is not None:
        index = affine.add(pointer.index, delta.index, lowering.emit)
    wide = lowering.widen_to_i64(lowering.operand_of_map(op.offset))
    offsets = lowering.map_binary(arith.AddiOp, lowering.offsets_of(pointer), wide)
    lowering.values[op.result] = Lowered(
        pointer=PointerTensor(pointer.buffer, index=index, offsets=offsets)
    )


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
    at_start = isinstance(pointer, ScalarPointer) and pointer.offset == 0
    if not (same_width or at_start):
        raise CompileError(
            op, "a pointer with an offset is cast to an element type of another width"
        )
    cast = lowering.insert(
        tile.BufferCastOp.create(
            operands=[pointer.buffer], result_types=[tile.BufferType(new.pointee_type)]
        )
    ).results[0]
    lowering.values[op.result] = Lowered(pointer=replace(pointer, buffer=cast))
