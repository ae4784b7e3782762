"""The analytical cost of each tile op on the modeled NPU.

A cost model is a small interface over ops, as xDSL's
`BlockThroughputCostModel` is over blocks: `TileCostModel.compute_cost(op)`
for the vector and matrix units, `TileCostModel.transfer_cost(...)` for the
DMA.  Each formula lives in one function below, with its assumptions; the
functions take plain numbers, so tests check them against closed forms.

Every cost separates *busy* cycles (the unit is occupied; the next op on it
waits) from *latency* (further cycles before the result is usable; the unit
is already free), because the units are pipelined.  Every compute cost also
carries its *ideal* cycles: its work at the unit's peak rate, never more than
its busy cycles, and its *FLOP* cycles: its floating-point operations at the
unit's peak FLOP rate (a multiply-add per vector element or PE per cycle),
never more than its ideal cycles.  The launch's two rooflines sum them.

Scalar ops (`arith` on scalars, program ids, loop bounds) cost nothing: the
core's scalar unit computes addresses ahead of the units it feeds.  A
`tile.reshape` costs nothing either: it renames a tile without moving it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from enum import Enum

import numpy as np
from xdsl.dialects import arith
from xdsl.dialects.builtin import AnyFloat, IndexType, IntegerType
from xdsl.dialects.math import FmaOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.traits import IsTerminator

from tnpu.dialects import tile
from tnpu.timing.index_runs import index_run
from tnpu.timing.npu_config import NPUConfig


class Unit(Enum):
    DMA = "dma"
    VECTOR = "vector"
    MATRIX = "matrix"


@dataclass(frozen=True)
class ComputeCost:
    """A vector or matrix op's time on its unit, and its work."""

    unit: Unit
    busy_cycles: int
    """Cycles the unit is occupied; the next op on the unit starts after them."""
    latency_cycles: int
    """Cycles from the end of the busy time until the result is usable."""
    ideal_cycles: float
    """The op's work at the unit's peak rate (at most `busy_cycles`)."""
    flops: int
    """Floating-point operations (a multiply-add counts two)."""
    flop_cycles: float = 0.0
    """The op's FLOPs at its unit's peak FLOP rate, a multiply-add per element of a
    vector pass or per PE per cycle (at most `ideal_cycles`): the compulsory
    roofline's share."""


@dataclass(frozen=True)
class TransferCost:
    """A DMA transfer: the bytes it moves, and what the DRAM serves for it."""

    read_bytes: int
    written_bytes: int
    dram_bytes: int
    """Bytes the DRAM moves: whole requests, at least the bytes transferred."""
    latency_cycles: int
    """From the transfer's last DRAM request to its data in place."""


# ---------------------------------------------------------------------------
# DMA
# ---------------------------------------------------------------------------


def structured_transfer_bytes(
    tile_shape: tuple[int, ...],
    element_bytes: int,
    lower: list[np.ndarray],
    upper: list[np.ndarray],
    strides: list[np.ndarray],
    request_bytes: int,
) -> tuple[np.ndarray, np.ndarray]:
    """(bytes transferred, bytes the DRAM serves) of a strided box, elementwise over
    launch points (the bounds and strides are arrays broadcast together).

    * Dimension `d` moves `clip(min(upper, size) - max(lower, 0), 0)` elements;
      one read with stride 0 repeats the same elements, fetched once.
    * The DRAM serves contiguous *runs* in whole requests of `request_bytes`.
      The DMA engine walks the box in address order, whatever the tile's own
      dimension order (a multi-dimensional descriptor: the source strides set
      the order it reads DRAM in, the destination strides put each element in
      its place in the scratchpad): walking the dimensions that move more
      than one element from the smallest stride up, a dimension extends the
      run while its stride equals the run's length in elements (a partial
      dimension ends the run, as it leaves a gap).  Each run costs
      `ceil(run bytes / request_bytes)` requests.  So a tile read across its
      contiguous dimension (a transposed operand, strides `[1, ld]`) is the
      same runs as its transpose read row by row.
    * Runs are assumed to start on a request boundary (buffers are allocated
      aligned and tiles are usually multiples of the request size); a mask
      tile does not shrink the box (its lanes are not known before the data).
    """
    extents = []
    for size, low, high, stride in zip(tile_shape, lower, upper, strides, strict=True):
        extent = np.maximum(np.minimum(high, size) - np.maximum(low, 0), 0)
        extents.append(np.where(stride == 0, np.minimum(extent, 1), extent))
    elements = functools.reduce(np.multiply, extents, np.int64(1))
    # Address order: dimensions by stride, stable, so equal strides keep the tile's order
    # from the innermost dimension out.  A dimension moving one element or none neither
    # extends nor ends a run, wherever it stands in the walk.
    magnitudes = [np.abs(s) for s in strides]
    inner_first = list(reversed(range(len(tile_shape))))
    if all(np.size(m) == 1 for m in magnitudes):  # the usual case: every point walks alike
        order = sorted(inner_first, key=lambda d: int(magnitudes[d].flat[0]))
        walk = [(extents[d], magnitudes[d]) for d in order]
    else:
        shape = np.broadcast_shapes(*(np.shape(v) for v in (*extents, *strides)))
        walk_extents = np.stack([np.broadcast_to(extents[d], shape) for d in inner_first])
        walk_strides = np.stack([np.broadcast_to(magnitudes[d], shape) for d in inner_first])
        order = np.argsort(walk_strides, axis=0, kind="stable")
        walk = zip(np.take_along_axis(walk_extents, order, axis=0), np.take_along_axis(walk_strides, order, axis=0))
    run, contiguous = 1, True
    for extent, stride in walk:
        counts = extent > 1
        extends = contiguous & (stride == run)
        run = np.where(counts & extends, run * extent, run)
        contiguous = contiguous & (~counts | extends)
    runs = elements // run  # a run only ever grows from 1
    requests_per_run = -(-(run * element_bytes) // request_bytes)
    return elements * element_bytes, runs * requests_per_run * request_bytes  # pyright: ignore[reportReturnType]


def window_transfer_bytes(
    tile_shape: tuple[int, ...],
    element_bytes: int,
    offset: np.ndarray,
    lower: list[np.ndarray],
    upper: list[np.ndarray],
    strides: list[np.ndarray],
    request_bytes: int,
    capacity_bytes: int,
) -> tuple[np.ndarray, np.ndarray]:
    """(bytes transferred, DRAM bytes) of a load in a loop, the iterations along the last
    axis of the arrays, when the scratchpad keeps the loop's *window*.

    A load whose boxes over the iterations overlap (a convolution's taps: the
    same input block shifted by a pixel) brings each byte of the window —
    the bounding box of the boxes, in the frame of the first — into the
    scratchpad once: the first iteration loads its box, the others the rest
    of the window, an equal share each.  As a TPU convolution keeps its input
    window in VMEM and reads each tap's shifted view there.  It applies where
    the strides are the same at every point and iteration and positive, each
    iteration's offset is the first's shifted by whole steps of the strides,
    the window fits `capacity_bytes`, and it moves fewer DRAM bytes than the
    boxes one by one; elsewhere each iteration's box costs what
    `structured_transfer_bytes` says.
    """
    shape = np.broadcast_shapes(np.shape(offset), *(np.shape(v) for v in (*lower, *upper, *strides)))
    steps = [np.asarray(stride) for stride in strides]
    if not shape or shape[-1] < 2 or any(s.size == 0 or (s != s.flat[0]).any() or s.flat[0] <= 0 for s in steps):
        return structured_transfer_bytes(tile_shape, element_bytes, lower, upper, strides, request_bytes)
    strides_ = [int(s.flat[0]) for s in steps]
    offset = np.broadcast_to(offset, shape)
    residual = offset - offset[..., :1]
    row = (0,) * (len(shape) - 1)
    if row and all(_alike_over_points(v, shape) for v in (residual, *lower, *upper)):
        # Every point's boxes alike but for where they start (a launch's programs): one point's
        # window serves them all, at the cost of one row instead of a row per program.
        one = window_transfer_bytes(
            tile_shape, element_bytes, residual[row], [np.broadcast_to(v, shape)[row] for v in lower],
            [np.broadcast_to(v, shape)[row] for v in upper], [np.int64(s) for s in strides_],  # pyright: ignore[reportArgumentType]
            request_bytes, capacity_bytes,
        )  # fmt: skip
        return np.broadcast_to(one[0], shape), np.broadcast_to(one[1], shape)
    payload, dram = structured_transfer_bytes(tile_shape, element_bytes, lower, upper, strides, request_bytes)
    window_shape: list[np.ndarray] = [np.zeros((), np.int64)] * len(strides_)
    # The offsets' differences as whole steps of each stride, the largest first.
    for d in sorted(range(len(strides_)), key=lambda d: -strides_[d]):
        shift = np.sign(residual) * (np.abs(residual) // strides_[d])
        residual = residual - shift * strides_[d]
        low = np.broadcast_to(np.clip(lower[d], 0, tile_shape[d]), shape) + shift
        high = np.broadcast_to(np.clip(upper[d], 0, tile_shape[d]), shape) + shift
        window_shape[d] = np.maximum(high, low).max(axis=-1) - low.min(axis=-1)
    zero = [np.int64(0)] * len(strides_)
    window_payload, window_dram = structured_transfer_bytes(
        tuple(window_shape), element_bytes, zero, window_shape, [np.int64(s) for s in strides_], request_bytes  # pyright: ignore[reportArgumentType]  # numpy scalars broadcast as the arrays it takes
    )
    payload, dram = np.broadcast_to(payload, shape), np.broadcast_to(dram, shape)
    kept = (residual == 0).all(axis=-1) & (window_payload <= capacity_bytes) & (window_dram < dram.sum(axis=-1))
    if not kept.any():  # disjoint boxes (a GEMM's K steps): no point keeps a window
        return payload, dram
    rest = shape[-1] - 1

    def shared(total: np.ndarray, each: np.ndarray) -> np.ndarray:
        later = -(-np.maximum(total - each[..., 0], 0) // rest)
        windowed = np.concatenate([each[..., :1], np.broadcast_to(later[..., None], (*shape[:-1], rest))], axis=-1)
        return np.where(kept[..., None], windowed, each)

    return shared(window_payload, payload), shared(window_dram, dram)


def _alike_over_points(value: np.ndarray, shape: tuple[int, ...]) -> bool:
    """Whether `value`, broadcast to `shape`, is the same at every point (all axes but the last)."""
    aligned = (1,) * (len(shape) - np.ndim(value)) + np.shape(value)
    if all(n == 1 for n in aligned[:-1]):
        return True
    full = np.broadcast_to(value, shape)
    return bool((full == full[(0,) * (len(shape) - 1)]).all())


def indexed_transfer_bytes(
    elements: int, element_bytes: int, request_bytes: int, run: int = 1
) -> tuple[int, int]:
    """(bytes transferred, bytes the DRAM serves) of a gather or scatter.

    Indices are data, unknown before the kernel runs: each element is taken
    to be its own DRAM request (the random-access case), and every lane
    active — unless the kernel computes its index tile so that runs of `run`
    consecutive elements lie at consecutive addresses (`index_runs`): then
    each run is served in whole requests, as a structured box's runs are
    (a descriptor per run; runs assumed to start on a request boundary).
    """
    runs = -(-elements // run)
    return elements * element_bytes, runs * -(-(run * element_bytes) // request_bytes) * request_bytes


# ---------------------------------------------------------------------------
# Vector unit
# ---------------------------------------------------------------------------


def vectors(elements: int, width: int) -> int:
    """Vector-unit passes over `elements` at `width` elements per pass."""
    return -(-elements // width)


def lane_segment(shape: tuple[int, ...], axis: int, width: int) -> tuple[int, int, int]:
    """(axis length `n`, lane segment `s`, cross-lane steps `ceil(log2 s)`) along `axis`.

    The tile is laid out row-major across the vector width; with `inner` the
    elements after the axis, `s = min(n, width // inner)` of the axis's
    elements share a vector when `inner < width`, else one does.
    """
    n = shape[axis]
    inner = math.prod(shape[axis + 1 :])
    segment = min(n, max(1, width // inner)) if inner < width else 1
    return n, segment, ceil_log2(segment)


def contiguous_axis(value: SSAValue) -> int | None:
    """The axis along which the tile `value` lies contiguous in DRAM, if it is a load's.

    Followed back through elementwise `tile.map`s (an operand of the result's
    shape) to a `tile.load`: its one axis of static stride 1.  None when
    there is no such load or axis.
    """
    shape = tile.shape_of(value.type)
    pending, seen = [value], set()
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        owner = current.owner
        if isinstance(owner, tile.LoadOp):
            ones = [axis for axis, stride in enumerate(owner.static_strides.get_values()) if stride == 1]
            return ones[0] if len(ones) == 1 else None
        if isinstance(owner, tile.MapOp):
            pending.extend(operand for operand in reversed(owner.operands) if tile.shape_of(operand.type) == shape)
    return None


def in_lane_order(shape: tuple[int, ...], axis: int, lane_axis: int | None) -> tuple[tuple[int, ...], int]:
    """`shape` with `lane_axis` moved last, and where `axis` goes: the order the vector
    unit holds the tile in when its DMA wrote DRAM-contiguous runs across the lanes."""
    if lane_axis is None or lane_axis == len(shape) - 1:
        return shape, axis
    order = [a for a in range(len(shape)) if a != lane_axis] + [lane_axis]
    return tuple(shape[a] for a in order), order.index(axis)


def ceil_log2(count: int) -> int:
    """Steps of a binary tree over `count` items (0 for one)."""
    return (count - 1).bit_length()


def reduction_cycles(
    shape: tuple[int, ...],
    axis: int,
    width: int,
    combine: tuple[int, int],
    cross_lane: tuple[int, int],
) -> tuple[int, int]:
    """(busy, latency) of reducing `shape` along `axis` with a combiner.

    `combine` and `cross_lane` are (issue cycles per vector, latency); `n`
    and the lane segment `s` are `lane_segment`'s.  The reduction
    1. folds the `n - s` elements beyond the segment elementwise, vector by
       vector, into it (`(n - s) * outputs` combines, a tree of depth
       `log2(ceil(n / s))`);
    2. combines the segment across lanes in `ceil(log2 s)` steps, each a lane
       permute and a combine over the folded vectors.
    """
    n, segment, steps = lane_segment(shape, axis, width)
    outputs = math.prod(shape) // n
    (combine_issue, combine_latency), (lane_issue, lane_latency) = combine, cross_lane
    busy = vectors((n - segment) * outputs, width) * combine_issue + steps * vectors(
        outputs * segment, width
    ) * (lane_issue + combine_issue)
    tree_depth = ceil_log2(-(-n // segment))
    latency = tree_depth * combine_latency + steps * (lane_latency + combine_latency)
    return busy, latency


def scan_cycles(
    shape: tuple[int, ...],
    axis: int,
    width: int,
    combine: tuple[int, int],
    cross_lane: tuple[int, int],
) -> tuple[int, int]:
    """(busy, latency) of an inclusive scan of `shape` along `axis`.

    With `n` and the lane segment `s` of `lane_segment`: each vector is
    scanned across lanes by Kogge-Stone in `ceil(log2 s)` steps (a permute
    and a combine each, over every vector); when the axis is longer than a
    segment, the `ceil(n / s)` chunks are then chained serially, each
    combining the previous chunk's last element (broadcast across lanes when
    `s > 1`) into every vector.
    """
    n, segment, steps = lane_segment(shape, axis, width)
    (combine_issue, combine_latency), (lane_issue, lane_latency) = combine, cross_lane
    passes = vectors(math.prod(shape), width)
    chunks = -(-n // segment)
    carry_issue = combine_issue + (lane_issue if segment > 1 else 0)
    busy = steps * passes * (lane_issue + combine_issue) + (chunks > 1) * passes * carry_issue
    latency = steps * (lane_latency + combine_latency) + (chunks - 1) * combine_latency
    return busy, latency


# ---------------------------------------------------------------------------
# Matrix unit
# ---------------------------------------------------------------------------


def systolic_matmul_cycles(
    batch: int, m: int, n: int, k: int, rows: int, cols: int, arrays: int
) -> tuple[int, int]:
    """(busy, latency) of `acc + a @ b`, a: (m, k), b: (k, n), on weight-stationary arrays.

    The arrays hold `b` in `rows x cols` blocks ("folds"); per fold the `m`
    rows of `a` stream through, one per cycle.  Folds are spread evenly over
    the core's arrays.  With fewer folds than arrays, each fold's weights are
    loaded into `split = arrays // folds` arrays and its rows split among
    them, `ceil(m / split)` each, as a TPU core feeds its MXUs: each array
    has its own weight-load path and its own stream of rows from the vector
    registers, so a product holding one fold keeps both MXUs busy rather than
    one.  Weights are double-buffered, as in the TPU: the next fold's weights
    (`rows` cycles to shift in) load while the current one streams, so a
    fold occupies its array `max(rows streamed, rows)` cycles.  Latency is
    the first weight load plus the skew: the last row's partial sums leave
    the array `rows + cols - 1` cycles after it enters.  Each PE is taken to
    do one multiply-accumulate of the operands' type per cycle.
    """
    folds = batch * -(-k // rows) * -(-n // cols)
    split = max(1, arrays // folds)
    busy = -(-(folds * split) // arrays) * max(-(-m // split), rows)
    return busy, 2 * rows + cols - 1


# ---------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------


def element_bits(type_: Attribute) -> int:
    """Bits an element of a tile or scalar type takes in a vector register (i1: 8)."""
    element = tile.element_type_of(type_)
    if isinstance(element, IntegerType):
        return max(8, element.width.data)
    if isinstance(element, IndexType):
        return 64
    return element.bitwidth  # pyright: ignore[reportAttributeAccessIssue]


_MOVES = (arith.ConstantOp, arith.SelectOp, arith.BitcastOp, arith.ExtFOp, arith.TruncFOp,
          arith.SIToFPOp, arith.UIToFPOp)  # fmt: skip
"""Ops with float results that compute nothing: they move or convert bits."""


def _flops(op: Operation) -> int:
    """Floating-point operations of one scalar op (a fused multiply-add counts two)."""
    if isinstance(op, _MOVES) or not any(isinstance(t, AnyFloat) for t in op.result_types):
        return 0
    return 2 if isinstance(op, FmaOp) else 1


@dataclass(frozen=True)
class _BodyCost:
    """A scalar region applied per element: its issue cycles, critical path and flops."""

    issue: int
    latency: int
    flops: int


class TileCostModel:
    """Analytical costs of tile ops on one NPU (formulas above)."""

    def __init__(self, npu: NPUConfig):
        self.npu = npu
        self.cross_lane = (npu.op_issue("cross_lane"), npu.op_latency("cross_lane"))

    def width(self, op: Operation) -> int:
        """Elements per vector pass: set by the op's widest element type."""
        types = [*op.operand_types, *op.result_types]
        return self.npu.vector_width(max(element_bits(t) for t in types))

    def body_cost(self, block: Block) -> _BodyCost:
        """Issue cycles summed over the body's ops; latency along its longest chain.

        Constants are materialized once, not per element.
        """
        ready: dict[object, int] = {}
        issue = flops = latency = 0
        for op in block.ops:
            if op.has_trait(IsTerminator) or isinstance(op, arith.ConstantOp):
                continue
            nested = [inner for inner in op.walk() if not inner.has_trait(IsTerminator)]
            issue += sum(self.npu.op_issue(inner.name) for inner in nested)
            flops += sum(_flops(inner) for inner in nested)
            start = max((ready.get(operand, 0) for operand in op.operands), default=0)
            finish = start + sum(self.npu.op_latency(inner.name) for inner in nested)
            ready.update((result, finish) for result in op.results)
            latency = max(latency, finish)
        return _BodyCost(issue, latency, flops)

    def compute_cost(self, op: Operation) -> ComputeCost:
        """The cost of a vector or matrix op."""
        if isinstance(op, tile.MatmulOp):
            return self.matmul_cost(op)
        if isinstance(op, tile.MapOp):
            return self.map_cost(op)
        if isinstance(op, tile.ReduceOp | tile.ScanOp):
            return self.combine_cost(op)
        if isinstance(op, tile.TransposeOp):
            return self.pass_cost(op, tile.element_count(op.result.type), *self.cross_lane)
        if isinstance(op, tile.TakeOp):
            return self.take_cost(op)
        if isinstance(op, tile.BroadcastOp | tile.IotaOp):
            count = tile.element_count(op.result.type)
            return self.pass_cost(op, count, 1, self.npu.op_latency("default"))
        if isinstance(op, tile.AssertOp):
            count = tile.element_count(op.condition.type)
            return self.pass_cost(op, count, 1, self.npu.op_latency("default"))
        raise ValueError(f"{op.name} is not a vector or matrix op")

    def pass_cost(
        self, op: Operation, elements: int, issue: int, latency: int, flops: int = 0
    ) -> ComputeCost:
        """One pass over `elements`, `issue` cycles per vector, `flops` in all."""
        width = self.width(op)
        return ComputeCost(
            Unit.VECTOR, vectors(elements, width) * issue, latency, elements * issue / width,
            flops, flops / (2 * width),
        )

    def take_cost(self, op: tile.TakeOp) -> ComputeCost:
        """A pick along an axis: each result vector is a lane permute (as a transpose
        is) from every source vector its indices may reach, the `n * inner` source
        elements of the axis and the dimensions after it."""
        shape = tile.shape_of(op.source.type)
        axis = op.axis.value.data
        reach = vectors(math.prod(shape[axis:]), self.width(op))
        lane_issue, lane_latency = self.cross_lane
        return self.pass_cost(op, tile.element_count(op.result.type), reach * lane_issue, lane_latency)

    def map_cost(self, op: tile.MapOp) -> ComputeCost:
        """A fused elementwise body: every vector goes through every body op.

        A body with no ops still writes its result: one pass.
        """
        body = self.body_cost(op.body.block)
        elements = op.element_count()
        latency = body.latency or self.npu.op_latency("default")
        return self.pass_cost(op, elements, max(body.issue, 1), latency, elements * body.flops)

    def combine_cost(self, op: tile.ReduceOp | tile.ScanOp) -> ComputeCost:
        """A reduction or scan: `reduction_cycles` / `scan_cycles` with the combiner's costs."""
        body = self.body_cost(op.combiner.block)
        combine = (max(body.issue, 1), body.latency)
        shape = tile.shape_of(op.inputs[0].type)
        axis = op.axis.value.data
        if isinstance(op, tile.ReduceOp):
            shape, axis = in_lane_order(shape, axis, contiguous_axis(op.inputs[0]))
        width = self.width(op)
        formula = reduction_cycles if isinstance(op, tile.ReduceOp) else scan_cycles
        busy, latency = formula(shape, axis, width, combine, self.cross_lane)
        combines = math.prod(shape) // shape[axis] * (shape[axis] - 1)
        flops = combines * body.flops
        return ComputeCost(
            Unit.VECTOR, busy, latency, combines * combine[0] / width, flops, flops / (2 * width)
        )

    def matmul_cost(self, op: tile.MatmulOp) -> ComputeCost:
        batch, m, n, k = op.dims()
        npu = self.npu
        busy, latency = systolic_matmul_cycles(
            batch, m, n, k,
            npu.systolic_array_rows, npu.systolic_array_cols, npu.num_systolic_array_per_core,
        )
        flops = op.operation_count()
        return ComputeCost(
            Unit.MATRIX, busy, latency, batch * m * n * k / npu.macs_per_cycle, flops,
            flops / (2 * npu.macs_per_cycle),
        )

    def indexed_transfer_cost(self, op: tile.IndexedAccess) -> TransferCost:
        """Gather, scatter and atomics (`indexed_transfer_bytes`).

        An atomic reads and writes each element: twice the DRAM requests.
        """
        value_type = op.result.type if isinstance(op, tile.GatherOp) else op.value.type  # pyright: ignore[reportAttributeAccessIssue]
        payload, dram = indexed_transfer_bytes(
            op.tile_elements(),
            tile.element_bytes(tile.element_type_of(value_type)),
            self.npu.dram_req_size,
            index_run(op.indices),
        )
        latency = self.npu.dram_latency_cycles
        if isinstance(op, tile.GatherOp):
            return TransferCost(payload, 0, dram, latency)
        if isinstance(op, tile.ScatterOp):
            return TransferCost(0, payload, dram, latency)
        return TransferCost(payload, payload, 2 * dram, latency)

    def structured_transfer_costs(
        self,
        tile_shape: tuple[int, ...],
        element_bytes: int,
        lower: list[np.ndarray],
        upper: list[np.ndarray],
        strides: list[np.ndarray],
    ) -> tuple[np.ndarray, np.ndarray]:
        """(bytes transferred, DRAM bytes) of a load or store of a `tile_shape` tile at
        every launch point."""
        return structured_transfer_bytes(
            tile_shape, element_bytes, lower, upper, strides, self.npu.dram_req_size
        )

    def window_transfer_costs(
        self,
        tile_shape: tuple[int, ...],
        element_bytes: int,
        offset: np.ndarray,
        lower: list[np.ndarray],
        upper: list[np.ndarray],
        strides: list[np.ndarray],
    ) -> tuple[np.ndarray, np.ndarray]:
        """(bytes transferred, DRAM bytes) of a load over a loop's iterations, the window kept
        in half the scratchpad (the other half double-buffers the loop's other tiles)."""
        return window_transfer_bytes(
            tile_shape, element_bytes, offset, lower, upper, strides, self.npu.dram_req_size,
            self.npu.scratchpad_bytes // 2,
        )  # fmt: skip

    def transfer_cost(self, op: tile.StructuredTransfer, payload: int, dram: int) -> TransferCost:
        """A load or store moving `payload` bytes with `dram` bytes of requests."""
        latency = self.npu.dram_latency_cycles
        if isinstance(op, tile.LoadOp):
            return TransferCost(payload, 0, dram, latency)
        return TransferCost(0, payload, dram, latency)
