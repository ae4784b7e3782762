"""Binding a TOG to a launch: per-instance and per-iteration costs from launch scalars."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from timing_kernels import matmul, npu, parse_kernel, vector_add, vector_add_launch

from tnpu.diagnostics import CompileError
from tnpu.timing.cost_model import TileCostModel, TransferCost
from tnpu.timing.launch_binding import (
    BoundLaunch,
    BranchChoice,
    Launch,
    LoopRuns,
    bind_launch,
    distinct_rows,
)
from tnpu.timing.tog import TileOperationGraph


def bind(text: str, grid: tuple[int, int, int], arguments: list) -> BoundLaunch:
    model = TileCostModel(npu())
    return bind_launch(TileOperationGraph.build(parse_kernel(text), model), model, Launch(grid, arguments))


def read_bytes(part) -> int:
    assert isinstance(part, TransferCost)
    return part.read_bytes


def test_programs_with_equal_costs_share_a_schedule():
    n, block = 1000 * 256 + 40, 256
    bound = bind(vector_add(block), *vector_add_launch(n, block))
    (full, full_count), (tail, tail_count) = bound.instance_runs()
    assert (full_count, tail_count) == (1000, 1)
    assert read_bytes(full.parts[0]) == 4 * block
    assert read_bytes(tail.parts[0]) == 4 * 40
    assert tail.parts[0].dram_bytes == 160  # 160 bytes: five whole 32-byte requests
    assert full.parts[2] is None  # the map's cost is in the graph


def test_a_loop_binds_to_runs_of_iterations():
    bound = bind(matmul(64, 64, 32), (4, 2, 1), [None, None, None, 256, 128, 320])
    [(schedule, count)] = bound.instance_runs()
    assert count == 8
    loop = schedule.parts[1]
    assert isinstance(loop, LoopRuns)
    [(iteration, trips)] = loop.runs
    assert trips == 320 // 32
    assert [read_bytes(p) for p in iteration.parts[:2]] == [4 * 64 * 32, 4 * 32 * 64]


LOOPED_ROWS = """
tile.kernel @rows(%x: !tile.buffer<f32>, %n: i32) {{
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %count = arith.index_cast %n : i32 to index
  %pid = tile.program_id {{axis = 0 : i32}} : i32
  %p = arith.index_cast %pid : i32 to index
  %end = arith.subi %count, %p : index
  {loop}
  tile.return
}}
"""

AT_ONCE = LOOPED_ROWS.format(loop="""
  scf.for %i = %c0 to %end step %c8 {
    %left = arith.subi %end, %i : index
    %t = tile.load %x[%i] strides [1] upper [%left] : !tile.buffer<f32> -> tensor<8xf32>
  }""")

STEP_BY_STEP = LOOPED_ROWS.format(loop="""
  %last = scf.for %i = %c0 to %end step %c8 iter_args(%offset = %c0) -> (index) {
    %left = arith.subi %end, %offset : index
    %t = tile.load %x[%offset] strides [1] upper [%left] : !tile.buffer<f32> -> tensor<8xf32>
    %next = arith.addi %offset, %c8 : index
    scf.yield %next : index
  }""")


def iteration_bytes(bound: BoundLaunch) -> list[list[int]]:
    """Per program instance, the bytes each iteration of its loop reads."""
    result = []
    for instance in bound.instance_schedules:
        runs = bound.schedules[instance].parts[0]
        assert isinstance(runs, LoopRuns)
        result.append([read_bytes(s.parts[0]) for s, count in runs.runs for _ in range(count)])
    return result


def test_loops_bind_alike_whether_evaluated_at_once_or_step_by_step():
    at_once = iteration_bytes(bind(AT_ONCE, (3, 1, 1), [None, 21]))
    step_by_step = iteration_bytes(bind(STEP_BY_STEP, (3, 1, 1), [None, 21]))
    # Program p covers 21 - p elements, 8 at a time.
    assert at_once == [[32, 32, 20], [32, 32, 16], [32, 32, 12]]
    assert step_by_step == at_once


def test_a_while_loop_runs_as_long_as_its_launch_values_say():
    bound = bind("""
tile.kernel @k(%x: !tile.buffer<f32>, %n: i32) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %pid) : (i32) -> (i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%j: i32):
    %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
    %k = arith.addi %j, %c1 : i32
    scf.yield %k : i32
  }
  tile.return
}""", (4, 1, 1), [None, 3])
    trips = [bound.schedules[i].parts[0].trip_count for i in bound.instance_schedules]
    assert trips == [3, 2, 1, 0]
    assert bound.assumptions == []


def test_programs_are_numbered_x_fastest():
    bound = bind("""
tile.kernel @k(%x: !tile.buffer<f32>) {
  %py = tile.program_id {axis = 1 : i32} : i32
  %rows = arith.index_cast %py : i32 to index
  %t = tile.load %x[0] strides [1] upper [%rows] : !tile.buffer<f32> -> tensor<64xf32>
  tile.return
}""", (2, 3, 1), [None])
    rows = [read_bytes(bound.schedules[i].parts[0]) // 4 for i in bound.instance_schedules]
    assert rows == [0, 0, 1, 1, 2, 2]


def test_a_branch_on_the_program_id_is_taken_where_it_holds():
    bound = bind("""
tile.kernel @k(%x: !tile.buffer<f32>) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %c0 = arith.constant 0 : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  scf.if %first {
    %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  }
  tile.return
}""", (3, 1, 1), [None])
    choices = [bound.schedules[i].parts[0] for i in bound.instance_schedules]
    assert all(isinstance(c, BranchChoice) for c in choices)
    assert [c.taken for c in choices] == [0, 1, 1]


def test_tile_data_in_a_descriptor_is_assumed_worst_and_reported():
    bound = bind("""
tile.kernel @k(%x: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %s = tile.reduce %t {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %b : f32
    tile.yield %m : f32
  }
  %n = arith.fptosi %s : f32 to i32
  %stride = arith.index_cast %n : i32 to index
  %u = tile.load %x[0] strides [%stride] : !tile.buffer<f32> -> tensor<64xf32>
  tile.return
}""", (1, 1, 1), [None])
    [(schedule, _)] = bound.instance_runs()
    gathered = schedule.parts[2]
    assert isinstance(gathered, TransferCost)
    assert (gathered.read_bytes, gathered.dram_bytes) == (256, 64 * 32)
    [note] = bound.assumptions
    assert "'tile.load': its bounds or strides depend on tile data" in note


def test_a_for_loop_bounded_by_tile_data_is_refused():
    with pytest.raises(CompileError, match="the trip count depends on tile data"):
        bind("""
tile.kernel @k(%x: !tile.buffer<i32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<i32> -> tensor<4xi32>
  %s = tile.reduce %t {axis = 0 : i32} : tensor<4xi32> -> i32 {
  ^bb0(%a: i32, %b: i32):
    %m = arith.addi %a, %b : i32
    tile.yield %m : i32
  }
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %s step %c1 : i32 {
    %u = tile.load %x[0] strides [1] : !tile.buffer<i32> -> tensor<4xi32>
  }
  tile.return
}""", (1, 1, 1), [None])


@given(st.lists(st.lists(st.integers(-2, 3), min_size=3, max_size=3), min_size=1, max_size=40))
def test_distinct_rows_groups_equal_rows(rows):
    matrix = np.array(rows, dtype=np.int64)
    distinct, inverse = distinct_rows(matrix)
    assert np.array_equal(distinct[inverse], matrix)
    assert len({tuple(r) for r in distinct.tolist()}) == len(distinct) == len({tuple(r) for r in rows})
