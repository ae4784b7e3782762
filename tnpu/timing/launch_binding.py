"""Binding a TOG to a launch: the bytes, trip counts and branches of every program instance.

A compiled kernel is timed for any shape without recompiling: its DMA
bounds and strides, loop bounds and branch conditions are scalar
expressions of the program ids, loop indices and scalar arguments.  They
are evaluated here for the whole launch at once: every scalar is a numpy
array over the launch's *points* (program instances, and loop iterations
for values inside loops, as extra trailing axes), computed by tnpu's numpy
`arith`/`math` evaluators.  Loops without scalar iteration values are
evaluated for all their iterations at once; the others (and `scf.while`)
iteration by iteration, each step still over all instances.

Scalars computed from tile data (a reduction's result, a gathered value)
are unknown before the kernel runs.  A DMA bound or stride that is unknown
takes its most expensive value (the whole tile; every element its own run);
a branch on tile data is timed as taken; an `scf.while` whose condition
depends on tile data runs once (a look-back over earlier programs, which
finished before on an in-order core, succeeds at once); an `scf.for` whose
bounds do is refused.  Each assumption made is reported with its op.

Points whose costs agree share one `Schedule`: the launch-bound part of a
graph's cost (each structured transfer's bytes, each loop's iterations as
runs of equal schedules, each branch's choice).  A launch of a million
program instances with one ragged edge binds to two schedules.

What every launch binds alike is prepared once per TOG, by a
`LaunchBinder`: which op of each block is a node, a scalar to evaluate or
a value no launch knows; the values of constants and of arithmetic on
constants alone, and the bytes of transfers whose bounds are such values;
and which scalar arithmetic no cost depends on (a map's scalar operand, a
load's offset), left unevaluated.  Binding a launch then evaluates only
what the launch decides.
"""

from __future__ import annotations

import functools
import math
from collections import ChainMap
from collections.abc import Callable, Iterable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from xdsl.dialects import scf
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.interpreter import Interpreter
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from tnpu.diagnostics import CompileError, describe_location, text_position
from tnpu.dialects import tile
from tnpu.interpreters.arith import ArithFunctions
from tnpu.interpreters.math import MathFunctions
from tnpu.interpreters.values import as_value
from tnpu.timing.cost_model import TileCostModel, TransferCost
from tnpu.timing.tog import BranchNode, LoopNode, OpNode, TileGraph, TileOperationGraph, transfer_box


class _Unknown:
    """The value of a scalar computed from tile data: unknown before the kernel runs."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()

EVERY_ELEMENT_A_RUN = np.int64(1) << 62
"""The stride taken for an unknown one: it never continues a contiguous run."""

MAX_WHILE_ITERATIONS = 1_000_000


@dataclass(frozen=True)
class Launch:
    """A grid and the kernel's arguments (None for buffers)."""

    grid: tuple[int, int, int]
    arguments: Sequence[int | float | None]
    buffer_bytes: Mapping[int, int] = field(default_factory=dict)
    """Bytes of the storage the launch passes for a buffer, by argument position;
    the compulsory roofline's traffic (a buffer not listed counts what the
    kernel moves)."""

    @property
    def instance_count(self) -> int:
        x, y, z = self.grid
        return x * y * z


@dataclass(frozen=True, eq=False)
class Schedule:
    """The launch-bound costs of one run of a graph, aligned with its nodes.

    Per node: a structured transfer's `TransferCost`; a loop's `LoopRuns`; a
    branch's `BranchChoice`; None where the TOG's node holds the whole cost.
    """

    parts: tuple[TransferCost | LoopRuns | BranchChoice | None, ...]


@dataclass(frozen=True, eq=False)
class LoopRuns:
    """A loop's iterations: runs of consecutive iterations with one schedule."""

    runs: tuple[tuple[Schedule, int], ...]

    @property
    def trip_count(self) -> int:
        return sum(count for _, count in self.runs)


@dataclass(frozen=True, eq=False)
class BranchChoice:
    taken: int
    """0 for the `then` region, 1 for `else`."""
    schedule: Schedule


@dataclass(eq=False)
class BoundLaunch:
    """A TOG with every program instance's schedule."""

    tog: TileOperationGraph
    launch: Launch
    schedules: list[Schedule]
    """The distinct top-level schedules."""
    instance_schedules: np.ndarray
    """Per program instance in launch order (x fastest), an index into `schedules`."""
    assumptions: list[str]
    """Where launch values could not decide a cost, what was assumed (one line each)."""

    def instance_runs(self) -> list[tuple[Schedule, int]]:
        """Runs of consecutive program instances with one schedule, in launch order."""
        return [(self.schedules[i], count) for i, count in run_lengths(self.instance_schedules)]

    def traffic(self) -> dict[int, tuple[int, int]]:
        """Payload bytes (read, written) the launch moves from and to each buffer,
        by argument position."""
        per_run: dict[int, dict[int, np.ndarray]] = {}

        def runs_traffic(graph: TileGraph, runs: Iterable[tuple[Schedule, int]]) -> dict[int, np.ndarray]:
            total: dict[int, np.ndarray] = {}
            for schedule, count in runs:
                for buffer, moved in run_traffic(graph, schedule).items():
                    total[buffer] = total.get(buffer, 0) + count * moved
            return total

        def run_traffic(graph: TileGraph, schedule: Schedule) -> dict[int, np.ndarray]:
            if id(schedule) not in per_run:
                total: dict[int, np.ndarray] = {}
                for node, part in zip(graph.nodes, schedule.parts, strict=True):
                    if isinstance(node, LoopNode):
                        assert isinstance(part, LoopRuns)
                        moved = runs_traffic(node.body, part.runs)
                    elif isinstance(node, BranchNode):
                        assert isinstance(part, BranchChoice)
                        moved = runs_traffic(node.branches[part.taken], [(part.schedule, 1)])
                    else:
                        cost = part if isinstance(part, TransferCost) else node.transfer
                        moved = {} if cost is None else {
                            node.buffer: np.array([cost.read_bytes, cost.written_bytes])
                        }
                    for buffer, bytes_ in moved.items():
                        total[buffer] = total.get(buffer, 0) + bytes_  # pyright: ignore[reportArgumentType, reportCallIssue]
                per_run[id(schedule)] = total
            return per_run[id(schedule)]

        launch = runs_traffic(self.tog.graph, self.instance_runs())
        return {buffer: (int(r), int(w)) for buffer, (r, w) in sorted(launch.items())}


def run_lengths(values: np.ndarray) -> list[tuple[int, int]]:
    """(value, count) for each run of equal consecutive values."""
    if values.size == 0:
        return []
    bounds = [0, *((values[1:] != values[:-1]).nonzero()[0] + 1).tolist(), values.size]
    firsts = values[bounds[:-1]].tolist()
    return [(value, end - start) for value, start, end in zip(firsts, bounds, bounds[1:])]


@functools.cache
def _hash_powers(width: int) -> np.ndarray:
    """The row hash's multiplier of each column."""
    powers = np.full(width, 0x9E3779B97F4A7C15, dtype=np.uint64) ** np.arange(width, dtype=np.uint64)
    powers.flags.writeable = False
    return powers


def distinct_rows(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct rows, each row's index among them) of an integer matrix.

    `np.unique(axis=0)` sorts rows as opaque records, far too slowly for a
    launch's millions of points: rows are grouped by a 64-bit polynomial hash
    instead, and the grouping is checked against the rows themselves (the
    exact sort remains for the collision that never comes).
    """
    count, width = matrix.shape
    if (matrix == matrix[:1]).all():  # the common case, every point alike: nothing to hash
        return matrix[:1], np.zeros(count, dtype=np.int64)
    hashes = matrix.astype(np.uint64) @ _hash_powers(width)  # wraps silently, as arrays do
    _, first, inverse = np.unique(hashes, return_index=True, return_inverse=True)
    if np.array_equal(matrix[first][inverse], matrix):
        return matrix[first], inverse
    rows, inverse = np.unique(matrix, axis=0, return_inverse=True)
    return rows, inverse.ravel()


def _known(*values: Any) -> bool:
    return all(value is not UNKNOWN for value in values)


def _expand(value: Any, ndim: int) -> Any:
    """`value` with trailing axes of size 1 up to `ndim` axes (a loop's axes are trailing)."""
    if value is UNKNOWN or value is None:
        return value
    array = np.asarray(value)
    if array.ndim == ndim:
        return value
    return array.reshape(array.shape + (1,) * (ndim - array.ndim))


Environment = MutableMapping[SSAValue, Any]

Boxes = dict[tuple[object, ...], tuple[np.ndarray, np.ndarray]]
"""The bytes (transferred, DRAM) of the transfers bound in one run of a graph, by `_Transfer.box`."""


# ---------------------------------------------------------------------------
# What every launch binds alike: prepared once per TOG
# ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Evaluate:
    """A scalar op evaluated over the launch's points (UNKNOWN if an operand is)."""

    op: Operation
    operands: tuple[SSAValue, ...]
    results: tuple[SSAValue, ...]


@dataclass(frozen=True, slots=True)
class _GridQuery:
    """`tile.program_id` or `tile.num_programs`."""

    result: SSAValue
    axis: int
    counts_programs: bool
    """`tile.num_programs`: the grid's extent, not each program's position."""


@dataclass(frozen=True, slots=True)
class _Unknowable:
    """An op whose results no launch knows: a tile, a buffer, a unit's result."""

    results: tuple[SSAValue, ...]


@dataclass(frozen=True, slots=True)
class _Forward:
    """`scf.condition`: its values become the after region's arguments."""

    targets: tuple[SSAValue, ...]
    sources: tuple[SSAValue, ...]


@dataclass(frozen=True, slots=True)
class _Transfer:
    """A structured load or store, its bytes bound at every point."""

    node: OpNode
    tile_shape: tuple[int, ...]
    element_bytes: int
    lower: tuple[np.ndarray | SSAValue, ...]
    """Launch-independent bounds and strides as arrays, the others as the values holding them."""
    upper: tuple[np.ndarray | SSAValue, ...]
    strides: tuple[np.ndarray | SSAValue, ...]
    box: tuple[object, ...]
    """The tile, element size, offset, bounds and strides as the kernel writes them, and
    whether a window may apply: the transfers of one run of a graph with one box move
    the same bytes (a kernel's loads and store under one mask), computed once."""
    offset: np.ndarray | SSAValue | None = None
    """A load in the body of a loop bound at once: its offset, for the loop's window
    (`window_transfer_bytes`); None otherwise."""


@dataclass(frozen=True, slots=True)
class _FixedTransfer:
    """A structured load or store whose bounds and strides no launch changes."""

    node: OpNode
    costs: tuple[np.ndarray, np.ndarray]
    """(bytes transferred, DRAM bytes), computed once."""


@dataclass(frozen=True, slots=True)
class _Loop:
    """An `scf.for` or `scf.while`; its body's steps are the body graph's."""

    node: LoopNode
    at_once: bool
    """All iterations in one evaluation, over a new trailing axis (`_iterates_at_once`)."""


@dataclass(frozen=True, slots=True)
class _Branch:
    """An `scf.if`; each region's steps are its graph's."""

    node: BranchNode


_Step = (
    _Evaluate | _GridQuery | _Unknowable | _Forward | _Transfer | _FixedTransfer | _Loop | _Branch
)


def _iterates_at_once(op: Operation) -> bool:
    """Whether a loop's iterations are bound in one evaluation: an `scf.for` carrying
    only tiles (a scalar carried value needs the iteration before it)."""
    return isinstance(op, scf.ForOp) and all(isinstance(t, TensorType) for t in op.iter_args.types)


def _loop_blocks(op: Operation) -> list[Block]:
    if isinstance(op, scf.ForOp):
        return [op.body.block]
    assert isinstance(op, scf.WhileOp)
    return [op.before_region.block, op.after_region.block]


def _yielded(blocks: Iterable[Block]) -> Iterator[SSAValue]:
    """What the terminators of `blocks` pass on."""
    for block in blocks:
        if block.last_op is not None:
            yield from block.last_op.operands


class LaunchBinder:
    """Binds launches of one TOG, having prepared once what every launch binds alike."""

    def __init__(self, tog: TileOperationGraph, cost_model: TileCostModel):
        self.tog = tog
        self.cost_model = cost_model
        self.interpreter = Interpreter(ModuleOp([]))
        self.interpreter.register_implementations(ArithFunctions())
        self.interpreter.register_implementations(MathFunctions())
        self.constants: dict[SSAValue, Any] = {}
        self.steps: dict[TileGraph, tuple[_Step, ...]] = {}
        self.read: set[SSAValue] = set()
        """Values binding reads other than evaluated ops' operands: bounds, strides,
        loop operands, conditions and what loops and branches yield."""
        self.loop_bodies: set[TileGraph] = set()
        """The bodies of the loops bound at once, whose loads may keep a window."""
        self.prepare(tog.graph, [tog.kernel.body.block], ndim=1)
        self.drop_unread_arithmetic()

    def prepare(self, graph: TileGraph, blocks: Sequence[Block], ndim: int) -> None:
        """The steps of `graph` (the ops of `blocks`), bound over `ndim` axes."""
        steps = (self.step(graph, op, ndim) for block in blocks for op in block.ops)
        self.steps[graph] = tuple(step for step in steps if step is not None)

    def step(self, graph: TileGraph, op: Operation, ndim: int) -> _Step | None:
        """What binding `op` takes; None for a terminator or a constant (already evaluated)."""
        node = graph.node_for(op)
        if isinstance(node, LoopNode):
            return self.loop_step(node, ndim)
        if isinstance(node, BranchNode):
            return self.branch_step(node, ndim)
        if isinstance(node, OpNode) and isinstance(op, tile.StructuredTransfer):
            return self.transfer_step(node, op, ndim, windowed=graph in self.loop_bodies)
        if (
            node is not None
            or isinstance(op, tile.BufferCastOp)
            or any(isinstance(t, TensorType) for t in op.result_types)
        ):
            return _Unknowable(tuple(op.results))
        if isinstance(op, scf.ConditionOp):
            after = op.parent_op().after_region.block  # pyright: ignore[reportAttributeAccessIssue, reportOptionalMemberAccess]  # an op inside a region has a parent
            return _Forward(tuple(after.args), tuple(op.args))
        if op.has_trait(IsTerminator):
            return None
        if isinstance(op, tile.ProgramIdOp | tile.NumProgramsOp):
            return _GridQuery(op.result, op.axis.value.data, isinstance(op, tile.NumProgramsOp))
        if all(operand in self.constants for operand in op.operands):
            # No launch changes it: evaluated once, over the axes binding would use.
            inputs = tuple(_expand(self.constants[operand], ndim) for operand in op.operands)
            self.constants.update(zip(op.results, self.interpreter.run_op(op, inputs), strict=True))
            return None
        return _Evaluate(op, tuple(op.operands), tuple(op.results))

    def loop_step(self, node: LoopNode, ndim: int) -> _Loop:
        op = node.op
        blocks = _loop_blocks(op)
        at_once = _iterates_at_once(op)
        if at_once:
            self.loop_bodies.add(node.body)
        self.read.update(op.operands, _yielded(blocks))
        self.prepare(node.body, blocks, ndim + at_once)
        return _Loop(node, at_once)

    def branch_step(self, node: BranchNode, ndim: int) -> _Branch:
        op = node.op
        assert isinstance(op, scf.IfOp)
        self.read.add(op.cond)
        for branch, region in zip(node.branches, (op.true_region, op.false_region)):
            self.read.update(_yielded(region.blocks))
            self.prepare(branch, list(region.blocks), ndim)
        return _Branch(node)

    def transfer_step(
        self, node: OpNode, op: tile.StructuredTransfer, ndim: int, windowed: bool
    ) -> _Transfer | _FixedTransfer:
        lower, upper, strides = (
            [self.launch_independent(item, ndim) for item in items]
            for items in (op.mixed_lower(), op.mixed_upper(), op.mixed_strides())
        )
        shape, element_bytes = tuple(op.tile_type.get_shape()), tile.element_bytes(op.element_type)
        offset = self.launch_independent(op.mixed_offset(), ndim) if windowed and isinstance(op, tile.LoadOp) else None
        launch_bound = [v for v in (*lower, *upper, *strides) if isinstance(v, SSAValue)]
        box = (transfer_box(op), element_bytes, offset is not None)
        if offset is not None:
            self.read.update([*launch_bound, *([offset] if isinstance(offset, SSAValue) else [])])
            return _Transfer(node, shape, element_bytes, tuple(lower), tuple(upper), tuple(strides), box, offset)
        if not launch_bound:
            costs = self.cost_model.structured_transfer_costs(
                shape, element_bytes, lower, upper, strides  # pyright: ignore[reportArgumentType]
            )
            return _FixedTransfer(node, costs)
        self.read.update(launch_bound)
        return _Transfer(node, shape, element_bytes, tuple(lower), tuple(upper), tuple(strides), box)

    def launch_independent(self, item: int | SSAValue, ndim: int) -> np.ndarray | SSAValue:
        """A bound or stride as the array binding reads it, if no launch changes it."""
        if isinstance(item, int):
            return np.asarray(item, np.int64)
        if item in self.constants:
            return np.asarray(_expand(self.constants[item], ndim), np.int64)
        return item

    def drop_unread_arithmetic(self) -> None:
        """Drop the `_Evaluate` steps whose results no cost depends on."""
        producers = {
            result: step
            for steps in self.steps.values()
            for step in steps
            if isinstance(step, _Evaluate)
            for result in step.results
        }
        needed: set[SSAValue] = set()
        pending = list(self.read)
        while pending:
            value = pending.pop()
            if value not in needed:
                needed.add(value)
                if value in producers:
                    pending.extend(producers[value].operands)
        self.steps = {
            graph: tuple(
                step
                for step in steps
                if not isinstance(step, _Evaluate) or not needed.isdisjoint(step.results)
            )
            for graph, steps in self.steps.items()
        }

    def bind(self, launch: Launch) -> BoundLaunch:
        """Every program instance's schedule for `launch`."""
        binding = _Binding(self, launch)
        env: Environment = dict(self.constants)
        for argument, value in zip(self.tog.kernel.args, launch.arguments, strict=True):
            env[argument] = None if value is None else as_value(value, argument.type)
        indices = binding.bind_graph(self.tog.graph, env, (launch.instance_count,))
        used = np.bincount(indices.ravel()).nonzero()[0]  # sorted, without np.unique's sort
        renumber = used.searchsorted(indices)
        return BoundLaunch(
            self.tog, launch, [binding.schedules[i] for i in used], renumber,
            list(binding.assumptions),
        )


# ---------------------------------------------------------------------------
# One launch
# ---------------------------------------------------------------------------


class _Binding:
    """Evaluates a kernel's scalars over one launch's points and interns the schedules."""

    def __init__(self, binder: LaunchBinder, launch: Launch):
        self.binder = binder
        self.cost_model = binder.cost_model
        self.launch = launch
        self.schedules: list[Schedule] = []
        self.loop_runs: list[LoopRuns] = []
        self.even_loops: list[bool] = [False]
        """Per loop bound at once, innermost last: whether every point runs all its iterations."""
        self.interned: dict[tuple[Any, ...], int] = {}
        self.assumptions: dict[str, None] = {}
        """What was assumed where launch values could not decide, one line each (ordered)."""

    def assume(self, op: Operation, assumption: str) -> None:
        position = text_position(op)
        source = describe_location(op.location)
        line = f"{position + ': ' if position else ''}'{op.name}': {assumption}"
        self.assumptions[f"{line} (at {source})" if source else line] = None

    # -- values ------------------------------------------------------------

    def value(self, env: Environment, ssa: SSAValue, ndim: int) -> Any:
        return _expand(env[ssa], ndim)

    def evaluate(self, step: _Evaluate, env: Environment, ndim: int) -> None:
        """A scalar op's results at every point; UNKNOWN if an operand is."""
        inputs = [self.value(env, v, ndim) for v in step.operands]
        if not _known(*inputs):
            env.update(dict.fromkeys(step.results, UNKNOWN))
            return
        results = self.binder.interpreter.run_op(step.op, tuple(inputs))
        env.update(zip(step.results, results, strict=True))

    def grid_value(self, query: _GridQuery) -> Any:
        axis = query.axis
        grid = self.launch.grid
        if query.counts_programs:
            return np.int32(grid[axis])
        instance = np.arange(self.launch.instance_count, dtype=np.int64)
        below = math.prod(grid[:axis])
        return ((instance // below) % grid[axis]).astype(np.int32)

    # -- schedules ---------------------------------------------------------

    def intern(self, key: tuple[Any, ...], make: Callable[[], Any], table: list[Any]) -> int:
        if key not in self.interned:
            self.interned[key] = len(table)
            table.append(make())
        return self.interned[key]

    def bind_graph(self, graph: TileGraph, env: Environment, shape: tuple[int, ...]) -> np.ndarray:
        """Schedule indices, over `shape`, of one run of `graph`."""
        ndim = len(shape)
        columns: dict[int, list[np.ndarray]] = {}
        boxes: Boxes = {}
        for step in self.binder.steps[graph]:
            match step:
                case _Evaluate():
                    self.evaluate(step, env, ndim)
                case _GridQuery():
                    env[step.result] = self.grid_value(step)
                case _Unknowable():
                    env.update(dict.fromkeys(step.results, UNKNOWN))
                case _Forward():
                    env.update(zip(step.targets, (env[v] for v in step.sources), strict=True))
                case _Transfer():
                    env.update(dict.fromkeys(step.node.op.results, UNKNOWN))
                    columns[step.node.index] = list(self.transfer_bytes(step, env, ndim, boxes))
                case _FixedTransfer():
                    env.update(dict.fromkeys(step.node.op.results, UNKNOWN))
                    columns[step.node.index] = list(step.costs)
                case _Loop():
                    env.update(dict.fromkeys(step.node.op.results, UNKNOWN))
                    columns[step.node.index] = [self.bind_loop(step, env, shape)]
                case _Branch():
                    env.update(dict.fromkeys(step.node.op.results, UNKNOWN))
                    columns[step.node.index] = self.bind_branch(step.node, env, shape)
        return self.schedule_indices(graph, columns, shape)

    def schedule_indices(
        self, graph: TileGraph, columns: dict[int, list[np.ndarray]], shape: tuple[int, ...]
    ) -> np.ndarray:
        """Group the points by their columns; one schedule per distinct row."""
        flat = [c for cs in columns.values() for c in cs]
        if not flat:
            index = self.intern((id(graph),), lambda: self.make_schedule(graph, {}), self.schedules)
            return np.full(shape, index, dtype=np.int64)
        matrix = np.empty((*shape, len(flat)), dtype=np.int64)
        for position, column in enumerate(flat):
            matrix[..., position] = column  # broadcast over the points
        rows, inverse = distinct_rows(matrix.reshape(-1, len(flat)))
        indices = np.empty(len(rows), dtype=np.int64)
        for r, row in enumerate(rows.tolist()):
            values, position = {}, 0
            for node_index, cs in columns.items():
                values[node_index] = tuple(row[position : position + len(cs)])
                position += len(cs)
            indices[r] = self.intern(
                (id(graph), tuple(row)),
                lambda: self.make_schedule(graph, values),
                self.schedules,
            )
        return indices[inverse].reshape(shape)

    def make_schedule(self, graph: TileGraph, values: dict[int, tuple[int, ...]]) -> Schedule:
        """`values`: each loop's, branch's and structured transfer's column values."""
        parts: list[TransferCost | LoopRuns | BranchChoice | None] = []
        for node in graph.nodes:
            if node.index not in values:
                parts.append(None)
            elif isinstance(node, LoopNode):
                parts.append(self.loop_runs[values[node.index][0]])
            elif isinstance(node, BranchNode):
                taken, index = values[node.index]
                parts.append(BranchChoice(taken, self.schedules[index]))
            else:
                payload, dram = values[node.index]
                op = node.op
                assert isinstance(op, tile.StructuredTransfer)
                parts.append(self.cost_model.transfer_cost(op, payload, dram))
        return Schedule(tuple(parts))

    # -- DMA ---------------------------------------------------------------

    def transfer_bytes(
        self, step: _Transfer, env: Environment, ndim: int, boxes: Boxes
    ) -> tuple[np.ndarray, np.ndarray]:
        """(bytes transferred, DRAM bytes) at every point, computed once per box in a run."""
        def resolve(
            items: tuple[np.ndarray | SSAValue, ...], unknown: Callable[[int], Any]
        ) -> list[Any]:
            values = [
                item if isinstance(item, np.ndarray) else self.value(env, item, ndim)
                for item in items
            ]
            if not _known(*values):
                self.assume(step.node.op, "its bounds or strides depend on tile data: timed as the "
                            "whole tile, each element a DRAM request")
            return [
                unknown(d) if v is UNKNOWN else np.asarray(v, np.int64)
                for d, v in enumerate(values)
            ]

        lower = resolve(step.lower, lambda d: np.int64(0))
        upper = resolve(step.upper, lambda d: np.int64(step.tile_shape[d]))
        strides = resolve(step.strides, lambda d: EVERY_ELEMENT_A_RUN)
        if step.box not in boxes:
            boxes[step.box] = self.box_bytes(step, env, ndim, lower, upper, strides)
        return boxes[step.box]

    def box_bytes(
        self, step: _Transfer, env: Environment, ndim: int, lower: list[Any], upper: list[Any], strides: list[Any]
    ) -> tuple[np.ndarray, np.ndarray]:
        """`transfer_bytes` once the bounds and strides are resolved."""
        if step.offset is not None and self.even_loops[-1]:
            offset = step.offset if isinstance(step.offset, np.ndarray) else self.value(env, step.offset, ndim)
            if offset is not UNKNOWN:
                return self.cost_model.window_transfer_costs(
                    step.tile_shape, step.element_bytes, np.asarray(offset, np.int64), lower, upper, strides
                )  # fmt: skip
        return self.cost_model.structured_transfer_costs(
            step.tile_shape, step.element_bytes, lower, upper, strides
        )

    # -- structure ---------------------------------------------------------

    def bind_branch(
        self, node: BranchNode, env: Environment, shape: tuple[int, ...]
    ) -> list[np.ndarray]:
        op = node.op
        assert isinstance(op, scf.IfOp)
        condition = self.value(env, op.cond, len(shape))
        if condition is UNKNOWN:
            self.assume(op, "its condition depends on tile data: timed as taken")
            condition = True
        taken = np.where(condition, 0, 1)
        indices, yielded = [], []
        for graph, region in zip(node.branches, (op.true_region, op.false_region)):
            scope: Environment = ChainMap({}, env)
            indices.append(self.bind_graph(graph, scope, shape))
            terminator = region.first_block.last_op if region.first_block else None
            yielded.append([scope[v] for v in terminator.operands] if terminator else [])
        for result, (then_value, else_value) in zip(op.results, zip(*yielded)):
            env[result] = (
                np.where(taken == 0, then_value, else_value)
                if _known(then_value, else_value)
                else UNKNOWN
            )
        return [taken, np.where(taken == 0, indices[0], indices[1])]

    def bind_loop(self, step: _Loop, env: Environment, shape: tuple[int, ...]) -> np.ndarray:
        """Each point's loop runs: an index into `loop_runs`."""
        node, op = step.node, step.node.op
        if step.at_once:
            assert isinstance(op, scf.ForOp)
            indices, trips = self.bind_for_at_once(node, op, env, shape)
        else:
            indices, trips = self.bind_step_by_step(node, env, shape)
        iteration = np.arange(indices.shape[-1])
        indices = np.where(iteration < trips[..., None], indices, -1)
        # Points by iterations; `-1` cannot stand for the points when no point iterates.
        rows, inverse = distinct_rows(indices.reshape(math.prod(shape), indices.shape[-1]))
        runs = np.empty(len(rows), dtype=np.int64)
        for r, row in enumerate(rows):
            pairs = tuple((i, n) for i, n in run_lengths(row) if i >= 0)
            runs[r] = self.intern(
                ("loop", pairs),
                lambda: LoopRuns(tuple((self.schedules[i], n) for i, n in pairs)),
                self.loop_runs,
            )
        return runs[inverse].reshape(shape)

    def trip_counts(self, op: scf.ForOp, env: Environment, shape: tuple[int, ...]) -> tuple[Any, Any, np.ndarray]:
        lower, upper, step = (self.value(env, v, len(shape)) for v in (op.lb, op.ub, op.step))
        if not _known(lower, upper, step):
            raise CompileError(op, "the trip count depends on tile data; the timer needs it from the launch")
        trips = np.maximum(0, -(-(np.asarray(upper, np.int64) - lower) // np.maximum(step, 1)))
        return lower, step, np.broadcast_to(trips, shape)

    def bind_for_at_once(
        self, node: LoopNode, op: scf.ForOp, env: Environment, shape: tuple[int, ...]
    ) -> tuple[np.ndarray, np.ndarray]:
        """All iterations in one evaluation, over a new trailing axis."""
        lower, step, trips = self.trip_counts(op, env, shape)
        longest = int(trips.max(initial=0))
        iteration = np.arange(longest, dtype=np.asarray(lower).dtype)
        index = _expand(lower, len(shape))[..., None] + _expand(step, len(shape))[..., None] * iteration
        block = op.body.block
        scope: Environment = ChainMap(  # pyright: ignore[reportAssignmentType]
            {block.args[0]: as_value(index, op.lb.type)} | dict.fromkeys(block.args[1:], UNKNOWN),
            _ExpandingView(env, len(shape) + 1),  # pyright: ignore[reportArgumentType]
        )
        # A window is shared over the iterations: only where every point runs them all.
        self.even_loops.append(bool((trips == longest).all()))
        try:
            indices = self.bind_graph(node.body, scope, (*shape, longest))
        finally:
            self.even_loops.pop()
        env.update(dict.fromkeys(op.results, UNKNOWN))
        return indices, trips

    def bind_step_by_step(
        self, node: LoopNode, env: Environment, shape: tuple[int, ...]
    ) -> tuple[np.ndarray, np.ndarray]:
        """One iteration at a time (scalar iteration values, `scf.while`)."""
        op = node.op
        ndim = len(shape)
        carried = [self.value(env, v, ndim) for v in op.operands[3 if isinstance(op, scf.ForOp) else 0 :]]
        if isinstance(op, scf.ForOp):
            lower, step, trips = self.trip_counts(op, env, shape)
            limit = int(trips.max(initial=0))
        else:
            assert isinstance(op, scf.WhileOp)
            trips = np.zeros(shape, np.int64)
            limit = MAX_WHILE_ITERATIONS
        terminator = _loop_blocks(op)[-1].last_op
        assert terminator is not None
        active = np.ones(shape, bool)
        steps: list[np.ndarray] = []
        for iteration in range(limit):
            scope: Environment = ChainMap({}, env)
            if isinstance(op, scf.ForOp):
                active = iteration < trips
                scope[op.body.block.args[0]] = as_value(lower + step * iteration, op.lb.type)
                scope.update(zip(op.body.block.args[1:], carried, strict=True))
            else:
                scope.update(zip(op.before_region.block.args, carried, strict=True))
            indices = self.bind_graph(node.body, scope, shape)
            if isinstance(op, scf.WhileOp):
                condition = self.value(scope, op.before_region.block.last_op.condition, ndim)  # pyright: ignore[reportAttributeAccessIssue, reportOptionalMemberAccess]  # a block ends with its terminator
                if condition is UNKNOWN:
                    self.assume(op, "its condition depends on tile data: timed as one iteration")
                    condition = iteration == 0
                active = active & np.asarray(condition, bool)
                if not active.any():
                    break
                trips = trips + active
            steps.append(indices)
            yielded = [scope[v] for v in terminator.operands]
            carried = [
                np.where(active, new, old) if _known(new, old) else UNKNOWN
                for new, old in zip(yielded, carried, strict=True)
            ]
        if isinstance(op, scf.WhileOp) and len(steps) == MAX_WHILE_ITERATIONS:
            raise CompileError(op, f"the loop runs more than {MAX_WHILE_ITERATIONS} iterations")
        env.update(zip(op.results, carried, strict=True))
        stacked = np.stack(steps, axis=-1) if steps else np.zeros((*shape, 0), np.int64)
        return stacked, trips


class _ExpandingView(Mapping[SSAValue, Any]):
    """An enclosing scope seen from a loop body evaluated over one more axis."""

    def __init__(self, outer: Environment, ndim: int):
        self.outer, self.ndim = outer, ndim

    def __getitem__(self, key: SSAValue) -> Any:
        return _expand(self.outer[key], self.ndim)

    def __iter__(self) -> Iterator[SSAValue]:
        return iter(self.outer)

    def __len__(self) -> int:
        return len(self.outer)


def bind_launch(
    tog: TileOperationGraph, cost_model: TileCostModel, launch: Launch
) -> BoundLaunch:
    """Every program instance's schedule for `launch` (a `LaunchBinder` prepares for many)."""
    return LaunchBinder(tog, cost_model).bind(launch)
