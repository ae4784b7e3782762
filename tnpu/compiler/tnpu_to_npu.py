"""`tnpu-to-npu{config=...}`: TTIR to the tile IR the timer reads for one modeled NPU."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import DiagnosticException

from tnpu.compiler.tnpu_to_tile import TnpuToTilePipeline
from tnpu.diagnostics import one_line
from tnpu.ir_helpers import apply_passes
from tnpu.timing.npu_config import NPUConfig, NPUConfigError, load_npu_config
from tnpu.transforms.expand_math import ExpandMathPass
from tnpu.transforms.recognise_combiners import RecogniseCombinersPass


def native_math(npu: NPUConfig) -> tuple[str, ...]:
    """The part of an NPU's description compilation depends on: the math ops its
    vector unit executes (`exp`, `sqrt`, ...); configurations that agree on it
    share their tile IR."""
    return tuple(sorted(name.removeprefix("math.") for name in npu.vpu_native_math_ops))


def npu_steps(native: tuple[str, ...]) -> tuple[ModulePass, ...]:
    """What an NPU with the `native` math ops needs after tnpu-to-tile: Inductor's
    NaN-propagating max/min combiners as the vector unit's `maximumf`/`minimumf`
    (one op of its table, not four), the math ops it lacks expanded."""
    return (RecogniseCombinersPass(), ExpandMathPass(native=native))


@dataclass(frozen=True)
class TnpuToNpuPipeline(ModulePass):
    """TTIR to tile IR for a modeled NPU: tnpu-to-tile, recognise-combiners, then expand-math
    with the NPU's native set.

    `config` is a preset name (`tpuv3`, `tpuv6e`) or a YAML file, as
    `tnpu time --config` takes; only its `vpu_native_math_ops` matter here.
    The compile API applies the same steps (`npu_steps`) to its tile IR.
    Refuses a configuration that cannot be read (one line), and what its
    steps refuse: a kernel tnpu-to-tile cannot lower, a math op the NPU
    lacks that expand-math cannot expand.
    """

    name = "tnpu-to-npu"

    config: str
    """A preset name or the path of a YAML description."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            npu = load_npu_config(self.config)
        except NPUConfigError as error:
            raise DiagnosticException(f"tnpu-to-npu: config: {one_line(error)}") from None
        apply_passes(ctx, op, (TnpuToTilePipeline(), *npu_steps(native_math(npu))))
