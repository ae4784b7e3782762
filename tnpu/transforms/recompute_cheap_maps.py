"""The `recompute-cheap-maps` pass: a cheap map read by several ops is computed by each of them.

A `tile.map` whose result several tile ops read is computed once and its
tile kept for all of them: on a vector target, one pass over the tile
writing it to memory and a pass in each reader reading it back.  When the
body is a few ops (layer norm's `x - mean`, read by the variance and by the
output), computing it again in each reader costs less than the pass that
writes it.  This pass matches a map with one result, a body of at most
`max_ops` ops (constants not counted), read only by `tile.map`s and
`tile.reduce`s of its own block, more than one of them; it puts a copy of
the map right before each reader (a reduction then finds the map it reads
right before it) and removes the original.  `fuse-tile-maps` afterwards
inlines each copy into the map that reads it.

It refuses nothing; maps it does not match stay as they are.  It runs only
in the RISC-V target's steps (`RVV_STEPS`).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint

from tnpu.dialects import tile


@dataclass
class RecomputeCheapMap(RewritePattern):
    """A copy of a cheap map right before each of its readers, in place of the map."""

    max_ops: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile.MapOp, rewriter: PatternRewriter) -> None:
        if len(op.results) != 1 or self._cost(op) > self.max_ops:
            return
        readers = list(dict.fromkeys(use.operation for use in op.results[0].uses))
        block = op.parent_block()
        if len(readers) < 2 or any(
            not isinstance(reader, tile.MapOp | tile.ReduceOp) or reader.parent_block() is not block
            for reader in readers
        ):
            return
        for reader in readers:
            copy = op.clone()
            rewriter.insert(copy, InsertPoint.before(reader))
            op.results[0].replace_uses_with_if(copy.results[0], lambda use, reader=reader: use.operation is reader)
        rewriter.erase(op)

    @staticmethod
    def _cost(op: tile.MapOp) -> int:
        """The ops the body computes per element (constants and the yield are free)."""
        body: list[Operation] = list(op.body.block.ops)[:-1]
        return sum(not isinstance(inner, arith.ConstantOp) for inner in body)


@dataclass(frozen=True)
class RecomputeCheapMapsPass(ModulePass):
    """A map of at most `max_ops` ops, read by several maps and reductions, computed by each (module docstring)."""

    name = "recompute-cheap-maps"

    max_ops: int = 2

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(RecomputeCheapMap(self.max_ops), apply_recursively=False).rewrite_module(op)
