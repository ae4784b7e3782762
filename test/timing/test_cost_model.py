"""Each cost formula against a closed form worked out by hand, and the invariants
the roofline relies on (busy cycles never below the ideal ones)."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from timing_kernels import npu, parse_kernel

from tnpu.dialects import tile
from tnpu.timing.cost_model import (
    TileCostModel,
    Unit,
    indexed_transfer_bytes,
    reduction_cycles,
    window_transfer_bytes,
    scan_cycles,
    structured_transfer_bytes,
    systolic_matmul_cycles,
)

REQUEST = 32


def transfer(shape, lower, upper, strides, element_bytes=4):
    as_arrays = lambda values: [np.asarray(v) for v in values]  # noqa: E731
    payload, dram = structured_transfer_bytes(
        shape, element_bytes, as_arrays(lower), as_arrays(upper), as_arrays(strides), REQUEST
    )
    return int(payload), int(dram)


def test_a_contiguous_row_is_one_run_rounded_up_to_whole_requests():
    assert transfer((256,), [0], [256], [1]) == (1024, 1024)
    # A masked tail of 27 f32: 108 bytes in four 32-byte requests.
    assert transfer((256,), [0], [27], [1]) == (108, 128)
    # Past the end: nothing moves.
    assert transfer((256,), [0], [-5], [1]) == (0, 0)


def test_full_rows_of_a_row_major_tile_merge_into_one_run():
    assert transfer((4, 64), [0, 0], [4, 64], [64, 1]) == (1024, 1024)
    # A row stride larger than the row leaves gaps: one run per row.
    assert transfer((4, 64), [0, 0], [4, 64], [100, 1]) == (1024, 4 * 256)
    # A partial row ends the run even when rows are adjacent in memory.
    assert transfer((4, 64), [0, 0], [4, 30], [64, 1]) == (4 * 120, 4 * 128)
    # Lower bounds: rows 1..3 of 4.
    assert transfer((4, 64), [1, 0], [4, 64], [64, 1]) == (768, 768)


def test_a_column_is_one_request_per_element():
    assert transfer((64, 1), [0, 0], [64, 1], [512, 1]) == (256, 64 * REQUEST)
    # A transposed column read: each row of the tile is one element of a column.
    assert transfer((8, 1), [0, 0], [8, 1], [1, 8]) == (32, 32)
    assert transfer((8, 4), [0, 0], [8, 4], [4, 512]) == (128, 32 * REQUEST)


def test_a_tile_read_across_its_contiguous_dimension_is_walked_in_address_order():
    # A transposed read: the tile's inner dimension strides through memory, its outer one
    # is contiguous.  The DMA walks the box in address order: one run of 128 f32.
    assert transfer((8, 16), [0, 0], [8, 16], [1, 8]) == (512, 512)
    # The weight tile of a convolution template: BLOCK_K input channels (stride 1) by
    # BLOCK_N output channels (stride C_in * 9): one run of 64 f32 per output channel.
    assert transfer((64, 32), [0, 0], [64, 32], [1, 576]) == (8192, 32 * 256)
    # A partial stride-1 dimension ends the run, whichever dimension it is.
    assert transfer((8, 16), [0, 0], [5, 16], [1, 8]) == (320, 16 * 32)
    # Three dimensions, the middle one contiguous, the first continuing it.
    assert transfer((2, 4, 8), [0, 0, 0], [2, 4, 8], [4, 1, 8]) == (256, 256)


def test_a_broadcast_dimension_is_fetched_once():
    assert transfer((16, 64), [0, 0], [16, 64], [0, 1]) == (256, 256)


def test_bounds_and_strides_vary_per_launch_point():
    payload, dram = structured_transfer_bytes(
        (256,), 4, [np.asarray(0)], [np.asarray([256, 100, 0])], [np.asarray(1)], REQUEST
    )
    assert payload.tolist() == [1024, 400, 0]
    assert dram.tolist() == [1024, 416, 0]


@given(
    shape=st.lists(st.integers(1, 9), min_size=1, max_size=3),
    data=st.data(),
    element_bytes=st.sampled_from([1, 2, 4, 8]),
)
def test_dram_bytes_are_whole_requests_covering_the_payload(shape, data, element_bytes):
    rank = len(shape)
    lower = data.draw(st.lists(st.integers(-2, 9), min_size=rank, max_size=rank))
    upper = data.draw(st.lists(st.integers(-2, 12), min_size=rank, max_size=rank))
    strides = data.draw(st.lists(st.integers(0, 80), min_size=rank, max_size=rank))
    payload, dram = transfer(tuple(shape), lower, upper, strides, element_bytes)
    extents = [
        max(0, min(u, s) - max(lo, 0)) if st_ != 0 else min(1, max(0, min(u, s) - max(lo, 0)))
        for s, lo, u, st_ in zip(shape, lower, upper, strides)
    ]
    assert payload == math.prod(extents) * element_bytes
    assert dram % REQUEST == 0
    assert payload <= dram <= max(payload // element_bytes, 0) * max(element_bytes, REQUEST)


def test_indexed_transfers_take_a_request_per_element():
    assert indexed_transfer_bytes(256, 4, REQUEST) == (1024, 256 * REQUEST)
    assert indexed_transfer_bytes(10, 64, REQUEST) == (640, 640)


def test_a_weight_stationary_matmul_streams_each_fold_through_an_array():
    # 128x128 arrays, two of them: K=256, N=512 make 2 x 4 = 8 folds, 4 per array.
    busy, latency = systolic_matmul_cycles(1, 1024, 512, 256, 128, 128, 2)
    assert busy == 4 * 1024
    assert latency == 2 * 128 + 128 - 1
    # Fewer rows than the array is deep: weight loading (128 cycles a fold) dominates.
    assert systolic_matmul_cycles(1, 32, 128, 128, 128, 128, 2)[0] == 128
    # Batches multiply the folds.
    assert systolic_matmul_cycles(3, 256, 128, 128, 128, 128, 2)[0] == 2 * 256


def test_a_single_fold_is_loaded_into_both_arrays_and_its_rows_split():
    # One 128x128 fold, 1024 rows: each array holds the same weights and streams 512 rows.
    assert systolic_matmul_cycles(1, 1024, 128, 128, 128, 128, 2)[0] == 512
    # Half a fold's rows still cannot hide its weight load.
    assert systolic_matmul_cycles(1, 200, 128, 128, 128, 128, 2)[0] == 128
    # Two folds over four arrays: each fold on two arrays, half its rows each.
    assert systolic_matmul_cycles(1, 1024, 256, 128, 128, 128, 4)[0] == 512
    # Three folds over four arrays: one array each, the fourth idles.
    assert systolic_matmul_cycles(1, 1024, 384, 128, 128, 128, 4)[0] == 1024


@given(
    batch=st.integers(1, 3), m=st.integers(1, 700), n=st.integers(1, 700), k=st.integers(1, 700),
    rows=st.sampled_from([8, 128, 256]), arrays=st.integers(1, 4),
)
def test_a_matmul_is_never_faster_than_its_multiply_accumulates_allow(batch, m, n, k, rows, arrays):
    busy, _ = systolic_matmul_cycles(batch, m, n, k, rows, rows, arrays)
    assert busy >= batch * m * n * k / (rows * rows * arrays)


COMBINE = (1, 4)
LANE = (1, 4)


def test_a_row_reduction_folds_vectors_then_crosses_lanes():
    # 8 rows of 4096 f32 at 1024 lanes: each row folds 4 vectors into one (3 combines),
    # then log2(1024) = 10 permute-and-combine steps over the 8 folded vectors.
    busy, latency = reduction_cycles((8, 4096), 1, 1024, COMBINE, LANE)
    assert busy == math.ceil(8 * (4096 - 1024) / 1024) * 1 + 10 * 8 * (1 + 1)
    assert latency == 2 * 4 + 10 * (4 + 4)


def test_a_column_reduction_of_whole_vectors_needs_no_lane_crossing():
    # Reduce 64 rows of 2048: each row is two whole vectors; fold 63 of them per output.
    busy, latency = reduction_cycles((64, 2048), 0, 1024, COMBINE, LANE)
    assert busy == 63 * 2048 // 1024
    assert latency == 6 * 4


def test_a_scan_across_lanes_is_kogge_stone_then_chains_its_chunks():
    # 4096 elements at 1024 lanes: 10 steps over 4 vectors, then a carry into each.
    busy, latency = scan_cycles((4096,), 0, 1024, COMBINE, LANE)
    assert busy == 10 * 4 * 2 + 4 * (1 + 1)
    assert latency == 10 * 8 + 3 * 4


@given(
    shape=st.lists(st.integers(1, 300), min_size=1, max_size=3),
    axis_choice=st.integers(0, 2),
    width=st.sampled_from([8, 128, 1024]),
    issue=st.integers(1, 4),
)
def test_reductions_and_scans_are_never_faster_than_their_combines_allow(shape, axis_choice, width, issue):
    axis = axis_choice % len(shape)
    combines = math.prod(shape) // shape[axis] * (shape[axis] - 1)
    for formula in (reduction_cycles, scan_cycles):
        busy, _ = formula(tuple(shape), axis, width, (issue, 3), (1, 2))
        assert busy >= combines * issue / width


def compute_costs(body: str, signature: str = "%x: !tile.buffer<f32>"):
    kernel = parse_kernel(f"tile.kernel @k({signature}) {{\n{body}\n  tile.return\n}}")
    model = TileCostModel(npu("tpuv3"))
    return model, [
        model.compute_cost(op)
        for op in kernel.walk()
        if isinstance(op, tile.MapOp | tile.ReduceOp | tile.MatmulOp | tile.TransposeOp)
    ]


def test_a_fused_map_issues_every_body_op_per_vector_and_waits_for_its_longest_chain():
    model, [cost] = compute_costs("""
  %zero = arith.constant 0.0 : f32
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<4096xf32>
  %r = tile.map %t, %zero : tensor<4096xf32>, f32 -> tensor<4096xf32> {
  ^bb0(%a: f32, %b: f32):
    %two = arith.constant 2.0 : f32
    %e = math.exp %a : f32
    %d = arith.divf %e, %two : f32
    %s = arith.addf %a, %b : f32
    %m = arith.maximumf %d, %s : f32
    tile.yield %m : f32
  }""")
    npu_ = model.npu
    ops = ["math.exp", "arith.divf", "arith.addf", "arith.maximumf"]
    issue = sum(npu_.op_issue(op) for op in ops)
    vectors = 4096 // npu_.vector_width(32)
    assert cost.unit is Unit.VECTOR
    assert cost.busy_cycles == vectors * issue
    chain = npu_.op_latency("math.exp") + npu_.op_latency("arith.divf") + npu_.op_latency("arith.maximumf")
    assert cost.latency_cycles == chain
    assert cost.ideal_cycles == 4096 * issue / npu_.vector_width(32)
    assert cost.flops == 4096 * 4


def test_the_widest_element_type_sets_the_vector_width():
    model, [wide, narrowing, narrow] = compute_costs(
        """
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<8192xf32>
  %w = tile.map %t : tensor<8192xf32> -> tensor<8192xf32> {
  ^bb0(%a: f32):
    %s = arith.addf %a, %a : f32
    tile.yield %s : f32
  }
  %n = tile.map %t : tensor<8192xf32> -> tensor<8192xf16> {
  ^bb0(%a: f32):
    %c = arith.truncf %a : f32 to f16
    tile.yield %c : f16
  }
  %u = tile.load %h[0] strides [1] : !tile.buffer<f16> -> tensor<8192xf16>
  %v = tile.map %u : tensor<8192xf16> -> tensor<8192xf16> {
  ^bb0(%a: f16):
    %s = arith.addf %a, %a : f16
    tile.yield %s : f16
  }""",
        "%x: !tile.buffer<f32>, %h: !tile.buffer<f16>",
    )
    npu_ = model.npu
    assert wide.busy_cycles == narrowing.busy_cycles == 8192 // npu_.vector_width(32)
    assert narrow.busy_cycles == 8192 // npu_.vector_width(16) == wide.busy_cycles // 2


def test_a_matmul_and_a_transpose_take_their_units():
    model, [transpose, matmul] = compute_costs("""
  %a = tile.load %x[0] strides [256, 1] : !tile.buffer<f32> -> tensor<256x256xf32>
  %t = tile.transpose %a {permutation = array<i64: 1, 0>} : tensor<256x256xf32> -> tensor<256x256xf32>
  %m = tile.matmul %a, %t, %a : tensor<256x256xf32>, tensor<256x256xf32> -> tensor<256x256xf32>""")
    npu_ = model.npu
    assert matmul.unit is Unit.MATRIX
    assert (matmul.busy_cycles, matmul.latency_cycles) == systolic_matmul_cycles(
        1, 256, 256, 256, npu_.systolic_array_rows, npu_.systolic_array_cols,
        npu_.num_systolic_array_per_core,
    )
    assert matmul.flops == 2 * 256**3
    assert transpose.busy_cycles == 256 * 256 // npu_.vector_width(32) * npu_.op_issue("cross_lane")


def test_a_take_permutes_each_result_vector_from_every_source_vector_it_may_reach():
    """On tpuv3 (1024 f32 lanes) a row of 1024 is one vector; along the leading
    axis the indices reach all 16 x 1024 elements of the axis and those after it."""
    kernel = parse_kernel("""tile.kernel @k(%x: !tile.buffer<f32>, %y: !tile.buffer<i32>) {
  %a = tile.load %x[0] strides [1024, 1] : !tile.buffer<f32> -> tensor<16x1024xf32>
  %i = tile.load %y[0] strides [1024, 1] : !tile.buffer<i32> -> tensor<16x1024xi32>
  %rows = tile.take %a[%i] {axis = 1 : i32} : tensor<16x1024xf32>, tensor<16x1024xi32> -> tensor<16x1024xf32>
  %columns = tile.take %a[%i] {axis = 0 : i32} : tensor<16x1024xf32>, tensor<16x1024xi32> -> tensor<16x1024xf32>
  tile.return
}""")
    model = TileCostModel(npu("tpuv3"))
    along_rows, along_columns = (model.compute_cost(op) for op in kernel.walk() if isinstance(op, tile.TakeOp))
    npu_ = model.npu
    assert npu_.vector_width(32) == 1024
    lane = npu_.op_issue("cross_lane")
    assert along_rows.unit is Unit.VECTOR
    assert along_rows.busy_cycles == 16 * 1 * lane
    assert along_columns.busy_cycles == 16 * 16 * lane
    assert along_rows.latency_cycles == npu_.op_latency("cross_lane")
    assert along_columns.ideal_cycles <= along_columns.busy_cycles


def test_a_reduction_across_the_dram_contiguous_axis_folds_whole_vectors():
    """A [128, 512] tile loaded with strides [1, 512] (128 columns of a row-major matrix,
    512 rows): the DMA writes each row's 128 contiguous columns across the lanes, so reducing
    along axis 1 (the rows) combines whole vectors; loaded with strides [512, 1] the same
    reduction crosses lanes.  Through the map between load and reduction alike."""
    reduce_along_1 = """
  %t = tile.load %x[0] strides [{strides}] : !tile.buffer<f32> -> tensor<128x512xf32>
  %m = tile.map %t : tensor<128x512xf32> -> tensor<128x512xf32> {{
  ^bb0(%a: f32):
    %s = arith.mulf %a, %a : f32
    tile.yield %s : f32
  }}
  %r = tile.reduce %m {{axis = 1 : i32}} : tensor<128x512xf32> -> tensor<128xf32> {{
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }}"""
    model, [_, columns] = compute_costs(reduce_along_1.format(strides="1, 512"))
    _, [_, rows] = compute_costs(reduce_along_1.format(strides="512, 1"))
    width, combine = model.npu.vector_width(32), (1, model.npu.op_latency("arith.addf"))
    lane = model.cross_lane
    assert (columns.busy_cycles, columns.latency_cycles) == reduction_cycles((512, 128), 0, width, combine, lane)
    assert (rows.busy_cycles, rows.latency_cycles) == reduction_cycles((128, 512), 1, width, combine, lane)
    # 8 rows of 128 columns per vector: 504 folds of a vector, then 3 steps across the 8.
    assert columns.busy_cycles == (512 - 8) * 128 // width + 3 * 1 * (lane[0] + 1)
    assert columns.busy_cycles < rows.busy_cycles


def _window(offsets, shape=(16,), strides=(1,), lower=None, upper=None, capacity=1 << 20):
    offset = np.asarray(offsets, np.int64)
    lower = [np.int64(0)] * len(shape) if lower is None else lower
    upper = [np.int64(n) for n in shape] if upper is None else upper
    return window_transfer_bytes(
        shape, 4, offset, lower, upper, [np.int64(s) for s in strides], 32, capacity
    )  # fmt: skip


def test_a_loads_overlapping_boxes_over_a_loop_bring_their_window_once():
    """Three taps of a 16-element row at offsets -1, 0, 1: the window is 18 elements (72 bytes,
    3 requests).  The first iteration loads its box (64 bytes, 2 requests), the other two
    share the rest."""
    payload, dram = _window([-1, 0, 1])
    assert dram.tolist() == [64, 16, 16] and dram.sum() == 96
    assert payload.tolist() == [64, 4, 4]


def test_a_loop_invariant_load_is_loaded_once():
    payload, dram = _window([0, 0, 0, 0])
    assert dram.tolist() == [64, 0, 0, 0] and payload.tolist() == [64, 0, 0, 0]


def test_a_window_applies_only_where_it_saves_and_fits():
    # Disjoint boxes (a GEMM's K steps): the window is their sum, nothing saved.
    payload, dram = _window([0, 16, 32])
    assert dram.tolist() == [64, 64, 64]
    # A window larger than the capacity: each box on its own.
    _, dram = _window([-1, 0, 1], capacity=64)
    assert dram.tolist() == [64, 64, 64]
    # Per point (rows) over iterations (columns): a point whose boxes do not overlap keeps them.
    _, dram = _window([[-1, 0, 1], [0, 100, 200]])
    assert dram.tolist() == [[64, 16, 16], [64, 64, 64]]
    # Points whose boxes differ only in where they start (a launch's programs) share one window.
    payload, dram = _window([[-1, 0, 1], [99, 100, 101]])
    assert dram.tolist() == [[64, 16, 16], [64, 16, 16]] and payload.tolist() == [[64, 4, 4], [64, 4, 4]]


def test_a_convolutions_taps_over_an_image_block_load_the_block_and_its_halo():
    """A 4 × 4 pixel block of 8 channels (strides [W·C, C, 1] with W = 16, C = 8) under the 9
    taps of a 3 × 3 filter: the window is 6 × 6 pixels, each pixel one 32-byte run."""
    width, channels = 16, 8
    offsets = [(dh * width + dw) * channels for dh in (-1, 0, 1) for dw in (-1, 0, 1)]
    _, dram = _window(offsets, shape=(4, 4, 8), strides=(width * channels, channels, 1))
    assert dram.sum() == 6 * 6 * 32
    assert dram[0] == 4 * 4 * 32
