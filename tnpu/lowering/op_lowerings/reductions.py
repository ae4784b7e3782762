"""Reductions and scans: `tt.reduce` and `tt.scan` become `tile.reduce` and
`tile.scan` with the same axis and combine region (its `tt.reduce.return` or
`tt.scan.return` as `tile.yield`).  A combine region holding anything but
scalar `arith`/`math`/`scf` is refused.
"""

from __future__ import annotations

from xdsl.ir import Attribute, Operation, Region
from xdsl.rewriter import Rewriter

from tnpu.diagnostics import CompileError
from tnpu.dialects import tile, tt
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.pointer_analysis import Lowered

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.ReduceOp)
def lower_reduce(lowering: KernelLowering, op: tt.ReduceOp) -> None:
    combine_along_axis(lowering, op, tile.ReduceOp, {"axis": op.axis})


@LOWERINGS.lowers(tt.ScanOp)
def lower_scan(lowering: KernelLowering, op: tt.ScanOp) -> None:
    combine_along_axis(lowering, op, tile.ScanOp, {"axis": op.axis, "reverse": op.reverse})


def combine_along_axis(
    lowering: KernelLowering,
    op: tt.ReduceOp | tt.ScanOp,
    combine_type: type[Operation],
    properties: dict[str, Attribute],
) -> None:
    inputs = [lowering.tile_of(s) for s in op.srcs]
    new = combine_type.create(
        operands=inputs,
        result_types=list(op.result_types),
        properties=properties,
        regions=[clone_combiner(lowering, op, op.combineOp)],
    )
    lowering.insert(new)
    for old, result in zip(op.results, new.results):
        lowering.values[old] = Lowered(value=result)


def clone_combiner(lowering: KernelLowering, op: Operation, region: Region) -> Region:
    """The combine region, with `tt.*.return` as `tile.yield` and outer values mapped."""
    outer = {
        operand: lowering.tile_of(operand)
        for inner in region.walk()
        for operand in inner.operands
        if operand in lowering.values
    }
    clone = Region()
    region.clone_into(clone, value_mapper=outer)
    for inner in list(clone.walk()):
        if isinstance(inner, tt.ReduceReturnOp | tt.ScanReturnOp):
            Rewriter.replace_op(inner, tile.YieldOp(*inner.operands))
        elif inner.dialect_name() not in ("arith", "math", "tile", "scf"):
            raise CompileError(op, f"combine region holds '{inner.name}'")
    return clone
