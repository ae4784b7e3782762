"""`tnpu-to-rvv`: TTIR to the RISC-V IR (`rvv` and xDSL's `riscv` dialects), before allocation."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tnpu.backend_riscv.target import NATIVE_MATH
from tnpu.backend_riscv.tile_to_rvv import TileToRvvPass
from tnpu.compiler.tnpu_to_tile import TnpuToTilePipeline
from tnpu.ir_helpers import apply_passes
from tnpu.transforms.expand_integer_division import ExpandIntegerDivisionPass
from tnpu.transforms.expand_math import ExpandMathPass
from tnpu.transforms.fuse_tile_maps import FuseTileMapsPass
from tnpu.transforms.hoist_map_invariants import HoistMapInvariantsPass
from tnpu.transforms.hoist_scalar_arith import HoistScalarArithPass
from tnpu.transforms.recognise_combiners import RecogniseCombinersPass
from tnpu.transforms.recompute_cheap_maps import RecomputeCheapMapsPass
from tnpu.transforms.welford_to_sums import WelfordToSumsPass
from tnpu.transforms.widen_half_floats import WidenHalfFloatsPass

RVV_STEPS: tuple[ModulePass, ...] = (
    ExpandMathPass(native=NATIVE_MATH), WidenHalfFloatsPass(), ExpandIntegerDivisionPass(), RecogniseCombinersPass(),
    WelfordToSumsPass(), RecomputeCheapMapsPass(), FuseTileMapsPass(), HoistMapInvariantsPass(), HoistScalarArithPass(),
)  # fmt: skip
"""What the RISC-V target needs after tnpu-to-tile: the math ops RVV lacks expanded,
16-bit float arithmetic computed in f32 (RVV here has none), floor and ceiling
divisions as RVV's truncating ones, Inductor's max/min combiners as the ops
RVV's reduction instructions compute, its Welford reductions as ordered sums, a
cheap map read by several ops computed by each (fused into the maps that read it),
what a map body computes the same for every element out of it, and scalar arithmetic
as early as it can run, so that a store's address is known before its value's
producer."""


@dataclass(frozen=True)
class TnpuToRvvPipeline(ModulePass):
    """TTIR to RISC-V IR: tnpu-to-tile, expand-math (RVV's native set), widen-half-floats,
    expand-integer-division, recognise-combiners, welford-to-sums, recompute-cheap-maps,
    fuse-tile-maps, hoist-map-invariants,
    hoist-scalar-arith, tile-to-rvv.

    Its registers are not allocated yet: `-p tnpu-to-rvv,rvv-allocate-registers`
    shows them allocated, and `-p tnpu-to-rvv -t tnpu-riscv-asm` prints the
    code `tnpu run --exec qemu` runs.  The compile API applies the same tile
    steps (`RVV_STEPS`) to its tile IR, then `tile-to-rvv`.  Refuses what
    its steps refuse: a kernel tnpu-to-tile cannot lower, a math op RVV
    lacks that expand-math cannot expand, an op tile-to-rvv cannot lower.
    """

    name = "tnpu-to-rvv"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        apply_passes(ctx, op, (TnpuToTilePipeline(), *RVV_STEPS, TileToRvvPass()))
