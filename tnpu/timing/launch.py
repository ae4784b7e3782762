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
"""

from __future__ import annotations

from collections import ChainMap
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
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
from tnpu.timing.tog import (
    BranchNode,
    LoopNode,
    TileGraph,
    TileOperationGraph,
    is_free,
)

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


def run_lengths(values: np.ndarray) -> list[tuple[int, int]]:
    """(value, count) for each run of equal consecutive values."""
    if values.size == 0:
        return []
    starts = np.flatnonzero(np.diff(values)) + 1
    bounds = np.concatenate(([0], starts, [values.size]))
    return [(int(values[a]), int(b - a)) for a, b in zip(bounds[:-1], bounds[1:])]


def distinct_rows(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct rows, each row's index among them) of an integer matrix.

    `np.unique(axis=0)` sorts rows as opaque records, far too slowly for a
    launch's millions of points: rows are grouped by a 64-bit polynomial hash
    instead, and the grouping is checked against the rows themselves (the
    exact sort remains for the collision that never comes).
    """
    count, width = matrix.shape
    if width == 0:
        return matrix[:1], np.zeros(count, dtype=np.int64)
    powers = np.full(width, 0x9E3779B97F4A7C15, dtype=np.uint64) ** np.arange(width, dtype=np.uint64)
    with np.errstate(over="ignore"):
        hashes = matrix.astype(np.uint64) @ powers
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


class _Binder:
    """Evaluates a kernel's scalars over a launch's points and interns the schedules."""

    def __init__(self, cost_model: TileCostModel, launch: Launch):
        self.cost_model = cost_model
        self.launch = launch
        self.interpreter = Interpreter(ModuleOp([]))
        self.interpreter.register_implementations(ArithFunctions())
        self.interpreter.register_implementations(MathFunctions())
        self.schedules: list[Schedule] = []
        self.loop_runs: list[LoopRuns] = []
        self.interned: dict[tuple[Any, ...], int] = {}
        self.assumptions: dict[str, None] = {}
        """What was assumed where launch values could not decide, one line each (ordered)."""

    def assume(self, op: Operation, assumption: str) -> None:
        position = text_position(op)
        source = describe_location(op.location)
        line = f"{position + ': ' if position else ''}'{op.name}': {assumption}"
        self.assumptions[f"{line} (at {source})" if source else line] = None

    # -- values ------------------------------------------------------------

    def value(self, env: Environment, ssa: SSAValue | int, ndim: int) -> Any:
        if isinstance(ssa, int):
            return np.int64(ssa)
        return _expand(env[ssa], ndim)

    def evaluate(self, op: Operation, env: Environment, ndim: int) -> None:
        """A free op's results: scalars evaluated, tiles and data-derived scalars UNKNOWN."""
        if isinstance(op, tile.ProgramIdOp | tile.NumProgramsOp):
            env[op.result] = self.grid_value(op)
            return
        if any(isinstance(t, TensorType) for t in op.result_types) or isinstance(
            op, tile.BufferCastOp
        ):
            env.update(dict.fromkeys(op.results, UNKNOWN))
            return
        inputs = [self.value(env, v, ndim) for v in op.operands]
        if not _known(*inputs):
            env.update(dict.fromkeys(op.results, UNKNOWN))
            return
        env.update(zip(op.results, self.interpreter.run_op(op, tuple(inputs)), strict=True))

    def grid_value(self, op: tile.ProgramIdOp | tile.NumProgramsOp) -> Any:
        axis = op.axis.value.data
        grid = self.launch.grid
        if isinstance(op, tile.NumProgramsOp):
            return np.int32(grid[axis])
        instance = np.arange(self.launch.instance_count, dtype=np.int64)
        below = int(np.prod(grid[:axis]))
        return ((instance // below) % grid[axis]).astype(np.int32)

    # -- schedules ---------------------------------------------------------

    def intern(self, key: tuple[Any, ...], make: Callable[[], Any], table: list[Any]) -> int:
        if key not in self.interned:
            self.interned[key] = len(table)
            table.append(make())
        return self.interned[key]

    def bind_graph(
        self, graph: TileGraph, blocks: Sequence[Block], env: Environment, shape: tuple[int, ...]
    ) -> np.ndarray:
        """Schedule indices, over `shape`, of one run of `graph` (the ops of `blocks`)."""
        columns: dict[int, list[np.ndarray]] = {}
        for block in blocks:
            for op in block.ops:
                node = graph.node_for(op) if not is_free(op) else None
                if node is None:
                    if not op.has_trait(IsTerminator):
                        self.evaluate(op, env, len(shape))
                    elif isinstance(op, scf.ConditionOp):
                        after = op.parent_op().after_region.block  # type: ignore[union-attr]
                        env.update(
                            zip(after.args, (env[v] for v in op.args), strict=True)
                        )
                    continue
                env.update(dict.fromkeys(op.results, UNKNOWN))
                if isinstance(node, LoopNode):
                    columns[node.index] = [self.bind_loop(node, env, shape)]
                elif isinstance(node, BranchNode):
                    columns[node.index] = self.bind_branch(node, env, shape)
                elif isinstance(op, tile.StructuredTransfer):
                    columns[node.index] = list(self.transfer_bytes(op, env, len(shape)))
        return self.schedule_indices(graph, columns, shape)

    def schedule_indices(
        self, graph: TileGraph, columns: dict[int, list[np.ndarray]], shape: tuple[int, ...]
    ) -> np.ndarray:
        """Group the points by their columns; one schedule per distinct row."""
        flat = [np.broadcast_to(c, shape).ravel() for cs in columns.values() for c in cs]
        if not flat:
            index = self.intern((id(graph),), lambda: self.make_schedule(graph, {}), self.schedules)
            return np.full(shape, index, dtype=np.int64)
        rows, inverse = distinct_rows(np.stack(flat, axis=1))
        indices = np.empty(len(rows), dtype=np.int64)
        for r, row in enumerate(rows):
            values, position = {}, 0
            for node_index, cs in columns.items():
                values[node_index] = tuple(int(v) for v in row[position : position + len(cs)])
                position += len(cs)
            indices[r] = self.intern(
                (id(graph), tuple(row.tolist())),
                lambda: self.make_schedule(graph, values),
                self.schedules,
            )
        return indices[inverse].reshape(shape)

    def make_schedule(self, graph: TileGraph, values: dict[int, tuple[int, ...]]) -> Schedule:
        parts: list[TransferCost | LoopRuns | BranchChoice | None] = []
        for node in graph.nodes:
            if isinstance(node, LoopNode):
                parts.append(self.loop_runs[values[node.index][0]])
            elif isinstance(node, BranchNode):
                taken, index = values[node.index]
                parts.append(BranchChoice(taken, self.schedules[index]))
            elif isinstance(node.op, tile.StructuredTransfer):
                payload, dram = values[node.index]
                parts.append(self.cost_model.transfer_cost(node.op, payload, dram))
            else:
                parts.append(None)
        return Schedule(tuple(parts))

    # -- DMA ---------------------------------------------------------------

    def transfer_bytes(
        self, op: tile.StructuredTransfer, env: Environment, ndim: int
    ) -> tuple[np.ndarray, np.ndarray]:
        shape = op.tile_type.get_shape()

        def resolve(items: list[int | SSAValue], unknown: Callable[[int], Any]) -> list[Any]:
            values = [self.value(env, item, ndim) for item in items]
            if not _known(*values):
                self.assume(op, "its bounds or strides depend on tile data: timed as the whole tile, "
                            "each element a DRAM request")
            return [
                unknown(d) if v is UNKNOWN else np.asarray(v, np.int64)
                for d, v in enumerate(values)
            ]

        lower = resolve(op.mixed_lower(), lambda d: np.int64(0))
        upper = resolve(op.mixed_upper(), lambda d: np.int64(shape[d]))
        strides = resolve(op.mixed_strides(), lambda d: EVERY_ELEMENT_A_RUN)
        return self.cost_model.structured_transfer_costs(op, lower, upper, strides)

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
            blocks = list(region.blocks)
            indices.append(self.bind_graph(graph, blocks, scope, shape))
            terminator = blocks[0].last_op if blocks else None
            yielded.append([scope[v] for v in terminator.operands] if terminator else [])
        for result, (then_value, else_value) in zip(op.results, zip(*yielded)):
            env[result] = (
                np.where(taken == 0, then_value, else_value)
                if _known(then_value, else_value)
                else UNKNOWN
            )
        return [taken, np.where(taken == 0, indices[0], indices[1])]

    def bind_loop(self, node: LoopNode, env: Environment, shape: tuple[int, ...]) -> np.ndarray:
        """Each point's loop runs: an index into `loop_runs`."""
        op = node.op
        if isinstance(op, scf.ForOp) and not any(
            not isinstance(t, TensorType) for t in op.iter_args.types
        ):
            indices, trips = self.bind_for_at_once(node, op, env, shape)
        else:
            indices, trips = self.bind_step_by_step(node, env, shape)
        iteration = np.arange(indices.shape[-1])
        indices = np.where(iteration < trips[..., None], indices, -1)
        rows, inverse = distinct_rows(indices.reshape(-1, indices.shape[-1]))
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
        scope: Environment = ChainMap(
            {block.args[0]: as_value(index, op.lb.type)} | dict.fromkeys(block.args[1:], UNKNOWN),
            _ExpandingView(env, len(shape) + 1),
        )
        indices = self.bind_graph(node.body, [block], scope, (*shape, longest))
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
            blocks = [op.body.block]
        else:
            assert isinstance(op, scf.WhileOp)
            trips = np.zeros(shape, np.int64)
            limit = MAX_WHILE_ITERATIONS
            blocks = [op.before_region.block, op.after_region.block]
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
            indices = self.bind_graph(node.body, blocks, scope, shape)
            if isinstance(op, scf.WhileOp):
                condition = self.value(scope, op.before_region.block.last_op.condition, ndim)  # type: ignore[union-attr]
                if condition is UNKNOWN:
                    self.assume(op, "its condition depends on tile data: timed as one iteration")
                    condition = iteration == 0
                active = active & np.asarray(condition, bool)
                if not active.any():
                    break
                trips = trips + active
            steps.append(indices)
            yielded = [scope[v] for v in blocks[-1].last_op.operands]  # type: ignore[union-attr]
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
    """Every program instance's schedule for `launch`."""
    binder = _Binder(cost_model, launch)
    kernel = tog.kernel
    env: Environment = {}
    for argument, value in zip(kernel.args, launch.arguments, strict=True):
        env[argument] = None if value is None else as_value(value, argument.type)
    indices = binder.bind_graph(tog.graph, [kernel.body.block], env, (launch.instance_count,))
    used = np.unique(indices)
    renumber = np.searchsorted(used, indices)
    return BoundLaunch(
        tog, launch, [binder.schedules[i] for i in used], renumber, list(binder.assumptions)
    )
