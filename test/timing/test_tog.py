"""The tile-operation graph: nodes per unit, data edges, loops and branches as structure."""

from __future__ import annotations

import pytest
from timing_kernels import matmul, npu, parse_kernel, vector_add

from tnpu.diagnostics import CompileError
from tnpu.timing.cost_model import TileCostModel, Unit
from tnpu.timing.tog import BranchNode, Dependency, LoopNode, OpNode, TileOperationGraph


def build(text: str) -> TileOperationGraph:
    return TileOperationGraph.build(parse_kernel(text), TileCostModel(npu()))


def test_vector_add_is_two_loads_a_map_and_a_store():
    graph = build(vector_add(256)).graph
    assert [(n.op.name, n.unit) for n in graph.nodes] == [
        ("tile.load", Unit.DMA), ("tile.load", Unit.DMA),
        ("tile.map", Unit.VECTOR), ("tile.store", Unit.DMA),
    ]
    assert [n.deps for n in graph.nodes] == [
        (), (), (Dependency(0), Dependency(1)), (Dependency(2),),
    ]
    assert graph.tile_bytes == 3 * 256 * 4
    assert graph.nodes[2].compute is not None and graph.nodes[0].compute is None


def test_a_take_is_a_vector_node_reading_its_source_and_its_indices():
    graph = build("""tile.kernel @k(%x: !tile.buffer<f32>, %i: !tile.buffer<i32>, %out: !tile.buffer<f32>) {
  %a = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %j = tile.load %i[0] strides [1] : !tile.buffer<i32> -> tensor<64xi32>
  %t = tile.take %a[%j] {axis = 0 : i32} : tensor<64xf32>, tensor<64xi32> -> tensor<64xf32>
  tile.store %t, %out[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  tile.return
}""").graph
    take = graph.nodes[2]
    assert (take.op.name, take.unit, take.deps) == ("tile.take", Unit.VECTOR, (Dependency(0), Dependency(1)))
    assert take.compute is not None and graph.nodes[3].deps == (Dependency(2),)


def test_a_loop_is_one_node_whose_body_accumulates_through_the_matrix_unit():
    graph = build(matmul(128, 128, 64)).graph
    kinds = [type(n).__name__ for n in graph.nodes]
    assert kinds == ["OpNode", "LoopNode", "OpNode"]
    broadcast, loop, store = graph.nodes
    assert isinstance(loop, LoopNode) and loop.deps == (Dependency(0),)
    assert store.deps == (Dependency(1),)
    load_a, load_b, product = loop.body.nodes
    assert product.deps == (Dependency(0), Dependency(1))
    # The accumulator comes from the previous iteration's matmul: chained, so the
    # next product streams right behind it.
    assert product.carried_deps == (Dependency(2, chained=True),)
    assert loop.body.tile_bytes == 4 * (128 * 64 + 64 * 128 + 128 * 128)
    depths = {graph: 3, loop.body: 2}
    # Per run: its own tiles and the body's of the iterations in flight; the
    # body's two loads each of those iterations.
    assert graph.holds(depths) == (graph.tile_bytes + 2 * loop.body.tile_bytes, 2 * 2)


def test_scalar_arithmetic_and_reshapes_pass_their_producers_on():
    graph = build("""
tile.kernel @k(%x: !tile.buffer<f32>, %i: !tile.buffer<i32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %r = tile.reshape %t : tensor<64xf32> -> tensor<8x8xf32>
  %s = tile.reduce %t {axis = 0 : i32} : tensor<64xf32> -> f32 {
  ^bb0(%a: f32, %b: f32):
    %m = arith.addf %a, %b : f32
    tile.yield %m : f32
  }
  %n = arith.fptosi %s : f32 to i32
  %idx = arith.index_cast %n : i32 to index
  %u = tile.load %x[%idx] strides [8, 1] : !tile.buffer<f32> -> tensor<8x8xf32>
  %v = tile.map %r, %u : tensor<8x8xf32>, tensor<8x8xf32> -> tensor<8x8xf32> {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %b : f32
    tile.yield %m : f32
  }
  tile.return
}""").graph
    names = [n.op.name for n in graph.nodes]
    assert names == ["tile.load", "tile.reduce", "tile.load", "tile.map"]
    # The second load's offset comes from the reduction; the map reads the first
    # load through the reshape.
    assert graph.nodes[2].deps == (Dependency(1),)
    assert graph.nodes[3].deps == (Dependency(0), Dependency(2))


def test_a_branch_holds_both_regions():
    graph = build("""
tile.kernel @k(%x: !tile.buffer<f32>, %n: i32) {
  %pid = tile.program_id {axis = 0 : i32} : i32
  %first = arith.cmpi eq, %pid, %n : i32
  scf.if %first {
    %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
    tile.store %t, %x[64] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  }
  tile.return
}""").graph
    [branch] = graph.nodes
    assert isinstance(branch, BranchNode)
    then, otherwise = branch.branches
    assert [n.op.name for n in then.nodes] == ["tile.load", "tile.store"]
    assert otherwise.nodes == []


def test_an_op_the_npu_cannot_run_is_refused_with_its_name():
    with pytest.raises(CompileError, match="the timer does not know 'arith.addf'"):
        build("""
tile.kernel @k(%x: !tile.buffer<f32>) {
  %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %s = arith.addf %t, %t : tensor<64xf32>
  tile.return
}""")


def test_while_loops_carry_values_from_the_after_region():
    graph = build("""
tile.kernel @k(%x: !tile.buffer<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %zero = arith.constant 0.0 : f32
  %init = tile.broadcast %zero : f32 -> tensor<64xf32>
  %r:2 = scf.while (%i = %c0, %acc = %init) : (i32, tensor<64xf32>) -> (i32, tensor<64xf32>) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc : i32, tensor<64xf32>
  } do {
  ^bb0(%j: i32, %a: tensor<64xf32>):
    %t = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
    %s = tile.map %t, %a : tensor<64xf32>, tensor<64xf32> -> tensor<64xf32> {
    ^bb0(%p: f32, %q: f32):
      %m = arith.addf %p, %q : f32
      tile.yield %m : f32
    }
    %c1 = arith.constant 1 : i32
    %k = arith.addi %j, %c1 : i32
    scf.yield %k, %s : i32, tensor<64xf32>
  }
  tile.return
}""").graph
    _, loop = graph.nodes
    assert isinstance(loop, LoopNode)
    load, add = loop.body.nodes
    assert isinstance(add, OpNode)
    assert add.deps == (Dependency(0),)
    assert add.carried_deps == (Dependency(1),)


def test_accesses_to_a_buffer_read_and_written_keep_their_order():
    """`w` is written then read, `x` read then updated atomically, `y` only read:
    later conflicting accesses wait for earlier ones to finish, in the same program
    and from the previous program on the core; two atomics need no order, nor two
    reads."""
    graph = build("""
tile.kernel @k(%x: !tile.buffer<f32>, %y: !tile.buffer<f32>, %w: !tile.buffer<f32>) {
  %a = tile.load %x[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  tile.store %a, %w[0] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  %b = tile.load %y[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %c = tile.load %w[64] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  %i = tile.iota {start = 0 : i32} : tensor<64xi32>
  %o = tile.atomic_rmw fadd %x[%i], %c : !tile.buffer<f32>, tensor<64xi32>, tensor<64xf32>
  %p = tile.atomic_rmw fadd %x[%i], %b : !tile.buffer<f32>, tensor<64xi32>, tensor<64xf32>
  tile.return
}""").graph
    load_x, store_w, load_y, load_w, iota, atomic, second_atomic = graph.nodes
    assert (load_x.buffer, store_w.buffer, load_y.buffer) == (0, 2, 1)
    assert load_w.deps == (Dependency(store_w.index),)
    assert atomic.deps == (Dependency(load_x.index), Dependency(load_w.index), Dependency(iota.index))
    assert atomic.index not in {d.node for d in second_atomic.deps}
    assert load_y.deps == () and load_y.carried_deps == ()
    # From the previous program: w's store after its store and read, its read after
    # its store; x's read after the atomics, the atomics after the read.
    assert {d.node for d in store_w.carried_deps} == {store_w.index, load_w.index}
    assert {d.node for d in load_w.carried_deps} == {store_w.index}
    assert {d.node for d in load_x.carried_deps} == {atomic.index, second_atomic.index}
    assert {d.node for d in atomic.carried_deps} == {load_x.index}


def test_a_loop_reading_what_its_previous_iteration_stored_waits_for_it():
    graph = build("""
tile.kernel @k(%w: !tile.buffer<f32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  scf.for %k = %c0 to %n step %c64 {
    %t = tile.load %w[%k] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
    %next = arith.addi %k, %c64 : index
    tile.store %t, %w[%next] strides [1] : tensor<64xf32>, !tile.buffer<f32>
  }
  tile.return
}""").graph
    [loop] = graph.nodes
    load, store = loop.body.nodes
    assert load.carried_deps == (Dependency(store.index),)
    # The load's box is not the store's: the next program's loop waits for this one's.
    assert loop.carried_deps == (Dependency(loop.index),)


def test_a_buffer_that_is_not_a_kernel_argument_is_refused():
    with pytest.raises(CompileError, match="orders accesses by kernel argument, and this buffer is not one"):
        build("""
tile.kernel @k(%x: !tile.buffer<f32>, %y: !tile.buffer<f32>, %n: i32) {
  %c0 = arith.constant 0 : i32
  %pid = tile.program_id {axis = 0 : i32} : i32
  %first = arith.cmpi eq, %pid, %c0 : i32
  %b = scf.if %first -> (!tile.buffer<f32>) {
    scf.yield %x : !tile.buffer<f32>
  } else {
    scf.yield %y : !tile.buffer<f32>
  }
  %t = tile.load %b[0] strides [1] : !tile.buffer<f32> -> tensor<64xf32>
  tile.return
}""")
