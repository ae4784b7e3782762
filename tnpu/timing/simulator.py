"""An event-driven simulation of a bound TOG on the modeled NPU.

The machine:

* `num_cores` cores; program instances go to them round-robin in launch
  order (x fastest).
* Per core: `dma_engines_per_core` DMA engines sharing one queue of
  transfers, a vector unit and a matrix unit (the core's systolic arrays
  together).  Each unit serves its queue first come, first served; a task
  occupies its unit for its busy cycles and delivers its result `latency`
  cycles later (the units are pipelined).
* DRAM, shared by every engine of every core: the transfers in service share
  its bandwidth equally (processor sharing).  A transfer occupies its
  engine while the DRAM serves its bytes; its data lands `latency` cycles
  after the last byte.  So a core's DMA runs alongside its compute.
* Windows, the scratchpad's double buffering: a loop's iteration `k` starts
  once iteration `k - 2` has finished when two copies of the body's tiles
  fit in the scratchpad (iteration `k + 1`'s loads overlap iteration `k`'s
  compute), else once iteration `k - 1` has (synchronous DMA).  Program
  instances on a core follow the same rule.  An iteration has finished when
  its results are ready and its stores' data has left the scratchpad (the
  writes may still be landing).  `double_buffering=False` makes every
  window one deep.

Loops stay structure: an iteration's tasks are created when its window
opens and dropped when it finishes, so memory holds a few iterations, not
the launch's millions of tasks.
"""

from __future__ import annotations

import heapq
from collections import deque
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tnpu.timing.cost_model import ComputeCost, TransferCost, Unit
from tnpu.timing.launch import BoundLaunch, BranchChoice, LoopRuns, Schedule
from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.tog import BranchNode, LoopNode, Node, TileGraph


@dataclass(frozen=True)
class SimulationOptions:
    double_buffering: bool = True
    """Allow two iterations (and two program instances) in flight when their tiles fit twice."""
    trace: bool = False
    """Record every task's busy interval (for `tnpu.timing.trace`)."""


@dataclass(frozen=True)
class TraceEvent:
    core: int
    track: str
    """`dma0`, `vector`, `matrix`."""
    name: str
    start: float
    duration: float
    instance: int
    iteration: tuple[int, ...]


@dataclass
class UnitActivity:
    """What one kind of unit did, summed over the cores."""

    count: int
    """Units of this kind in the machine."""
    busy_cycles: float = 0.0
    ideal_cycles: float = 0.0
    """The work at peak rate (compute units)."""


@dataclass
class Simulation:
    """The outcome of simulating one launch."""

    cycles: float
    units: dict[Unit, UnitActivity]
    dram_busy_cycles: float
    read_bytes: int
    written_bytes: int
    dram_bytes: int
    flops: int
    trace: list[TraceEvent] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Runtime objects
# ---------------------------------------------------------------------------


class _Task:
    """One node of one frame."""

    __slots__ = (
        "node", "frame", "pending", "on_release", "on_finish", "released", "finished", "left",
    )

    def __init__(self, node: Node, frame: _Frame):
        self.node = node
        self.frame = frame
        self.pending = 0
        self.on_release: list[_Task] = []
        self.on_finish: list[_Task] = []
        self.released = False
        self.finished = False
        self.left = False
        """No longer holds its frame's scratchpad (a store, once its data is read out)."""


class _Frame:
    """One run of a graph: a program instance, a loop iteration, a taken branch."""

    __slots__ = (
        "graph", "schedule", "core", "owner", "index", "tasks", "unfinished", "instance",
        "iteration",
    )

    def __init__(
        self,
        graph: TileGraph,
        schedule: Schedule,
        core: int,
        owner: _Sequence | _Task,
        index: int,
        instance: int,
        iteration: tuple[int, ...],
    ):
        self.graph = graph
        self.index = index
        """Position in the owning sequence."""
        self.schedule = schedule
        self.core = core
        self.owner = owner
        self.instance = instance
        self.iteration = iteration
        self.tasks = [_Task(node, self) for node in graph.nodes]
        self.unfinished = len(self.tasks)


class _Sequence:
    """Frames of one graph run one after another, at most `window` in flight.

    The program instances of a core, or the iterations of one loop.  A frame
    may depend on nodes of the frame before it (a loop's carried values).
    """

    __slots__ = (
        "graph", "schedules", "remaining", "window", "core", "owner", "instance", "prefix",
        "started", "completed", "first_open", "previous",
    )

    def __init__(
        self,
        graph: TileGraph,
        schedules: Iterator[tuple[Schedule, int]],
        total: int,
        window: int,
        core: int,
        owner: _Task | None,
        instance: int,
        prefix: tuple[int, ...],
    ):
        self.graph = graph
        self.schedules = schedules
        """(schedule, instance) of each frame to run, in order."""
        self.remaining = total
        self.window = window
        self.core = core
        self.owner = owner
        self.instance = instance
        self.prefix = prefix
        self.started = 0
        self.completed: set[int] = set()
        self.first_open = 0
        """Every frame before this one has finished."""
        self.previous: _Frame | None = None


class _Engine:
    """A DMA engine: the transfer it serves, if any."""

    __slots__ = ("busy", "core", "index")

    def __init__(self, core: int, index: int):
        self.busy = False
        self.core = core
        self.index = index


class _Transfer:
    __slots__ = ("task", "cost", "remaining", "engine", "start")

    def __init__(self, task: _Task, cost: TransferCost):
        self.task = task
        self.cost = cost
        self.remaining = float(cost.dram_bytes)
        self.engine: _Engine | None = None
        self.start = 0.0


_READY, _RELEASE, _FINISH, _DRAM = range(4)


class Simulator:
    """Simulates bound launches on one NPU."""

    def __init__(self, npu: NPUConfig, options: SimulationOptions = SimulationOptions()):
        self.npu = npu
        self.options = options

    def buffers(self, graph: TileGraph) -> int:
        """How many runs of `graph` may be in flight: 2 if their tiles fit twice."""
        if not self.options.double_buffering:
            return 1
        return 2 if 2 * graph.scratchpad_bytes(2) <= self.npu.scratchpad_bytes else 1

    def run(self, launch: BoundLaunch) -> Simulation:
        return _Run(self, launch).simulate()


class _Run:
    """The state of one simulation."""

    def __init__(self, simulator: Simulator, launch: BoundLaunch):
        npu = simulator.npu
        self.npu = npu
        self.simulator = simulator
        self.launch = launch
        self.trace: list[TraceEvent] | None = [] if simulator.options.trace else None
        self.now = 0.0
        self.events: list[tuple[float, int, int, Any]] = []
        self.sequence_numbers = itertools.count()
        cores = npu.num_cores
        self.unit_free = [{Unit.VECTOR: 0.0, Unit.MATRIX: 0.0} for _ in range(cores)]
        self.activity = {
            Unit.DMA: UnitActivity(cores * npu.dma_engines_per_core),
            Unit.VECTOR: UnitActivity(cores),
            Unit.MATRIX: UnitActivity(cores),
        }
        self.engines = [
            [_Engine(core, i) for i in range(npu.dma_engines_per_core)] for core in range(cores)
        ]
        self.dma_queues: list[deque[_Transfer]] = [deque() for _ in range(cores)]
        self.in_service: list[_Transfer] = []
        self.dram_updated = 0.0
        self.dram_version = 0
        self.dram_busy = 0.0
        self.read_bytes = self.written_bytes = self.dram_bytes = self.flops = 0
        self.buffers: dict[int, int] = {}

    # -- the event loop ----------------------------------------------------

    def push(self, time: float, kind: int, subject: Any) -> None:
        heapq.heappush(self.events, (time, next(self.sequence_numbers), kind, subject))

    def simulate(self) -> Simulation:
        cores = self.npu.num_cores
        runs = self.launch.instance_runs()
        graph = self.launch.tog.graph
        window = self.simulator.buffers(graph)
        for core in range(cores):
            sequence = _Sequence(
                graph, self.instances_of(core, runs), len(range(core, self.launch.launch.instance_count, cores)),
                window, core, None, 0, (),
            )
            self.open_frames(sequence)
        handlers = (self.on_ready, self.on_release, self.on_finish, self.on_dram)
        events = self.events
        while events:
            self.now, _, kind, subject = heapq.heappop(events)
            handlers[kind](subject)
        return Simulation(
            cycles=self.now,
            units=self.activity,
            dram_busy_cycles=self.dram_busy,
            read_bytes=self.read_bytes,
            written_bytes=self.written_bytes,
            dram_bytes=self.dram_bytes,
            flops=self.flops,
            trace=self.trace or [],
        )

    def instances_of(self, core: int, runs: list[tuple[Schedule, int]]) -> Iterator[tuple[Schedule, int]]:
        """The schedules of the program instances `core` runs, round-robin."""
        cores = self.npu.num_cores
        first = 0
        for schedule, count in runs:
            start = first + (core - first) % cores
            for instance in range(start, first + count, cores):
                yield schedule, instance
            first += count

    # -- frames and sequences ----------------------------------------------

    def open_frames(self, sequence: _Sequence) -> None:
        """Start every frame the window allows."""
        while sequence.remaining and sequence.started - sequence.first_open < sequence.window:
            schedule, instance = next(sequence.schedules)
            index = sequence.started
            sequence.started += 1
            sequence.remaining -= 1
            iteration = (*sequence.prefix, index) if sequence.owner is not None else ()
            frame = _Frame(
                sequence.graph, schedule, sequence.core, sequence, index,
                instance if sequence.owner is None else sequence.instance, iteration,
            )
            self.start_frame(frame, sequence.previous)
            sequence.previous = frame

    def start_frame(self, frame: _Frame, previous: _Frame | None) -> None:
        tasks = frame.tasks
        for task in tasks:
            node = task.node
            for dep in node.deps:
                self.wait_for(task, tasks[dep.node], dep.chained)
            if previous is not None:
                for dep in node.carried_deps:
                    self.wait_for(task, previous.tasks[dep.node], dep.chained)
        if not tasks:
            self.frame_finished(frame)
            return
        for task in tasks:
            if task.pending == 0:
                self.push(self.now, _READY, task)

    def wait_for(self, task: _Task, producer: _Task, chained: bool) -> None:
        if producer.finished or (chained and producer.released):
            return
        task.pending += 1
        (producer.on_release if chained else producer.on_finish).append(task)

    def frame_finished(self, frame: _Frame) -> None:
        owner = frame.owner
        if isinstance(owner, _Task):  # a branch
            self.finish(owner)
            return
        owner.completed.add(frame.index)
        while owner.first_open in owner.completed:
            owner.completed.discard(owner.first_open)
            owner.first_open += 1
        if owner.remaining:
            self.open_frames(owner)
        elif owner.first_open == owner.started and owner.owner is not None:
            self.finish(owner.owner)

    # -- tasks -------------------------------------------------------------

    def on_ready(self, task: _Task) -> None:
        node = task.node
        part = task.frame.schedule.parts[node.index]
        if isinstance(node, LoopNode):
            assert isinstance(part, LoopRuns)
            self.start_loop(task, node, part)
        elif isinstance(node, BranchNode):
            assert isinstance(part, BranchChoice)
            frame = task.frame
            branch = _Frame(
                node.branches[part.taken], part.schedule, frame.core, task, 0, frame.instance,
                frame.iteration,
            )
            self.start_frame(branch, None)
        elif node.compute is not None:
            self.start_compute(task, node.compute)
        else:
            self.enqueue_transfer(task, part if part is not None else node.transfer)  # type: ignore[arg-type]

    def start_loop(self, task: _Task, node: LoopNode, runs: LoopRuns) -> None:
        if runs.trip_count == 0:
            self.finish(task)
            return
        if id(node) not in self.buffers:
            self.buffers[id(node)] = self.simulator.buffers(node.body)
        frame = task.frame
        schedules = (
            (schedule, frame.instance) for schedule, count in runs.runs for _ in range(count)
        )
        sequence = _Sequence(
            node.body, schedules, runs.trip_count, self.buffers[id(node)], frame.core, task,
            frame.instance, frame.iteration,
        )
        self.open_frames(sequence)

    def start_compute(self, task: _Task, cost: ComputeCost) -> None:
        core = task.frame.core
        free = self.unit_free[core]
        start = max(self.now, free[cost.unit])
        end = start + cost.busy_cycles
        free[cost.unit] = end
        activity = self.activity[cost.unit]
        activity.busy_cycles += cost.busy_cycles
        activity.ideal_cycles += cost.ideal_cycles
        self.flops += cost.flops
        self.record(task, cost.unit.value, start, cost.busy_cycles)
        self.push(end, _RELEASE, task)
        self.push(end + cost.latency_cycles, _FINISH, task)

    def on_release(self, task: _Task) -> None:
        task.released = True
        waiting, task.on_release = task.on_release, []
        for successor in waiting:
            self.satisfy(successor)

    def on_finish(self, task: _Task) -> None:
        self.finish(task)

    def finish(self, task: _Task) -> None:
        task.released = task.finished = True
        for successor in itertools.chain(task.on_release, task.on_finish):
            self.satisfy(successor)
        task.on_release = task.on_finish = []
        self.leave_frame(task)

    def leave_frame(self, task: _Task) -> None:
        """`task` no longer holds its frame: the frame ends when none does."""
        if task.left:
            return
        task.left = True
        frame = task.frame
        frame.unfinished -= 1
        if frame.unfinished == 0:
            self.frame_finished(frame)

    def satisfy(self, task: _Task) -> None:
        task.pending -= 1
        if task.pending == 0:
            self.push(self.now, _READY, task)

    def record(self, task: _Task, track: str, start: float, duration: float) -> None:
        if self.trace is not None:
            frame = task.frame
            self.trace.append(
                TraceEvent(
                    frame.core, track, task.node.op.name.removeprefix("tile."), start, duration,
                    frame.instance, frame.iteration,
                )
            )

    # -- DMA and DRAM ------------------------------------------------------

    def enqueue_transfer(self, task: _Task, cost: TransferCost) -> None:
        self.read_bytes += cost.read_bytes
        self.written_bytes += cost.written_bytes
        self.dram_bytes += cost.dram_bytes
        if cost.dram_bytes == 0:
            self.finish(task)
            return
        core = task.frame.core
        self.dma_queues[core].append(_Transfer(task, cost))
        self.serve_queue(core)

    def serve_queue(self, core: int) -> None:
        queue = self.dma_queues[core]
        for engine in self.engines[core]:
            if not queue:
                return
            if not engine.busy:
                transfer = queue.popleft()
                engine.busy = True
                transfer.engine = engine
                transfer.start = self.now
                self.advance_dram()
                self.in_service.append(transfer)
                self.schedule_dram()

    def dram_rate(self) -> float:
        """Bytes per cycle each transfer in service receives."""
        return self.npu.dram_bytes_per_cycle / len(self.in_service)

    def advance_dram(self) -> None:
        """Bring every transfer's remaining bytes up to now."""
        elapsed = self.now - self.dram_updated
        if self.in_service and elapsed > 0:
            served = elapsed * self.dram_rate()
            for transfer in self.in_service:
                transfer.remaining -= served
            self.dram_busy += elapsed
        self.dram_updated = self.now

    def schedule_dram(self) -> None:
        self.dram_version += 1
        if self.in_service:
            least = min(t.remaining for t in self.in_service)
            self.push(self.now + max(least, 0.0) / self.dram_rate(), _DRAM, self.dram_version)

    def on_dram(self, version: int) -> None:
        if version != self.dram_version:
            return
        self.advance_dram()
        done = [t for t in self.in_service if t.remaining <= 1e-6 * max(t.cost.dram_bytes, 1)]
        self.in_service = [t for t in self.in_service if t not in done]
        cores = set()
        for transfer in done:
            engine = transfer.engine
            assert engine is not None
            engine.busy = False
            cores.add(engine.core)
            service = self.now - transfer.start
            self.activity[Unit.DMA].busy_cycles += service
            self.record(transfer.task, f"dma{engine.index}", transfer.start, service)
            self.push(self.now + transfer.cost.latency_cycles, _FINISH, transfer.task)
            if transfer.cost.read_bytes == 0:
                # A store's data has left the scratchpad; its frame's window slot
                # need not wait for the write to land.
                self.leave_frame(transfer.task)
        self.schedule_dram()
        for core in sorted(cores):
            self.serve_queue(core)
