"""The tile-operation graph (TOG): what one program instance asks of the NPU's units.

Built once per compiled kernel and NPU, from the `tile.kernel`:

* one `OpNode` per DMA transfer (`load`, `store`, `gather`, `scatter`,
  atomics), per vector op and per matrix op;
* edges (`Dependency`) for the tiles and scalars one node reads from another;
  scalar arithmetic, `tile.reshape` and other free ops pass their operands'
  producers on, so an edge may stand for a chain of them;
* loops and branches as structure: a `LoopNode` holds its body as a graph
  that runs once per iteration, so a loop of a million iterations is one
  node and its body; a `BranchNode` holds one graph per region of an
  `scf.if`.  A body node may depend on nodes of the previous iteration
  (`carried_deps`), through the loop's iteration values;
* memory-ordering edges between accesses to a buffer the kernel both reads
  and writes (`_MemoryOrder`): a later access waits until an earlier one it
  conflicts with has finished, in the same run and in the run before (the
  previous iteration of a loop, the previous program instance on the core).

Compute nodes carry their cost: tile shapes are static.  A structured DMA's
bytes depend on its bounds and strides, known only at launch:
`tnpu.timing.launch_binding` evaluates them for every program instance and
iteration, then the simulator runs the graph.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from tnpu.diagnostics import CompileError
from tnpu.dialects import tile
from tnpu.timing.cost_model import ComputeCost, TileCostModel, TransferCost, Unit

FREE_TILE_OPS = (tile.ReshapeOp, tile.ProgramIdOp, tile.NumProgramsOp, tile.BufferCastOp)
"""Tile ops that occupy no unit: a reshape renames a tile, the others are scalars."""

VECTOR_OPS = (
    tile.MapOp,
    tile.ReduceOp,
    tile.ScanOp,
    tile.BroadcastOp,
    tile.IotaOp,
    tile.TransposeOp,
    tile.TakeOp,
    tile.AssertOp,
)


READ, WRITE, ATOMIC = "read", "write", "atomic"
"""How a node accesses a buffer: loads and gathers read, stores and scatters
write, atomics do both at the memory."""


@dataclass(frozen=True)
class Dependency:
    """An edge from the node at `node` (an index in the same graph)."""

    node: int
    chained: bool = False
    """Satisfied when the producer releases its unit rather than when its result
    is ready: a matmul accumulating into the previous matmul's accumulator
    streams right behind it (the partial sums stay in the array's accumulators)."""


@dataclass(eq=False)
class OpNode:
    """A DMA transfer, vector op or matrix op."""

    index: int
    op: Operation
    unit: Unit
    deps: tuple[Dependency, ...]
    carried_deps: tuple[Dependency, ...] = ()
    """On nodes of the previous iteration of the enclosing loop."""
    compute: ComputeCost | None = None
    """Vector and matrix ops: fixed by the tile shapes."""
    transfer: TransferCost | None = None
    """Gathers, scatters and atomics: fixed by the index tile's shape.  A
    structured load or store has none: its bytes depend on the launch."""
    buffer: int | None = None
    """DMA nodes: the kernel argument (its position) of the buffer accessed."""


@dataclass(eq=False)
class LoopNode:
    """An `scf.for` or `scf.while`: its body runs once per iteration."""

    index: int
    op: Operation
    deps: tuple[Dependency, ...]
    body: TileGraph
    carried_deps: tuple[Dependency, ...] = ()


@dataclass(eq=False)
class BranchNode:
    """An `scf.if`: one graph per region; the launch decides which runs."""

    index: int
    op: Operation
    deps: tuple[Dependency, ...]
    branches: tuple[TileGraph, ...]
    carried_deps: tuple[Dependency, ...] = ()


Node = OpNode | LoopNode | BranchNode


@dataclass(eq=False)
class TileGraph:
    """The nodes of one block, in program order (a topological order)."""

    nodes: list[Node] = field(default_factory=list)
    tile_bytes: int = 0
    """Scratchpad bytes of the tiles this block's ops define (nested blocks not included)."""
    loads: int = 0
    """DMA transfers into the scratchpad this block's nodes issue: loads, gathers and
    atomics, not stores or scatters (nested blocks not included)."""
    accesses: dict[int, frozenset[str]] = field(default_factory=dict)
    """How one run accesses each buffer that needs memory ordering (nested runs included)."""

    def node_for(self, op: Operation) -> Node | None:
        return self._nodes_by_op.get(op)

    @cached_property
    def _nodes_by_op(self) -> dict[Operation, Node]:
        return {node.op: node for node in self.nodes}

    def holds(self, depths: Mapping[TileGraph, int]) -> tuple[int, int]:
        """(scratchpad bytes, DMA transfers into the scratchpad) of one run, each loop
        body counted `depths[body]` times (its iterations in flight), a branch its
        larger region (transfers in: `loads`)."""
        tiles, loads = self.tile_bytes, self.loads
        for node in self.nodes:
            if isinstance(node, LoopNode):
                body_tiles, body_loads = node.body.holds(depths)
                tiles += depths[node.body] * body_tiles
                loads += depths[node.body] * body_loads
            elif isinstance(node, BranchNode):
                held = [graph.holds(depths) for graph in node.branches]
                tiles += max(t for t, _ in held)
                loads += max(n for _, n in held)
        return tiles, loads

    def loop_bodies(self) -> Iterator[TileGraph]:
        """The bodies of every loop in this graph, nested ones first (post-order)."""
        for node in self.nodes:
            graphs = (node.body,) if isinstance(node, LoopNode) else (
                node.branches if isinstance(node, BranchNode) else ()
            )
            for graph in graphs:
                yield from graph.loop_bodies()
            if isinstance(node, LoopNode):
                yield node.body


@dataclass(eq=False)
class TileOperationGraph:
    """The TOG of one `tile.kernel`."""

    kernel: tile.KernelOp
    graph: TileGraph

    @staticmethod
    def build(kernel: tile.KernelOp, cost_model: TileCostModel) -> TileOperationGraph:
        order = _MemoryOrder.of(kernel)
        builder = _GraphBuilder(cost_model, order)
        graph = builder.build(kernel.body.block)
        builder.order_runs(exempt=order.own_box_buffers)
        return TileOperationGraph(kernel, graph)

    @property
    def name(self) -> str:
        return self.kernel.sym_name.data


def _tile_bytes(value: SSAValue) -> int:
    type_ = value.type
    if not isinstance(type_, TensorType):
        return 0
    return tile.element_count(type_) * tile.element_bytes(type_.element_type)


def transfer_box(op: tile.StructuredTransfer) -> tuple[object, ...]:
    """What decides which elements a load or store touches, as SSA values and constants."""
    return (
        op.mixed_offset(), tuple(op.mixed_strides()), tuple(op.mixed_lower()),
        tuple(op.mixed_upper()), tuple(op.tile_type.get_shape()),
    )


def _accesses(op: Operation) -> tuple[SSAValue, str] | None:
    """(buffer, how) of a DMA op: loads and gathers read, stores and scatters write."""
    if isinstance(op, tile.LoadOp | tile.GatherOp):
        return op.buffer, READ
    if isinstance(op, tile.StoreOp | tile.ScatterOp):
        return op.buffer, WRITE
    if isinstance(op, tile.AtomicRMWOp | tile.AtomicCASOp):
        return op.buffer, ATOMIC
    return None


def _conflict(before: frozenset[str], after: frozenset[str]) -> bool:
    """Whether two accesses to one buffer keep their order: unless both only read, or
    both are atomics (the memory performs those one at a time, in either order)."""
    return not (before | after <= {READ} or before == after == {ATOMIC})


@dataclass(frozen=True)
class _MemoryOrder:
    """Which buffers of a kernel need memory-ordering edges.

    Buffers are kernel arguments (through `tile.buffer_cast`); distinct
    arguments are taken not to overlap (Inductor passes a buffer it updates
    in place once, as `in_out_ptr`).  Only a buffer the kernel both reads
    and writes has hazards.
    """

    arguments: Mapping[SSAValue, int]
    """Kernel argument -> position."""
    ordered: frozenset[int]
    """Buffers read and written by the kernel."""
    own_box_buffers: frozenset[int]
    """Ordered buffers every access of which is a load or store of one and the
    same box: each program instance reads only what it writes itself, so
    instances need no order between them (were two instances' boxes to
    overlap, both would write the overlap unordered: a race in Triton)."""

    @staticmethod
    def of(kernel: tile.KernelOp) -> _MemoryOrder:
        arguments = {arg: position for position, arg in enumerate(kernel.args)}
        kinds: dict[int, set[str]] = {}
        boxes: dict[int, set[tuple[object, ...] | None]] = {}
        for op in kernel.walk():
            access = _accesses(op)
            if access is None:
                continue
            buffer = _argument_position(arguments, op)
            kinds.setdefault(buffer, set()).add(access[1])
            box = transfer_box(op) if isinstance(op, tile.StructuredTransfer) else None
            boxes.setdefault(buffer, set()).add(box)
        ordered = frozenset(b for b, how in kinds.items() if how != {READ} and how != {WRITE})
        own_box = frozenset(
            b for b in ordered if len(boxes[b]) == 1 and None not in boxes[b]
        )
        return _MemoryOrder(arguments, ordered, own_box)

    def buffer_of(self, op: Operation) -> int:
        return _argument_position(self.arguments, op)


def _argument_position(arguments: Mapping[SSAValue, int], op: Operation) -> int:
    """The position of the kernel argument a DMA op's buffer views (through
    `tile.buffer_cast`); `CompileError` if the buffer comes from elsewhere."""
    access = _accesses(op)
    assert access is not None
    value = access[0]
    while isinstance(value.owner, tile.BufferCastOp):
        value = value.owner.source
    if value not in arguments:
        raise CompileError(
            op, "the timer orders accesses by kernel argument, and this buffer is not one "
            "(nor a tile.buffer_cast of one)"
        )
    return arguments[value]


def _inputs(op: Operation) -> list[SSAValue]:
    """Values `op` reads: its operands and what its regions use from outside it."""
    inputs = list(op.operands)
    for inner in op.walk():
        if inner is op:
            continue
        inputs.extend(v for v in inner.operands if not op.is_ancestor(_owner_op(v)))
    return inputs


def _owner_op(value: SSAValue) -> Operation:
    """The op defining `value`, or the op whose region holds the block defining it."""
    owner = value.owner
    if isinstance(owner, Block):
        parent = owner.parent_op()
        assert parent is not None
        return parent
    return owner


class _GraphBuilder:
    """Builds the graph of one block, tracking which nodes produce each value."""

    def __init__(
        self,
        cost_model: TileCostModel,
        order: _MemoryOrder,
        iteration_values: Sequence[SSAValue] = (),
    ):
        self.cost_model = cost_model
        self.order = order
        self.graph = TileGraph()
        self.accessing: list[tuple[int, Mapping[int, frozenset[str]]]] = []
        """(node, how it accesses each ordered buffer), in program order."""
        self.producers: dict[SSAValue, frozenset[int]] = {}
        """Value -> nodes of this graph it derives from."""
        self.carried: dict[SSAValue, frozenset[int]] = {
            value: frozenset({position}) for position, value in enumerate(iteration_values)
        }
        """Value -> positions of the loop's iteration values it derives from."""
        self.carried_uses: dict[int, list[tuple[frozenset[int], bool]]] = {}
        """Node -> (iteration-value positions it reads, whether as a matmul accumulator)."""

    def build(self, block: Block) -> TileGraph:
        for op in block.ops:
            self.add(op)
        return self.graph

    def forward(self, targets: Sequence[SSAValue], sources: Sequence[SSAValue]) -> None:
        """Block arguments `targets` receive `sources` (`scf.condition` to the after region)."""
        for target, source in zip(targets, sources, strict=True):
            self.producers[target] = self.producers.get(source, frozenset())
            self.carried[target] = self.carried.get(source, frozenset())

    def sources(self, values: Iterable[SSAValue]) -> tuple[frozenset[int], frozenset[int]]:
        """(nodes, iteration-value positions) that `values` derive from."""
        nodes: set[int] = set()
        positions: set[int] = set()
        for value in values:
            nodes |= self.producers.get(value, frozenset())
            positions |= self.carried.get(value, frozenset())
        return frozenset(nodes), frozenset(positions)

    def add(self, op: Operation) -> None:
        if op.has_trait(IsTerminator):
            return
        if isinstance(op, scf.ForOp | scf.WhileOp):
            self.add_loop(op)
        elif isinstance(op, scf.IfOp):
            self.add_branch(op)
        elif isinstance(op, tile.StructuredTransfer):
            self.add_node(op, Unit.DMA)
        elif isinstance(op, tile.IndexedAccess):
            self.add_node(op, Unit.DMA, transfer=self.cost_model.indexed_transfer_cost(op))
        elif isinstance(op, (*VECTOR_OPS, tile.MatmulOp)):
            cost = self.cost_model.compute_cost(op)
            self.add_node(op, cost.unit, compute=cost)
        elif is_free(op):
            self.pass_through(op)
        else:
            raise CompileError(op, f"the timer does not know '{op.name}' on the NPU")

    def pass_through(self, op: Operation) -> None:
        nodes, positions = self.sources(_inputs(op))
        for result in op.results:
            self.producers[result] = nodes
            self.carried[result] = positions
        if not isinstance(op, tile.ReshapeOp):
            self.graph.tile_bytes += sum(_tile_bytes(r) for r in op.results)

    def define(self, op: Operation, index: int) -> None:
        for result in op.results:
            self.producers[result] = frozenset({index})
            self.carried[result] = frozenset()

    def is_matmul(self, index: int) -> bool:
        return isinstance(self.graph.nodes[index].op, tile.MatmulOp)

    def deps_of(self, op: Operation) -> tuple[Dependency, ...]:
        """Edges into the node `op` is about to become.

        A matmul reading the previous matmul's result only as its accumulator
        is chained to it.  Reads of iteration values are noted for
        `resolve_carried`.
        """
        nodes, positions = self.sources(_inputs(op))
        chained: frozenset[int] = frozenset()
        accumulator_positions: frozenset[int] = frozenset()
        if isinstance(op, tile.MatmulOp):
            operand_nodes, _ = self.sources([op.lhs, op.rhs])
            chained = frozenset(
                n for n in self.producers.get(op.acc, ()) if self.is_matmul(n)
            ) - operand_nodes
            accumulator_positions = self.carried.get(op.acc, frozenset())
        if positions:
            self.carried_uses[len(self.graph.nodes)] = [
                (positions - accumulator_positions, False),
                (accumulator_positions, True),
            ]
        return tuple(Dependency(n, n in chained) for n in sorted(nodes))

    def add_node(self, op: Operation, unit: Unit, **cost: ComputeCost | TransferCost) -> None:
        index = len(self.graph.nodes)
        deps = self.deps_of(op)
        buffer = None
        if unit is Unit.DMA:
            buffer = self.order.buffer_of(op)
            how = _accesses(op)[1]  # pyright: ignore[reportOptionalSubscript]
            accesses = {buffer: frozenset({how})} if buffer in self.order.ordered else {}
            deps = _merged(deps, self.ordered_after(index, accesses))
            self.graph.loads += how != WRITE
        node = OpNode(index, op, unit, deps, buffer=buffer, **cost)  # pyright: ignore[reportArgumentType]
        self.graph.nodes.append(node)
        self.define(op, node.index)
        self.graph.tile_bytes += sum(_tile_bytes(r) for r in op.results)

    def add_loop(self, op: scf.ForOp | scf.WhileOp) -> None:
        deps = self.deps_of(op)
        if isinstance(op, scf.ForOp):
            body_block = op.body.block
            builder = _GraphBuilder(self.cost_model, self.order, body_block.args[1:])
            builder.build(body_block)
        else:
            before, body_block = op.before_region.block, op.after_region.block
            builder = _GraphBuilder(self.cost_model, self.order, before.args)
            builder.build(before)
            condition = before.last_op
            assert isinstance(condition, scf.ConditionOp)
            builder.forward(body_block.args, condition.args)
            builder.build(body_block)
        builder.resolve_carried(body_block)
        builder.order_runs(exempt=frozenset())
        index = len(self.graph.nodes)
        deps = _merged(deps, self.ordered_after(index, builder.graph.accesses))
        node = LoopNode(index, op, deps, builder.graph)
        self.graph.nodes.append(node)
        self.define(op, node.index)

    def add_branch(self, op: scf.IfOp) -> None:
        deps = self.deps_of(op)
        branches = []
        accesses: dict[int, frozenset[str]] = {}
        for region in (op.true_region, op.false_region):
            builder = _GraphBuilder(self.cost_model, self.order)
            for block in region.blocks:
                builder.build(block)
            branches.append(builder.graph)
            for buffer, how in builder.graph.accesses.items():
                accesses[buffer] = accesses.get(buffer, frozenset()) | how
        index = len(self.graph.nodes)
        deps = _merged(deps, self.ordered_after(index, accesses))
        node = BranchNode(index, op, deps, tuple(branches))
        self.graph.nodes.append(node)
        self.define(op, node.index)

    def ordered_after(
        self, index: int, accesses: Mapping[int, frozenset[str]]
    ) -> tuple[Dependency, ...]:
        """Memory-ordering edges into node `index` from the earlier nodes of the run
        whose accesses conflict with `accesses`; notes them for the nodes after.
        An edge is satisfied when the earlier access has finished: a write once
        acknowledged, a read once its data has landed."""
        earlier = {
            node
            for node, before in self.accessing
            for buffer, how in accesses.items()
            if buffer in before and _conflict(before[buffer], how)
        }
        if accesses:
            self.accessing.append((index, accesses))
            for buffer, how in accesses.items():
                self.graph.accesses[buffer] = self.graph.accesses.get(buffer, frozenset()) | how
        return tuple(Dependency(node) for node in sorted(earlier))

    def order_runs(self, exempt: frozenset[int]) -> None:
        """Memory-ordering edges from the run before (a loop's previous iteration, the
        previous program instance on a core): each access waits for the previous
        run's conflicting ones, on buffers other than `exempt`."""
        for index, accesses in self.accessing:
            previous = {
                node
                for node, before in self.accessing
                for buffer, how in accesses.items()
                if buffer not in exempt and buffer in before and _conflict(before[buffer], how)
            }
            node = self.graph.nodes[index]
            node.carried_deps = _merged(
                node.carried_deps, tuple(Dependency(n) for n in sorted(previous))
            )

    def resolve_carried(self, body: Block) -> None:
        """Turn reads of iteration values into edges to the previous iteration's producers."""
        terminator = body.last_op
        assert terminator is not None
        yielded = [self.producers.get(v, frozenset()) for v in terminator.operands]
        for index, uses in self.carried_uses.items():
            deps = {
                Dependency(n, accumulates and self.is_matmul(n))
                for positions, accumulates in uses
                for position in positions
                for n in yielded[position]
            }
            self.graph.nodes[index].carried_deps = tuple(sorted(deps, key=lambda d: d.node))


def _merged(
    deps: tuple[Dependency, ...], ordering: tuple[Dependency, ...]
) -> tuple[Dependency, ...]:
    """`deps` and the ordering edges to nodes not already among them."""
    present = {dep.node for dep in deps}
    return tuple(
        sorted((*deps, *(d for d in ordering if d.node not in present)), key=lambda d: d.node)
    )


def is_free(op: Operation) -> bool:
    """Whether `op` occupies no unit: scalar arithmetic, constants, reshapes, program ids."""
    if isinstance(op, (*FREE_TILE_OPS, arith.ConstantOp)):
        return True
    touches_tiles = any(
        isinstance(t, TensorType) for t in (*op.operand_types, *op.result_types)
    )
    return op.dialect_name() in ("arith", "math") and not touches_tiles
