"""Program ids, ranges and splats, and the shape ops (`tt.expand_dims`,
`tt.broadcast`, `tt.reshape`, `tt.trans`).

A shape op applies to every form of its operand: the tile, the uniform
scalar, the affine index and box (as the pointer analysis transforms them;
`tt.reshape` drops them) and a pointer tensor's offsets.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import DenseArrayBase, TensorType, i64
from xdsl.ir import Operation, SSAValue

from tnpu.dialects import tile, tt
from tnpu.lowering import affine
from tnpu.lowering.affine import AffineIndex, Box
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.pointer_analysis import Lowered, PointerTensor, ScalarPointer

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.GetProgramIdOp, tt.GetNumProgramsOp)
def lower_grid_query(lowering: KernelLowering, op: tt.GetProgramIdOp | tt.GetNumProgramsOp) -> None:
    axis = tt.ProgramDim.of(op.axis).value
    query = tile.ProgramIdOp if isinstance(op, tt.GetProgramIdOp) else tile.NumProgramsOp
    lowering.values[op.result] = Lowered(value=lowering.insert(query(axis)).results[0])


@LOWERINGS.lowers(tt.MakeRangeOp)
def lower_make_range(lowering: KernelLowering, op: tt.MakeRangeOp) -> None:
    start = op.start.value.data
    iota = tile.IotaOp.create(properties={"start": op.start}, result_types=[op.result.type])
    lowering.insert(iota)
    size = op.end.value.data - start
    lowering.values[op.result] = Lowered(value=iota.results[0], index=AffineIndex.iota(size, start))


@LOWERINGS.lowers(tt.SplatOp)
def lower_splat(lowering: KernelLowering, op: tt.SplatOp) -> None:
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    shape = result_type.get_shape()
    pointer = lowering.values[op.src].pointer
    if pointer is not None:
        assert isinstance(pointer, ScalarPointer)
        offset_i64 = lowering.index_to_i64(pointer.offset)
        offsets = lowering.insert(tile.BroadcastOp(offset_i64, TensorType(i64, shape))).results[0]
        lowering.values[op.result] = Lowered(
            pointer=PointerTensor(
                pointer.buffer, index=AffineIndex.uniform(shape, pointer.offset), offsets=offsets
            )
        )
        return
    lowered = lowering.splat_forms(lowering.tile_of(op.src), result_type)
    if lowered.index is not None:
        lowered.index = AffineIndex.uniform(shape, lowering.index_of(op.src))
    lowering.values[op.result] = lowered


def lower_shape_op(
    lowering: KernelLowering,
    op: Operation,
    make_tile: Callable[[SSAValue, TensorType], Operation],
    transform_index: Callable[[AffineIndex], AffineIndex | None],
    transform_box: Callable[[Box], Box | None],
) -> None:
    """Apply a shape op to every form: tiles, uniform, index, box and pointer."""
    (source,) = op.operands
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    lowered = lowering.values[source]
    result = Lowered(uniform=lowered.uniform)
    if lowered.value is not None:
        result.value = lowering.insert(make_tile(lowered.value, result_type)).results[0]
    if lowered.index is not None:
        result.index = transform_index(lowered.index)
    if lowered.box is not None:
        result.box = transform_box(lowered.box)
    pointer = lowered.pointer
    if pointer is not None:
        assert isinstance(pointer, PointerTensor)
        offsets = lowering.offsets_of(pointer)
        index = None if pointer.index is None else transform_index(pointer.index)
        offsets_type = TensorType(i64, result_type.get_shape())
        result.pointer = PointerTensor(
            pointer.buffer,
            index=index,
            offsets=lowering.insert(make_tile(offsets, offsets_type)).results[0],
        )
    lowering.values[op.results[0]] = result


@LOWERINGS.lowers(tt.ExpandDimsOp)
def lower_expand_dims(lowering: KernelLowering, op: tt.ExpandDimsOp) -> None:
    axis = op.axis.value.data
    lower_shape_op(
        lowering,
        op,
        tile.ReshapeOp,
        lambda index: affine.expand_dims(index, axis),
        lambda box: affine.box_expand_dims(box, axis),
    )


@LOWERINGS.lowers(tt.BroadcastOp)
def lower_broadcast(lowering: KernelLowering, op: tt.BroadcastOp) -> None:
    shape = tt.shape_of(op.result.type)
    lower_shape_op(
        lowering,
        op,
        tile.BroadcastOp,
        lambda index: affine.broadcast(index, shape),
        lambda box: affine.box_broadcast(box, shape, lowering.emit),
    )


@LOWERINGS.lowers(tt.ReshapeOp)
def lower_reshape(lowering: KernelLowering, op: tt.ReshapeOp) -> None:
    lower_shape_op(lowering, op, tile.ReshapeOp, lambda index: None, lambda box: None)


@LOWERINGS.lowers(tt.TransOp)
def lower_trans(lowering: KernelLowering, op: tt.TransOp) -> None:
    order = list(op.order.get_values())
    permutation = DenseArrayBase.from_list(i64, order)
    lower_shape_op(
        lowering,
        op,
        lambda source, result_type: tile.TransposeOp.create(
            operands=[source], result_types=[result_type], properties={"permutation": permutation}
        ),
        lambda index: affine.permute(index, order),
        lambda box: affine.box_permute(box, order),
    )
