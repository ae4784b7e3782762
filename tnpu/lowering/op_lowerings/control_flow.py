"""Structured control flow: `scf.for`, `scf.if`, `scf.while` and `tt.return`.

Loops and branches keep their `scf` form, with tiles and scalars as
iteration values and results.  A pointer an `scf.for` carries travels as
its state (`Carried`): a scalar pointer as its offset, a pointer tensor
that every iteration advances by a uniform step as the base of its affine
index (so its loads stay structured), any other as its i64 offset tile.
Pointers yielded by `scf.if` or carried by `scf.while`, and loop-carried
pointers chosen from two buffers, are refused.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.dialects import scf
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from tnpu.diagnostics import CompileError
from tnpu.dialects import tile, tt
from tnpu.dialects.scf import WhileOp
from tnpu.lowering.affine import AffineIndex
from tnpu.lowering.kernel_lowering import KernelLowering, OpLowerings
from tnpu.lowering.pointer_analysis import (
    Lowered,
    PointerChoice,
    PointerTensor,
    ScalarPointer,
    uniform_advance,
)

LOWERINGS = OpLowerings()


@dataclass
class Carried:
    """One loop-carried TTIR value and its carried form.

    Data travels as its tile or scalar.  A scalar pointer travels as its
    offset; a pointer tensor advanced by a uniform step as the base of its
    affine index (strides are loop-invariant); any other pointer tensor as
    its i64 offset tile.
    """

    lowering: KernelLowering
    op: Operation
    init: SSAValue
    buffer: SSAValue | None = None
    scalar_pointer: bool = False
    index: AffineIndex | None = None

    @staticmethod
    def of(lowering: KernelLowering, op: Operation, init: SSAValue, yielded: SSAValue) -> Carried:
        """How a loop-carried TTIR value travels: a tile, a scalar, or pointer state."""
        if lowering.values[init].descriptor is not None:
            raise CompileError(op, "a tensor descriptor carried by a loop is not supported")
        pointer = lowering.values[init].pointer
        if pointer is None:
            return Carried(lowering, op, init=lowering.tile_of(init))
        if isinstance(pointer, PointerChoice):
            raise CompileError(op, "a loop-carried pointer is chosen from two buffers (tl.where)")
        if isinstance(pointer, ScalarPointer):
            offset = lowering.emit.materialize(pointer.offset)
            return Carried(lowering, op, init=offset, buffer=pointer.buffer, scalar_pointer=True)
        step = uniform_advance(yielded, op)
        if pointer.index is not None and step is not None:
            base = lowering.emit.materialize(pointer.index.base)
            return Carried(lowering, op, init=base, buffer=pointer.buffer, index=pointer.index)
        return Carried(lowering, op, init=lowering.offsets_of(pointer), buffer=pointer.buffer)

    @property
    def type(self) -> Attribute:
        return self.init.type

    def inside(self, value: SSAValue) -> Lowered:
        """The TTIR value's forms, given the carried value (a block arg or result)."""
        if self.buffer is None:
            return Lowered(value=value)
        if self.scalar_pointer:
            return Lowered(pointer=ScalarPointer(self.buffer, value))
        if self.index is not None:
            index = replace(self.index, base=value)
            return Lowered(pointer=PointerTensor(self.buffer, index=index))
        return Lowered(pointer=PointerTensor(self.buffer, offsets=value))

    def next(self, yielded: SSAValue) -> SSAValue:
        """The carried value for the next iteration, from the TTIR value yielded."""
        lowering = self.lowering
        if self.buffer is None:
            return lowering.tile_of(yielded)
        pointer = lowering.values[yielded].pointer
        if isinstance(pointer, PointerChoice) or pointer is None or pointer.buffer is not self.buffer:
            raise CompileError(self.op, "a loop-carried pointer changes buffer")
        if isinstance(pointer, ScalarPointer):
            return lowering.emit.materialize(pointer.offset)
        if self.index is not None:
            assert pointer.index is not None
            return lowering.emit.materialize(pointer.index.base)
        return lowering.offsets_of(pointer)


@LOWERINGS.lowers(scf.ForOp)
def lower_for(lowering: KernelLowering, op: scf.ForOp) -> None:
    old_body = op.body.block
    old_yield = old_body.last_op
    assert isinstance(old_yield, scf.YieldOp)
    carried = [
        Carried.of(lowering, op, init, yielded)
        for init, yielded in zip(op.iter_args, old_yield.operands)
    ]
    body = Block(arg_types=[lowering.tile_of(op.lb).type, *(c.type for c in carried)])
    body.args[0].name_hint = old_body.args[0].name_hint
    new = scf.ForOp(
        lowering.tile_of(op.lb),
        lowering.tile_of(op.ub),
        lowering.tile_of(op.step),
        [c.init for c in carried],
        Region(body),
    )
    lowering.insert(new)
    lowering.values[old_body.args[0]] = Lowered(value=body.args[0])
    for old_arg, new_arg, c in zip(old_body.args[1:], body.args[1:], carried):
        new_arg.name_hint = old_arg.name_hint
        lowering.values[old_arg] = c.inside(new_arg)
    with lowering.at_end(body):
        for inner in old_body.ops:
            lowering.location = inner.location
            if isinstance(inner, scf.YieldOp):
                next_values = [c.next(v) for c, v in zip(carried, inner.operands)]
                lowering.insert(scf.YieldOp(*next_values))
            else:
                lowering.lower_op(inner)
    lowering.location = op.location
    for old, result, c in zip(op.results, new.results, carried):
        lowering.values[old] = c.inside(result)


@LOWERINGS.lowers(scf.IfOp)
def lower_if(lowering: KernelLowering, op: scf.IfOp) -> None:
    for result in op.results:
        if isinstance(tt.element_type_of(result.type), tt.PointerType):
            raise CompileError(op, "an scf.if yielding pointers is not supported")
    regions = []
    for region in (op.true_region, op.false_region):
        if not region.blocks:
            regions.append(Region())
            continue
        block = Block()
        with lowering.at_end(block):
            lower_structured_block(lowering, region.block)
        regions.append(Region(block))
    new = lowering.insert(
        scf.IfOp(lowering.tile_of(op.cond), list(op.result_types), regions[0], regions[1])
    )
    for old, result in zip(op.results, new.results):
        lowering.values[old] = Lowered(value=result)


@LOWERINGS.lowers(scf.WhileOp)
def lower_while(lowering: KernelLowering, op: scf.WhileOp) -> None:
    for value in (*op.arguments, *op.results):
        if isinstance(tt.element_type_of(value.type), tt.PointerType):
            raise CompileError(op, "an scf.while carrying pointers is not supported")
    regions = []
    for region in (op.before_region, op.after_region):
        block = Block(arg_types=region.block.arg_types)
        for old_arg, new_arg in zip(region.block.args, block.args):
            new_arg.name_hint = old_arg.name_hint
            lowering.values[old_arg] = Lowered(value=new_arg)
        with lowering.at_end(block):
            lower_structured_block(lowering, region.block)
        regions.append(Region(block))
    loop = lowering.insert(
        WhileOp(  # tnpu's: prints its location where it parses back
            [lowering.tile_of(a) for a in op.arguments],
            list(op.result_types),
            regions[0],
            regions[1],
        )
    )
    for old, result in zip(op.results, loop.results):
        lowering.values[old] = Lowered(value=result)


def lower_structured_block(lowering: KernelLowering, block: Block) -> None:
    """Lower a block of scf ops whose terminator passes values through."""
    for inner in block.ops:
        lowering.location = inner.location
        if isinstance(inner, scf.YieldOp):
            lowering.insert(scf.YieldOp(*[lowering.tile_of(v) for v in inner.operands]))
        elif isinstance(inner, scf.ConditionOp):
            arguments = [lowering.tile_of(v) for v in inner.args]
            lowering.insert(scf.ConditionOp(lowering.tile_of(inner.condition), *arguments))
        else:
            lowering.lower_op(inner)


@LOWERINGS.lowers(tt.ReturnOp)
def lower_return(lowering: KernelLowering, op: tt.ReturnOp) -> None:
    if op.srcs:
        raise CompileError(op, "a kernel returns nothing")
    lowering.insert(tile.ReturnOp())
