"""`fuse-tile-maps`: merge chains of `tile.map` into one fused body.

`ttir-to-tile` emits one `tile.map` per elementwise TTIR op.  This pass
matches:

* a map operand produced by another map whose results are used only by this
  map: the producer's body is inlined into the consumer, so the chain runs
  as one body with its intermediate values in registers;
* a map operand that is `tile.broadcast` of a scalar: the scalar is passed
  directly (maps take uniform scalars);
* an operand passed twice: passed once.

It produces maps with the same results and refuses nothing: maps it cannot
fuse (a producer with other users) are left as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Block, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tnpu.dialects import tile


def _rebuild(
    op: tile.MapOp,
    rewriter: PatternRewriter,
    operands: list[SSAValue],
    build_body: Callable[[Block, dict[SSAValue, SSAValue]], list[SSAValue]],
) -> None:
    """Replace `op` by a map over `operands`; `build_body` fills the new block.

    `build_body(block, mapping)` receives the new block (one argument per
    operand) and a value mapping to extend, and returns the yielded values.
    """
    body = Block(arg_types=[tile.element_type_of(v.type) for v in operands])
    mapping: dict[SSAValue, SSAValue] = {}
    yielded = build_body(body, mapping)
    body.add_op(tile.YieldOp(*yielded))
    fused = tile.MapOp(operands, list(op.results_.types), Region(body))
    fused.location = op.location
    fused.attributes |= op.attributes
    for old, new in zip(op.results, fused.results):
        new.name_hint = old.name_hint
    rewriter.replace(op, fused)


def _inline_body(
    source: tile.MapOp, block: Block, mapping: dict[SSAValue, SSAValue]
) -> list[SSAValue]:
    """Clone `source`'s body ops into `block`; return the values it yields."""
    for op in source.body.block.ops:
        if isinstance(op, tile.YieldOp):
            return [mapping.get(v, v) for v in op.values]
        block.add_op(op.clone(value_mapper=mapping))
    raise AssertionError("map body without tile.yield")


@dataclass
class FuseProducerMap(RewritePattern):
    """Inline a producer map whose results only this map uses."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile.MapOp, rewriter: PatternRewriter) -> None:
        for producer_result in op.inputs:
            producer = producer_result.owner
            if not isinstance(producer, tile.MapOp) or producer.parent_block() is not op.parent_block():
                continue
            if any(use.operation is not op for r in producer.results for use in r.uses):
                continue
            self.fuse(op, producer, rewriter)
            return

    @staticmethod
    def fuse(op: tile.MapOp, producer: tile.MapOp, rewriter: PatternRewriter) -> None:
        produced = set(producer.results)
        kept = [v for v in op.inputs if v not in produced]
        operands = list(dict.fromkeys([*producer.inputs, *kept]))

        def build(block: Block, mapping: dict[SSAValue, SSAValue]) -> list[SSAValue]:
            position = {v: i for i, v in enumerate(operands)}
            for old, value in zip(producer.body.block.args, producer.inputs):
                mapping[old] = block.args[position[value]]
            producer_values = dict(zip(producer.results, _inline_body(producer, block, mapping)))
            consumer_mapping: dict[SSAValue, SSAValue] = {}
            for old, value in zip(op.body.block.args, op.inputs):
                consumer_mapping[old] = (
                    producer_values[value] if value in produced else block.args[position[value]]  # pyright: ignore[reportArgumentType]
                )
            return _inline_body(op, block, consumer_mapping)

        _rebuild(op, rewriter, operands, build)
        rewriter.erase(producer)


@dataclass
class PassUniformScalars(RewritePattern):
    """Pass `tile.broadcast %scalar` operands as the scalar, and each operand once."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile.MapOp, rewriter: PatternRewriter) -> None:
        def source(value: SSAValue) -> SSAValue:
            owner = value.owner
            if isinstance(owner, tile.BroadcastOp) and not isinstance(
                owner.source.type, TensorType
            ):
                return owner.source
            return value

        sources = [source(v) for v in op.inputs]
        operands = list(dict.fromkeys(sources))
        if operands == list(op.inputs):
            return

        def build(block: Block, mapping: dict[SSAValue, SSAValue]) -> list[SSAValue]:
            position = {v: i for i, v in enumerate(operands)}
            for old, value in zip(op.body.block.args, sources):
                mapping[old] = block.args[position[value]]
            return _inline_body(op, block, mapping)

        _rebuild(op, rewriter, operands, build)


@dataclass(frozen=True)
class FuseTileMapsPass(ModulePass):
    """Fuse chains of `tile.map` into single bodies; pass uniform operands as scalars."""

    name = "fuse-tile-maps"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([PassUniformScalars(), FuseProducerMap()]),
            apply_recursively=True,
        ).rewrite_module(op)
