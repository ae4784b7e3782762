"""Reductions and scans: `tt.reduce` and `tt.scan` become `tile.reduce` and
`tile.scan` with the same axis and combine region (its `tt.reduce.return` or
`tt.scan.return` as `tile.yield`).  A combine region holding anything but
scalar `arith`/`math`/`scf` is refused.

`tt.histogram` is a reduction too, as a TPU-like vector unit computes one
(it has no scatter-add into the scratchpad): every value compared with
every bin in a `[bins, n]` tile, the matches (where the mask holds) summed
along `n`.  Values outside `[0, bins)` match no bin, so they are not
counted, as in Triton's interpreter; the counts are exact.
"""

from __future__ import annotations

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.rewriter import Rewriter

from tnpu.diagnostics import CompileError
from tnpu.dialects import arith as tarith
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


@LOWERINGS.lowers(tt.HistogramOp)
def lower_histogram(lowering: KernelLowering, op: tt.HistogramOp) -> None:
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    (bins,) = result_type.get_shape()
    count_type = result_type.element_type
    assert isinstance(count_type, IntegerType)
    values = lowering.tile_of(op.src)
    element = tt.element_type_of(values.type)
    assert isinstance(element, IntegerType)
    n = tile.element_count(values.type)
    if bins - 1 >= 1 << (element.width.data - 1):  # the bins' numbers need a wider type
        element = i32
        values = lowering.map_of(
            [values], tt.shape_of(values.type), lambda args: tarith.ExtSIOp(args[0], i32)
        ).results[0]
    grid = [bins, n]
    row = spread_row(lowering, values, grid)
    matches = lowering.map_of(
        [row, lowering.coordinate(grid, 0, element)], grid, lambda args: tarith.CmpiOp(*args, "eq")  # pyright: ignore[reportCallIssue]
    ).results[0]
    if op.mask is not None:
        mask = spread_row(lowering, lowering.tile_of(op.mask), grid)
        matches = lowering.map_binary(arith.AndIOp, matches, mask)
    ones = lowering.map_of([matches], grid, lambda args: tarith.ExtUIOp(args[0], count_type))
    lowering.values[op.result] = Lowered(value=sum_along(lowering, ones.results[0], 1, result_type))


def spread_row(lowering: KernelLowering, values: SSAValue, grid: list[int]) -> SSAValue:
    """The elements of `values` as one row, repeated over the rows of `grid`."""
    element = tt.element_type_of(values.type)
    row = lowering.insert(tile.ReshapeOp(values, TensorType(element, [1, grid[1]]))).results[0]
    return lowering.insert(tile.BroadcastOp(row, TensorType(element, grid))).results[0]


def sum_along(lowering: KernelLowering, values: SSAValue, axis: int, result_type: TensorType) -> SSAValue:
    """The integer sum of `values` along `axis`, as a `tile.reduce`."""
    element = result_type.element_type
    combiner = Block(arg_types=[element, element])
    total = arith.AddiOp(*combiner.args)  # pyright: ignore[reportArgumentType]
    total.location = lowering.location
    combiner.add_ops([total, tile.YieldOp(total)])
    reduce = tile.ReduceOp.create(
        operands=[values],
        result_types=[result_type],
        properties={"axis": IntegerAttr(axis, IntegerType(32))},
        regions=[Region(combiner)],
    )
    return lowering.insert(reduce).results[0]
