"""Tensor descriptors (Triton 3.9's replacement of block pointers): `tt.make_tensor_descriptor`,
`tt.descriptor_load`, `tt.descriptor_store`, `tt.descriptor_gather`, `tt.descriptor_scatter`.

A descriptor made in the kernel is a `Descriptor` form: its base pointer,
shape and strides (as `index` scalars).  Loading or storing the block at
`[i_0, ..., i_n]` is exactly a structured `tile.load`/`tile.store`: offset
`base + sum(i_d * stride_d)`, the descriptor's strides, and per-dimension
bounds `max(-i_d, 0) <= j_d < min(shape_d - i_d, block_d)`, so elements
outside the tensor are not moved (a load reads the padding, zero or NaN).
A gather (scatter) of rows `x[k]` from column `y` computes each element's
offset and bound on the vector unit and is a `tile.gather` (`tile.scatter`)
under that mask.

Refused: descriptors made on the host (kernel arguments, see
`KernelLowering`), descriptors of pointers chosen from two buffers, and
atomic reductions through a descriptor (`tt.descriptor_reduce`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IntegerAttr, IntegerType, TensorType, i64
from xdsl.ir import Attribute, SSAValue

from tnpu.diagnostics import CompileError
from tnpu.dialects import tile, tt
from tnpu.lowering.affine import Scalar
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.op_lowerings.memory import Condition, compare, conjunction, indexed_transfer
from tnpu.lowering.pointer_analysis import Descriptor, Lowered, ScalarPointer

LOWERINGS = OpLowerings()


@LOWERINGS.lowers(tt.MakeTensorDescOp)
def lower_make_tensor_descriptor(lowering: KernelLowering, op: tt.MakeTensorDescOp) -> None:
    base = lowering.pointer_of(op, op.base)
    if not isinstance(base, ScalarPointer):
        raise CompileError(op, "the descriptor's base pointer is chosen from two buffers")
    option = tt.PaddingOption.of(op.padding) if op.padding is not None else tt.PaddingOption.ZERO
    lowering.values[op.result] = Lowered(
        descriptor=Descriptor(
            base,
            tuple(lowering.index_of(v) for v in op.shape),
            tuple(lowering.index_of(v) for v in op.strides),
            nan_padding=option == tt.PaddingOption.NAN,
        )
    )


DescriptorAccess = (
    tt.DescriptorLoadOp | tt.DescriptorStoreOp | tt.DescriptorGatherOp | tt.DescriptorScatterOp
)


def descriptor_of(lowering: KernelLowering, op: DescriptorAccess) -> tuple[Descriptor, TensorType]:
    """The descriptor an op accesses, and its block type (integers signless)."""
    descriptor = lowering.values[op.desc].descriptor
    if descriptor is None:
        raise CompileError(op, "the descriptor operand is not a tl.make_tensor_descriptor")
    desc_type = op.desc.type
    assert isinstance(desc_type, tt.TensorDescType)
    return descriptor, desc_type.signless_block_type


@dataclass(frozen=True)
class Block:
    """The structured transfer of the block at `[i_0, ..., i_n]` of a descriptor."""

    buffer: SSAValue
    offset: Scalar
    strides: list[Scalar]
    lower: list[Scalar]
    """Empty where every lower bound is zero."""
    upper: list[Scalar]
    """Empty where every upper bound is the block's size."""

    @staticmethod
    def at(
        lowering: KernelLowering,
        descriptor: Descriptor,
        indices: Sequence[SSAValue],
        block: Sequence[int],
    ) -> Block:
        """Offset `base + sum(i_d * stride_d)`; element `j` moves where
        `0 <= i_d + j_d < shape_d`, which is `max(-i_d, 0) <= j_d < min(shape_d - i_d, block_d)`."""
        emit = lowering.emit
        starts = [lowering.index_of(i) for i in indices]
        offset = descriptor.base.offset
        for start, stride in zip(starts, descriptor.strides):
            offset = emit.add(offset, emit.mul(start, stride))
        lower = [
            0 if emit.is_non_negative(start) else emit.clamp(emit.sub(0, start), 0, size)
            for start, size in zip(starts, block)
        ]
        upper = [
            emit.clamp(emit.sub(extent, start), 0, size)
            for start, extent, size in zip(starts, descriptor.shape, block)
        ]
        return Block(
            descriptor.base.buffer,
            offset,
            list(descriptor.strides),
            [] if all(bound == 0 for bound in lower) else lower,
            [] if list(upper) == list(block) else upper,
        )


def padding(lowering: KernelLowering, descriptor: Descriptor, element: Attribute) -> SSAValue:
    """The value a load reads outside the tensor: zero, or NaN for `padding = nan`."""
    if isinstance(element, AnyFloat):
        value: Attribute = FloatAttr(float("nan") if descriptor.nan_padding else 0.0, element)
    else:
        assert isinstance(element, IntegerType)
        value = IntegerAttr(0, element)
    return lowering.insert(arith.ConstantOp(value)).results[0]


@LOWERINGS.lowers(tt.DescriptorLoadOp)
def lower_descriptor_load(lowering: KernelLowering, op: tt.DescriptorLoadOp) -> None:
    descriptor, block_type = descriptor_of(lowering, op)
    block = Block.at(lowering, descriptor, op.indices, block_type.get_shape())
    load = tile.LoadOp(
        block.buffer,
        block.offset,
        block.strides,
        block_type,
        lower=block.lower,
        upper=block.upper,
        pad=padding(lowering, descriptor, block_type.element_type),
    )
    loaded = lowering.insert(load).results[0]
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    if result_type != block_type:
        loaded = lowering.insert(tile.ReshapeOp(loaded, result_type)).results[0]
    lowering.values[op.result] = Lowered(value=loaded)


@LOWERINGS.lowers(tt.DescriptorStoreOp)
def lower_descriptor_store(lowering: KernelLowering, op: tt.DescriptorStoreOp) -> None:
    descriptor, block_type = descriptor_of(lowering, op)
    block = Block.at(lowering, descriptor, op.indices, block_type.get_shape())
    value = lowering.tile_of(op.src)
    if value.type != block_type:
        value = lowering.insert(tile.ReshapeOp(value, block_type)).results[0]
    store = tile.StoreOp(
        value, block.buffer, block.offset, block.strides, lower=block.lower, upper=block.upper
    )
    lowering.insert(store)


def rows_access(
    lowering: KernelLowering,
    descriptor: Descriptor,
    x_offsets: SSAValue,
    y_offset: SSAValue,
    shape: Sequence[int],
) -> tuple[SSAValue, Condition]:
    """The i64 offsets of rows `x_offsets` from column `y_offset` (a `shape` tile), and
    where they lie inside the tensor."""
    rows = lowering.widen_to_i64(lowering.tile_of(x_offsets))
    rows = lowering.insert(tile.ReshapeOp(rows, TensorType(i64, [shape[0], 1]))).results[0]
    rows = lowering.insert(tile.BroadcastOp(rows, TensorType(i64, shape))).results[0]
    column = lowering.widen_to_i64(lowering.tile_of(y_offset))
    columns = lowering.map_binary(arith.AddiOp, lowering.coordinate(shape, 1, i64), column)
    row_stride, column_stride = (lowering.index_to_i64(s) for s in descriptor.strides)
    offsets = lowering.map_binary(arith.MuliOp, rows, row_stride)
    offsets = lowering.map_binary(
        arith.AddiOp, offsets, lowering.map_binary(arith.MuliOp, columns, column_stride)
    )
    base = lowering.index_to_i64(descriptor.base.offset)
    offsets = lowering.map_binary(arith.AddiOp, offsets, base)
    zero = lowering.index_to_i64(0)
    inside = []
    for coordinates, extent in zip((rows, columns), descriptor.shape):
        inside.append(compare(lowering, coordinates, zero, "sge"))
        inside.append(compare(lowering, coordinates, lowering.index_to_i64(extent), "slt"))
    mask = conjunction(lowering, inside)
    assert mask is not None
    return offsets, Condition(also=(Lowered(value=mask),))


@LOWERINGS.lowers(tt.DescriptorGatherOp)
def lower_descriptor_gather(lowering: KernelLowering, op: tt.DescriptorGatherOp) -> None:
    descriptor, block_type = descriptor_of(lowering, op)
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    shape = result_type.get_shape()
    offsets, inside = rows_access(lowering, descriptor, op.x_offsets, op.y_offset, shape)
    pad = padding(lowering, descriptor, block_type.element_type)
    buffer = descriptor.base.buffer
    gathered = indexed_transfer(lowering, buffer, offsets, inside, result_type, pad=pad)
    lowering.values[op.result] = Lowered(value=gathered)


@LOWERINGS.lowers(tt.DescriptorScatterOp)
def lower_descriptor_scatter(lowering: KernelLowering, op: tt.DescriptorScatterOp) -> None:
    descriptor, _ = descriptor_of(lowering, op)
    value = lowering.tile_of(op.src)
    assert isinstance(value.type, TensorType)
    shape = value.type.get_shape()
    offsets, inside = rows_access(lowering, descriptor, op.x_offsets, op.y_offset, shape)
    indexed_transfer(lowering, descriptor.base.buffer, offsets, inside, value.type, value=value)
