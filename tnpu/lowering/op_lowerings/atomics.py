"""Atomics: `tt.atomic_rmw` and `tt.atomic_cas` become `tile.atomic_rmw` and
`tile.atomic_cas` at the pointer's i64 offsets (a scalar pointer's one
offset), masked as the TTIR op is.  Through a `tl.where` of pointers into two
buffers, one atomic per side under complementary masks, the values read
selected by the condition.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute, Operation, SSAValue

from tnpu.dialects import tile, tt
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.op_lowerings.memory import Condition, mask_operand, on_each_side, select
from tnpu.lowering.pointer_analysis import Lowered, Pointer, PointerChoice, ScalarPointer

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.AtomicRMWOp)
def lower_atomic_rmw(lowering: KernelLowering, op: tt.AtomicRMWOp) -> None:
    kind = tile.StringAttr(tt.RMWOp.of(op.atomic_rmw_op).keyword)
    lower_atomic(lowering, op, tile.AtomicRMWOp, [op.val], op.mask, {"kind": kind})


@LOWERINGS.lowers(tt.AtomicCASOp)
def lower_atomic_cas(lowering: KernelLowering, op: tt.AtomicCASOp) -> None:
    lower_atomic(lowering, op, tile.AtomicCASOp, [op.cmp, op.val], None, {})


def lower_atomic(
    lowering: KernelLowering,
    op: tt.AtomicRMWOp | tt.AtomicCASOp,
    atomic_type: type[Operation],
    values: Sequence[SSAValue],
    mask: SSAValue | None,
    properties: dict[str, Attribute],
) -> None:
    operands = [lowering.tile_of(v) for v in values]

    def at(pointer: Pointer | PointerChoice, condition: Condition) -> SSAValue:
        if isinstance(pointer, PointerChoice):
            taken, other = on_each_side(lowering, pointer, condition, at)
            return select(lowering, pointer.condition.value, taken, other)  # pyright: ignore[reportArgumentType]
        if isinstance(pointer, ScalarPointer):
            indices = lowering.index_to_i64(pointer.offset)
        else:
            indices = lowering.offsets_of(pointer)
        groups: list[SSAValue | list[SSAValue]] = [
            *operands, pointer.buffer, indices, mask_operand(lowering, condition, indices)
        ]
        new = atomic_type.create(
            operands=tile.flatten_groups(groups),
            result_types=[op.result.type],
            properties=properties | tile.segment_sizes(groups),
        )
        return lowering.insert(new).results[0]

    result = at(lowering.pointer_of(op, op.ptr), Condition(mask))
    lowering.values[op.result] = Lowered(value=result)
