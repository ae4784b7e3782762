"""Transfers done where the data lies: loads read in place, stores done by their value's producer.

A load whose tile only elementwise programs read need not be copied into
the scratchpad: they can stream it from global memory (`read_in_place`),
if it is row-major and contiguous there and its in-bounds elements are a
prefix of the tile (`in_bounds_prefix`: the others read as the pad value).
Likewise the store of a map's or a reduction's result can be done by the
producer itself, writing where the store would (`store_of_result`).  Both
must see memory as the tile ops' order says: nothing may write memory
between a load and its last reader, and nothing but scalar arithmetic and
views may come between a producer and its store.
"""

from __future__ import annotations

import math

from xdsl.ir import Block, Operation, SSAValue

from tnpu.backend_riscv.builder import bound_value, clamped
from tnpu.backend_riscv.elements import Element
from tnpu.backend_riscv.emitter import KernelEmitter, static_or_loader
from tnpu.dialects import tile
from tnpu.dialects.arith import is_scalar_arithmetic
from tnpu.dialects.shapes import row_major_strides

MEMORY_WRITES = (tile.StoreOp, tile.ScatterOp, tile.AtomicRMWOp, tile.AtomicCASOp)


def _row_major_in_memory(op: tile.LoadOp | tile.StoreOp) -> bool:
    """Unmasked, from index 0, and laid out row-major and contiguous in memory (the
    stride of a dimension of one element is never used, so any will do)."""
    shape = list(op.tile_type.get_shape())
    strides = zip(shape, op.mixed_strides(), row_major_strides(shape))
    return (
        op.mask is None
        and all(stride == expected or size == 1 for size, stride, expected in strides)
        and op.mixed_lower() == [0] * len(shape)
    )


def contiguous_and_whole(op: tile.LoadOp | tile.StoreOp) -> bool:
    """Row-major contiguous in memory, unmasked, every element within bounds."""
    return _row_major_in_memory(op) and op.mixed_upper() == list(op.tile_type.get_shape())


def _deciding_dimension(op: tile.LoadOp | tile.StoreOp) -> int | None:
    """The dimension whose upper bound alone says how many leading elements (in row-major
    order) of a row-major transfer are in bounds, if one does: the first of more than
    one element, when every later one is whole (earlier ones, of one element, are in
    bounds or empty the tile)."""
    shape, upper = list(op.tile_type.get_shape()), op.mixed_upper()
    if not _row_major_in_memory(op):
        return None
    deciding = next((d for d, size in enumerate(shape) if size > 1), len(shape) - 1)
    return deciding if upper[deciding + 1 :] == shape[deciding + 1 :] else None


def in_bounds_prefix(cg: KernelEmitter, op: tile.LoadOp | tile.StoreOp) -> SSAValue | None:
    """None if every element of the transfer is in bounds, else how many leading ones are (`_deciding_dimension`'s bound,
    clamped to the tile, times the elements after it; 0 if an earlier bound is empty)."""
    if contiguous_and_whole(op):
        return None
    b, shape = cg.b, list(op.tile_type.get_shape())
    deciding = _deciding_dimension(op)
    assert deciding is not None
    upper = op.mixed_upper()
    # Transfers of one block cut by the same bounds (Inductor's xmask on every load
    # of a pointwise kernel) share one count, so their streams share one counter.
    key = (b.block, tuple(shape), tuple(upper[: deciding + 1]))
    if key not in cg.in_bounds_counts:
        count = b.var(clamped(b, static_or_loader(cg, upper[deciding]), 0, shape[deciding]))
        for bound in upper[:deciding]:
            with b.branch("ge", b.zero, bound_value(b, static_or_loader(cg, bound))):
                count.set(b.zero)
        inner = math.prod(shape[deciding + 1 :])
        cg.in_bounds_counts[key] = count.value if inner == 1 else b.mul(count.value, b.li(inner))
    return cg.in_bounds_counts[key]


def _between(block: Block, first: Operation, last: Operation) -> list[Operation]:
    return list(block.ops)[block.get_operation_index(first) + 1 : block.get_operation_index(last)]


MAX_READ_IN_PLACE = 8
"""Loads a map reads in place at most: each holds its address in a register from the
load to the map, where the check for an output overlapping them reads them all."""


def read_in_place(op: tile.LoadOp) -> bool:
    """Whether `op`'s tile can be read where it lies instead of copied: the load is
    row-major and contiguous, unmasked, its elements in bounds a prefix of the tile
    (the others read as the pad value), only `tile.map`s of its block read it, none
    of them reading more than `MAX_READ_IN_PLACE` such loads, and nothing writes
    memory before the last of them."""
    users = [use.operation for use in op.result.uses]
    block = op.parent_block()
    if not _could_be_read_in_place(op) or not users or block is None:
        return False
    if any(not isinstance(u, tile.MapOp) or u.parent_block() is not block or op.result not in u.inputs
           for u in users):  # fmt: skip
        return False
    if any(sum(_could_be_read_in_place(v.owner) for v in set(u.inputs)) > MAX_READ_IN_PLACE for u in users):  # pyright: ignore[reportAttributeAccessIssue]
        return False
    last = max(users, key=block.get_operation_index)
    return not any(isinstance(inner, MEMORY_WRITES) for o in _between(block, op, last) for inner in o.walk())


def _could_be_read_in_place(op: Operation) -> bool:
    return isinstance(op, tile.LoadOp) and _deciding_dimension(op) is not None


def store_of_result(cg: KernelEmitter, result: SSAValue) -> tile.StoreOp | None:
    """The store its producer (a map, a reduction) can do itself, writing `result` where
    the store would: `result`'s only reader, directly or through reshapes (views),
    row-major and contiguous, its in-bounds elements a prefix (the producer writes
    those under a mask), later in the producer's block with only scalar arithmetic
    and those reshapes in between, its address and bounds known before the producer."""
    producer, views = result.owner, []
    while len(uses := list(result.uses)) == 1 and isinstance(uses[0].operation, tile.ReshapeOp):
        views.append(uses[0].operation)
        result = uses[0].operation.result
    if len(uses) != 1:
        return None
    (use,) = uses
    store = use.operation
    block = store.parent_block()
    if not isinstance(store, tile.StoreOp) or use.index != 0 or block is not producer.parent_block() or block is None:
        return None
    between = [op for op in _between(block, producer, store) if op not in views]  # pyright: ignore[reportArgumentType]
    if _deciding_dimension(store) is None or not all(map(is_scalar_arithmetic, between)):
        return None
    address_operands = [store.buffer, *(v for v in [store.mixed_offset(), *store.mixed_upper()] if isinstance(v, SSAValue))]
    return store if all(v in cg.scratchpad for v in address_operands) else None


def first_element_address(cg: KernelEmitter, op: tile.LoadOp | tile.StoreOp, element: Element) -> SSAValue:
    """The address of the first element `op` moves: its buffer plus its offset."""
    b = cg.b
    offset = b.slli(cg.load_int(op.mixed_offset()), element.log2_bytes)
    return b.add(cg.load_int(op.buffer), offset)
