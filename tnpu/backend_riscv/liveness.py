"""Live intervals of register values in structured RISC-V IR.

The ops of a region are numbered in program order (an op with regions gets
a number before its regions' ops and an `end` number after them).  A value
occupies the points from its definition to its last use: op i reads its
operands at point 2i and writes its results at 2i + 1; results of an op
with regions are written at 2 end + 1, and a loop's block arguments at
2i + 1.  The vector operands of an op whose result RVV does not let
overlap them (a widening, narrowing or mask-producing op:
`result_may_overlap_operands`) are read at 2i + 1, so its result never
takes one of their registers.

A value used inside a loop but defined outside it is live until the loop's
end, since the next trip reads it again.  This is all the control flow
there is: loops and branches are structured ops (`rvx.loop`, `rvx.if`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, OpResult, SSAValue

from tnpu.dialects.rvv import ops as rvv
from tnpu.dialects.rvv import rvx
from tnpu.dialects.rvv.types import VectorGroupType

Interval = tuple[int, int]


def is_copy(op: Operation) -> bool:
    """A register-to-register copy, which allocation may make a no-op."""
    from xdsl.dialects import riscv

    return isinstance(op, riscv.MVOp | riscv.FMvDOp | rvv.WholeRegisterMoveOp)


def tied_operands(op: Operation) -> set[int]:
    """Indices of the operands `op` updates in place, and of those reading the same values."""
    if not isinstance(op, rvv.RvvInstruction):
        return set()
    tied = [op.operands[index] for index, _ in op.tied()]
    return {index for index, operand in enumerate(op.operands) if any(operand is t for t in tied)}


@dataclass
class Liveness:
    """The numbering of a region's ops and every value's interval in it."""

    index: dict[Operation, int] = field(default_factory=dict)
    end: dict[Operation, int] = field(default_factory=dict)
    intervals: dict[SSAValue, Interval] = field(default_factory=dict)
    ops_at: list[Operation] = field(default_factory=list)
    """The op of each number (an op with regions at its number and at its end)."""

    def define(self, value: SSAValue, point: int) -> None:
        start, end = self.intervals.get(value, (point, point))
        self.intervals[value] = (min(start, point), max(end, point))

    def use(self, value: SSAValue, point: int) -> None:
        if value not in self.intervals:
            self.intervals[value] = (-1, point)  # defined before the region
        start, end = self.intervals[value]
        self.intervals[value] = (start, max(end, point))


def analyse(blocks: Iterable[Block]) -> Liveness:
    """Number the ops of `blocks` (and everything nested) and compute each value's interval."""
    liveness = Liveness()
    blocks = list(blocks)
    for block in blocks:
        for argument in block.args:
            liveness.define(argument, -1)
        _number(liveness, block)
    for block in blocks:
        for op in block.walk():
            _record(liveness, op)
    return liveness


def _number(liveness: Liveness, block: Block) -> None:
    for op in block.ops:
        liveness.index[op] = len(liveness.ops_at)
        liveness.ops_at.append(op)
        if op.regions:
            for region in op.regions:
                for inner in region.blocks:
                    _number(liveness, inner)
            liveness.end[op] = len(liveness.ops_at)
            liveness.ops_at.append(op)


def _record(liveness: Liveness, op: Operation) -> None:
    index = liveness.index[op]
    tied = tied_operands(op)
    overlap = is_copy(op) or isinstance(op, rvv.RvvInstruction) and op.result_may_overlap_operands()
    for position, operand in enumerate(op.operands):
        vector_read = isinstance(operand.type, VectorGroupType) and not overlap and position not in tied
        point = 2 * index + (1 if vector_read and not op.regions else 0)
        liveness.use(operand, _extended(liveness, operand, op, point))
    if op.regions:
        for result in op.results:
            liveness.define(result, 2 * liveness.end[op] + 1)
        if isinstance(op, rvx.LoopOp):
            for argument in op.body.block.args:
                liveness.define(argument, 2 * index + 1)
    else:
        for result in op.results:
            liveness.define(result, 2 * index + 1)


def _extended(liveness: Liveness, value: SSAValue, user: Operation, point: int) -> int:
    """The point a use at `point` keeps `value` live to: the end of every loop
    around the use that does not hold the value's definition."""
    ancestor = user.parent_op()
    while ancestor is not None and ancestor in liveness.end:
        if isinstance(ancestor, rvx.LoopOp) and not defined_inside(ancestor, value):
            point = max(point, 2 * liveness.end[ancestor])
        ancestor = ancestor.parent_op()
    return point


def defined_inside(op: Operation, value: SSAValue) -> bool:
    """Whether `value` is defined in one of `op`'s regions (a block argument of `op` included)."""
    node = value.op.parent_op() if isinstance(value, OpResult) else value.owner.parent_op()
    while node is not None:
        if node is op:
            return True
        node = node.parent_op()
    return False


def carried_together(root: Operation) -> Iterator[Sequence[SSAValue]]:
    """Values in `root` that are one variable: an `rvx.loop`'s operand, block argument,
    carried value and result; an `rvx.if`'s result and what each region yields for it."""
    for op in root.walk():
        if isinstance(op, rvx.LoopOp):
            terminator = op.body.block.last_op
            assert isinstance(terminator, rvx.RepeatIfOp)
            yield from zip(op.iter_args, op.body.block.args, terminator.carried, op.results)
        elif isinstance(op, rvx.IfOp):
            yields = [region.block.last_op for region in op.regions]
            yield from zip(op.results, *(y.operands for y in yields if y is not None))


class Variables:
    """Values joined into variables (union-find): `find` names a value's variable."""

    def __init__(self) -> None:
        self.parent: dict[SSAValue, SSAValue] = {}

    def find(self, value: SSAValue) -> SSAValue:
        while (parent := self.parent.get(value, value)) is not value:
            value = parent
        return value

    def join(self, values: Sequence[SSAValue]) -> None:
        for value in values[1:]:
            a, b = self.find(value), self.find(values[0])
            if a is not b:
                self.parent[a] = b
