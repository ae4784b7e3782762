"""An event-driven simulation of a bound TOG on the modeled NPU.

The machine:

* `num_cores` cores; program instances go to them round-robin in launch
  order (x fastest).
* Per core: a vector unit and a matrix unit (the core's systolic arrays
  together), each serving its tasks first come, first served; a task
  occupies its unit for its busy cycles and delivers its result `latency`
  cycles later (the units are pipelined).
* Per core, `dma_engines_per_core` DMA engines sharing one queue of
  transfers.  An engine is a pipeline: it issues a descriptor in
  `dma_issue_cycles`, then streams the transfer's bytes while the DRAM
  serves them, one transfer at a time, issuing the next descriptor
  meanwhile; the data lands (a write is acknowledged) `latency` cycles
  after the last byte, while the engine streams the next transfers.  An
  engine keeps at most `dma_outstanding_per_engine` transfers in flight,
  from issue until landing.
* DRAM, shared by every engine of every core: the transfers streaming share
  its bandwidth equally (processor sharing), so a core's DMA runs alongside
  its compute and cores compete for bandwidth, not for turns.
* Windows: a loop's iteration `k` starts once iteration `k - depth` has
  finished, the body's depth set by `buffering_depths` (the scratchpad's
  room for the iterations' tiles and the descriptors the DMA keeps in
  flight); program instances on a core likewise.  An iteration has finished
  when its results are ready and its stores' data has left the scratchpad
  (the writes may still be landing).  `double_buffering=False` makes every
  window one deep.

Loops stay structure: an iteration's tasks are created when its window
opens and dropped when it finishes, so memory holds a few iterations, not
the launch's millions of tasks.

Steady state.  Long runs of program instances with one schedule settle into
a periodic regime.  Each time core 0 starts a program, the simulator takes
a signature of its whole state relative to that moment (pending events,
unit, engine and DRAM occupancy, queues, every task in flight, windows);
when two signatures agree, the evolution from one to the next repeats
exactly while the schedules ahead stay the same, so it advances many
periods at once: times shift by the period, counters grow by the period's
increments.  The runs' last few programs are simulated event by event.
"""

from __future__ import annotations

import heapq
import itertools
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from tnpu.timing.cost_model import ComputeCost, TransferCost, Unit
from tnpu.timing.launch_binding import BoundLaunch, BranchChoice, LoopRuns, Schedule
from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.tog import LoopNode, Node, OpNode, TileGraph


@dataclass(frozen=True)
class SimulationOptions:
    double_buffering: bool = True
    """Allow several iterations (and program instances) in flight, as deep as
    `buffering_depths` says; off, one at a time."""
    trace: bool = False
    """Record every task's busy interval (for `tnpu.timing.trace`)."""
    fast_forward: bool = True
    """Skip over the periodic steady state of long runs of equal programs (not when tracing)."""


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
    flop_cycles: float = 0.0
    """The FLOPs at peak FLOP rate (compute units)."""


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
    tasks_simulated: int
    """Tasks simulated event by event (those of fast-forwarded programs are not)."""
    programs_fast_forwarded: int
    trace: list[TraceEvent] = field(default_factory=list)


# ---------------------------------------------------------------------------
# Runtime objects
# ---------------------------------------------------------------------------


class _Task:
    """One node of one frame.

    No reference cycle keeps tasks and frames alive: a frame does not hold its
    tasks (`_Run.active_frames` does while it runs), and a task drops the tasks
    waiting on it once they may start.  So they are freed as the simulation
    goes, not by garbage collections, which walk everything the process holds
    and cost more than simulating a small launch.  The waiting tasks are kept
    in tuples: most tasks have one or none, and `()` allocates nothing.
    """

    __slots__ = (
        "node", "frame", "pending", "on_release", "on_finish", "released", "finished", "left",
    )

    def __init__(self, node: Node, frame: _Frame):
        self.node = node
        self.frame = frame
        self.pending = 0
        self.on_release: tuple[_Task, ...] = ()
        self.on_finish: tuple[_Task, ...] = ()
        self.released = False
        self.finished = False
        self.left = False
        """No longer holds its frame's scratchpad (a store, once its data is read out)."""


class _Frame:
    """One run of a graph: a program instance, a loop iteration, a taken branch."""

    __slots__ = (
        "graph", "schedule", "core", "owner", "index", "instance", "iteration", "path",
        "unfinished",
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
        path: tuple[int, ...],
    ):
        self.graph = graph
        self.schedule = schedule
        self.core = core
        self.owner = owner
        self.index = index
        """Position in the owning sequence."""
        self.instance = instance
        self.iteration = iteration
        self.path = path
        """Where the frame runs in its program, in program order: the enclosing
        loop and branch nodes, each loop's with its iteration."""
        self.unfinished = len(graph.nodes)
        """Tasks still holding the frame (`_Run.leave_frame`)."""


class _Runs:
    """The schedules a sequence's frames follow, in runs of one schedule, taken in order."""

    __slots__ = ("runs", "position", "used")

    def __init__(self, runs: list[tuple[Schedule, int]]):
        self.runs = [run for run in runs if run[1] > 0]
        self.position = 0
        self.used = 0

    def take(self) -> Schedule:
        schedule, count = self.runs[self.position]
        self.used += 1
        if self.used == count:
            self.position, self.used = self.position + 1, 0
        return schedule

    def ahead(self) -> int:
        """Frames left in the current run."""
        if self.position == len(self.runs):
            return 0
        return self.runs[self.position][1] - self.used

    def skip(self, frames: int) -> None:
        assert frames < self.ahead()
        self.used += frames


class _Sequence:
    """Frames of one graph run one after another, at most `window` in flight.

    The program instances of a core, or the iterations of one loop (owned by
    the loop's task).  A frame may depend on nodes of the frame before it
    (a loop's carried values).
    """

    __slots__ = (
        "graph", "runs", "remaining", "window", "core", "owner", "instance", "instance_stride",
        "prefix", "started", "completed", "first_open", "previous", "previous_tasks",
    )

    def __init__(
        self,
        graph: TileGraph,
        runs: _Runs,
        window: int,
        core: int,
        owner: _Task | None,
        instance: int,
        instance_stride: int,
        prefix: tuple[int, ...],
    ):
        self.graph = graph
        self.runs = runs
        self.remaining = sum(count for _, count in runs.runs)
        self.window = window
        self.core = core
        self.owner = owner
        self.instance = instance
        self.instance_stride = instance_stride
        """Frame `k` is program `instance + k * instance_stride` (0 for a loop's iterations)."""
        self.prefix = prefix
        """The loop indices of the enclosing frame."""
        self.started = 0
        self.completed: set[int] = set()
        self.first_open = 0
        """Every frame before this one has finished."""
        self.previous: _Frame | None = None
        self.previous_tasks: list[_Task] = []
        """The tasks of `previous`, which the next frame's carried dependencies wait on."""


class _Engine:
    """A DMA engine: an issue stage, then a stream of one transfer at a time."""

    __slots__ = (
        "core", "index", "activity", "track", "issuing", "issued", "streaming", "outstanding",
    )

    def __init__(self, core: int, index: int, activity: UnitActivity):
        self.core = core
        self.index = index
        self.activity = activity
        """Shared by every engine of every core."""
        self.track = f"dma{index}"
        self.issuing: _Transfer | None = None
        self.issued: deque[_Transfer] = deque()
        """Issued, waiting for the stream."""
        self.streaming: _Transfer | None = None
        self.outstanding = 0
        """Transfers from issue until landing."""


class _ComputeUnit:
    """A core's vector or matrix unit: one task at a time, the oldest ready first."""

    __slots__ = ("free_at", "busy", "ready", "activity", "track")

    def __init__(self, activity: UnitActivity, track: str):
        self.free_at = 0.0
        self.busy = False
        self.ready: list[tuple[tuple[int, ...], int, _Task]] = []
        """A heap of (age, arrival, task): the task of the earliest program instance,
        and in it the earliest in program order, goes first."""
        self.activity = activity
        """Shared by the units of this kind on every core."""
        self.track = track


class _Transfer:
    __slots__ = ("task", "cost", "remaining", "done_below", "engine", "start")

    def __init__(self, task: _Task, cost: TransferCost):
        self.task = task
        self.cost = cost
        self.remaining = float(cost.dram_bytes)
        self.done_below = 1e-6 * max(cost.dram_bytes, 1)
        """Bytes left that count as none: the DRAM's float arithmetic leaves crumbs."""
        self.engine: _Engine | None = None
        self.start = 0.0


_READY, _RELEASE, _FINISH, _DRAM, _ISSUED, _LANDED = range(6)
_TRANSFER_EVENTS = (_ISSUED, _LANDED)
"""Events whose subject is a `_Transfer`; the others' (but `_DRAM`'s) is a `_Task`."""


def buffering_depths(
    graph: TileGraph, npu: NPUConfig, enabled: bool = True
) -> dict[TileGraph, int]:
    """Runs in flight of the kernel's graph (program instances on a core) and of
    each loop body (iterations), keyed by graph.

    A run of graph `g` holds `tiles(g) + Σ depth(body) × tiles(body)` bytes of
    scratchpad and issues `loads(g) + Σ depth(body) × loads(body)` transfers
    into it (loads, gathers, atomics), summing over its loops (a branch counts
    its larger region).  Each depth is as deep as
    * the scratchpad holds: `depth(kernel) × tiles(kernel) ≤ scratchpad`;
    * the DMA keeps transfers in flight: `depth(g) ≤ 1 + ceil(engines ×
      outstanding / loads(g))`, the run computing and as many runs ahead as
      can have their loads outstanding at once (a run's stores come as it
      finishes).
    Depths are chosen innermost loop first, each as deep as both allow with
    the ones chosen before and the others at 1: an inner loop's overlap comes
    at every iteration, a program's only at its ends.  When the kernel's
    tiles do not fit even one deep, or `enabled` is off, every depth is 1:
    synchronous DMA.
    """
    bodies = list(graph.loop_bodies())
    depths = dict.fromkeys([*bodies, graph], 1)

    def footprint() -> int:
        return depths[graph] * graph.holds(depths)[0]

    capacity = npu.scratchpad_bytes
    if not enabled or footprint() > capacity:
        return depths
    descriptors = npu.dma_engines_per_core * npu.dma_outstanding_per_engine
    for run in [*bodies, graph]:
        deepest = 1 + -(-descriptors // max(run.holds(depths)[1], 1))
        one_deep = footprint()  # affine in this depth: the others are fixed
        depths[run] = 2
        per_run = footprint() - one_deep
        depths[run] = min(deepest, 1 + (capacity - one_deep) // per_run) if per_run else deepest
    return depths


class Simulator:
    """Simulates bound launches on one NPU."""

    def __init__(self, npu: NPUConfig, options: SimulationOptions = SimulationOptions()):
        self.npu = npu
        self.options = options

    def depths(self, graph: TileGraph) -> dict[TileGraph, int]:
        """`buffering_depths` of a kernel's graph under these options."""
        return buffering_depths(graph, self.npu, self.options.double_buffering)

    def run(self, launch: BoundLaunch) -> Simulation:
        return _Run(self, launch).simulate()


def core_runs(
    runs: list[tuple[Schedule, int]], core: int, cores: int
) -> list[tuple[Schedule, int]]:
    """The runs of schedules of the programs `core` gets round-robin, in its order."""
    mine: list[tuple[Schedule, int]] = []
    first = 0
    for schedule, count in runs:
        share = len(range(first + (core - first) % cores, first + count, cores))
        if share and mine and mine[-1][0] is schedule:
            mine[-1] = (schedule, mine[-1][1] + share)
        elif share:
            mine.append((schedule, share))
        first += count
    return mine


class _Run:
    """The state of one simulation."""

    def __init__(self, simulator: Simulator, launch: BoundLaunch):
        npu = simulator.npu
        cores = npu.num_cores
        self.npu = npu
        self.simulator = simulator
        self.launch = launch
        self.trace: list[TraceEvent] | None = [] if simulator.options.trace else None
        self.now = 0.0
        self.events: list[tuple[float, int, int, Any]] = []
        self.sequence_numbers = itertools.count()
        self.activity = {
            Unit.DMA: UnitActivity(cores * npu.dma_engines_per_core),
            Unit.VECTOR: UnitActivity(cores),
            Unit.MATRIX: UnitActivity(cores),
        }
        self.compute_units = [
            {
                unit: _ComputeUnit(self.activity[unit], unit.value)
                for unit in (Unit.VECTOR, Unit.MATRIX)
            }
            for _ in range(cores)
        ]
        self.engines = [
            [_Engine(core, i, self.activity[Unit.DMA]) for i in range(npu.dma_engines_per_core)]
            for core in range(cores)
        ]
        self.dma_queues: list[deque[_Transfer]] = [deque() for _ in range(cores)]
        self.in_service: list[_Transfer] = []
        self.dram_updated = 0.0
        self.dram_version = 0
        self.dram_busy = 0.0
        self.read_bytes = self.written_bytes = self.dram_bytes = self.flops = 0
        self.tasks_simulated = 0
        graph = launch.tog.graph
        self.depths = simulator.depths(graph)
        self.active_frames: dict[_Frame, list[_Task]] = {}
        """The frames started and not finished, with their tasks."""
        self.active_loops: set[_Sequence] = set()
        window = self.depths[graph]
        self.programs = [
            _Sequence(graph, _Runs(core_runs(launch.instance_runs(), core, cores)), window, core,
                      None, core, cores, ())
            for core in range(cores)
        ]
        fast_forward = simulator.options.fast_forward and self.trace is None
        self.steady_state = _SteadyState(self) if fast_forward else None
        self.program_started = False
        """Core 0 started a program while handling the current event."""

    # -- the event loop ----------------------------------------------------

    def push(self, time: float, kind: int, subject: Any) -> None:
        heapq.heappush(self.events, (time, next(self.sequence_numbers), kind, subject))

    def simulate(self) -> Simulation:
        for sequence in self.programs:
            self.open_frames(sequence)
        handlers = (
            self.on_ready, self.on_unit_free, self.finish, self.on_dram, self.on_issued,
            self.on_landed,
        )
        events = self.events  # the one heap for the whole run: a jump shifts it in place
        while events:
            self.now, _, kind, subject = heapq.heappop(events)
            handlers[kind](subject)
            if self.program_started:
                self.program_started = False
                if self.steady_state is not None:
                    self.steady_state.observe()
        return Simulation(
            cycles=self.now,
            units=self.activity,
            dram_busy_cycles=self.dram_busy,
            read_bytes=self.read_bytes,
            written_bytes=self.written_bytes,
            dram_bytes=self.dram_bytes,
            flops=self.flops,
            tasks_simulated=self.tasks_simulated,
            programs_fast_forwarded=self.steady_state.skipped if self.steady_state else 0,
            trace=self.trace or [],
        )

    # -- frames and sequences ----------------------------------------------

    def open_frames(self, sequence: _Sequence) -> None:
        """Start every frame the window allows."""
        while sequence.remaining and sequence.started - sequence.first_open < sequence.window:
            index = sequence.started
            sequence.started += 1
            sequence.remaining -= 1
            loop = sequence.owner
            frame = _Frame(
                sequence.graph, sequence.runs.take(), sequence.core, sequence, index,
                sequence.instance + index * sequence.instance_stride,
                () if loop is None else (*sequence.prefix, index),
                () if loop is None else (*loop.frame.path, loop.node.index, index),
            )
            sequence.previous_tasks = self.start_frame(frame, sequence.previous_tasks)
            sequence.previous = frame
            if loop is None and sequence.core == 0:
                self.program_started = True

    def start_frame(self, frame: _Frame, previous: list[_Task]) -> list[_Task]:
        """Create the frame's tasks, waiting on each other and on `previous` (the tasks
        of the frame before it in its sequence, if any); return them."""
        tasks = [_Task(node, frame) for node in frame.graph.nodes]
        self.tasks_simulated += len(tasks)
        if not tasks:
            self.frame_finished(frame)
            return tasks
        self.active_frames[frame] = tasks
        for task in tasks:
            node = task.node
            for dep in node.deps:
                self.wait_for(task, tasks[dep.node], dep.chained)
            if previous:
                for dep in node.carried_deps:
                    self.wait_for(task, previous[dep.node], dep.chained)
            if task.pending == 0:
                self.push(self.now, _READY, task)
        return tasks

    def wait_for(self, task: _Task, producer: _Task, chained: bool) -> None:
        if producer.finished or (chained and producer.released):
            return
        task.pending += 1
        if chained:
            producer.on_release += (task,)
        else:
            producer.on_finish += (task,)

    def frame_finished(self, frame: _Frame) -> None:
        self.active_frames.pop(frame, None)
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
            self.active_loops.discard(owner)
            owner.previous, owner.previous_tasks = None, []  # the last iteration refers back to the loop
            self.finish(owner.owner)

    # -- tasks -------------------------------------------------------------

    def on_ready(self, task: _Task) -> None:
        node = task.node
        part = task.frame.schedule.parts[node.index]
        if isinstance(node, OpNode):
            if node.compute is not None:
                self.start_compute(task, node.compute)
            else:
                self.enqueue_transfer(task, part if part is not None else node.transfer)  # pyright: ignore[reportArgumentType]
        elif isinstance(node, LoopNode):
            assert isinstance(part, LoopRuns)
            self.start_loop(task, node, part)
        else:
            assert isinstance(part, BranchChoice)
            frame = task.frame
            branch = _Frame(
                node.branches[part.taken], part.schedule, frame.core, task, 0, frame.instance,
                frame.iteration, (*frame.path, node.index),
            )
            self.start_frame(branch, [])

    def start_loop(self, task: _Task, node: LoopNode, runs: LoopRuns) -> None:
        if runs.trip_count == 0:
            self.finish(task)
            return
        frame = task.frame
        sequence = _Sequence(
            node.body, _Runs(list(runs.runs)), self.depths[node.body], frame.core, task,
            frame.instance, 0, frame.iteration,
        )
        self.active_loops.add(sequence)
        self.open_frames(sequence)

    def start_compute(self, task: _Task, cost: ComputeCost) -> None:
        unit = self.compute_units[task.frame.core][cost.unit]
        if unit.busy:
            heapq.heappush(unit.ready, (_age(task), next(self.sequence_numbers), task))
        else:
            self.occupy(unit, task, cost)

    def dispatch(self, unit: _ComputeUnit) -> None:
        """Start the oldest ready task if the unit is free."""
        if unit.busy or not unit.ready:
            return
        _, _, task = heapq.heappop(unit.ready)
        self.occupy(unit, task, task.node.compute)  # pyright: ignore[reportArgumentType, reportAttributeAccessIssue]

    def occupy(self, unit: _ComputeUnit, task: _Task, cost: ComputeCost) -> None:
        """`task` takes the free `unit` for its busy cycles."""
        end = self.now + cost.busy_cycles
        unit.busy, unit.free_at = True, end
        unit.activity.busy_cycles += cost.busy_cycles
        unit.activity.ideal_cycles += cost.ideal_cycles
        unit.activity.flop_cycles += cost.flop_cycles
        self.flops += cost.flops
        self.record(task, unit.track, self.now, cost.busy_cycles)
        self.push(end, _RELEASE, task)
        self.push(end + cost.latency_cycles, _FINISH, task)

    def on_unit_free(self, task: _Task) -> None:
        """A compute task has left its unit: the unit takes the next one."""
        self.release(task)
        unit = self.compute_units[task.frame.core][task.node.compute.unit]  # pyright: ignore[reportAttributeAccessIssue, reportOptionalMemberAccess]
        unit.busy = False
        self.dispatch(unit)

    def release(self, task: _Task) -> None:
        """`task` has left its unit: tasks chained to it may start."""
        task.released = True
        waiting, task.on_release = task.on_release, ()
        for successor in waiting:
            self.satisfy(successor)

    def finish(self, task: _Task) -> None:
        task.released = task.finished = True
        for successor in task.on_release:
            self.satisfy(successor)
        for successor in task.on_finish:
            self.satisfy(successor)
        task.on_release = task.on_finish = ()
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
        self.issue(core)

    def issue(self, core: int) -> None:
        """Start issuing the queue's next descriptors on engines free to take one."""
        queue = self.dma_queues[core]
        limit = self.npu.dma_outstanding_per_engine
        for engine in self.engines[core]:
            if not queue:
                return
            if engine.issuing is None and engine.outstanding < limit:
                transfer = queue.popleft()
                transfer.engine = engine
                engine.issuing = transfer
                engine.outstanding += 1
                self.push(self.now + self.npu.dma_issue_cycles, _ISSUED, transfer)

    def on_issued(self, transfer: _Transfer) -> None:
        engine = transfer.engine
        assert engine is not None
        engine.issuing = None
        engine.issued.append(transfer)
        self.stream(engine)
        self.issue(engine.core)

    def stream(self, engine: _Engine) -> None:
        """Start streaming the engine's next issued transfer if it streams none."""
        if engine.streaming is None and engine.issued:
            transfer = engine.issued.popleft()
            engine.streaming = transfer
            transfer.start = self.now
            self.advance_dram()
            self.in_service.append(transfer)
            self.schedule_dram()

    def on_landed(self, transfer: _Transfer) -> None:
        engine = transfer.engine
        assert engine is not None
        engine.outstanding -= 1
        self.finish(transfer.task)
        self.issue(engine.core)

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
        done: list[_Transfer] = []
        streaming: list[_Transfer] = []
        for transfer in self.in_service:
            (done if transfer.remaining <= transfer.done_below else streaming).append(transfer)
        self.in_service = streaming
        for transfer in done:
            engine = transfer.engine
            assert engine is not None
            engine.streaming = None
            service = self.now - transfer.start
            engine.activity.busy_cycles += service
            self.record(transfer.task, engine.track, transfer.start, service)
            self.push(self.now + transfer.cost.latency_cycles, _LANDED, transfer)
            if transfer.cost.read_bytes == 0:
                # A store's data has left the scratchpad: its frame's window slot
                # need not wait for the write to land.
                self.leave_frame(transfer.task)
        self.schedule_dram()
        for transfer in done:
            self.stream(transfer.engine)  # pyright: ignore[reportArgumentType]


# ---------------------------------------------------------------------------
# Steady state
# ---------------------------------------------------------------------------

_DIGITS = 6
"""Relative times and bytes compare rounded: float noise must not hide a period."""


def _age(task: _Task) -> tuple[int, ...]:
    """A compute task's priority: its program instance, then program order."""
    frame = task.frame
    return (frame.instance, *frame.path, task.node.index)


def _event_task(kind: int, subject: Any) -> _Task:
    """The task an event (other than `_DRAM`) is about."""
    return subject.task if kind in _TRANSFER_EVENTS else subject


class _SteadyState:
    """Detects a periodic regime across program starts and jumps over it (module docstring).

    A period may span several program starts (programs in flight finish in
    turns, or in bursts when a unit they share is the bottleneck): the
    signature is compared with the last `history_length` ones, a few
    windows' worth.  A run of programs that shows no period within four
    times that many starts is simulated to its end without further signatures.
    """

    def __init__(self, run: _Run):
        self.run = run
        window = max(s.window for s in run.programs)
        self.history_length = 4 * window + 8
        self.history: deque[tuple[Any, ...]] = deque(maxlen=self.history_length)
        self.looked = 0
        """Signatures taken in the current run of programs."""
        self.skipped = 0
        self.margin = window + 2
        """Programs of a run left to simulate after a jump: the tail's transition."""

    def observe(self) -> None:
        run = self.run
        ahead = min(s.runs.ahead() for s in run.programs)
        if ahead <= 2 * self.margin + self.history_length:
            self.history.clear()
            return
        if any(s.previous.schedule is not s.runs.runs[s.runs.position][0] for s in run.programs):  # pyright: ignore[reportOptionalMemberAccess]
            self.history.clear()  # the programs ahead follow another schedule
            self.looked = 0
            return
        if self.looked >= 4 * self.history_length:
            return
        self.looked += 1
        run.advance_dram()
        current = (
            self.signature(), run.now, self.counters(), [s.started for s in run.programs]
        )
        for earlier in reversed(self.history):
            if earlier[0] != current[0]:
                continue
            starts = {now - before for now, before in zip(current[3], earlier[3])}
            if len(starts) == 1:
                (frames,) = starts
                periods = (ahead - self.margin) // frames
                self.jump(periods, frames, current[1] - earlier[1], [
                    now - before for now, before in zip(current[2], earlier[2])
                ])
                self.history.clear()
                self.looked = 0
                return
        self.history.append(current)

    # -- signature ---------------------------------------------------------

    def frame_key(self, frame: _Frame) -> tuple[int, ...]:
        """A frame's place relative to the programs now starting: flat ints."""
        owner = frame.owner
        if isinstance(owner, _Task):
            return (*self.frame_key(owner.frame), owner.node.index, -1)
        if owner.owner is None:
            return (owner.core, frame.index - owner.started)
        return (*self.frame_key(owner.owner.frame), owner.owner.node.index, frame.index)

    def task_key(self, task: _Task) -> tuple[int, ...]:
        return (*self.frame_key(task.frame), task.node.index)

    def signature(self) -> tuple[Any, ...]:
        run = self.run
        now = run.now

        def relative(time: float) -> float:
            return round(time - now, _DIGITS)

        events = tuple(
            (relative(time), kind, () if kind == _DRAM else self.task_key(_event_task(kind, subject)))
            for time, _, kind, subject in sorted(run.events)
            if kind != _DRAM or subject == run.dram_version
        )
        units = tuple(
            (relative(max(unit.free_at, now)), unit.busy,
             tuple(self.task_key(task) for _, _, task in sorted(unit.ready)))
            for units in run.compute_units
            for unit in units.values()
        )
        queues = tuple(tuple(self.task_key(t.task) for t in queue) for queue in run.dma_queues)
        service = tuple(
            (self.task_key(t.task), t.engine.index, round(t.remaining, _DIGITS), relative(t.start))  # pyright: ignore[reportOptionalMemberAccess]
            for t in run.in_service
        )
        engines = tuple(
            (
                None if e.issuing is None else self.task_key(e.issuing.task),
                tuple(self.task_key(t.task) for t in e.issued),
                None if e.streaming is None else self.task_key(e.streaming.task),
                e.outstanding,
            )
            for engines in run.engines
            for e in engines
        )
        programs = tuple(
            (s.started - s.first_open, tuple(sorted(c - s.started for c in s.completed)))
            for s in run.programs
        )
        loops = tuple(sorted(
            (self.frame_key(s.owner.frame), s.owner.node.index, s.started, s.first_open,  # pyright: ignore[reportOptionalMemberAccess]
             tuple(sorted(s.completed)))
            for s in run.active_loops
        ))
        frames = tuple(sorted(
            (self.frame_key(f), id(f.schedule), f.unfinished, tuple(
                (t.pending, t.released, t.finished, t.left, len(t.on_release), len(t.on_finish))
                for t in tasks
            ))
            for f, tasks in run.active_frames.items()
        ))
        return events, units, queues, service, engines, programs, loops, frames

    def counters(self) -> list[float]:
        run = self.run
        return [
            *(
                value
                for a in run.activity.values()
                for value in (a.busy_cycles, a.ideal_cycles, a.flop_cycles)
            ),
            run.dram_busy, run.read_bytes, run.written_bytes, run.dram_bytes, run.flops,
        ]

    # -- the jump ----------------------------------------------------------

    def jump(self, periods: int, frames: int, period: float, increments: list[float]) -> None:
        """Advance `periods` periods of `frames` programs on every core."""
        run = self.run
        shift = periods * period
        skipped = periods * frames
        in_flight = set(run.active_frames)
        in_flight.update(s.previous for s in run.programs if s.previous is not None)
        in_flight.update(
            _event_task(kind, subject).frame for _, _, kind, subject in run.events if kind != _DRAM
        )
        in_flight.update(t.task.frame for queue in run.dma_queues for t in queue)
        for engines in run.engines:
            for engine in engines:
                held = [engine.issuing, *engine.issued, engine.streaming]
                in_flight.update(t.task.frame for t in held if t is not None)
        cores = run.npu.num_cores
        for frame in in_flight:
            frame.instance += skipped * cores
            if isinstance(frame.owner, _Sequence) and frame.owner.owner is None:
                frame.index += skipped
        for loop in run.active_loops:
            loop.instance += skipped * cores
        for sequence in run.programs:
            sequence.runs.skip(skipped)
            sequence.started += skipped
            sequence.remaining -= skipped
            sequence.first_open += skipped
            sequence.completed = {index + skipped for index in sequence.completed}
        run.events[:] = [(time + shift, number, kind, subject) for time, number, kind, subject in run.events]
        heapq.heapify(run.events)
        for units in run.compute_units:
            for unit in units.values():
                unit.free_at += shift
                unit.ready = [(_age(task), number, task) for _, number, task in unit.ready]
                heapq.heapify(unit.ready)
        for transfer in run.in_service:
            transfer.start += shift
        run.now += shift
        run.dram_updated = run.now
        grown = iter(value + periods * step for value, step in zip(self.counters(), increments))
        for activity in run.activity.values():
            activity.busy_cycles, activity.ideal_cycles = next(grown), next(grown)
            activity.flop_cycles = next(grown)
        run.dram_busy = next(grown)
        run.read_bytes, run.written_bytes, run.dram_bytes, run.flops = (round(v) for v in grown)
        self.skipped += skipped * cores
