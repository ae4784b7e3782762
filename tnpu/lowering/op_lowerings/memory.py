"""Loads and stores: structured DMA where the pointer analysis proved it, gathers
and scatters otherwise.

A pointer tensor with an affine index becomes `tile.load`/`tile.store` over
the index's digit view (reshaped to the tile's shape): its mask's boxes,
refined to that view, are the bounds, the rest of the mask an explicit mask
tile, and a uniform `other` the pad.  Any other pointer tensor, and every
scalar pointer, becomes `tile.gather`/`tile.scatter` at its i64 offsets; a
non-uniform `other` is selected in after the load.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, SSAValue

from tnpu.dialects import arith as tarith
from tnpu.dialects import tile, tt
from tnpu.lowering import affine
from tnpu.lowering.affine import AffineIndex, Box
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.pointer_analysis import Lowered, PointerTensor, ScalarPointer, mask_parts

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.LoadOp)
def lower_load(lowering: KernelLowering, op: tt.LoadOp) -> None:
    pointer = lowering.pointer_of(op, op.ptr)
    result_type = op.result.type
    other = lowering.values[op.other] if op.other is not None else None
    pad = None
    if other is not None:  # a scalar `other`, or a tensor of one value, is the pad
        pad = other.uniform if isinstance(result_type, TensorType) else other.value
    if isinstance(pointer, ScalarPointer):
        offset = lowering.index_to_i64(pointer.offset)
        loaded = indexed_transfer(lowering, pointer.buffer, offset, op.mask, result_type, pad=pad)
    else:
        assert isinstance(result_type, TensorType)
        loaded = transfer(lowering, pointer, op.mask, result_type, pad=pad)
    if op.other is not None and pad is None:
        assert op.mask is not None, "tt.load has an `other` only with a mask"
        loaded = select(lowering, lowering.tile_of(op.mask), loaded, lowering.tile_of(op.other))
    lowering.values[op.result] = Lowered(value=loaded)


@LOWERINGS.lowers(tt.StoreOp)
def lower_store(lowering: KernelLowering, op: tt.StoreOp) -> None:
    pointer = lowering.pointer_of(op, op.ptr)
    value_type = op.value.type
    if isinstance(pointer, ScalarPointer):
        offset = lowering.index_to_i64(pointer.offset)
        value = lowering.tile_of(op.value)
        indexed_transfer(lowering, pointer.buffer, offset, op.mask, value_type, value=value)
        return
    assert isinstance(value_type, TensorType)
    transfer(lowering, pointer, op.mask, value_type, value=lowering.tile_of(op.value))


def transfer(
    lowering: KernelLowering,
    pointer: PointerTensor,
    mask: SSAValue | None,
    tile_type: TensorType,
    *,
    pad: SSAValue | None = None,
    value: SSAValue | None = None,
) -> SSAValue:
    """A structured DMA when the pointer is affine, else a gather/scatter."""
    if pointer.index is not None:
        return structured_transfer(lowering, pointer, mask, tile_type, pad, value)
    offsets = lowering.offsets_of(pointer)
    return indexed_transfer(
        lowering, pointer.buffer, offsets, mask, tile_type, pad=pad, value=value
    )


def indexed_transfer(
    lowering: KernelLowering,
    buffer: SSAValue,
    indices: SSAValue,
    mask: SSAValue | None,
    value_type: Attribute,
    *,
    pad: SSAValue | None = None,
    value: SSAValue | None = None,
) -> SSAValue:
    """`tile.gather` (no `value`) or `tile.scatter` at the element offsets `indices`."""
    masks = [lowering.tile_of(mask)] if mask is not None else []
    if value is None:
        pads = [pad] if pad is not None else []
        groups: list[SSAValue | list[SSAValue]] = [pads, buffer, indices, masks]
        gather = tile.GatherOp.create(
            operands=tile.flatten_groups(groups),
            result_types=[value_type],
            properties=tile.segment_sizes(groups),
        )
        return lowering.insert(gather).results[0]
    groups = [value, buffer, indices, masks]
    lowering.insert(
        tile.ScatterOp.create(
            operands=tile.flatten_groups(groups), properties=tile.segment_sizes(groups)
        )
    )
    return value


def structured_transfer(
    lowering: KernelLowering,
    pointer: PointerTensor,
    mask: SSAValue | None,
    tile_type: TensorType,
    pad: SSAValue | None,
    value: SSAValue | None,
) -> SSAValue:
    """`tile.load`/`tile.store` over the digit view of the pointer's affine index."""
    emit = lowering.emit
    pointer_index = pointer.index
    assert pointer_index is not None
    boxes, rest = mask_parts(mask, lowering.values) if mask is not None else ([], [])
    explicit = [lowering.tile_of(m) for m in rest]
    views = affine.unify([pointer_index, *(b.view for b in boxes)], emit)
    if views is None:
        # the boxes' splits do not nest with the pointer's: keep them as tiles
        views = [pointer_index]
        explicit += [mask_tile_of_box(lowering, b) for b in boxes]
        boxes = []
    index = views[0]
    bounds: Box | None = None
    for box in boxes:
        refined = affine.refine_box(box, index, emit)
        if refined is not None and bounds is not None:
            refined = affine.intersect(bounds, refined, emit)
        if refined is None:
            explicit.append(mask_tile_of_box(lowering, box))
        else:
            bounds = refined
    bounds = bounds or Box.full(index)
    digit_type = TensorType(tile_type.element_type, index.digit_shape)
    mask_tile = conjunction(lowering, explicit)
    if mask_tile is not None and index.digit_shape != tile_type.get_shape():
        mask_type = TensorType(IntegerType(1), index.digit_shape)
        mask_tile = lowering.insert(tile.ReshapeOp(mask_tile, mask_type)).results[0]
    full = Box.full(index)
    lower = [] if bounds.lower == full.lower else list(bounds.lower)
    upper = [] if bounds.upper == full.upper else list(bounds.upper)
    if value is None:
        load = tile.LoadOp(
            pointer.buffer,
            index.base,
            list(index.strides),
            digit_type,
            lower=lower,
            upper=upper,
            mask=mask_tile,
            pad=pad,
        )
        loaded = lowering.insert(load).results[0]
        if digit_type != tile_type:
            loaded = lowering.insert(tile.ReshapeOp(loaded, tile_type)).results[0]
        return loaded
    if digit_type != tile_type:
        value = lowering.insert(tile.ReshapeOp(value, digit_type)).results[0]
    lowering.insert(
        tile.StoreOp(
            value,
            pointer.buffer,
            index.base,
            list(index.strides),
            lower=lower,
            upper=upper,
            mask=mask_tile,
        )
    )
    return value


def mask_tile_of_box(lowering: KernelLowering, box: Box) -> SSAValue:
    """A box as an explicit i1 tile over the tile's shape."""
    emit = lowering.emit
    view = box.view
    conditions: list[SSAValue] = []
    for k, digit in enumerate(view.digits):
        low, high = box.lower[k], box.upper[k]
        if low == 0 and high == digit.size:
            continue
        coordinate = AffineIndex(
            view.shape,
            tuple(
                affine.Digit(d.dim, d.size, 1 if j == k else 0) for j, d in enumerate(view.digits)
            ),
            0,
        )
        values = lowering.materialize_index(coordinate)
        for bound, predicate in ((low, "sge"), (high, "slt")):
            if predicate == "sge" and bound == 0:
                continue
            bound_i64 = lowering.index_to_i64(
                emit.materialize(bound) if isinstance(bound, int) else bound
            )
            conditions.append(compare(lowering, values, bound_i64, predicate))
    if not conditions:
        true = lowering.insert(arith.ConstantOp(IntegerAttr(1, IntegerType(1)))).results[0]
        all_true = tile.BroadcastOp(true, TensorType(IntegerType(1), view.shape))
        return lowering.insert(all_true).results[0]
    result = conjunction(lowering, conditions)
    assert result is not None
    return result


def compare(lowering: KernelLowering, lhs: SSAValue, rhs: SSAValue, predicate: str) -> SSAValue:
    compare_op = lowering.map_of(
        [lhs, rhs], tt.shape_of(lhs.type), lambda args: tarith.CmpiOp(args[0], args[1], predicate)
    )
    return compare_op.results[0]


def conjunction(lowering: KernelLowering, masks: Sequence[SSAValue]) -> SSAValue | None:
    if not masks:
        return None
    result = masks[0]
    for mask in masks[1:]:
        result = lowering.map_binary(arith.AndIOp, result, mask)
    return result


def select(
    lowering: KernelLowering, condition: SSAValue, if_true: SSAValue, if_false: SSAValue
) -> SSAValue:
    shape = tt.shape_of(if_true.type) or tt.shape_of(condition.type)
    choice = lowering.map_of(
        [condition, if_true, if_false], shape, lambda args: tarith.SelectOp(*args)
    )
    return choice.results[0]
