"""Timing a kernel or a sequence of them: the entry points of `tnpu.timing`.

    timer = KernelTimer(kernel, load_npu_config("tpuv3"))
    report = timer.time(Launch(grid=(64, 1, 1), arguments=[None, None, None, 16384]))

A `KernelTimer` builds the kernel's TOG and prepares its launch binder
once; each `time` binds a launch and simulates it, so one compiled kernel
is re-timed for every shape.  From TTIR, the compile API builds it:
`tnpu.compile_ttir(ttir).timer(npu)`.
"""

from __future__ import annotations

from collections.abc import Sequence

from tnpu.dialects import tile
from tnpu.timing.cost_model import TileCostModel
from tnpu.timing.launch_binding import BoundLaunch, Launch, LaunchBinder
from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.report import SequenceReport, TimingReport, compulsory_traffic, report
from tnpu.timing.simulator import SimulationOptions, Simulator
from tnpu.timing.tog import TileOperationGraph


class KernelTimer:
    """One compiled `tile.kernel` on one NPU, timed for any launch."""

    def __init__(self, kernel: tile.KernelOp, npu: NPUConfig):
        self.npu = npu
        self.cost_model = TileCostModel(npu)
        self.tog = TileOperationGraph.build(kernel, self.cost_model)
        self.binder = LaunchBinder(self.tog, self.cost_model)

    def bind(self, launch: Launch) -> BoundLaunch:
        return self.binder.bind(launch)

    def time(self, launch: Launch, options: SimulationOptions = SimulationOptions()) -> TimingReport:
        bound = self.bind(launch)
        simulation = Simulator(self.npu, options).run(bound)
        return report(
            self.tog.name, self.npu, launch.grid, options.double_buffering, simulation,
            bound.assumptions, compulsory_traffic(bound.traffic(), launch.buffer_bytes),
        )


def time_sequence(
    launches: Sequence[tuple[KernelTimer, Launch]],
    options: SimulationOptions = SimulationOptions(),
) -> SequenceReport:
    """Launches in order, each after the previous one has finished (kernel boundaries
    are global barriers)."""
    npus = {timer.npu.name for timer, _ in launches}
    assert len(npus) <= 1, "a sequence runs on one NPU"
    return SequenceReport(
        npus.pop() if npus else "", [timer.time(launch, options) for timer, launch in launches]
    )
