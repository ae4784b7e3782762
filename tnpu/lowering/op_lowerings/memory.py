"""Loads and stores: structured DMA where the pointer analysis proved it, gathers
and scatters otherwise.

A pointer tensor with an affine index becomes `tile.load`/`tile.store` over
the index's digit view (reshaped to the tile's shape): its mask's boxes,
refined to that view, are the bounds, the rest of the mask an explicit mask
tile, and a uniform `other` the pad.  Any other pointer tensor, and every
scalar pointer, becomes `tile.gather`/`tile.scatter` at its i64 offsets; a
non-uniform `other` is selected in after the load.

An access through a `PointerChoice` (`tl.where` of pointers into two
buffers) is one access per side, each under the mask and its side of the
condition (a uniform condition is a bound of a structured transfer, as any
box is); the loaded values are selected by the condition.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, TensorType
from xdsl.ir import Attribute, SSAValue

from tnpu.dialects import arith as tarith
from tnpu.dialects import tile, tt
from tnpu.lowering import affine
from tnpu.lowering.affine import AffineIndex, Box
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.pointer_analysis import (
    Lowered,
    Pointer,
    PointerChoice,
    PointerTensor,
    ScalarPointer,
    mask_parts,
)

LOWERINGS = OpLowerings()

T = TypeVar("T")


@dataclass(frozen=True)
class Condition:
    """Where an access moves elements: where the TTIR `mask` (if any) and every
    condition in `also` (the sides taken through `tl.where` of pointers) hold."""

    mask: SSAValue | None = None
    also: tuple[Lowered, ...] = ()

    def and_(self, condition: Lowered) -> Condition:
        return replace(self, also=(*self.also, condition))

    def tiles(self, lowering: KernelLowering) -> list[SSAValue]:
        """The conditions as i1 tiles (or scalars)."""
        mask = [lowering.tile_of(self.mask)] if self.mask is not None else []
        return mask + [c.value for c in self.also]  # pyright: ignore[reportReturnType]

    def parts(self, lowering: KernelLowering, shape: Sequence[int]) -> tuple[list[Box], list[SSAValue]]:
        """The conditions as boxes over a tile of `shape` where they are, else as tiles."""
        boxes, rest = mask_parts(self.mask, lowering.values) if self.mask is not None else ([], [])
        tiles = [lowering.tile_of(m) for m in rest]
        for condition in self.also:
            assert condition.value is not None
            if condition.box is not None:
                boxes.append(condition.box)
            elif not isinstance(condition.value.type, TensorType):
                boxes.append(lowering.box_when_true(AffineIndex.uniform(shape, 0), condition.value))
            else:
                tiles.append(condition.value)
        return boxes, tiles


@LOWERINGS.lowers(tt.LoadOp)
def lower_load(lowering: KernelLowering, op: tt.LoadOp) -> None:
    pointer = lowering.pointer_of(op, op.ptr)
    result_type = op.result.type
    other = lowering.values[op.other] if op.other is not None else None
    pad = None
    if other is not None:  # a scalar `other`, or a tensor of one value, is the pad
        pad = other.uniform if isinstance(result_type, TensorType) else other.value
    loaded = load(lowering, pointer, Condition(op.mask), result_type, pad)
    if op.other is not None and pad is None:
        assert op.mask is not None, "tt.load has an `other` only with a mask"
        loaded = select(lowering, lowering.tile_of(op.mask), loaded, lowering.tile_of(op.other))
    lowering.values[op.result] = Lowered(value=loaded)


def load(
    lowering: KernelLowering,
    pointer: Pointer | PointerChoice,
    condition: Condition,
    result_type: Attribute,
    pad: SSAValue | None,
) -> SSAValue:
    """The elements at `pointer` where `condition` holds (`pad` elsewhere)."""
    if isinstance(pointer, PointerChoice):
        taken, other = on_each_side(
            lowering, pointer, condition, lambda side, where: load(lowering, side, where, result_type, pad)
        )
        return select(lowering, pointer.condition.value, taken, other)  # pyright: ignore[reportArgumentType]
    if isinstance(pointer, ScalarPointer):
        offset = lowering.index_to_i64(pointer.offset)
        return indexed_transfer(lowering, pointer.buffer, offset, condition, result_type, pad=pad)
    assert isinstance(result_type, TensorType)
    return transfer(lowering, pointer, condition, result_type, pad=pad)


@LOWERINGS.lowers(tt.StoreOp)
def lower_store(lowering: KernelLowering, op: tt.StoreOp) -> None:
    pointer = lowering.pointer_of(op, op.ptr)
    store(lowering, pointer, Condition(op.mask), lowering.tile_of(op.value))


def store(
    lowering: KernelLowering, pointer: Pointer | PointerChoice, condition: Condition, value: SSAValue
) -> None:
    """Write `value` at `pointer` where `condition` holds."""
    if isinstance(pointer, PointerChoice):
        on_each_side(lowering, pointer, condition, lambda side, where: store(lowering, side, where, value))
    elif isinstance(pointer, ScalarPointer):
        offset = lowering.index_to_i64(pointer.offset)
        indexed_transfer(lowering, pointer.buffer, offset, condition, value.type, value=value)
    else:
        assert isinstance(value.type, TensorType)
        transfer(lowering, pointer, condition, value.type, value=value)


def on_each_side(
    lowering: KernelLowering,
    choice: PointerChoice,
    condition: Condition,
    access: Callable[[Pointer | PointerChoice, Condition], T],
) -> tuple[T, T]:
    """`access` through each side of a choice, where its condition holds and where not.

    The accesses are in that order: of two writes to one element through
    pointers into two buffers that alias, the second side's wins.
    """
    taken = access(choice.if_true, condition.and_(choice.condition))
    other = access(choice.if_false, condition.and_(negated(lowering, choice.condition)))
    return taken, other


def negated(lowering: KernelLowering, condition: Lowered) -> Lowered:
    """The forms of `not condition` (a box where the condition is uniform)."""
    value = condition.value
    assert value is not None
    true = lowering.insert(arith.ConstantOp(IntegerAttr(1, IntegerType(1)))).results[0]
    if not isinstance(value.type, TensorType):
        return Lowered(value=lowering.insert(arith.XOrIOp(value, true)).results[0])
    result = Lowered(value=lowering.map_binary(arith.XOrIOp, value, true))
    if condition.uniform is not None:
        result.uniform = lowering.insert(arith.XOrIOp(condition.uniform, true)).results[0]
        result.box = lowering.box_when_true(
            AffineIndex.uniform(value.type.get_shape(), 0), result.uniform
        )
    return result


def transfer(
    lowering: KernelLowering,
    pointer: PointerTensor,
    condition: Condition,
    tile_type: TensorType,
    *,
    pad: SSAValue | None = None,
    value: SSAValue | None = None,
) -> SSAValue:
    """A structured DMA when the pointer is affine, else a gather/scatter."""
    if pointer.index is not None:
        return structured_transfer(lowering, pointer, condition, tile_type, pad, value)
    offsets = lowering.offsets_of(pointer)
    return indexed_transfer(
        lowering, pointer.buffer, offsets, condition, tile_type, pad=pad, value=value
    )


def indexed_transfer(
    lowering: KernelLowering,
    buffer: SSAValue,
    indices: SSAValue,
    condition: Condition,
    value_type: Attribute,
    *,
    pad: SSAValue | None = None,
    value: SSAValue | None = None,
) -> SSAValue:
    """`tile.gather` (no `value`) or `tile.scatter` at the element offsets `indices`."""
    masks = mask_operand(lowering, condition, indices)
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


def mask_operand(lowering: KernelLowering, condition: Condition, indices: SSAValue) -> list[SSAValue]:
    """The mask of an indexed access (none, or one in the indices' shape)."""
    mask = conjunction(lowering, condition.tiles(lowering))
    if mask is None:
        return []
    if isinstance(indices.type, TensorType) and not isinstance(mask.type, TensorType):
        mask_type = TensorType(IntegerType(1), indices.type.get_shape())
        mask = lowering.insert(tile.BroadcastOp(mask, mask_type)).results[0]
    return [mask]


def structured_transfer(
    lowering: KernelLowering,
    pointer: PointerTensor,
    condition: Condition,
    tile_type: TensorType,
    pad: SSAValue | None,
    value: SSAValue | None,
) -> SSAValue:
    """`tile.load`/`tile.store` over the digit view of the pointer's affine index."""
    emit = lowering.emit
    pointer_index = pointer.index
    assert pointer_index is not None
    boxes, explicit = condition.parts(lowering, tile_type.get_shape())
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
    """The masks (tiles or scalars) all holding; None for no mask."""
    if not masks:
        return None
    result = masks[0]
    for mask in masks[1:]:
        if isinstance(result.type, TensorType) or isinstance(mask.type, TensorType):
            result = lowering.map_binary(arith.AndIOp, result, mask)
        else:
            result = lowering.insert(arith.AndIOp(result, mask)).results[0]
    return result


def select(
    lowering: KernelLowering, condition: SSAValue, if_true: SSAValue, if_false: SSAValue
) -> SSAValue:
    """`condition ? if_true : if_false`, elementwise (a scalar condition chooses for all)."""
    shape = tt.shape_of(if_true.type) or tt.shape_of(condition.type)
    if not shape:
        return lowering.insert(tarith.SelectOp(condition, if_true, if_false)).results[0]
    choice = lowering.map_of(
        [condition, if_true, if_false], shape, lambda args: tarith.SelectOp(*args)
    )
    return choice.results[0]
