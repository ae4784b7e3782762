"""`tnpu-to-tile`: the whole pipeline from imported TTIR to fused tile IR.

A pipeline of passes from `passes/`, `lowering/` and `transforms/`, so it
sits above them all, beside the target pipelines.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.transforms.common_subexpression_elimination import (
    CommonSubexpressionElimination,
)
from xdsl.transforms.dead_code_elimination import DeadCodeElimination

from tnpu.ir_helpers import apply_passes
from tnpu.lowering.ttir_to_tile import TTIRToTilePass
from tnpu.passes.decompose_dot_scaled import DecomposeDotScaledPass
from tnpu.passes.inline_calls import InlineCallsPass
from tnpu.passes.lower_libdevice import LowerLibdevicePass
from tnpu.passes.power_of_two_division import PowerOfTwoDivisionPass
from tnpu.passes.strip_gpu_only import StripGpuOnlyPass
from tnpu.passes.structure_early_return import StructureEarlyReturnPass
from tnpu.transforms.fuse_tile_maps import FuseTileMapsPass


@dataclass(frozen=True)
class TnpuToTilePipeline(ModulePass):
    """TTIR to tile IR: strip-gpu-only, lower-libdevice, decompose-dot-scaled, structure-early-return, inline-calls, power-of-two-division, ttir-to-tile, fuse-tile-maps, cse, dce.

    The pipeline `tnpu run` and the backends start from; each step is also a
    pass of its own.  Rewrites whose results must be bit-identical for every
    consumer (power-of-two-division) run here, once, not in a consumer's steps.
    """

    name = "tnpu-to-tile"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_passes(
            ctx,
            op,
            (
                StripGpuOnlyPass(),
                LowerLibdevicePass(),
                DecomposeDotScaledPass(),
                StructureEarlyReturnPass(),
                InlineCallsPass(),
                PowerOfTwoDivisionPass(),
                TTIRToTilePass(),
                DeadCodeElimination(),
                FuseTileMapsPass(),
                CommonSubexpressionElimination(),
                DeadCodeElimination(),
            ),
        )

