"""What a timed launch reports: cycles, bytes, FLOPs, unit usage and two rooflines.

A launch's cycles are its programs' simulated time plus the machine's
`launch_overhead_cycles`, the fixed cost of starting and ending a launch
(docs/timing.md, "A launch's fixed cost"); unit usage is over that whole time.

A roofline of a launch is a time it cannot beat at its machine's peak rates,
the largest of a memory, a matrix and a vector ceiling:

* the **roofline** is the kernel's own: its bytes read and written over the
  DRAM's peak bandwidth; its matmuls' multiply-accumulates over all cores'
  systolic arrays; its vector ops' element operations (each op weighted by
  its issue cycles) over all cores' vector units;
* the **compulsory** roofline is what any kernel computing the same needs:
  every byte of every buffer the launch touches moved once (a buffer read is
  read once, a buffer written is written once: its storage's bytes, or what
  the kernel moves if that is less), and the launch's FLOPs at the peak FLOP
  rate of every systolic array and vector lane (a multiply-add per PE or per
  vector element per cycle).

Both are lower bounds on the simulated time, whatever the schedule: no unit
is busy less than its work at peak rate, and the DRAM never serves faster
than its peak; the compulsory one is never above the kernel's own.
`roofline_ratio` and `compulsory_ratio` are simulated cycles over each, at
least 1; `roofline_bound` and `compulsory_bound` name the ceilings.  The gap
between the two is what the kernel's tiling costs: a GEMM that reloads its
operands for every output tile moves more than its compulsory bytes.

A sequence of launches (an Inductor graph) runs back to back: its cycles,
bytes and FLOPs add up, and so do its launches' rooflines.
"""

from __future__ import annotations

from collections.abc import Mapping
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
    compulsory_cycles: float
    compulsory_bound: str
    compulsory_bytes: int
    """The compulsory roofline's traffic: each buffer read once and written once."""
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
        return _ratio(self.cycles, self.roofline_cycles)

    @property
    def compulsory_ratio(self) -> float | None:
        return _ratio(self.cycles, self.compulsory_cycles)

    @property
    def arithmetic_intensity(self) -> float | None:
        """FLOPs per byte the kernel moves (None when it moves none)."""
        moved = self.bytes_read + self.bytes_written
        return self.flops / moved if moved else None

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
            "compulsory_cycles": round(self.compulsory_cycles, 3),
            "compulsory_bound": self.compulsory_bound,
            "compulsory_ratio": self.compulsory_ratio,
            "compulsory_bytes": self.compulsory_bytes,
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


def _ratio(cycles: float, bound: float) -> float | None:
    """Cycles over a roofline (None for a launch that needs no time at all)."""
    return cycles / bound if bound else None


def _per_second(amount: float, time_us: float) -> float:
    return amount / (time_us * 1e-6) if time_us else 0.0


def roofline(npu: NPUConfig, simulation: Simulation) -> tuple[float, str]:
    """(cycles, ceiling) of the launch's own work at peak rates (module docstring)."""
    return _highest_ceiling(
        npu, simulation.read_bytes + simulation.written_bytes, simulation, "ideal_cycles"
    )


def compulsory_traffic(
    traffic: Mapping[int, tuple[int, int]], buffer_bytes: Mapping[int, int]
) -> int:
    """Bytes moving each buffer once: read if the kernel reads it, written if it writes
    it, never more than the kernel moves (it may touch part of a buffer)."""
    return sum(
        min(read, buffer_bytes.get(buffer, read)) + min(written, buffer_bytes.get(buffer, written))
        for buffer, (read, written) in traffic.items()
    )


def compulsory_roofline(
    npu: NPUConfig, simulation: Simulation, compulsory_bytes: int
) -> tuple[float, str]:
    """(cycles, ceiling) of the compulsory traffic and the launch's FLOPs at peak rates."""
    return _highest_ceiling(npu, compulsory_bytes, simulation, "flop_cycles")


def _highest_ceiling(
    npu: NPUConfig, moved_bytes: int, simulation: Simulation, work: str
) -> tuple[float, str]:
    """The largest of the memory ceiling of `moved_bytes` and the compute ceilings
    of the units' `work` (an attribute of `UnitActivity`), spread over all cores."""
    ceilings = {
        "memory": moved_bytes / npu.dram_bytes_per_cycle,
        "matrix": getattr(simulation.units[Unit.MATRIX], work) / npu.num_cores,
        "vector": getattr(simulation.units[Unit.VECTOR], work) / npu.num_cores,
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
    compulsory_bytes: int,
) -> TimingReport:
    cycles = simulation.cycles + npu.launch_overhead_cycles
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
    compulsory_cycles, compulsory_bound = compulsory_roofline(npu, simulation, compulsory_bytes)
    return TimingReport(
        kernel=kernel,
        npu=npu.name,
        grid=grid,
        double_buffering=double_buffering,
        cycles=cycles,
        time_us=npu.cycles_to_us(cycles),
        roofline_cycles=roofline_cycles,
        roofline_bound=bound,
        compulsory_cycles=compulsory_cycles,
        compulsory_bound=compulsory_bound,
        compulsory_bytes=compulsory_bytes,
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
        return _ratio(self.cycles, self.roofline_cycles)

    @property
    def compulsory_cycles(self) -> float:
        return sum(r.compulsory_cycles for r in self.launches)

    @property
    def compulsory_ratio(self) -> float | None:
        return _ratio(self.cycles, self.compulsory_cycles)

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
            "compulsory_cycles": round(self.compulsory_cycles, 3),
            "compulsory_ratio": self.compulsory_ratio,
            "bytes_read": sum(r.bytes_read for r in self.launches),
            "bytes_written": sum(r.bytes_written for r in self.launches),
            "flops": sum(r.flops for r in self.launches),
            "launches": [r.to_json() for r in self.launches],
        }
