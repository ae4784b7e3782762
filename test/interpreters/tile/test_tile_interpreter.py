"""The tile interpreter runs every tile op as docs/tile-dialect.md defines it.

Each test runs a hand-written kernel and compares with numpy computed here,
element by element where the semantics are about positions.
"""

from __future__ import annotations

from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tnpu.diagnostics import CompileError
from tnpu.dialects import tile
from tnpu.interpreters.tile import Buffer, check_interpretable, launch
from tnpu.interpreters.tt import KernelError
from tnpu.ttir_import import import_ttir


def parse_kernel(text: str) -> tile.KernelOp:
    op = import_ttir(text, "kernel.mlir").body.block.first_op
    assert isinstance(op, tile.KernelOp)
    return op


def run(kernel: str, grid: tuple[int, ...], *arguments: Any) -> None:
    """Parse one `tile.kernel` and launch it; numpy arrays are its buffers, written in place."""
    launch(parse_kernel(kernel), grid, [Buffer(a) if isinstance(a, np.ndarray) else a for a in arguments])


def kernel(signature: str, body: str) -> str:
    return f"tile.kernel @k({signature}) {{\n{body}\n  tile.return\n}}\n"


# ---------------------------------------------------------------------------
# Structured DMA
# ---------------------------------------------------------------------------


def test_masked_tail_over_a_one_dimensional_grid():
    """The vector add of every Triton tutorial: 4 programs of 8 cover 27 elements."""
    x = np.arange(32, dtype=np.float32)
    y = np.full(32, 0.5, np.float32)
    out = np.full(32, -1, np.float32)
    run(
        kernel(
            "%x: !tile.buffer<f32>, %y: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: i32",
            """
  %pid = tile.program_id {axis = 0 : i32} : i32
  %c8 = arith.constant 8 : i32
  %start = arith.muli %pid, %c8 : i32
  %off = arith.index_cast %start : i32 to index
  %ni = arith.index_cast %n : i32 to index
  %rem = arith.subi %ni, %off : index
  %a = tile.load %x[%off] strides [1] upper [%rem] : !tile.buffer<f32> -> tensor<8xf32>
  %b = tile.load %y[%off] strides [1] upper [%rem] : !tile.buffer<f32> -> tensor<8xf32>
  %s = tile.map %a, %b : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tile.yield %t : f32
  }
  tile.store %s, %out[%off] strides [1] upper [%rem] : tensor<8xf32>, !tile.buffer<f32>""",
        ),
        (4,),
        x, y, out, 27,
    )
    np.testing.assert_array_equal(out[:27], x[:27] + 0.5)
    np.testing.assert_array_equal(out[27:], -1)


def test_strided_box_with_lower_and_upper_bounds_mask_and_pad():
    """A 4x6 tile of a 5x7 row-major matrix, rows 1..3 and columns < 5, checkerboard mask."""
    matrix = np.arange(35, dtype=np.int32) * 10
    out = np.zeros(24, np.int32)
    run(
        kernel(
            "%m: !tile.buffer<i32>, %out: !tile.buffer<i32>",
            """
  %c7 = arith.constant 7 : index
  %c5 = arith.constant 5 : index
  %pad = arith.constant -1 : i32
  %rows = tile.iota {start = 0 : i32} : tensor<4xi32>
  %cols = tile.iota {start = 0 : i32} : tensor<6xi32>
  %r2 = tile.reshape %rows : tensor<4xi32> -> tensor<4x1xi32>
  %c2 = tile.reshape %cols : tensor<6xi32> -> tensor<1x6xi32>
  %rb = tile.broadcast %r2 : tensor<4x1xi32> -> tensor<4x6xi32>
  %cb = tile.broadcast %c2 : tensor<1x6xi32> -> tensor<4x6xi32>
  %mask = tile.map %rb, %cb : tensor<4x6xi32>, tensor<4x6xi32> -> tensor<4x6xi1> {
  ^bb0(%i: i32, %j: i32):
    %s = arith.addi %i, %j : i32
    %one = arith.constant 1 : i32
    %odd = arith.andi %s, %one : i32
    %zero = arith.constant 0 : i32
    %even = arith.cmpi eq, %odd, %zero : i32
    tile.yield %even : i1
  }
  %t = tile.load %m[1] strides [%c7, 1] lower [1, 0] upper [4, %c5] mask %mask pad %pad
       : !tile.buffer<i32> -> tensor<4x6xi32>
  tile.store %t, %out[0] strides [6, 1] : tensor<4x6xi32>, !tile.buffer<i32>""",
        ),
        (1,),
        matrix, out,
    )
    expected = np.full((4, 6), -1, np.int32)
    for i in range(4):
        for j in range(6):
            if 1 <= i < 4 and j < 5 and (i + j) % 2 == 0:
                expected[i, j] = matrix[1 + 7 * i + j]
    np.testing.assert_array_equal(out.reshape(4, 6), expected)


def test_store_through_transposed_strides_and_broadcast_row():
    """Column-major output (strides [1, 3]) of a row broadcast to 2x3."""
    row = np.array([1.5, 2.5, 3.5], np.float64)
    out = np.zeros(6, np.float64)
    run(
        kernel(
            "%row: !tile.buffer<f64>, %out: !tile.buffer<f64>",
            """
  %r = tile.load %row[0] strides [0, 1] : !tile.buffer<f64> -> tensor<1x3xf64>
  %b = tile.broadcast %r : tensor<1x3xf64> -> tensor<2x3xf64>
  tile.store %b, %out[0] strides [1, 2] : tensor<2x3xf64>, !tile.buffer<f64>""",
        ),
        (1,),
        row, out,
    )
    # out is column-major 2x3: out[i + 2 j] = b[i, j] = row[j]
    np.testing.assert_array_equal(out, np.repeat(row, 2))


def test_store_with_a_zero_stride_keeps_the_last_write():
    """Four tile elements hit one buffer element: the row-major last one wins."""
    out = np.zeros(1, np.int32)
    run(
        kernel(
            "%out: !tile.buffer<i32>",
            """
  %v = tile.iota {start = 10 : i32} : tensor<4xi32>
  tile.store %v, %out[0] strides [0] : tensor<4xi32>, !tile.buffer<i32>""",
        ),
        (1,),
        out,
    )
    assert out[0] == 13


def copy_kernel(upper: str) -> str:
    """Each program of 8 copies x to out; `upper` bounds the load (or not, if empty)."""
    return kernel(
        "%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: index",
        f"""
  %pid = tile.program_id {{axis = 0 : i32}} : i32
  %c8 = arith.constant 8 : i32
  %start = arith.muli %pid, %c8 : i32
  %off = arith.index_cast %start : i32 to index
  %rem = arith.subi %n, %off : index
  %a = tile.load %x[%off] strides [1] {upper} : !tile.buffer<f32> -> tensor<8xf32> loc("k.py":7:11)
  tile.store %a, %out[%off] strides [1] : tensor<8xf32>, !tile.buffer<f32>""",
    )


def test_load_outside_the_buffer_fails_with_one_line_naming_op_and_location():
    x = np.zeros(10, np.float32)
    with pytest.raises(KernelError) as caught:
        run(copy_kernel(""), (2,), x, np.zeros(16, np.float32), 10)
    assert str(caught.value) == (
        "kernel.mlir:8:3: error: 'tile.load' op reads element 10 outside the buffer of "
        "10 elements (tile element [2]), in program (1, 0, 0) (at k.py:7:11)"
    )


def test_elements_outside_the_bounds_are_neither_checked_nor_moved():
    x = np.arange(10, dtype=np.float32)
    out = np.full(16, 5, np.float32)
    run(copy_kernel("upper [%rem]"), (2,), x, out, 10)
    np.testing.assert_array_equal(out, np.concatenate((x, np.zeros(6, np.float32))))


def test_store_outside_the_buffer_fails():
    with pytest.raises(KernelError, match=r"'tile.store' op writes element -1 outside the buffer of 4 elements \(tile element \[2\]\)"):
        run(
            kernel(
                "%out: !tile.buffer<i8>",
                """
  %v = tile.iota {start = 0 : i32} : tensor<4xi8>
  tile.store %v, %out[1] strides [-1] : tensor<4xi8>, !tile.buffer<i8>""",
            ),
            (1,),
            np.zeros(4, np.int8),
        )


def reference_transfer(buffer, offset, strides, lower, upper, shape):
    """Element by element, the documented descriptor: (index in buffer, index in tile) pairs."""
    pairs = []
    for position in np.ndindex(*shape):
        if all(lo <= i < up for i, lo, up in zip(position, lower, upper)):
            pairs.append((offset + sum(i * s for i, s in zip(position, strides)), position))
    return pairs


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(1, 5), min_size=1, max_size=3).flatmap(
        lambda shape: st.tuples(
            st.just(tuple(shape)),
            st.lists(st.integers(-6, 6), min_size=len(shape), max_size=len(shape)),
            st.lists(st.integers(-1, 3), min_size=len(shape), max_size=len(shape)),
            st.lists(st.integers(0, 6), min_size=len(shape), max_size=len(shape)),
        )
    )
)
def test_structured_load_and_store_follow_the_descriptor(case):
    shape, strides, lower, upper = case
    source = np.arange(1000, dtype=np.int64) + 1
    target = np.zeros(1000, np.int64)
    offset = 500
    tile_type = f"tensor<{'x'.join(map(str, shape))}xi64>"
    lists = ", ".join
    descriptor = (
        f"[{offset}] strides [{lists(map(str, strides))}] "
        f"lower [{lists(map(str, lower))}] upper [{lists(map(str, upper))}]"
    )
    run(
        kernel(
            "%src: !tile.buffer<i64>, %dst: !tile.buffer<i64>",
            f"""
  %pad = arith.constant -7 : i64
  %t = tile.load %src{descriptor} pad %pad : !tile.buffer<i64> -> {tile_type}
  tile.store %t, %dst{descriptor} : {tile_type}, !tile.buffer<i64>
  %flat = tile.reshape %t : {tile_type} -> tensor<{int(np.prod(shape))}xi64>
  tile.store %flat, %dst[0] strides [1] : tensor<{int(np.prod(shape))}xi64>, !tile.buffer<i64>""",
        ),
        (1,),
        source, target,
    )
    loaded = np.full(shape, -7, np.int64)
    expected = np.zeros(1000, np.int64)
    for address, position in reference_transfer(source, offset, strides, lower, upper, shape):
        loaded[position] = source[address]
        expected[address] = source[address]
    expected[: loaded.size] = loaded.reshape(-1)
    np.testing.assert_array_equal(target, expected)


# ---------------------------------------------------------------------------
# Indexed DMA and atomics
# ---------------------------------------------------------------------------


def test_gather_and_scatter_with_mask_pad_and_duplicates():
    table = np.array([10, 20, 30, 40, 50], np.int32)
    out = np.zeros(5, np.int32)
    gathered = np.zeros(6, np.int32)
    run(
        kernel(
            "%table: !tile.buffer<i32>, %out: !tile.buffer<i32>, %g: !tile.buffer<i32>",
            """
  %idx = arith.constant dense<[4, 0, 99, 2, 2, 1]> : tensor<6xi64>
  %mask = arith.constant dense<[true, true, false, true, true, true]> : tensor<6xi1>
  %pad = arith.constant -1 : i32
  %v = tile.gather %table[%idx] mask %mask pad %pad : !tile.buffer<i32>, tensor<6xi64> -> tensor<6xi32>
  tile.store %v, %g[0] strides [1] : tensor<6xi32>, !tile.buffer<i32>
  %w = tile.iota {start = 100 : i32} : tensor<6xi32>
  tile.scatter %w, %out[%idx] mask %mask : tensor<6xi32>, !tile.buffer<i32>, tensor<6xi64>""",
        ),
        (1,),
        table, out, gathered,
    )
    np.testing.assert_array_equal(gathered, [50, 10, -1, 30, 30, 20])
    # index 2 is written by elements 3 and 4: element 4 (value 104) wins.
    np.testing.assert_array_equal(out, [101, 105, 104, 0, 100])


def test_scalar_gather_and_scatter_move_one_element():
    buffer = np.array([1.0, 2.0, 3.0], np.float32)
    run(
        kernel(
            "%b: !tile.buffer<f32>",
            """
  %i = arith.constant 2 : i32
  %j = arith.constant 0 : i32
  %v = tile.gather %b[%i] : !tile.buffer<f32>, i32 -> f32
  tile.scatter %v, %b[%j] : f32, !tile.buffer<f32>, i32""",
        ),
        (1,),
        buffer,
    )
    np.testing.assert_array_equal(buffer, [3.0, 2.0, 3.0])


def test_gather_outside_the_buffer_fails():
    with pytest.raises(KernelError, match=r"'tile.gather' op reads element 3 outside the buffer of 3"):
        run(
            kernel(
                "%b: !tile.buffer<f32>",
                """
  %idx = arith.constant dense<[0, 3]> : tensor<2xi32>
  %v = tile.gather %b[%idx] : !tile.buffer<f32>, tensor<2xi32> -> tensor<2xf32>""",
            ),
            (1,),
            np.zeros(3, np.float32),
        )


def test_atomic_add_applies_in_order_within_and_across_programs():
    """Each program adds its id+1 to counters [0, 1, 0]; the reads show the order."""
    counters = np.zeros(2, np.int32)
    reads = np.zeros(12, np.int32)
    run(
        kernel(
            "%c: !tile.buffer<i32>, %reads: !tile.buffer<i32>",
            """
  %pid = tile.program_id {axis = 0 : i32} : i32
  %one = arith.constant 1 : i32
  %inc = arith.addi %pid, %one : i32
  %v = tile.broadcast %inc : i32 -> tensor<3xi32>
  %idx = arith.constant dense<[0, 1, 0]> : tensor<3xi64>
  %old = tile.atomic_rmw add %c[%idx], %v : !tile.buffer<i32>, tensor<3xi64>, tensor<3xi32>
  %c3 = arith.constant 3 : i32
  %start = arith.muli %pid, %c3 : i32
  %off = arith.index_cast %start : i32 to index
  tile.store %old, %reads[%off] strides [1] : tensor<3xi32>, !tile.buffer<i32>""",
        ),
        (4,),
        counters, reads,
    )
    expected_reads, state = [], [0, 0]
    for pid in range(4):
        for index in (0, 1, 0):
            expected_reads.append(state[index])
            state[index] += pid + 1
    np.testing.assert_array_equal(reads, expected_reads)
    np.testing.assert_array_equal(counters, state)


@pytest.mark.parametrize(
    ("kind", "dtype", "combine"),
    [
        ("add", np.int8, lambda old, v: np.int8((int(old) + int(v) + 128) % 256 - 128)),
        ("and", np.int8, lambda old, v: old & v),
        ("or", np.int8, lambda old, v: old | v),
        ("xor", np.int8, lambda old, v: old ^ v),
        ("max", np.int8, max),
        ("min", np.int8, min),
        ("umax", np.int8, lambda old, v: max(old.view(np.uint8), v.view(np.uint8)).view(np.int8)),
        ("umin", np.int8, lambda old, v: min(old.view(np.uint8), v.view(np.uint8)).view(np.int8)),
        ("exch", np.int8, lambda old, v: v),
        ("fadd", np.float16, lambda old, v: np.float16(old + v)),
        ("max", np.float32, max),
        ("min", np.float32, min),
    ],
)
def test_atomic_kinds_combine_in_the_element_type(kind, dtype, combine):
    type_ = {np.int8: "i8", np.float16: "f16", np.float32: "f32"}[dtype]
    values = np.array([100, -3, 77, -128, 5], dtype)
    initial = np.array([90, 6], dtype)
    buffer = initial.copy()
    reads = np.zeros(5, dtype)
    run(
        kernel(
            f"%b: !tile.buffer<{type_}>, %v: !tile.buffer<{type_}>, %r: !tile.buffer<{type_}>",
            f"""
  %vals = tile.load %v[0] strides [1] : !tile.buffer<{type_}> -> tensor<5x{type_}>
  %idx = arith.constant dense<[0, 1, 0, 0, 1]> : tensor<5xi32>
  %old = tile.atomic_rmw {kind} %b[%idx], %vals : !tile.buffer<{type_}>, tensor<5xi32>, tensor<5x{type_}>
  tile.store %old, %r[0] strides [1] : tensor<5x{type_}>, !tile.buffer<{type_}>""",
        ),
        (1,),
        buffer, values.copy(), reads,
    )
    state = list(initial)
    expected_reads = []
    for index, value in zip([0, 1, 0, 0, 1], values):
        expected_reads.append(state[index])
        state[index] = combine(state[index], value)
    np.testing.assert_array_equal(reads, np.array(expected_reads, dtype))
    np.testing.assert_array_equal(buffer, np.array(state, dtype))


def test_atomic_compare_and_swap_with_mask():
    buffer = np.array([5, 7], np.int32)
    reads = np.full(4, -9, np.int32)
    run(
        kernel(
            "%b: !tile.buffer<i32>, %r: !tile.buffer<i32>",
            """
  %idx = arith.constant dense<[0, 0, 1, 1]> : tensor<4xi64>
  %cmp = arith.constant dense<[5, 5, 7, 8]> : tensor<4xi32>
  %val = arith.constant dense<[6, 9, 1, 2]> : tensor<4xi32>
  %mask = arith.constant dense<[true, true, false, true]> : tensor<4xi1>
  %old = tile.atomic_cas %b[%idx], %cmp, %val mask %mask : !tile.buffer<i32>, tensor<4xi64>, tensor<4xi32>
  tile.store %old, %r[0] strides [1] : tensor<4xi32>, !tile.buffer<i32>""",
        ),
        (1,),
        buffer, reads,
    )
    # [0]: 5 == 5 -> 6; then 6 != 5 stays.  [1]: masked, then 7 != 8 stays.
    np.testing.assert_array_equal(buffer, [6, 7])
    np.testing.assert_array_equal(reads, [5, 6, 0, 7])


# ---------------------------------------------------------------------------
# Vector unit
# ---------------------------------------------------------------------------


def test_map_runs_its_body_on_whole_tiles_with_scalars_and_several_results():
    x = np.linspace(-3, 3, 12, dtype=np.float32)
    out = np.zeros(24, np.float32)
    run(
        kernel(
            "%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %k: f32",
            """
  %a = tile.load %x[0] strides [4, 1] : !tile.buffer<f32> -> tensor<3x4xf32>
  %relu, %scaled = tile.map %a, %k : tensor<3x4xf32>, f32 -> tensor<3x4xf32>, tensor<3x4xf32> {
  ^bb0(%v: f32, %s: f32):
    %zero = arith.constant 0.0 : f32
    %pos = arith.cmpf ogt, %v, %zero : f32
    %r = arith.select %pos, %v, %zero : f32
    %e = math.exp %v : f32
    %m = arith.mulf %e, %s : f32
    tile.yield %r, %m : f32, f32
  }
  %seven = tile.map : -> tensor<3x4xf32> {
    %c = arith.constant 7.0 : f32
    tile.yield %c : f32
  }
  %sum = tile.map %relu, %seven : tensor<3x4xf32>, tensor<3x4xf32> -> tensor<3x4xf32> {
  ^bb0(%p: f32, %q: f32):
    %t = arith.addf %p, %q : f32
    tile.yield %t : f32
  }
  tile.store %sum, %out[0] strides [4, 1] : tensor<3x4xf32>, !tile.buffer<f32>
  tile.store %scaled, %out[12] strides [4, 1] : tensor<3x4xf32>, !tile.buffer<f32>""",
        ),
        (1,),
        x, out, 0.5,
    )
    np.testing.assert_array_equal(out[:12], np.maximum(x, 0) + np.float32(7))
    np.testing.assert_allclose(out[12:], np.exp(x.astype(np.float64)) * 0.5, rtol=1e-6)


REDUCE_OVER_AXIS = """
  %t = tile.load %x[0] strides [{cols}, 1] : !tile.buffer<f32> -> tensor<{rows}x{cols}xf32>
  %r = tile.reduce %t {{axis = {axis} : i32}} : tensor<{rows}x{cols}xf32> -> tensor<{kept}xf32> {{
  ^bb0(%l: f32, %n: f32):
    %s = arith.addf %l, %n : f32
    tile.yield %s : f32
  }}
  tile.store %r, %out[0] strides [1] : tensor<{kept}xf32>, !tile.buffer<f32>"""


@pytest.mark.parametrize("axis", [0, 1])
def test_reduce_sums_along_either_axis(axis):
    rows, cols = 5, 7
    x = np.arange(rows * cols, dtype=np.float32)
    kept = (rows, cols)[1 - axis]
    out = np.zeros(kept, np.float32)
    run(
        kernel(
            "%x: !tile.buffer<f32>, %out: !tile.buffer<f32>",
            REDUCE_OVER_AXIS.format(rows=rows, cols=cols, axis=axis, kept=kept),
        ),
        (1,),
        x, out,
    )
    np.testing.assert_array_equal(out, x.reshape(rows, cols).sum(axis=axis))


ARGMAX = kernel(
    "%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %where: !tile.buffer<i32>",
    """
  %v = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<13xf32>
  %i = tile.iota {start = 0 : i32} : tensor<13xi32>
  %m, %at = tile.reduce %v, %i {axis = 0 : i32} : tensor<13xf32>, tensor<13xi32> -> f32, i32 {
  ^bb0(%lv: f32, %li: i32, %rv: f32, %ri: i32):
    %gt = arith.cmpf ogt, %lv, %rv : f32
    %eq = arith.cmpf oeq, %lv, %rv : f32
    %lower = arith.cmpi slt, %li, %ri : i32
    %tie = arith.andi %eq, %lower : i1
    %left = arith.ori %gt, %tie : i1
    %bv = arith.select %left, %lv, %rv : f32
    %bi = arith.select %left, %li, %ri : i32
    tile.yield %bv, %bi : f32, i32
  }
  %z = arith.constant 0 : i32
  tile.scatter %m, %out[%z] : f32, !tile.buffer<f32>, i32
  tile.scatter %at, %where[%z] : i32, !tile.buffer<i32>, i32""",
)


def test_two_operand_reduce_finds_the_first_maximum():
    x = np.array([1, 9, 3, 9, 0, 2, 9, 4, 4, 1, 8, 7, 6], np.float32)
    out, where = np.zeros(1, np.float32), np.zeros(1, np.int32)
    run(ARGMAX, (1,), x, out, where)
    assert out[0] == 9 and where[0] == np.argmax(x) == 1


WELFORD = kernel(
    "%x: !tile.buffer<f32>, %out: !tile.buffer<f32>",
    """
  %c0 = arith.constant 0.0 : f32
  %c1 = arith.constant 1.0 : f32
  %v = tile.load %x[0] strides [25, 1] : !tile.buffer<f32> -> tensor<4x25xf32>
  %zero = tile.broadcast %c0 : f32 -> tensor<4x25xf32>
  %one = tile.broadcast %c1 : f32 -> tensor<4x25xf32>
  %mean, %m2, %n = tile.reduce %v, %zero, %one {axis = 1 : i32}
      : tensor<4x25xf32>, tensor<4x25xf32>, tensor<4x25xf32> -> tensor<4xf32>, tensor<4xf32>, tensor<4xf32> {
  ^bb0(%ma: f32, %qa: f32, %na: f32, %mb: f32, %qb: f32, %nb: f32):
    %delta = arith.subf %mb, %ma : f32
    %nab = arith.addf %na, %nb : f32
    %w = arith.divf %nb, %nab : f32
    %dw = arith.mulf %delta, %w : f32
    %mean = arith.addf %ma, %dw : f32
    %q = arith.addf %qa, %qb : f32
    %dd = arith.mulf %delta, %delta : f32
    %ddn = arith.mulf %dd, %na : f32
    %ddnw = arith.mulf %ddn, %w : f32
    %m2 = arith.addf %q, %ddnw : f32
    tile.yield %mean, %m2, %nab : f32, f32, f32
  }
  tile.store %mean, %out[0] strides [1] : tensor<4xf32>, !tile.buffer<f32>
  tile.store %m2, %out[4] strides [1] : tensor<4xf32>, !tile.buffer<f32>
  tile.store %n, %out[8] strides [1] : tensor<4xf32>, !tile.buffer<f32>""",
)


def test_three_operand_welford_reduce_gives_mean_and_squared_deviations():
    x = np.random.default_rng(0).normal(3.0, 2.0, 100).astype(np.float32)
    out = np.zeros(12, np.float32)
    run(WELFORD, (1,), x, out)
    rows = x.astype(np.float64).reshape(4, 25)
    np.testing.assert_allclose(out[:4], rows.mean(axis=1), rtol=1e-6)
    np.testing.assert_allclose(out[4:8], ((rows - rows.mean(axis=1, keepdims=True)) ** 2).sum(axis=1), rtol=1e-5)
    np.testing.assert_array_equal(out[8:], 25)


AFFINE_COMPOSITION = """
  ^bb0(%a1: i64, %b1: i64, %a2: i64, %b2: i64):
    %a = arith.muli %a1, %a2 : i64
    %ba = arith.muli %b1, %a2 : i64
    %b = arith.addi %ba, %b2 : i64
    tile.yield %a, %b : i64, i64"""
"""x -> a1 x + b1, then x -> a2 x + b2: associative, not commutative."""


def affine_kernel(op: str, reverse: int | None) -> str:
    attributes = "axis = 0 : i32" + ("" if reverse is None else f", reverse = {reverse} : i1")
    result = "i64, i64" if op == "reduce" else "tensor<11xi64>, tensor<11xi64>"
    store = (
        """%z = arith.constant 0 : i32
  tile.scatter %ra, %out[%z] : i64, !tile.buffer<i64>, i32
  %o = arith.constant 11 : i32
  tile.scatter %rb, %out[%o] : i64, !tile.buffer<i64>, i32"""
        if op == "reduce"
        else """tile.store %ra, %out[0] strides [1] : tensor<11xi64>, !tile.buffer<i64>
  tile.store %rb, %out[11] strides [1] : tensor<11xi64>, !tile.buffer<i64>"""
    )
    return kernel(
        "%x: !tile.buffer<i64>, %out: !tile.buffer<i64>",
        f"""
  %slopes = tile.load %x[0] strides [1] : !tile.buffer<i64> -> tensor<11xi64>
  %offsets = tile.load %x[11] strides [1] : !tile.buffer<i64> -> tensor<11xi64>
  %ra, %rb = tile.{op} %slopes, %offsets {{{attributes}}} : tensor<11xi64>, tensor<11xi64> -> {result} {{{AFFINE_COMPOSITION}
  }}
  {store}""",
    )


def compose(first, then):
    return first[0] * then[0], first[1] * then[0] + then[1]


AFFINE_INPUT = np.array([2, -1, 3, 1, 1, 2, -2, 1, 3, 1, 2] + [1, 4, -2, 0, 5, 1, 3, -1, 2, 2, 7], np.int64)


def test_reduce_keeps_the_operand_order_of_a_non_commutative_combiner():
    out = np.zeros(22, np.int64)
    run(affine_kernel("reduce", None), (1,), AFFINE_INPUT, out)
    total = (AFFINE_INPUT[0], AFFINE_INPUT[11])
    for k in range(1, 11):
        total = compose(total, (AFFINE_INPUT[k], AFFINE_INPUT[11 + k]))
    assert (out[0], out[11]) == total


@pytest.mark.parametrize("reverse", [0, 1])
def test_scan_is_the_inclusive_prefix_in_either_direction(reverse):
    out = np.zeros(22, np.int64)
    run(affine_kernel("scan", reverse), (1,), AFFINE_INPUT, out)
    pairs = list(zip(AFFINE_INPUT[:11], AFFINE_INPUT[11:]))
    order = list(range(11))[::-1] if reverse else list(range(11))
    expected, accumulated = {}, None
    for k in order:
        accumulated = pairs[k] if accumulated is None else compose(accumulated, pairs[k])
        expected[k] = accumulated
    np.testing.assert_array_equal(out[:11], [expected[k][0] for k in range(11)])
    np.testing.assert_array_equal(out[11:], [expected[k][1] for k in range(11)])


def test_scan_along_the_leading_axis_of_a_matrix():
    x = np.arange(12, dtype=np.int32).reshape(3, 4) - 5
    out = np.zeros(12, np.int32)
    run(
        kernel(
            "%x: !tile.buffer<i32>, %out: !tile.buffer<i32>",
            """
  %t = tile.load %x[0] strides [4, 1] : !tile.buffer<i32> -> tensor<3x4xi32>
  %c = tile.scan %t {axis = 0 : i32, reverse = 0 : i1} : tensor<3x4xi32> -> tensor<3x4xi32> {
  ^bb0(%l: i32, %r: i32):
    %m = arith.maxsi %l, %r : i32
    tile.yield %m : i32
  }
  tile.store %c, %out[0] strides [4, 1] : tensor<3x4xi32>, !tile.buffer<i32>""",
        ),
        (1,),
        x.reshape(-1), out,
    )
    np.testing.assert_array_equal(out.reshape(3, 4), np.maximum.accumulate(x, axis=0))


def test_iota_reshape_transpose_and_broadcast_rearrange_elements():
    out = np.zeros(24 + 6, np.int16)
    run(
        kernel(
            "%out: !tile.buffer<i16>",
            """
  %i = tile.iota {start = 3 : i32} : tensor<24xi16>
  %r = tile.reshape %i : tensor<24xi16> -> tensor<2x3x4xi16>
  %p = tile.transpose %r {permutation = array<i64: 2, 0, 1>} : tensor<2x3x4xi16> -> tensor<4x2x3xi16>
  tile.store %p, %out[0] strides [6, 3, 1] : tensor<4x2x3xi16>, !tile.buffer<i16>
  %s = arith.constant 9 : i16
  %b = tile.broadcast %s : i16 -> tensor<2x3xi16>
  tile.store %b, %out[24] strides [3, 1] : tensor<2x3xi16>, !tile.buffer<i16>""",
        ),
        (1,),
        out,
    )
    expected = np.transpose(np.arange(3, 27, dtype=np.int16).reshape(2, 3, 4), (2, 0, 1))
    np.testing.assert_array_equal(out[:24], expected.reshape(-1))
    np.testing.assert_array_equal(out[24:], 9)


TAKE = kernel(
    "%src: !tile.buffer<f32>, %idx: !tile.buffer<i32>, %out: !tile.buffer<f32>",
    """
  %s = tile.load %src[0] strides [8, 1] : !tile.buffer<f32> -> tensor<4x8xf32>
  %i = tile.load %idx[0] strides [3, 1] : !tile.buffer<i32> -> tensor<4x3xi32>
  %t = tile.take %s[%i] {axis = 1 : i32} : tensor<4x8xf32>, tensor<4x3xi32> -> tensor<4x3xf32>
  tile.store %t, %out[0] strides [3, 1] : tensor<4x3xf32>, !tile.buffer<f32>
  %rows = tile.load %idx[0] strides [8, 1] : !tile.buffer<i32> -> tensor<1x8xi32>
  %r = tile.take %s[%rows] {axis = 0 : i32} : tensor<4x8xf32>, tensor<1x8xi32> -> tensor<1x8xf32>
  tile.store %r, %out[12] strides [8, 1] : tensor<1x8xf32>, !tile.buffer<f32>""",
)


def test_take_picks_along_either_axis():
    source = np.arange(32, dtype=np.float32).reshape(4, 8) * 1.5
    indices = np.array([3, 0, 2, 1, 1, 0, 3, 2, 7, 7, 6, 5], np.int32)
    out = np.zeros(20, np.float32)
    run(TAKE, (1,), source.reshape(-1), indices, out)
    np.testing.assert_array_equal(
        out[:12], np.take_along_axis(source, indices.reshape(4, 3), 1).reshape(-1)
    )
    np.testing.assert_array_equal(
        out[12:], np.take_along_axis(source, indices[:8].reshape(1, 8), 0).reshape(-1)
    )


def test_take_outside_the_axis_fails_naming_the_index():
    indices = np.array([3, 0, 2, 1, 1, 0, 3, 8, 7, 7, 6, 5], np.int32)
    with pytest.raises(KernelError) as caught:
        run(TAKE, (1,), np.zeros(32, np.float32), indices, np.zeros(20, np.float32))
    assert "'tile.take' op takes element 8 of an axis of 8 (tile element [2, 1])" in str(caught.value)


# ---------------------------------------------------------------------------
# Matrix unit and control flow
# ---------------------------------------------------------------------------


def test_matmul_accumulates_half_precision_in_f32_over_a_k_loop():
    """C = A @ B with K = 48 in three steps of 16: scf.for carries the accumulator tile."""
    rng = np.random.default_rng(1)
    a = rng.normal(size=(8, 48)).astype(np.float16)
    b = rng.normal(size=(48, 4)).astype(np.float16)
    c = np.zeros(32, np.float32)
    run(
        kernel(
            "%a: !tile.buffer<f16>, %b: !tile.buffer<f16>, %c: !tile.buffer<f32>",
            """
  %zero = arith.constant 0.0 : f32
  %acc0 = tile.broadcast %zero : f32 -> tensor<8x4xf32>
  %lo = arith.constant 0 : i32
  %hi = arith.constant 48 : i32
  %step = arith.constant 16 : i32
  %acc = scf.for %k = %lo to %hi step %step iter_args(%acc_k = %acc0) -> (tensor<8x4xf32>) : i32 {
    %ki = arith.index_cast %k : i32 to index
    %c4 = arith.constant 4 : index
    %boff = arith.muli %ki, %c4 : index
    %at = tile.load %a[%ki] strides [48, 1] : !tile.buffer<f16> -> tensor<8x16xf16>
    %bt = tile.load %b[%boff] strides [4, 1] : !tile.buffer<f16> -> tensor<16x4xf16>
    %next = tile.matmul %at, %bt, %acc_k : tensor<8x16xf16>, tensor<16x4xf16> -> tensor<8x4xf32>
    scf.yield %next : tensor<8x4xf32>
  }
  tile.store %acc, %c[0] strides [4, 1] : tensor<8x4xf32>, !tile.buffer<f32>""",
        ),
        (1,),
        a.reshape(-1), b.reshape(-1), c,
    )
    exact = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.reshape(8, 4), exact, rtol=1e-5, atol=1e-5)


def test_batched_integer_matmul_wraps_in_the_accumulator_type():
    a = np.arange(2 * 2 * 3, dtype=np.int8).reshape(2, 2, 3) * 11
    b = np.arange(2 * 3 * 2, dtype=np.int8).reshape(2, 3, 2) - 5
    out = np.zeros(8, np.int32)
    run(
        kernel(
            "%a: !tile.buffer<i8>, %b: !tile.buffer<i8>, %out: !tile.buffer<i32>",
            """
  %at = tile.load %a[0] strides [6, 3, 1] : !tile.buffer<i8> -> tensor<2x2x3xi8>
  %bt = tile.load %b[0] strides [6, 2, 1] : !tile.buffer<i8> -> tensor<2x3x2xi8>
  %big = arith.constant 2147483000 : i32
  %acc = tile.broadcast %big : i32 -> tensor<2x2x2xi32>
  %d = tile.matmul %at, %bt, %acc : tensor<2x2x3xi8>, tensor<2x3x2xi8> -> tensor<2x2x2xi32>
  tile.store %d, %out[0] strides [4, 2, 1] : tensor<2x2x2xi32>, !tile.buffer<i32>""",
        ),
        (1,),
        a.reshape(-1), b.reshape(-1), out,
    )
    exact = a.astype(np.int64) @ b.astype(np.int64) + 2147483000
    assert np.any(exact > np.iinfo(np.int32).max), "the test must make some sums wrap"
    np.testing.assert_array_equal(out, (exact % 2**32).astype(np.uint32).view(np.int32).reshape(-1))


def test_half_precision_accumulator_sums_in_f32_and_rounds_once():
    """fp16 x fp16 -> fp16 as Triton's tt.dot and the MXU define it: f16(acc + sum in f32)."""
    rng = np.random.default_rng(2)
    a = rng.normal(size=(4, 64)).astype(np.float16)
    b = rng.normal(size=(64, 8)).astype(np.float16)
    c = rng.normal(size=(4, 8)).astype(np.float16)
    out = np.zeros(32, np.float16)
    run(
        kernel(
            "%a: !tile.buffer<f16>, %b: !tile.buffer<f16>, %c: !tile.buffer<f16>, %out: !tile.buffer<f16>",
            """
  %at = tile.load %a[0] strides [64, 1] : !tile.buffer<f16> -> tensor<4x64xf16>
  %bt = tile.load %b[0] strides [8, 1] : !tile.buffer<f16> -> tensor<64x8xf16>
  %ct = tile.load %c[0] strides [8, 1] : !tile.buffer<f16> -> tensor<4x8xf16>
  %d = tile.matmul %at, %bt, %ct : tensor<4x64xf16>, tensor<64x8xf16> -> tensor<4x8xf16>
  tile.store %d, %out[0] strides [8, 1] : tensor<4x8xf16>, !tile.buffer<f16>""",
        ),
        (1,),
        a.reshape(-1), b.reshape(-1), c.reshape(-1), out,
    )
    once = (a.astype(np.float64) @ b.astype(np.float64) + c).astype(np.float16)
    per_step = c.copy()
    for k in range(64):
        per_step = (per_step + a[:, k, None] * b[None, k, :]).astype(np.float16)
    # Sums in f32 differ from the exactly rounded result by far less than an f16 ulp.
    assert np.mean(out.reshape(4, 8) == once) > 0.9
    assert np.mean(per_step == once) < 0.5, "an f16 accumulator would round every step"


def test_scf_if_and_while_carry_tiles():
    """Double a tile while its sum is below 100; negate it if the program id is odd."""
    out = np.zeros(6, np.int32)
    run(
        kernel(
            "%out: !tile.buffer<i32>",
            """
  %pid = tile.program_id {axis = 0 : i32} : i32
  %t0 = tile.iota {start = 1 : i32} : tensor<3xi32>
  %t = scf.while (%cur = %t0) : (tensor<3xi32>) -> tensor<3xi32> {
    %s = tile.reduce %cur {axis = 0 : i32} : tensor<3xi32> -> i32 {
    ^bb0(%l: i32, %r: i32):
      %a = arith.addi %l, %r : i32
      tile.yield %a : i32
    }
    %limit = arith.constant 100 : i32
    %go = arith.cmpi slt, %s, %limit : i32
    scf.condition(%go) %cur : tensor<3xi32>
  } do {
  ^bb0(%cur: tensor<3xi32>):
    %twice = tile.map %cur : tensor<3xi32> -> tensor<3xi32> {
    ^bb0(%v: i32):
      %d = arith.addi %v, %v : i32
      tile.yield %d : i32
    }
    scf.yield %twice : tensor<3xi32>
  }
  %one = arith.constant 1 : i32
  %bit = arith.andi %pid, %one : i32
  %odd = arith.cmpi ne, %bit, %one : i32
  %r = scf.if %odd -> (tensor<3xi32>) {
    scf.yield %t : tensor<3xi32>
  } else {
    %neg = tile.map %t : tensor<3xi32> -> tensor<3xi32> {
    ^bb0(%v: i32):
      %z = arith.constant 0 : i32
      %n = arith.subi %z, %v : i32
      tile.yield %n : i32
    }
    scf.yield %neg : tensor<3xi32>
  }
  %c3 = arith.constant 3 : i32
  %start = arith.muli %pid, %c3 : i32
  %off = arith.index_cast %start : i32 to index
  tile.store %r, %out[%off] strides [1] : tensor<3xi32>, !tile.buffer<i32>""",
        ),
        (2,),
        out,
    )
    np.testing.assert_array_equal(out, [32, 64, 96, -32, -64, -96])


def test_grid_runs_x_fastest_and_reports_its_size():
    """Each instance takes a ticket from an atomic counter and files it under (x, y, z)."""
    grid = (3, 2, 2)
    tickets = np.full(12, -1, np.int32)
    sizes = np.zeros(3, np.int32)
    counter = np.zeros(1, np.int32)
    run(
        kernel(
            "%counter: !tile.buffer<i32>, %tickets: !tile.buffer<i32>, %sizes: !tile.buffer<i32>",
            """
  %x = tile.program_id {axis = 0 : i32} : i32
  %y = tile.program_id {axis = 1 : i32} : i32
  %z = tile.program_id {axis = 2 : i32} : i32
  %nx = tile.num_programs {axis = 0 : i32} : i32
  %ny = tile.num_programs {axis = 1 : i32} : i32
  %nz = tile.num_programs {axis = 2 : i32} : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %ticket = tile.atomic_rmw add %counter[%zero], %one : !tile.buffer<i32>, i32, i32
  %zy = arith.muli %z, %ny : i32
  %zyy = arith.addi %zy, %y : i32
  %row = arith.muli %zyy, %nx : i32
  %slot = arith.addi %row, %x : i32
  tile.scatter %ticket, %tickets[%slot] : i32, !tile.buffer<i32>, i32
  %two = arith.constant 2 : i32
  tile.scatter %nx, %sizes[%zero] : i32, !tile.buffer<i32>, i32
  tile.scatter %ny, %sizes[%one] : i32, !tile.buffer<i32>, i32
  tile.scatter %nz, %sizes[%two] : i32, !tile.buffer<i32>, i32""",
        ),
        grid,
        counter, tickets, sizes,
    )
    np.testing.assert_array_equal(tickets, np.arange(12))
    np.testing.assert_array_equal(sizes, grid)


def test_buffer_cast_views_the_same_bytes():
    flags = np.array([True, False, True, True])
    floats = np.array([1.0, -2.0], np.float32)
    out = np.zeros(6, np.int32)
    run(
        kernel(
            "%flags: !tile.buffer<i1>, %floats: !tile.buffer<f32>, %out: !tile.buffer<i32>",
            """
  %bytes = tile.buffer_cast %flags : !tile.buffer<i1> to !tile.buffer<i8>
  %b = tile.load %bytes[0] strides [1] : !tile.buffer<i8> -> tensor<4xi8>
  %w = tile.map %b : tensor<4xi8> -> tensor<4xi32> {
  ^bb0(%v: i8):
    %e = arith.extsi %v : i8 to i32
    tile.yield %e : i32
  }
  tile.store %w, %out[0] strides [1] : tensor<4xi32>, !tile.buffer<i32>
  %bits = tile.buffer_cast %floats : !tile.buffer<f32> to !tile.buffer<i32>
  %f = tile.load %bits[0] strides [1] : !tile.buffer<i32> -> tensor<2xi32>
  tile.store %f, %out[4] strides [1] : tensor<2xi32>, !tile.buffer<i32>""",
        ),
        (1,),
        flags, floats, out,
    )
    np.testing.assert_array_equal(out[:4], [1, 0, 1, 1])
    np.testing.assert_array_equal(out[4:], floats.view(np.int32))


ASSERTING = kernel(
    "%x: !tile.buffer<i64>, %n: i64",
    """
  %t = tile.load %x[0] strides [1] : !tile.buffer<i64> -> tensor<4xi64>
  %ok = tile.map %t, %n : tensor<4xi64>, i64 -> tensor<4xi1> {
  ^bb0(%v: i64, %limit: i64):
    %in = arith.cmpi slt, %v, %limit : i64
    tile.yield %in : i1
  }
  tile.assert %ok, "index out of bounds: 0 <= tmp4 < 1000" : tensor<4xi1> loc("k.py":12:8)""",
)


def test_assert_passes_when_its_condition_holds_everywhere():
    x = np.array([0, 999, 5, 7], np.int64)
    run(ASSERTING, (1,), x, 1000)
    np.testing.assert_array_equal(x, [0, 999, 5, 7])


def test_assert_fails_the_launch_with_its_message():
    with pytest.raises(KernelError) as caught:
        run(ASSERTING, (1,), np.array([0, 999, 1000, 7], np.int64), 1000)
    assert str(caught.value) == (
        "kernel.mlir:9:3: error: 'tile.assert' op assertion failed at tile element [2]: "
        "index out of bounds: 0 <= tmp4 < 1000, in program (0, 0, 0) (at k.py:12:8)"
    )


def test_bf16_map_rounds_in_bf16():
    x = np.array([1.0, 1.0078125, 3.0], ml_dtypes.bfloat16)
    out = np.zeros(3, ml_dtypes.bfloat16)
    run(
        kernel(
            "%x: !tile.buffer<bf16>, %out: !tile.buffer<bf16>",
            """
  %t = tile.load %x[0] strides [1] : !tile.buffer<bf16> -> tensor<3xbf16>
  %s = tile.map %t : tensor<3xbf16> -> tensor<3xbf16> {
  ^bb0(%v: bf16):
    %c = arith.constant 0.00390625 : bf16
    %r = arith.addf %v, %c : bf16
    tile.yield %r : bf16
  }
  tile.store %s, %out[0] strides [1] : tensor<3xbf16>, !tile.buffer<bf16>""",
        ),
        (1,),
        x, out,
    )
    # bf16 keeps 8 significant bits: 1 + 2^-8 ties between 1 and 1 + 2^-7 and
    # rounds to even (1); 1 + 3*2^-8 ties and rounds to 1 + 2^-6; 3 + 2^-8 is 3.
    expected = [1.0, 1.015625, 3.0]
    np.testing.assert_array_equal(out.astype(np.float64), expected)


def test_an_op_without_implementation_is_refused_before_the_launch():
    op = parse_kernel(kernel("%out: !tile.buffer<i32>", "  %pid = tt.get_program_id x : i32"))
    with pytest.raises(CompileError, match="'tt.get_program_id' op has no implementation in the tile"):
        check_interpretable(op)


def test_scf_index_switch_picks_the_case_of_the_program_id():
    out = np.zeros(3, np.int32)
    run(
        kernel(
            "%out: !tile.buffer<i32>",
            """
  %pid = tile.program_id {axis = 0 : i32} : i32
  %i = arith.index_cast %pid : i32 to index
  %v = scf.index_switch %i -> i32
  case 1 {
    %a = arith.constant 10 : i32
    scf.yield %a : i32
  }
  case 2 {
    %b = arith.constant 20 : i32
    scf.yield %b : i32
  }
  default {
    %c = arith.constant -1 : i32
    scf.yield %c : i32
  }
  tile.scatter %v, %out[%pid] : i32, !tile.buffer<i32>, i32""",
        ),
        (3,),
        out,
    )
    np.testing.assert_array_equal(out, [-1, 10, 20])
