"""`tt.assert` becomes `tile.assert` with the same message: the launch fails
where the condition is false, as a device assert does on a GPU.
"""

from __future__ import annotations

from tnpu.dialects import tile, tt
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.AssertOp)
def lower_assert(lowering: KernelLowering, op: tt.AssertOp) -> None:
    condition = lowering.tile_of(op.condition)
    lowering.insert(
        tile.AssertOp.create(operands=[condition], properties={"message": op.message})
    )
