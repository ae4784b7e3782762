"""The `strip-gpu-only` pass: drop what only a GPU honours."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.dead_code_elimination import is_trivially_dead

from tnpu.dialects.gpu_only import AssumeOp, GpuBarrierOp, TtgBarrierOp

GPU_ONLY_ATTRIBUTE_NAMESPACES = ("ttg.", "ttng.", "triton_gpu.", "nvvm.", "rocdl.")
"""Namespaces of attributes that describe a GPU launch or its code generation.

`ttg.num-warps`, `ttg.num-ctas`, `ttg.threads-per-warp`, `ttg.target`, ...
(Triton 3.x), `triton_gpu.*` (Triton before 3.2), `ttng.*` (Hopper and
Blackwell options) and the `nvvm.*` / `rocdl.*` kernel annotations.
"""


def erase_with_dead_producers(op: Operation, rewriter: PatternRewriter) -> None:
    """Erase `op`, then every producer of its operands that only fed it.

    A producer goes only when it is side-effect free and has no use left, so
    nothing another op reads is ever removed.
    """
    producers = dict.fromkeys(operand.owner for operand in op.operands)
    rewriter.erase(op)
    for producer in producers:
        if isinstance(producer, Operation) and is_trivially_dead(producer):
            erase_with_dead_producers(producer, rewriter)


class RemoveAssume(RewritePattern):
    """Erase `llvm.intr.assume` and the comparison that only fed it.

    `tl.assume(pid_m >= 0)` is a hint to LLVM's optimiser; every Inductor
    GEMM template carries a pair.  It constrains nothing at run time.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: AssumeOp, rewriter: PatternRewriter) -> None:
        erase_with_dead_producers(op, rewriter)


class RemoveGpuBarrier(RewritePattern):
    """Erase `gpu.barrier`, Triton 3.6's `tl.debug_barrier`.

    It synchronises the threads of one GPU block; a program instance on the
    NPU is one instruction stream, so it has nothing to wait for.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GpuBarrierOp, rewriter: PatternRewriter) -> None:
        rewriter.erase(op)


class RemoveTtgBarrier(RewritePattern):
    """Erase `ttg.barrier`, Triton 3.9's `tl.debug_barrier` (as `gpu.barrier`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: TtgBarrierOp, rewriter: PatternRewriter) -> None:
        rewriter.erase(op)


def drop_gpu_only_attributes(op: Operation) -> None:
    """Delete `op`'s attributes in the GPU-only namespaces (`ttg.num-warps`, ...)."""
    for name in [n for n in op.attributes if n.startswith(GPU_ONLY_ATTRIBUTE_NAMESPACES)]:
        del op.attributes[name]


@dataclass(frozen=True)
class StripGpuOnlyPass(ModulePass):
    """Remove the ops and attributes that only have meaning on a GPU.

    Matches and removes:

    * `llvm.intr.assume` (from `tl.assume`), together with the comparisons and
      constants that only fed it;
    * `gpu.barrier` (Triton 3.6) and `ttg.barrier` (Triton 3.9), from
      `tl.debug_barrier`;
    * attributes of any op (the module's and the functions' in practice) in
      the `ttg.`, `ttng.`, `triton_gpu.`, `nvvm.` and `rocdl.` namespaces:
      `ttg.num-warps`, `ttg.num-ctas`, `ttg.threads-per-warp`, `ttg.target`
      and the like.

    Keeps what means the same on any device: `tt.assert`, `tt.print`, and the
    `tt.divisibility` / `tt.contiguity` hints on arguments.  It never removes
    an op whose result is still used.
    """

    name = "strip-gpu-only"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    RemoveAssume(),
                    RemoveGpuBarrier(),
                    RemoveTtgBarrier(),
                ],
                dce_enabled=False,
            ),
            apply_recursively=False,
        ).rewrite_module(op)
        for nested in op.walk():
            drop_gpu_only_attributes(nested)
