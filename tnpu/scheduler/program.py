"""A program as the chip's scheduler sees it: its launches, each timed alone on a partition.

A compiled graph is a sequence of kernel launches, each starting when the
previous one has finished (docs/timing.md).  On a partition of `k` cores a
launch is simulated on the chip's NPU with `num_cores = k` (`partition_npu`):
its program instances spread over those cores, the whole DRAM its own.  What
the scheduler keeps of each launch is a `Step`: its solo cycles, the DRAM
time it needs at peak bandwidth, its units' busy cycles, and the part of its
time that is the launch's fixed cost (the NPU's `launch_overhead_cycles`,
docs/timing.md), which uses no DRAM.  When steps of several partitions
overlap in time, `chip.ChipScheduler` shares the DRAM between them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from tnpu.timing.launch_binding import Launch
from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.report import TimingReport


class Timeable(Protocol):
    """What times a kernel on an NPU: the compile API's `Kernel` (`kernel.timer(npu)`)."""

    def timer(self, npu: NPUConfig) -> _Timer: ...


class _Timer(Protocol):
    def time(self, launch: Launch) -> TimingReport: ...


@dataclass(frozen=True)
class Step:
    """One launch of a program, timed alone on its partition."""

    name: str
    cycles: float
    """Its solo time on the partition, in the chip's clock."""
    dram_cycles: float = 0.0
    """The DRAM time its requests take at the chip's peak bandwidth (`dram_bytes / bytes per cycle`);
    at most `cycles`."""
    matrix_busy_cycles: float = 0.0
    """Its systolic arrays' busy cycles, summed over the partition's cores."""
    vector_busy_cycles: float = 0.0
    fixed_cycles: float = 0.0
    """The launch's fixed cost, part of `cycles`: taken first, using no DRAM."""

    @property
    def dram_demand(self) -> float:
        """The share of the DRAM's peak bandwidth its work uses alone, averaged over the time of
        the work, after the fixed cost (0 to 1)."""
        work = self.cycles - self.fixed_cycles
        return min(1.0, self.dram_cycles / work) if work > 0 else 0.0


@dataclass(frozen=True)
class Program:
    """A compiled program (a graph's launches, in order) timed on a partition of `cores` cores."""

    name: str
    steps: tuple[Step, ...]
    cores: int = 1

    @property
    def solo_cycles(self) -> float:
        """Its time alone on its partition: its steps back to back."""
        return sum(step.cycles for step in self.steps)


def partition_npu(npu: NPUConfig, cores: int) -> NPUConfig:
    """The chip's NPU with `cores` of its cores: a partition, sharing the chip's whole DRAM."""
    return dataclasses.replace(npu, num_cores=cores, name=f"{npu.name}[{cores} of {npu.num_cores} cores]")


def step_of(name: str, report: TimingReport, npu: NPUConfig) -> Step:
    """A launch's report as a `Step` on `npu` (the partition it was timed on)."""
    fixed = min(report.cycles, npu.launch_overhead_cycles)
    return Step(
        name, report.cycles, min(report.cycles - fixed, report.dram_bytes / npu.dram_bytes_per_cycle),
        report.units["matrix"].busy_cycles, report.units["vector"].busy_cycles, fixed,
    )


def time_program(
    name: str, launches: Sequence[tuple[str, Timeable, Launch]], npu: NPUConfig, cores: int
) -> Program:
    """Time each `(name, kernel, launch)` alone on a partition of `cores` of `npu`'s cores."""
    partition = partition_npu(npu, cores)
    steps = tuple(step_of(step, kernel.timer(partition).time(launch), partition) for step, kernel, launch in launches)
    return Program(name, steps, cores)
