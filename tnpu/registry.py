"""The names under which tnpu's dialects, passes, targets and frontends are found.

Each entry is a factory that imports lazily, as xDSL's own registries do, so
that `tnpu-opt --help` does not import every pass.  Add a new pass here.
A lazy import is still an import: naming the compile API's pipelines and the
RISC-V target, the registry sits with the tools, above all it lists
(docs/layers.md).
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.ir import Dialect
from xdsl.passes import ModulePass
from xdsl.utils.frontend import Frontend
from xdsl.utils.target import Target


def _tt() -> Dialect:
    from tnpu.dialects.tt import TT

    return TT


def _ttg() -> Dialect:
    from tnpu.dialects.gpu_only import TTG

    return TTG


def _tile() -> Dialect:
    from tnpu.dialects.tile import Tile

    return Tile


def _rvv() -> Dialect:
    from tnpu.dialects.rvv.ops import RVV

    return RVV


def _rvx() -> Dialect:
    from tnpu.dialects.rvv.rvx import RVX

    return RVX


ALL_DIALECTS: dict[str, Callable[[], Dialect]] = {
    "tt": _tt,
    "ttg": _ttg,
    "tile": _tile,
    "rvv": _rvv,
    "rvx": _rvx,
}


def _strip_gpu_only() -> type[ModulePass]:
    from tnpu.passes.strip_gpu_only import StripGpuOnlyPass

    return StripGpuOnlyPass


def _lower_libdevice() -> type[ModulePass]:
    from tnpu.passes.lower_libdevice import LowerLibdevicePass

    return LowerLibdevicePass


def _decompose_dot_scaled() -> type[ModulePass]:
    from tnpu.passes.decompose_dot_scaled import DecomposeDotScaledPass

    return DecomposeDotScaledPass


def _inline_calls() -> type[ModulePass]:
    from tnpu.passes.inline_calls import InlineCallsPass

    return InlineCallsPass


def _expand_math() -> type[ModulePass]:
    from tnpu.transforms.expand_math import ExpandMathPass

    return ExpandMathPass


def _widen_half_floats() -> type[ModulePass]:
    from tnpu.transforms.widen_half_floats import WidenHalfFloatsPass

    return WidenHalfFloatsPass


def _expand_integer_division() -> type[ModulePass]:
    from tnpu.transforms.expand_integer_division import ExpandIntegerDivisionPass

    return ExpandIntegerDivisionPass


def _hoist_scalar_arith() -> type[ModulePass]:
    from tnpu.transforms.hoist_scalar_arith import HoistScalarArithPass

    return HoistScalarArithPass


def _hoist_map_invariants() -> type[ModulePass]:
    from tnpu.transforms.hoist_map_invariants import HoistMapInvariantsPass

    return HoistMapInvariantsPass


def _recompute_cheap_maps() -> type[ModulePass]:
    from tnpu.transforms.recompute_cheap_maps import RecomputeCheapMapsPass

    return RecomputeCheapMapsPass


def _recognise_combiners() -> type[ModulePass]:
    from tnpu.transforms.recognise_combiners import RecogniseCombinersPass

    return RecogniseCombinersPass


def _welford_to_sums() -> type[ModulePass]:
    from tnpu.transforms.welford_to_sums import WelfordToSumsPass

    return WelfordToSumsPass


def _structure_early_return() -> type[ModulePass]:
    from tnpu.passes.structure_early_return import StructureEarlyReturnPass

    return StructureEarlyReturnPass


def _ttir_to_tile() -> type[ModulePass]:
    from tnpu.lowering.ttir_to_tile import TTIRToTilePass

    return TTIRToTilePass


def _fuse_tile_maps() -> type[ModulePass]:
    from tnpu.transforms.fuse_tile_maps import FuseTileMapsPass

    return FuseTileMapsPass


def _power_of_two_division() -> type[ModulePass]:
    from tnpu.passes.power_of_two_division import PowerOfTwoDivisionPass

    return PowerOfTwoDivisionPass


def _tnpu_to_tile() -> type[ModulePass]:
    from tnpu.compiler.tnpu_to_tile import TnpuToTilePipeline

    return TnpuToTilePipeline


def _tnpu_to_rvv() -> type[ModulePass]:
    from tnpu.compiler.tnpu_to_rvv import TnpuToRvvPipeline

    return TnpuToRvvPipeline


def _tile_to_rvv() -> type[ModulePass]:
    from tnpu.backend_riscv.tile_to_rvv import TileToRvvPass

    return TileToRvvPass


def _rvv_allocate_registers() -> type[ModulePass]:
    from tnpu.backend_riscv.allocate_registers import RvvAllocateRegistersPass

    return RvvAllocateRegistersPass


def _rvv_insert_frame() -> type[ModulePass]:
    from tnpu.backend_riscv.insert_frame import RvvInsertFramePass

    return RvvInsertFramePass


def _tnpu_to_npu() -> type[ModulePass]:
    from tnpu.compiler.tnpu_to_npu import TnpuToNpuPipeline

    return TnpuToNpuPipeline


ALL_PASSES: dict[str, Callable[[], type[ModulePass]]] = {
    "ttir-to-tile": _ttir_to_tile,
    "fuse-tile-maps": _fuse_tile_maps,
    "tnpu-to-tile": _tnpu_to_tile,
    "tnpu-to-rvv": _tnpu_to_rvv,
    "tnpu-to-npu": _tnpu_to_npu,
    "tile-to-rvv": _tile_to_rvv,
    "rvv-allocate-registers": _rvv_allocate_registers,
    "rvv-insert-frame": _rvv_insert_frame,
    "strip-gpu-only": _strip_gpu_only,
    "lower-libdevice": _lower_libdevice,
    "decompose-dot-scaled": _decompose_dot_scaled,
    "structure-early-return": _structure_early_return,
    "inline-calls": _inline_calls,
    "power-of-two-division": _power_of_two_division,
    "expand-math": _expand_math,
    "widen-half-floats": _widen_half_floats,
    "expand-integer-division": _expand_integer_division,
    "recognise-combiners": _recognise_combiners,
    "hoist-scalar-arith": _hoist_scalar_arith,
    "hoist-map-invariants": _hoist_map_invariants,
    "recompute-cheap-maps": _recompute_cheap_maps,
    "welford-to-sums": _welford_to_sums,
}


def _riscv_asm() -> type[Target]:
    from tnpu.backend_riscv.target import RiscvAssemblyTarget

    return RiscvAssemblyTarget


ALL_TARGETS: dict[str, Callable[[], type[Target]]] = {
    "tnpu-riscv-asm": _riscv_asm,
}


def _ttir_frontend() -> type[Frontend]:
    from tnpu.ttir_frontend import TTIRFrontend

    return TTIRFrontend


ALL_FRONTENDS: dict[str, Callable[[], type[Frontend]]] = {
    "ttir": _ttir_frontend,
}
