"""Program ids, ranges and splats, the shape ops (`tt.expand_dims`,
`tt.broadcast`, `tt.reshape`, `tt.trans`), and the ops that combine or pick
elements of tensors (`tt.join`, `tt.cat`, `tt.split`, `tt.gather`).

A shape op applies to every form of its operand: the tile, the uniform
scalar, the affine index and box (as the pointer analysis transforms them;
`tt.reshape` keeps them only when it adds or drops dimensions of size 1)
and a pointer tensor's offsets.  The others keep
tiles only:

* `tt.join` stacks its operands along a new last dimension of size 2: each
  broadcast along it, and a `tile.map` selecting the first where the
  coordinate along it is 0 (the vector unit's select; no op of its own);
  `tt.cat` is the same along a new first dimension, reshaped to its
  result, so the operands' elements follow one another in order, as in
  Triton's interpreter;
* `tt.split` is two `tile.take`s along the last dimension, of index 0 and 1;
* `tt.gather` is `tile.take` along its axis;
* `tt.unsplat` (a one-element tensor's element, as a split of `[1, 2]`
  gives) is that element: the uniform scalar when known, else a
  `tile.reduce` of the one element, whose combiner never runs.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects import arith
from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, TensorType, i32, i64
from xdsl.ir import Block, Operation, Region, SSAValue

from tnpu.diagnostics import CompileError
from tnpu.dialects import arith as tarith
from tnpu.dialects import tile, tt
from tnpu.lowering import affine
from tnpu.lowering.affine import AffineIndex, Box, QuasiAffine
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.pointer_analysis import (
    Lowered,
    Pointer,
    PointerTensor,
    ScalarPointer,
    map_pointer,
)

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
    if isinstance(op.src.type, TensorType):
        # Triton's verifier lets a tensor through, but its frontend and
        # lowerings only ever splat a scalar: a tensor has no meaning here.
        raise CompileError(
            op,
            f"cannot be lowered to the tile dialect: its source is a tensor ({op.src.type}); "
            "tt.splat broadcasts a scalar, tt.broadcast a tensor",
        )
    shape = result_type.get_shape()
    pointer = lowering.values[op.src].pointer
    if pointer is not None:

        def splat(pointer: Pointer) -> Pointer:
            assert isinstance(pointer, ScalarPointer)
            offset_i64 = lowering.index_to_i64(pointer.offset)
            offsets = lowering.insert(tile.BroadcastOp(offset_i64, TensorType(i64, shape))).results[0]
            index = AffineIndex.uniform(shape, pointer.offset)
            return PointerTensor(pointer.buffer, index=index, offsets=offsets)

        # A choice's scalar condition still chooses for every element.
        lowering.values[op.result] = Lowered(pointer=map_pointer(pointer, splat))
        return
    scalar = lowering.tile_of(op.src)  # an address (i64) where the source is an integer pointer
    lowered = lowering.splat_forms(scalar, TensorType(scalar.type, shape))
    if lowered.index is not None:
        lowered.index = AffineIndex.uniform(shape, lowering.index_of(op.src))
    lowering.values[op.result] = lowered


def lower_shape_op(
    lowering: KernelLowering,
    op: Operation,
    make_tile: Callable[[SSAValue, TensorType], Operation],
    transform_index: Callable[[AffineIndex], AffineIndex | None],
    transform_box: Callable[[Box], Box | None],
    transform_quasi: Callable[[QuasiAffine], QuasiAffine | None],
) -> None:
    """Apply a shape op to every form: tiles, uniform, index, box and pointer."""
    (source,) = op.operands
    result_type = op.results[0].type
    assert isinstance(result_type, TensorType)
    shape = result_type.get_shape()

    def reshaped(lowered: Lowered) -> Lowered:
        if lowered.value is not None and not isinstance(lowered.value.type, TensorType):
            return lowered  # a choice's scalar condition
        result = Lowered(uniform=lowered.uniform)
        if lowered.value is not None:
            element = tt.element_type_of(lowered.value.type)
            new_type = TensorType(element, shape)
            result.value = lowering.insert(make_tile(lowered.value, new_type)).results[0]
        if lowered.index is not None:
            result.index = transform_index(lowered.index)
        if lowered.quasi is not None:
            result.quasi = transform_quasi(lowered.quasi)
        if lowered.box is not None:
            result.box = transform_box(lowered.box)
        if lowered.pointer is not None:
            result.pointer = map_pointer(lowered.pointer, reshaped_pointer, reshaped)
        return result

    def reshaped_pointer(pointer: Pointer) -> Pointer:
        assert isinstance(pointer, PointerTensor)
        offsets = lowering.offsets_of(pointer)
        index = None if pointer.index is None else transform_index(pointer.index)
        quasi = None if pointer.quasi is None else transform_quasi(pointer.quasi)
        offsets_type = TensorType(i64, shape)
        return PointerTensor(
            pointer.buffer,
            index=index,
            quasi=quasi,
            offsets=lowering.insert(make_tile(offsets, offsets_type)).results[0],
        )

    lowering.values[op.results[0]] = reshaped(lowering.values[source])


@LOWERINGS.lowers(tt.ExpandDimsOp)
def lower_expand_dims(lowering: KernelLowering, op: tt.ExpandDimsOp) -> None:
    axis = op.axis.value.data
    lower_shape_op(
        lowering,
        op,
        tile.ReshapeOp,
        lambda index: affine.expand_dims(index, axis),
        lambda box: affine.box_expand_dims(box, axis),
        lambda quasi: affine.quasi_expand_dims(quasi, axis),
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
        lambda quasi: affine.quasi_broadcast(quasi, shape),
    )


@LOWERINGS.lowers(tt.ReshapeOp)
def lower_reshape(lowering: KernelLowering, op: tt.ReshapeOp) -> None:
    shape = tt.shape_of(op.result.type)
    lower_shape_op(
        lowering,
        op,
        tile.ReshapeOp,
        lambda index: affine.reshape_units(index, shape),
        lambda box: affine.box_reshape_units(box, shape),
        lambda quasi: affine.quasi_reshape_units(quasi, shape),
    )


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
        lambda quasi: affine.quasi_permute(quasi, order),
    )


@LOWERINGS.lowers(tt.JoinOp)
def lower_join(lowering: KernelLowering, op: tt.JoinOp) -> None:
    rank = len(tt.shape_of(op.lhs.type))
    joined = stacked(lowering, lowering.tile_of(op.lhs), lowering.tile_of(op.rhs), rank)
    lowering.values[op.result] = Lowered(value=joined)


@LOWERINGS.lowers(tt.CatOp)
def lower_cat(lowering: KernelLowering, op: tt.CatOp) -> None:
    both = stacked(lowering, lowering.tile_of(op.lhs), lowering.tile_of(op.rhs), 0)
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    lowering.values[op.result] = Lowered(value=lowering.insert(tile.ReshapeOp(both, result_type)).results[0])


def stacked(lowering: KernelLowering, lhs: SSAValue, rhs: SSAValue, axis: int) -> SSAValue:
    """`lhs` and `rhs` stacked along a new dimension `axis` of size 2."""
    assert isinstance(lhs.type, TensorType)
    element = lhs.type.element_type
    shape = list(lhs.type.get_shape())
    unit, both = shape.copy(), shape.copy()
    unit.insert(axis, 1)
    both.insert(axis, 2)
    spread = [
        lowering.insert(
            tile.BroadcastOp(
                lowering.insert(tile.ReshapeOp(operand, TensorType(element, unit))).results[0],
                TensorType(element, both),
            )
        ).results[0]
        for operand in (lhs, rhs)
    ]
    position = lowering.coordinate(both, axis, i32)
    zero = lowering.insert(arith.ConstantOp(IntegerAttr(0, i32))).results[0]
    first = lowering.map_of([position, zero], both, lambda args: tarith.CmpiOp(*args, "eq"))  # pyright: ignore[reportCallIssue]
    choice = lowering.map_of(
        [first.results[0], *spread], both, lambda args: tarith.SelectOp(*args)
    )
    return choice.results[0]


@LOWERINGS.lowers(tt.SplitOp)
def lower_split(lowering: KernelLowering, op: tt.SplitOp) -> None:
    source = lowering.tile_of(op.src)
    shape = list(tt.shape_of(op.src.type))
    picked_type = TensorType(tt.element_type_of(op.src.type), [*shape[:-1], 1])
    for half, result in enumerate((op.out_lhs, op.out_rhs)):
        index = lowering.insert(arith.ConstantOp(IntegerAttr(half, i32))).results[0]
        indices = lowering.insert(tile.BroadcastOp(index, TensorType(i32, picked_type.get_shape())))
        picked = take(lowering, source, indices.results[0], len(shape) - 1, picked_type)
        result_type = result.type
        assert isinstance(result_type, TensorType)
        lowering.values[result] = Lowered(
            value=lowering.insert(tile.ReshapeOp(picked, result_type)).results[0]
        )


@LOWERINGS.lowers(tt.GatherOp)
def lower_gather(lowering: KernelLowering, op: tt.GatherOp) -> None:
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    picked = take(
        lowering, lowering.tile_of(op.src), lowering.tile_of(op.indices), op.axis.value.data, result_type
    )
    lowering.values[op.result] = Lowered(value=picked)


@LOWERINGS.lowers(tt.UnsplatOp)
def lower_unsplat(lowering: KernelLowering, op: tt.UnsplatOp) -> None:
    lowered = lowering.values[op.src]
    if lowered.uniform is not None:
        lowering.values[op.result] = Lowered(value=lowered.uniform)
        return
    source = lowering.tile_of(op.src)
    element = op.result.type
    if len(tt.shape_of(source.type)) != 1:
        source = lowering.insert(tile.ReshapeOp(source, TensorType(element, [1]))).results[0]
    only = Block(arg_types=[element, element])
    only.add_op(tile.YieldOp(only.args[0]))
    reduce = tile.ReduceOp.create(
        operands=[source],
        result_types=[element],
        properties={"axis": IntegerAttr(0, IntegerType(32))},
        regions=[Region(only)],
    )
    lowering.values[op.result] = Lowered(value=lowering.insert(reduce).results[0])


def take(
    lowering: KernelLowering, source: SSAValue, indices: SSAValue, axis: int, result_type: TensorType
) -> SSAValue:
    new = tile.TakeOp.create(
        operands=[source, indices],
        result_types=[result_type],
        properties={"axis": IntegerAttr(axis, IntegerType(32))},
    )
    return lowering.insert(new).results[0]
