"""The `hoist-scalar-arith` pass: scalar arithmetic as early in its block as its operands allow.

Inductor computes a store's address, and other index arithmetic, where
the kernel's source says, often after the tile op whose value the store
writes.  Scalar `arith`/`math` ops touch no memory and cannot fail, so
they can run as soon as their operands are known.  Moved up, they let a
target see a store's address before the value's producer (which can then
write where the store would) and leave a map right before the reduction
that reads it; the scalar ops of a block also gather into longer runs.

Matches each `arith`/`math` op with no tensor operand or result in a
block (but in the scalar bodies of `tile.map`, `tile.reduce` and
`tile.scan`, whose order is their vector code's), and moves it to just
after the last op of its block that defines one of its operands (to the
block's start if none does); ops moved to one place keep their order.
Refuses nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from tnpu.dialects import tile
from tnpu.dialects.arith import is_scalar_arithmetic

_SCALAR_BODIES = (tile.MapOp, tile.ReduceOp, tile.ScanOp)


def _hoist_in(block: Block) -> None:
    last_moved: dict[Operation | None, Operation] = {}
    """Per anchor (None: the block's start), the last op moved to follow it; the next
    goes after that one, so ops moved to one place keep their order."""
    for op in list(block.ops):
        if not is_scalar_arithmetic(op):
            continue
        definitions = [v.owner for v in op.operands if isinstance(v.owner, Operation) and v.owner.parent is block]
        anchor = max(definitions, key=block.get_operation_index, default=None)
        after = last_moved.get(anchor, anchor)
        if after is not op.prev_op:
            op.detach()
            if after is None:
                block.insert_op_before(op, block.first_op)  # pyright: ignore[reportArgumentType]  # the block holds op, so it has a first op
            else:
                block.insert_op_after(op, after)
        last_moved[anchor] = op


@dataclass(frozen=True)
class HoistScalarArithPass(ModulePass):
    """Scalar arith/math ops moved to just after their operands' definitions (module docstring)."""

    name = "hoist-scalar-arith"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in op.walk():
            if not isinstance(inner, _SCALAR_BODIES):
                for region in inner.regions:
                    for block in region.blocks:
                        _hoist_in(block)
