"""Several programs on one chip: partitions of cores, requests queued on them, the DRAM shared.

The chip's cores are split into partitions (`Chip.partitions`, cores per
partition, in core order).  A partition serves one request at a time, first
come first served across every stream mapped to it, without preemption; a
request runs its program's steps (launches) back to back on the partition's
cores.  Partitions run at once, and their steps contend for the one thing
they share, the DRAM.

The DRAM model, at the granularity of launches: a step first takes its
launch's fixed cost (`Step.fixed_cycles`) at its solo speed, using no DRAM;
its work then needs `dram_demand` of the DRAM's peak bandwidth when alone
(its DRAM time over the work's solo time).
While several steps run, the DRAM's bandwidth is split among them by
max-min fairness (water-filling: a step asking less than an equal share
gets what it asks, the rest split the remainder equally), and a step
progresses at `allocated / demand` of its solo rate, never above 1.  So two
steps that together ask at most the whole bandwidth both run at their solo
speed, and two memory-bound steps each take twice their solo time.  A
shared resource never makes a step faster than alone.

`ChipScheduler` is the engine: `submit` requests (any time at or after the
current one), `run` to a time or until nothing is left; a serving loop can
submit the next request as earlier ones finish.  `simulate` runs streams of
requests with given arrival times to completion.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, field

from tnpu.scheduler.program import Program
from tnpu.timing.npu_config import NPUConfig


class ScheduleError(ValueError):
    """A chip, partition, stream or arrival the scheduler cannot take; the message is one line."""


@dataclass(frozen=True)
class Chip:
    """An NPU split into partitions: `partitions[i]` cores for partition `i`, in core order."""

    npu: NPUConfig
    partitions: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.partitions or any(not isinstance(p, int) or p < 1 for p in self.partitions):
            raise ScheduleError(f"partitions: expected positive numbers of cores, got {list(self.partitions)}")
        if sum(self.partitions) > self.npu.num_cores:
            raise ScheduleError(
                f"partitions: {' + '.join(map(str, self.partitions))} = {sum(self.partitions)} cores asked for, "
                f"and {self.npu.name} has {self.npu.num_cores}"
            )

    def cores(self, partition: int) -> range:
        """The cores of `partition`."""
        first = sum(self.partitions[:partition])
        return range(first, first + self.partitions[partition])


@dataclass
class Request:
    """One run of a program on a partition, from its arrival to its finish (cycles of the chip's clock)."""

    stream: str
    index: int
    """Its number in its stream, from 0."""
    program: Program
    partition: int
    arrival: float
    start: float | None = None
    finish: float | None = None
    step_spans: list[tuple[str, float, float]] = field(default_factory=list)
    """Each step's (name, start, end)."""

    @property
    def latency(self) -> float:
        assert self.finish is not None
        return self.finish - self.arrival

    @property
    def queued(self) -> float:
        assert self.start is not None
        return self.start - self.arrival

    @property
    def service(self) -> float:
        assert self.start is not None and self.finish is not None
        return self.finish - self.start


class _Busy:
    """A partition's request in service: its step, the solo cycles of it left, and of those the
    work's (the rest is the step's fixed cost, taken first)."""

    __slots__ = ("request", "step", "left", "work", "started")

    def __init__(self, request: Request, now: float):
        self.request = request
        self.step = -1
        self.left = self.work = 0.0
        self.started = now

    def begin(self, step: int) -> None:
        current = self.request.program.steps[step]
        self.step, self.left, self.work = step, current.cycles, current.cycles - current.fixed_cycles

    @property
    def fixed_left(self) -> float:
        """Solo cycles of the step's fixed cost still to take (0 once its work has begun)."""
        return max(0.0, self.left - self.work)


def dram_shares(demands: Sequence[float]) -> list[float]:
    """Max-min fair shares of a bandwidth of 1 among steps asking `demands` (each 0 to 1)."""
    shares = [0.0] * len(demands)
    left = 1.0
    order = sorted(range(len(demands)), key=demands.__getitem__)
    for position, index in enumerate(order):
        fair = left / (len(order) - position)
        shares[index] = min(demands[index], fair)
        left -= shares[index]
    return shares


class ChipScheduler:
    """Requests on a partitioned chip, simulated in time (module docstring)."""

    def __init__(self, chip: Chip):
        self.chip = chip
        self.now = 0.0
        self.queues: list[deque[Request]] = [deque() for _ in chip.partitions]
        self.busy: list[_Busy | None] = [None] * len(chip.partitions)
        self.arrivals: list[tuple[float, int, Request]] = []
        self.order = itertools.count()
        self.finished: list[Request] = []
        self.dram_cycles = 0.0
        """DRAM time served so far, at peak bandwidth."""

    def submit(self, stream: str, index: int, program: Program, partition: int, arrival: float) -> Request:
        """A request of `program` on `partition` arriving at `arrival` cycles (not before now)."""
        if not 0 <= partition < len(self.chip.partitions):
            raise ScheduleError(
                f"{stream}: partition {partition} does not exist: the chip has {len(self.chip.partitions)} "
                f"(0 to {len(self.chip.partitions) - 1})"
            )
        if program.cores != self.chip.partitions[partition]:
            raise ScheduleError(
                f"{stream}: {program.name} was timed on {program.cores} cores, "
                f"and partition {partition} has {self.chip.partitions[partition]}"
            )
        if arrival < self.now:
            raise ScheduleError(f"{stream}: request {index} arrives at {arrival} cycles, before now ({self.now})")
        request = Request(stream, index, program, partition, arrival)
        heapq.heappush(self.arrivals, (arrival, next(self.order), request))
        return request

    def idle(self) -> bool:
        return not self.arrivals and all(b is None for b in self.busy) and not any(self.queues)

    def run(self, until: float = float("inf")) -> list[Request]:
        """Simulate to `until` (or until every request has finished); the requests finished meanwhile.
        A time already past runs nothing."""
        done_before = len(self.finished)
        until = max(until, self.now)
        while True:
            self._start_waiting()
            running = [(p, b) for p, b in enumerate(self.busy) if b is not None]
            rates = self._rates([b for _, b in running])
            ends = [self.now + busy.left / rate for (_, busy), rate in zip(running, rates)]
            # A step leaving its fixed cost starts asking for DRAM: the shares change then.
            works_start = [self.now + busy.fixed_left for _, busy in running if busy.fixed_left]
            horizon = min([until, self.arrivals[0][0] if self.arrivals else until, *ends, *works_start])
            if horizon == float("inf"):
                break
            elapsed = horizon - self.now
            for (_, busy), rate in zip(running, rates):
                if busy.fixed_left:  # the fixed cost, at solo speed; snapped to its end against rounding
                    busy.left = busy.work if busy.fixed_left - elapsed <= 1e-9 * busy.left else busy.left - elapsed
                    continue
                busy.left -= rate * elapsed
                self.dram_cycles += rate * elapsed * busy.request.program.steps[busy.step].dram_demand
            self.now = horizon
            for (partition, busy), end in zip(running, ends):
                if end <= horizon or busy.left <= 1e-9 * busy.request.program.steps[busy.step].cycles:
                    self._next_step(partition, busy)
            while self.arrivals and self.arrivals[0][0] <= self.now:
                _, _, request = heapq.heappop(self.arrivals)
                self.queues[request.partition].append(request)
            if self.now >= until and until != float("inf"):
                self._start_waiting()
                break
        return self.finished[done_before:]

    def _rates(self, running: Sequence[_Busy]) -> list[float]:
        """Each running step's speed relative to its solo speed."""
        demands = [0.0 if b.fixed_left else b.request.program.steps[b.step].dram_demand for b in running]
        return [1.0 if demand == 0 else min(1.0, share / demand) for demand, share in zip(demands, dram_shares(demands))]

    def _start_waiting(self) -> None:
        """Give each idle partition the oldest request waiting for it."""
        for partition, queue in enumerate(self.queues):
            while self.busy[partition] is None and queue:
                request = queue.popleft()
                request.start = self.now
                busy = _Busy(request, self.now)
                if request.program.steps:
                    busy.begin(0)
                    self.busy[partition] = busy
                else:
                    self._finish(partition, request)

    def _next_step(self, partition: int, busy: _Busy) -> None:
        request = busy.request
        steps = request.program.steps
        request.step_spans.append((steps[busy.step].name, busy.started, self.now))
        busy.step += 1
        busy.started = self.now
        while busy.step < len(steps) and steps[busy.step].cycles <= 0:
            request.step_spans.append((steps[busy.step].name, self.now, self.now))
            busy.step += 1
        if busy.step == len(steps):
            self.busy[partition] = None
            self._finish(partition, request)
        else:
            busy.begin(busy.step)

    def _finish(self, partition: int, request: Request) -> None:
        request.finish = self.now
        self.finished.append(request)
