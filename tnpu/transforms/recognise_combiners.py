"""The `recognise-combiners` pass: Inductor's spelling of a NaN-propagating max or min as one op.

Inductor reduces with `triton_helpers.max2`/`min2`, whose combiner is

    mask = a > b | a != a          (a < b for min)
    combined = where(mask, a, b)

in TTIR a `cmpf ogt`/`olt`, a `cmpf une` of the first argument with itself,
an `ori` and a `select`.  That is `arith.maximumf` (`minimumf`) but for the
sign of a zero: on `max(-0.0, +0.0)` Inductor's combiner returns its second
argument, `maximumf` returns +0.0 (it orders -0.0 below +0.0, as IEEE 754's
maximum does).  The reduction's result differs from Inductor's fold at most
in the sign of a zero maximum, which an order-dependent fold (a GPU's tree
across lanes) does not fix either.  Rewritten, the combiner is one the
RISC-V backend reduces with `vfredmax`/`vfredmin` and a NaN check instead of
folding it as an elementwise program.

Matches the combiner region of each `tile.reduce` of one float operand that
is exactly that pattern (the two compares in either order, the `ori`'s
operands in either order); leaves every other combiner as it is; refuses
nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tnpu.dialects import tile

_ORDERING_TO_COMBINER: dict[str, type[Operation]] = {"ogt": arith.MaximumfOp, "olt": arith.MinimumfOp}


def _is_compare(value: SSAValue, predicate: str, lhs: SSAValue, rhs: SSAValue) -> bool:
    op = value.owner
    return (
        isinstance(op, arith.CmpfOp)
        and arith.CMPF_COMPARISON_OPERATIONS[op.predicate.value.data] == predicate
        and (op.lhs, op.rhs) == (lhs, rhs)
    )


def _nan_propagating_combiner(block: Block) -> type[Operation] | None:
    """`maximumf` or `minimumf` if `block` is Inductor's max/min combiner, else None."""
    if len(block.args) != 2 or len(block.ops) != 5:
        return None
    a, b = block.args
    yield_ = block.last_op
    assert isinstance(yield_, tile.YieldOp)
    select = yield_.values[0].owner
    if not isinstance(select, arith.SelectOp) or (select.lhs, select.rhs) != (a, b):
        return None
    either = select.cond.owner
    if not isinstance(either, arith.OrIOp):
        return None
    for ordering, nan_check in ((either.lhs, either.rhs), (either.rhs, either.lhs)):
        if not _is_compare(nan_check, "une", a, a):
            continue
        for predicate, combiner in _ORDERING_TO_COMBINER.items():
            if _is_compare(ordering, predicate, a, b):
                return combiner
    return None


class RecogniseNanPropagatingMaxMin(RewritePattern):
    """A `tile.reduce` combining with `where(a > b | a != a, a, b)` combines with `maximumf(a, b)`
    (`a < b`: `minimumf`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile.ReduceOp, rewriter: PatternRewriter) -> None:
        block = op.combiner.block
        combiner = _nan_propagating_combiner(block)
        if combiner is None:
            return
        a, b = block.args
        combined = combiner(a, b)  # pyright: ignore[reportCallIssue]
        rewriter.insert(combined, InsertPoint.at_start(block))
        yield_ = block.last_op
        assert isinstance(yield_, tile.YieldOp)
        rewriter.replace(yield_, tile.YieldOp(combined.results[0]))
        for dead in reversed([o for o in block.ops if o is not combined and not isinstance(o, tile.YieldOp)]):
            rewriter.erase(dead)


@dataclass(frozen=True)
class RecogniseCombinersPass(ModulePass):
    """Inductor's NaN-propagating max/min combiners as `arith.maximumf`/`minimumf` (module docstring)."""

    name = "recognise-combiners"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(RecogniseNanPropagatingMaxMin(), apply_recursively=False).rewrite_module(op)
