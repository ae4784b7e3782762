"""The `hoist-map-invariants` pass: a map body computes per element only what varies per element.

A `tile.map` body runs once per element, and a vector target runs each of
its ops once per strip of elements.  Inductor's bodies compute some values
that are the same for every element: a select between scalar bounds, or
`r0_mask & xmask`, where the program's row mask `xmask` is one boolean.
This pass matches, in each map body:

* `andi(cmpi slt(x, bound), flag)` (operands of `andi` either way round;
  also `ult`), where `bound` and `flag` are uniform and the compare has no
  other use: it becomes `cmpi slt(x, select(flag, bound, never))`, `never`
  the value no `x` is below (the width's least signed integer for `slt`,
  0 for `ult`), so the flag costs nothing per element;
* an `arith`/`math` op whose operands are all uniform (a constant, a value
  from above the map, or an argument the map receives a scalar for): it
  moves before the map, its argument operands replaced by the scalars the
  map receives, and the body reads its result from above.

It refuses nothing; ops it cannot move stay where they are.  It runs only
in the RISC-V target's steps (`RVV_STEPS`): the timer and the interpreters
see Inductor's bodies as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import IntegerAttr, IntegerType, ModuleOp, TensorType
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tnpu.dialects import arith as tarith
from tnpu.dialects import tile
from tnpu.dialects.arith import is_scalar_arithmetic


def _is_uniform(value: SSAValue, body: Block) -> bool:
    """Whether `value` is the same for every element of the map whose body is `body`."""
    if isinstance(value, BlockArgument):
        if value.block is not body:
            return True
        operand = body.parent_op().inputs[value.index]  # pyright: ignore[reportAttributeAccessIssue, reportOptionalMemberAccess]  # an op inside a region has a parent
        return not isinstance(operand.type, TensorType)
    owner = value.owner
    return owner.parent_block() is not body or isinstance(owner, arith.ConstantOp)


def _map_body(op: Operation) -> Block | None:
    """The body of the map `op` is directly in, if it is."""
    block = op.parent_block()
    return block if block is not None and isinstance(block.parent_op(), tile.MapOp) else None


_NEVER_BELOW = {"slt": lambda width: -(1 << (width - 1)), "ult": lambda width: 0}
"""For each predicate, the bound no value is below."""


@dataclass
class FoldFlagIntoBound(RewritePattern):
    """`andi(cmpi slt(x, bound), flag)` as `cmpi slt(x, select(flag, bound, never))`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: arith.AndIOp, rewriter: PatternRewriter) -> None:
        body = _map_body(op)
        if body is None:
            return
        for compared, flag in ((op.lhs, op.rhs), (op.rhs, op.lhs)):
            compare = compared.owner
            if not isinstance(compare, arith.CmpiOp) or len(list(compared.uses)) != 1:
                continue
            predicate = arith.CMPI_COMPARISON_OPERATIONS[compare.predicate.value.data]
            width = compare.rhs.type
            if predicate not in _NEVER_BELOW or not isinstance(width, IntegerType):
                continue
            if not (_is_uniform(compare.rhs, body) and _is_uniform(flag, body)):
                continue
            never = arith.ConstantOp(IntegerAttr(_NEVER_BELOW[predicate](width.width.data), width))
            bound = tarith.SelectOp(flag, compare.rhs, never.result)
            folded = tarith.CmpiOp(compare.lhs, bound.result, predicate)
            rewriter.insert([never, bound], InsertPoint.before(compare))
            rewriter.replace(op, folded)
            rewriter.erase(compare)
            return


@dataclass
class HoistUniformOp(RewritePattern):
    """An op of a map body whose operands are all uniform, moved before the map."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        body = _map_body(op)
        if body is None or not is_scalar_arithmetic(op):
            return
        if isinstance(op, arith.ConstantOp) or not all(_is_uniform(v, body) for v in op.operands):
            return
        map_op = body.parent_op()
        assert isinstance(map_op, tile.MapOp)
        for index, operand in enumerate(op.operands):
            if isinstance(operand, BlockArgument) and operand.block is body:
                op.operands[index] = map_op.inputs[operand.index]
            elif isinstance(operand.owner, arith.ConstantOp) and operand.owner.parent_block() is body:
                constant = operand.owner.clone()
                rewriter.insert(constant, InsertPoint.before(map_op))
                op.operands[index] = constant.result
        op.detach()
        rewriter.insert(op, InsertPoint.before(map_op))


@dataclass(frozen=True)
class HoistMapInvariantsPass(ModulePass):
    """What a map body computes the same for every element, out of its per-element work (module docstring)."""

    name = "hoist-map-invariants"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        patterns = GreedyRewritePatternApplier([FoldFlagIntoBound(), HoistUniformOp()])
        PatternRewriteWalker(patterns).rewrite_module(op)
