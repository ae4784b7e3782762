"""Atomics: `tt.atomic_rmw` and `tt.atomic_cas` become `tile.atomic_rmw` and
`tile.atomic_cas` at the pointer's i64 offsets (a scalar pointer's one
offset), masked as the TTIR op is.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Attribute, Operation, SSAValue

from tnpu.dialects import tile, tt
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.pointer_analysis import Lowered, ScalarPointer

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.AtomicRMWOp)
def lower_atomic_rmw(lowering: KernelLowering, op: tt.AtomicRMWOp) -> None:
    kind = tile.StringAttr(tt.RMWOp.of(op.atomic_rmw_op).keyword)
    atomic(lowering, op, tile.AtomicRMWOp, [op.val], op.mask, {"kind": kind})


@LOWERINGS.lowers(tt.AtomicCASOp)
def lower_atomic_cas(lowering: KernelLowering, op: tt.AtomicCASOp) -> None:
    atomic(lowering, op, tile.AtomicCASOp, [op.cmp, op.val], None, {})


def atomic(
    lowering: KernelLowering,
    op: tt.AtomicRMWOp | tt.AtomicCASOp,
    atomic_type: type[Operation],
    values: Sequence[SSAValue],
    mask: SSAValue | None,
    properties: dict[str, Attribute],
) -> None:
    pointer = lowering.pointer_of(op, op.ptr)
    if isinstance(pointer, ScalarPointer):
        indices = lowering.index_to_i64(pointer.offset)
    else:
        indices = lowering.offsets_of(pointer)
    masks = [lowering.tile_of(mask)] if mask is not None else []
    groups: list[SSAValue | list[SSAValue]] = [
        *(lowering.tile_of(v) for v in values), pointer.buffer, indices, masks
    ]
    new = atomic_type.create(
        operands=tile.flatten_groups(groups),
        result_types=[op.result.type],
        properties=properties | tile.segment_sizes(groups),
    )
    lowering.values[op.result] = Lowered(value=lowering.insert(new).results[0])
