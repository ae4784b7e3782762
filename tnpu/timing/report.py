"""What a timed launch reports: cycles, bytes, FLOPs, unit usage and the roofline.

The roofline of a launch is the time it needs at its machine's peak rates:
the larger of

* memory: bytes read and written over the DRAM's peak bandwidth;
* matrix: the matmuls' multiply-accumulates over all cores' systolic arrays;
* vector: the vector ops' element operations (each op weighted by its issue
  cycles) over all cores' vector units.

It is a lower bound on the simulated time, whatever the schedule: no unit
is busy less than its work at peak rate, and the DRAM never serves faster
than its peak.  `roofline_ratio` is simulated cycles over that bound, at
least 1; `roofline_bound` names the ceiling.

A sequence of launches (an Inductor graph) runs back to back: its cycles,
bytes and FLOPs add up, and so do its launches' rooflines.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from tnpu.timing.cost_model import Unit
from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.simulator import Simulation, TraceEvent


@dataclass(frozen=True)
class UnitUsage:
    busy_cycles: float
    utilization: float
    """Busy cycles over the launch's cycles, per unit of this kind (0 to 1)."""


@dataclass
class TimingReport:
    """One launch of one kernel on one NPU."""

    kernel: str
    npu: str
    grid: tuple[int, int, int]
    double_buffering: bool
    cycles: float
    time_us: float
    roofline_cycles: float
    roofline_bound: str
    bytes_read: int
    bytes_written: int
    dram_bytes: int
    """Bytes the DRAM served: whole requests, so at least bytes read plus written."""
    flops: int
    units: dict[str, UnitUsage]
    """`dma`, `vector`, `matrix` (summed over cores) and the shared `dram`."""
    assumptions: list[str] = field(default_factory=list)
    trace: list[TraceEvent] = field(default_factory=list)

    @property
    def roofline_ratio(self) -> float | None:
        return self.cycles / self.roofline_cycles if self.roofline_cycles else None

    @property
    def achieved_bandwidth_gbps(self) -> float:
        return _per_second(self.bytes_read + self.bytes_written, self.time_us) / 1e9

    @property
    def achieved_gflops(self) -> float:
        return _per_second(self.flops, self.time_us) / 1e9

    def to_json(self) -> dict[str, Any]:
        return {
            "kernel": self.kernel,
            "npu": self.npu,
            "grid": list(self.grid),
            "double_buffering": self.double_buffering,
            "cycles": round(self.cycles, 3),
            "time_us": self.time_us,
            "roofline_cycles": round(self.roofline_cycles, 3),
            "roofline_bound": self.roofline_bound,
            "roofline_ratio": self.roofline_ratio,
            "bytes_read": self.bytes_read,
            "bytes_written": self.bytes_written,
            "dram_bytes": self.dram_bytes,
            "flops": self.flops,
            "achieved_bandwidth_gbps": self.achieved_bandwidth_gbps,
            "achieved_gflops": self.achieved_gflops,
            "utilization": {name: usage.utilization for name, usage in self.units.items()},
            "busy_cycles": {name: round(usage.busy_cycles, 3) for name, usage in self.units.items()},
            "assumptions": self.assumptions,
        }


def _per_second(amount: float, time_us: float) -> float:
    return amount / (time_us * 1e-6) if time_us else 0.0


def roofline(npu: NPUConfig, simulation: Simulation) -> tuple[float, str]:
    """(cycles, ceiling) of the launch at peak rates (module docstring)."""
    ceilings = {
        "memory": (simulation.read_bytes + simulation.written_bytes) / npu.dram_bytes_per_cycle,
        "matrix": simulation.units[Unit.MATRIX].ideal_cycles / npu.num_cores,
        "vector": simulation.units[Unit.VECTOR].ideal_cycles / npu.num_cores,
    }
    bound = max(ceilings, key=ceilings.__getitem__)
    return ceilings[bound], bound


def report(
    kernel: str,
    npu: NPUConfig,
    grid: tuple[int, int, int],
    double_buffering: bool,
    simulation: Simulation,
    assumptions: list[str],
) -> TimingReport:
    cycles = simulation.cycles
    units = {
        unit.value: UnitUsage(
            activity.busy_cycles,
            activity.busy_cycles / (cycles * activity.count) if cycles else 0.0,
        )
        for unit, activity in simulation.units.items()
    }
    units["dram"] = UnitUsage(
        simulation.dram_busy_cycles, simulation.dram_busy_cycles / cycles if cycles else 0.0
    )
    roofline_cycles, bound = roofline(npu, simulation)
    return TimingReport(
        kernel=kernel,
        npu=npu.name,
        grid=grid,
        double_buffering=double_buffering,
        cycles=cycles,
        time_us=npu.cycles_to_us(cycles),
        roofline_cycles=roofline_cycles,
        roofline_bound=bound,
        bytes_read=simulation.read_bytes,
        bytes_written=simulation.written_bytes,
        dram_bytes=simulation.dram_bytes,
        flops=simulation.flops,
        units=units,
        assumptions=assumptions,
        trace=simulation.trace,
    )


@dataclass
class SequenceReport:
    """Launches timed in order, each starting when the one before has finished."""

    npu: str
    launches: list[TimingReport]

    @property
    def cycles(self) -> float:
        return sum(r.cycles for r in self.launches)

    @property
    def roofline_cycles(self) -> float:
        return sum(r.roofline_cycles for r in self.launches)

    @property
    def roofline_ratio(self) -> float | None:
        return self.cycles / self.roofline_cycles if self.roofline_cycles else None

    @property
    def time_us(self) -> float:
        return sum(r.time_us for r in self.launches)

    def to_json(self) -> dict[str, Any]:
        return {
            "npu": self.npu,
            "cycles": round(self.cycles, 3),
            "time_us": self.time_us,
            "roofline_cycles": round(self.roofline_cycles, 3),
            "roofline_ratio": self.roofline_ratio,
            "bytes_read": sum(r.bytes_read for r in self.launches),
            "bytes_written": sum(r.bytes_written for r in self.launches),
            "flops": sum(r.flops for r in self.launches),
            "launches": [r.to_json() for r in self.launches],
        }
