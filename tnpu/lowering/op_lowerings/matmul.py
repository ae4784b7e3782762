"""`tt.dot` becomes `tile.matmul` on the matrix unit: `acc + a @ b`."""

from __future__ import annotations

from tnpu.dialects import tile, tt
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.pointer_analysis import Lowered

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.DotOp)
def lower_dot(lowering: KernelLowering, op: tt.DotOp) -> None:
    new = tile.MatmulOp.create(
        operands=[lowering.tile_of(op.a), lowering.tile_of(op.b), lowering.tile_of(op.c)],
        result_types=[op.d.type],
    )
    lowering.values[op.d] = Lowered(value=lowering.insert(new).results[0])
