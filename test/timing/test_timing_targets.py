"""The timing model against closed forms derived by hand from the NPU description.

Every expected figure is computed here from the configuration's fields, so
the tests hold for any values the presets take.
"""

from __future__ import annotations

import math

import pytest
from timing_kernels import matmul, npu, time_kernel, vector_add, vector_add_launch

PRESETS = ["tpuv3", "tpuv6e"]


def bandwidth_cycles(config, n: int) -> float:
    """Two f32 operands read and one written, at the DRAM's peak."""
    return 3 * 4 * n / config.dram_bytes_per_cycle


@pytest.mark.parametrize("preset", PRESETS)
def test_a_large_vector_add_is_bandwidth_bound_within_five_percent(preset):
    config = npu(preset)
    n, block = 1 << 24, 1 << 16
    report = time_kernel(vector_add(block), *vector_add_launch(n, block), config)
    assert report.roofline_bound == "memory"
    assert report.roofline_cycles == pytest.approx(bandwidth_cycles(config, n))
    assert bandwidth_cycles(config, n) <= report.cycles <= 1.05 * bandwidth_cycles(config, n)


def systolic_cycles(config, m: int, n: int, k: int) -> float:
    """The multiply-accumulates of an m x k by k x n product over one core's arrays."""
    return m * n * k / config.macs_per_cycle


def test_a_large_matmul_is_within_five_percent_of_the_systolic_array_bound():
    config = npu("tpuv3")
    m = n = 2048
    k = 16384
    tile_m = tile_n = 1024
    tile_k = 2 * config.systolic_array_rows
    report = time_kernel(
        matmul(tile_m, tile_n, tile_k), (m // tile_m, n // tile_n, 1),
        [None, None, None, m, n, k], config,
    )
    assert report.roofline_bound == "matrix"
    assert report.roofline_cycles == pytest.approx(systolic_cycles(config, m, n, k))
    assert report.flops == 2 * m * n * k
    bound = systolic_cycles(config, m, n, k)
    assert bound <= report.cycles <= 1.05 * bound


def test_a_large_matmul_on_a_bandwidth_starved_npu_is_within_five_percent_of_its_roofline():
    """tpuv6e's arrays outrun its HBM at these tiles: the memory ceiling binds."""
    config = npu("tpuv6e")
    m = n = 2048
    k = 16384
    report = time_kernel(
        matmul(1024, 1024, 256), (2, 2, 1), [None, None, None, m, n, k], config
    )
    read = 4 * (m * k * (n // 1024) + k * n * (m // 1024))
    written = 4 * m * n
    assert (report.bytes_read, report.bytes_written) == (read, written)
    memory = (read + written) / config.dram_bytes_per_cycle
    assert report.roofline_bound == "memory"
    assert memory <= report.cycles <= 1.05 * memory


def test_vector_add_cycles_grow_linearly_with_the_problem_size():
    block = 1 << 14
    sizes = [1 << 21, 1 << 22, 1 << 23]
    cycles = [
        time_kernel(vector_add(block), *vector_add_launch(n, block)).cycles for n in sizes
    ]
    # Affine in n (a fixed prologue and epilogue), so equal steps add equal cycles...
    assert cycles[2] - cycles[1] == pytest.approx(2 * (cycles[1] - cycles[0]), rel=0.01)
    # ...and the fixed part vanishes for large n.
    assert cycles[2] / cycles[1] == pytest.approx(2, rel=0.01)


def test_matmul_cycles_grow_linearly_with_the_problem_size():
    config = npu("tpuv3")
    tile = 512
    cycles = [
        time_kernel(
            matmul(tile, tile, 256), (rows, 1, 1), [None, None, None, rows * tile, tile, 8192],
            config,
        ).cycles
        for rows in (4, 8, 16)
    ]
    assert cycles[2] - cycles[1] == pytest.approx(2 * (cycles[1] - cycles[0]), rel=0.01)
    assert cycles[2] / cycles[1] == pytest.approx(2, rel=0.02)


def test_without_double_buffering_a_bandwidth_bound_kernel_waits_for_every_transfer():
    """Synchronous DMA: each program loads, waits, adds, stores, and only then does
    the next one start.  The closed form is that chain, once per program, plus the
    last store landing and the launch's fixed cost.  The engine issues the first load's descriptor, then the
    second's while the first streams; the store's issue waits for the add."""
    config = npu("tpuv3")
    block, programs = 1 << 14, 64
    grid, arguments = vector_add_launch(programs * block, block)
    double = time_kernel(vector_add(block), grid, arguments, config)
    single = time_kernel(vector_add(block), grid, arguments, config, double_buffering=False)

    transfer = 4 * block / config.dram_bytes_per_cycle
    assert config.dma_issue_cycles <= transfer  # the second load's issue hides
    latency = config.dram_latency_cycles
    add_busy = math.ceil(block / config.vector_width(32)) * config.op_issue("arith.addf")
    add_latency = config.op_latency("arith.addf")
    chain = 2 * config.dma_issue_cycles + 3 * transfer + latency + add_busy + add_latency
    overhead = config.launch_overhead_cycles
    assert single.cycles == pytest.approx(programs * chain + latency + overhead)

    assert double.cycles <= 1.01 * bandwidth_cycles(config, programs * block) + overhead
    assert single.cycles > 1.2 * double.cycles
