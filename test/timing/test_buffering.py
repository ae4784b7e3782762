"""Latency hidden as an NPU hides it, on Triton kernels compiled as a user's are:
buffering as deep as the scratchpad and the DMA's outstanding limit allow,
pipelined DMA engines, memory order kept, and two rooflines never beaten.

Every expected figure is derived here from the configuration's fields.
"""

from __future__ import annotations

import dataclasses
import math
from collections import defaultdict

import pytest
from triton_kernels import (
    add_kernel,
    matmul_kernel,
    scale_in_place_kernel,
    softmax_kernel,
    store_then_load_kernel,
    triton_timer,
)

from tnpu.timing.launch_binding import Launch
from tnpu.timing.npu_config import load_npu_config
from tnpu.timing.simulator import SimulationOptions, Simulator, buffering_depths

PRESETS = ["tpuv3", "tpuv6e"]
SYNCHRONOUS = SimulationOptions(double_buffering=False)


def f32_buffers(*elements: int) -> dict[int, int]:
    """`Launch.buffer_bytes` of f32 buffers of these sizes, in argument order."""
    return {position: 4 * count for position, count in enumerate(elements)}


def add_launch(n: int, block: int) -> Launch:
    return Launch((-(-n // block), 1, 1), [None, None, None, n], f32_buffers(n, n, n))


def never_beats_a_roofline(report) -> bool:
    return report.cycles >= report.roofline_cycles >= report.compulsory_cycles


@pytest.mark.parametrize("preset", PRESETS)
def test_a_large_vector_add_with_4kb_tiles_is_within_ten_percent_of_its_roofline(preset):
    """16M f32 elements, 1024 per program: each program moves 3 × 4 KB, far less than
    the DRAM latency hides; programs in flight cover it (2.7 × the roofline when
    at most two were)."""
    config = load_npu_config(preset)
    n, block = 1 << 24, 1024
    report = triton_timer(add_kernel, config, BLOCK=block).time(add_launch(n, block))
    bandwidth = 3 * 4 * n / config.dram_bytes_per_cycle
    assert report.roofline_bound == report.compulsory_bound == "memory"
    assert report.roofline_cycles == pytest.approx(bandwidth)
    assert report.compulsory_cycles == pytest.approx(bandwidth)
    assert never_beats_a_roofline(report)
    assert report.cycles <= 1.10 * bandwidth


@pytest.mark.parametrize("preset", PRESETS)
def test_a_row_softmax_with_4kb_rows_hides_the_dram_latency_behind_its_vector_work(preset):
    """4096 rows of 1024 f32, a row per program.  The DRAM latency is hidden: the
    time is within 15% of the larger of the roofline and the vector unit's busy
    time.  That busy time, not the roofline, binds: each row's max and sum reduce
    one vector across its lanes in ceil(log2 1024) permute-and-combine steps, so
    the vector unit works several times the memory roofline per row."""
    config = load_npu_config(preset)
    rows, columns = 4096, 1024
    launch = Launch((rows, 1, 1), [None, None, columns], f32_buffers(rows * columns, rows * columns))
    report = triton_timer(softmax_kernel, config, BLOCK=columns).time(launch)
    memory = 2 * 4 * rows * columns / config.dram_bytes_per_cycle
    assert report.roofline_cycles == pytest.approx(memory)
    steps = math.ceil(math.log2(columns))
    cross_lane = config.op_issue("cross_lane") + config.op_issue("arith.addf")
    assert report.units["vector"].busy_cycles >= rows * 2 * steps * cross_lane
    bound = max(report.roofline_cycles, report.units["vector"].busy_cycles)
    assert never_beats_a_roofline(report)
    assert report.cycles <= 1.15 * bound


def test_with_buffering_off_each_program_waits_out_its_whole_chain():
    """Synchronous DMA: load x, load y (its descriptor issued while x streams), the
    DRAM latency, the add, the store; only then the next program.  The closed form
    is that chain once per program, plus the last store landing and the launch's
    fixed cost."""
    config = load_npu_config("tpuv3")
    block, programs = 4096, 64
    timer = triton_timer(add_kernel, config, BLOCK=block)
    report = timer.time(add_launch(programs * block, block), SYNCHRONOUS)
    transfer = 4 * block / config.dram_bytes_per_cycle
    assert config.dma_issue_cycles <= transfer
    latency = config.dram_latency_cycles
    add = math.ceil(block / config.vector_width(32)) * config.op_issue("arith.addf")
    chain = 2 * config.dma_issue_cycles + 3 * transfer + latency + add + config.op_latency("arith.addf")
    assert report.cycles == pytest.approx(programs * chain + latency + config.launch_overhead_cycles)
    assert timer.time(add_launch(programs * block, block)).cycles < report.cycles / 2


def test_depth_is_what_the_scratchpad_holds_and_the_dma_keeps_in_flight():
    """A vector add program holds three tiles and loads two: as many programs are in
    flight as fit, and at most one computing plus as many as have both loads
    outstanding."""
    block = 16384
    tiles = 3 * 4 * block
    for lanes_kb, outstanding in ((1, 16), (2, 16), (5, 16), (64, 4), (64, 16)):
        config = dataclasses.replace(
            load_npu_config("tpuv3"),
            vpu_spad_size_kb_per_lane=lanes_kb, dma_outstanding_per_engine=outstanding,
        )
        graph = triton_timer(add_kernel, config, BLOCK=block).tog.graph
        fits = config.scratchpad_bytes // tiles
        expected = 1 if fits == 0 else min(fits, 1 + -(-outstanding // 2))
        assert buffering_depths(graph, config) == {graph: expected}, (lanes_kb, outstanding)
        assert buffering_depths(graph, config, enabled=False) == {graph: 1}


def test_a_kernel_whose_tiles_fit_once_gets_no_overlap():
    """192 KB of tiles per program in a 256 KB scratchpad: one program at a time, the
    synchronous chain, slower than with room for more."""
    block, programs = 16384, 32
    small = dataclasses.replace(load_npu_config("tpuv3"), vpu_spad_size_kb_per_lane=2)
    timer = triton_timer(add_kernel, small, BLOCK=block)
    launch = add_launch(programs * block, block)
    assert Simulator(small).depths(timer.tog.graph) == {timer.tog.graph: 1}
    alone = timer.time(launch)
    assert alone.cycles == pytest.approx(timer.time(launch, SYNCHRONOUS).cycles)
    roomy = triton_timer(add_kernel, load_npu_config("tpuv3"), BLOCK=block).time(launch)
    assert roomy.cycles < alone.cycles / 1.25


@pytest.mark.parametrize("preset", PRESETS)
def test_small_transfers_are_bound_by_the_outstanding_limit(preset):
    """1 KB tiles: a transfer holds one of the engine's outstanding slots from its
    issue until its data lands, so by Little's law the engine completes
    `outstanding / (issue + service + latency)` transfers per cycle."""
    config = load_npu_config(preset)
    block, programs = 256, 20_000
    report = triton_timer(add_kernel, config, BLOCK=block).time(add_launch(programs * block, block))
    held = config.dma_issue_cycles + 4 * block / config.dram_bytes_per_cycle + config.dram_latency_cycles
    little = 3 * programs * held / config.dma_outstanding_per_engine
    assert little > report.roofline_cycles
    assert little <= report.cycles <= 1.01 * little


def dma_events(report) -> dict[int, list]:
    """Each program instance's DMA trace events, in start order."""
    events = defaultdict(list)
    for event in report.trace:
        if event.track.startswith("dma"):
            events[event.instance].append(event)
    return {instance: sorted(es, key=lambda e: e.start) for instance, es in events.items()}


def test_a_load_of_what_the_kernel_stored_waits_for_the_stores_before_it():
    """Each program stores its block of `scratch` and reads back the block before it,
    which the previous program stored: that read starts only once its own store
    and the previous program's have landed (been acknowledged), and the next
    program's store waits for the read's data."""
    config = load_npu_config("tpuv3")
    block, programs = 1024, 64
    timer = triton_timer(store_then_load_kernel, config, BLOCK=block)
    n = programs * block
    launch = Launch((programs, 1, 1), [None, None, None, n], f32_buffers(n, n, n))
    report = timer.time(launch, SimulationOptions(trace=True))
    events = dma_events(report)
    # The first program's read-back is empty (its block before is masked off).
    assert [e.name for e in events[0]] == ["load", "store", "store"]
    assert all([e.name for e in events[i]] == ["load", "store", "load", "store"] for i in range(1, programs))

    def landed(event) -> float:
        return event.start + event.duration + config.dram_latency_cycles

    for instance in range(1, programs):
        _, store, load, _ = events[instance]
        previous_store = events[instance - 1][1]
        assert load.start >= landed(store) - 1e-9
        assert load.start >= landed(previous_store) - 1e-9
        if instance > 1:
            assert store.start >= landed(events[instance - 1][2]) - 1e-9
    # The order costs: the same traffic without it overlaps like a vector add.
    assert report.cycles > 1.5 * report.roofline_cycles
    assert never_beats_a_roofline(report)


def test_a_read_modify_write_of_its_own_block_needs_no_order_between_programs():
    """Each program loads and stores one and the same block of `x` (Inductor's
    `in_out_ptr`): it reads only what it writes itself, so programs overlap as in a
    vector add, the store still after its own load."""
    config = load_npu_config("tpuv3")
    n, block = 1 << 22, 1024
    timer = triton_timer(scale_in_place_kernel, config, BLOCK=block)
    load, _, store = timer.tog.graph.nodes
    assert all(node.carried_deps == () for node in timer.tog.graph.nodes)
    assert load.index in {dep.node for dep in store.deps}
    report = timer.time(Launch((n // block, 1, 1), [None, n], f32_buffers(n)))
    assert report.compulsory_bytes == 2 * 4 * n
    assert never_beats_a_roofline(report)
    assert report.cycles <= 1.10 * report.roofline_cycles


def test_a_gemm_with_small_tiles_is_bound_by_its_own_traffic_far_above_the_compulsory():
    """2048³ f32 with 64 × 64 tiles: each program reloads a 64-row panel of A and a
    64-column panel of B, 32 times the compulsory bytes; its own traffic binds it,
    while the compulsory roofline is the systolic arrays' work."""
    config = load_npu_config("tpuv3")
    size, tile = 2048, 64
    timer = triton_timer(matmul_kernel, config, BM=tile, BN=tile, BK=tile)
    elements = size * size
    launch = Launch(
        (size // tile, size // tile, 1), [None, None, None, size, size, size],
        f32_buffers(elements, elements, elements),
    )
    report = timer.time(launch)
    own = 4 * (2 * elements * (size // tile) + elements)
    assert report.bytes_read + report.bytes_written == own
    assert report.roofline_bound == "memory"
    assert report.roofline_cycles == pytest.approx(own / config.dram_bytes_per_cycle)
    assert report.compulsory_bytes == 3 * 4 * elements
    assert report.compulsory_bound == "matrix"
    assert report.compulsory_cycles == pytest.approx(size**3 / config.macs_per_cycle)
    assert never_beats_a_roofline(report)
    assert report.compulsory_ratio > 5 * report.roofline_ratio


@pytest.mark.parametrize(
    "kernel, constexprs, grid, arguments",
    [
        (add_kernel, {"BLOCK": 1024}, (3000, 1, 1), [None, None, None, 3000 * 1024 - 7]),
        (softmax_kernel, {"BLOCK": 1024}, (2000, 1, 1), [None, None, 1000]),
        (store_then_load_kernel, {"BLOCK": 1024}, (2000, 1, 1), [None, None, None, 2000 * 1024]),
        (matmul_kernel, {"BM": 64, "BN": 64, "BK": 64}, (16, 16, 1), [None, None, None, 1024, 1024, 512]),
    ],
    ids=["add", "softmax", "store-then-load", "matmul"],
)
def test_fast_forward_over_deep_windows_gives_the_event_by_event_result(
    kernel, constexprs, grid, arguments
):
    config = load_npu_config("tpuv3")
    bound = triton_timer(kernel, config, **constexprs).bind(Launch(grid, arguments))
    exact, fast = (
        Simulator(config, SimulationOptions(fast_forward=forward)).run(bound)
        for forward in (False, True)
    )
    assert fast.programs_fast_forwarded > 0
    assert fast.cycles == pytest.approx(exact.cycles, rel=1e-9)
    for unit, activity in exact.units.items():
        assert fast.units[unit].busy_cycles == pytest.approx(activity.busy_cycles, rel=1e-9)
        assert fast.units[unit].flop_cycles == pytest.approx(activity.flop_cycles, rel=1e-9)
    assert (fast.read_bytes, fast.written_bytes, fast.flops) == (
        exact.read_bytes, exact.written_bytes, exact.flops
    )
