"""Several programs on one chip, held to closed forms: equal programs on two cores take the time of
one, a partitioned chip at low load gives each program its solo latency, and a stream's latency grows
with its arrival rate as an M/D/1 queue's does."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "timing"))
from timing_kernels import matmul, npu, parse_kernel, vector_add, vector_add_launch  # noqa: E402

from tnpu.scheduler import (  # noqa: E402
    Chip, ChipScheduler, Program, ScheduleError, Step, Stream, dram_shares, partition_npu, percentile,
    poisson_arrivals, simulate, time_program,
)
from tnpu.timing.launch_binding import Launch  # noqa: E402
from tnpu.timing.timer import KernelTimer  # noqa: E402

MATMUL = matmul(512, 512, 256)
MATMUL_ARGS = [None, None, None, 512, 512, 4096]  # one 512 x 512 tile, K = 4096: the arrays bound it
ADD_N, ADD_BLOCK = 1 << 20, 1 << 14  # 64 programs of 16K f32: the DRAM bounds it


class Compiled:
    """A tile kernel standing in for the compile API's `Kernel`: `timer(npu)`."""

    def __init__(self, text: str):
        self.kernel = parse_kernel(text)

    def timer(self, config):
        return KernelTimer(self.kernel, config)


def matmul_program(chip: Chip, cores: int = 1, programs: int = 1) -> Program:
    arguments = [None, None, None, 512 * programs, 512, 4096]
    return time_program("matmul", [("mm", Compiled(MATMUL), Launch((programs, 1, 1), arguments))], chip.npu, cores)


def add_program(chip: Chip, cores: int = 1, n: int = ADD_N) -> Program:
    grid, arguments = vector_add_launch(n, ADD_BLOCK)
    return time_program("add", [("add", Compiled(vector_add(ADD_BLOCK)), Launch(grid, arguments))], chip.npu, cores)


# -- item 1: a graph's launches on every core ---------------------------------


def exp_chain(block: int, depth: int) -> str:
    """`out = exp(exp(...exp(x)))`, `depth` deep, `block` f32 per program: vector-bound."""
    body = "\n".join(f"    %e{i + 1} = math.exp %e{i} : f32" for i in range(depth))
    return f"""
tile.kernel @exps(%x: !tile.buffer<f32>, %out: !tile.buffer<f32>, %n: i32) {{
  %pid = tile.program_id {{axis = 0 : i32}} : i32
  %block = arith.constant {block} : i32
  %start = arith.muli %pid, %block : i32
  %offset = arith.index_cast %start : i32 to index
  %count = arith.index_cast %n : i32 to index
  %left = arith.subi %count, %offset : index
  %a = tile.load %x[%offset] strides [1] upper [%left] : !tile.buffer<f32> -> tensor<{block}xf32>
  %r = tile.map %a : tensor<{block}xf32> -> tensor<{block}xf32> {{
  ^bb0(%e0: f32):
{body}
    tile.yield %e{depth} : f32
  }}
  tile.store %r, %out[%offset] strides [1] upper [%left] : tensor<{block}xf32>, !tile.buffer<f32>
  tile.return
}}
"""


@pytest.mark.parametrize("preset", ["tpuv3x2", "tpuv4"])
@pytest.mark.parametrize("depth", [8, 32])
def test_two_equal_programs_on_two_cores_take_the_time_of_one(preset, depth):
    """32 vector-bound programs on one core, and 64 on the two-core chip (32 per core, the cores
    sharing nothing but the DRAM): the same time, but for the first load and the last store, which
    both cores make at the same moment and so at half the DRAM's bandwidth each: one tile's DRAM
    time more at each end, exactly."""
    chip = npu(preset)
    kernel = parse_kernel(exp_chain(4096, depth))
    one = KernelTimer(kernel, partition_npu(chip, 1)).time(Launch((32, 1, 1), [None, None, 32 * 4096]))
    two = KernelTimer(kernel, chip).time(Launch((64, 1, 1), [None, None, 64 * 4096]))
    assert one.roofline_bound == two.roofline_bound == "vector"
    tile_dram_cycles = 4096 * 4 / chip.dram_bytes_per_cycle
    assert two.cycles == pytest.approx(one.cycles + 2 * tile_dram_cycles, rel=1e-12)
    assert two.units["vector"].busy_cycles == pytest.approx(2 * one.units["vector"].busy_cycles)


def test_two_memory_bound_programs_on_two_cores_share_the_dram():
    """Two cores streaming from one DRAM each get half of it: twice the data takes twice the time
    (the launch's fixed cost once)."""
    chip = npu("tpuv3x2")
    grid, arguments = vector_add_launch(ADD_N, ADD_BLOCK)
    one = KernelTimer(parse_kernel(vector_add(ADD_BLOCK)), partition_npu(chip, 1)).time(Launch(grid, arguments))
    grid, arguments = vector_add_launch(2 * ADD_N, ADD_BLOCK)
    two = KernelTimer(parse_kernel(vector_add(ADD_BLOCK)), chip).time(Launch(grid, arguments))
    fixed = chip.launch_overhead_cycles
    assert two.cycles - fixed == pytest.approx(2 * (one.cycles - fixed), rel=0.01)


# -- the DRAM between partitions ------------------------------------------------


def test_dram_shares_are_max_min_fair_and_never_exceed_a_demand():
    assert dram_shares([0.2, 0.9]) == pytest.approx([0.2, 0.8])
    assert dram_shares([1.0, 1.0]) == pytest.approx([0.5, 0.5])
    assert dram_shares([0.3, 0.3, 0.3]) == pytest.approx([0.3, 0.3, 0.3])
    rng = random.Random(0)
    for _ in range(1000):
        demands = [rng.random() for _ in range(rng.randint(1, 6))]
        shares = dram_shares(demands)
        assert all(0 <= s <= d + 1e-12 for s, d in zip(shares, demands))
        assert sum(shares) <= 1 + 1e-12
        if sum(demands) <= 1:
            assert shares == pytest.approx(demands)
        else:
            assert sum(shares) == pytest.approx(1)


def test_two_programs_whose_dram_demands_fit_together_on_two_partitions_take_the_time_of_one():
    chip = Chip(npu("tpuv3x2"), (1, 1))
    program = matmul_program(chip)
    run = simulate(chip, [Stream("a", program, 0, (0.0,)), Stream("b", program, 1, (0.0,))])
    assert [r.latency for r in run.requests] == pytest.approx([program.solo_cycles] * 2, rel=1e-12)


def test_two_memory_bound_programs_on_two_partitions_agree_with_the_co_simulation():
    """Two vector adds on the two partitions at once: the launch-level DRAM sharing gives each about
    twice its solo time, within 2% of the simulator running both on the two cores in one launch."""
    chip = Chip(npu("tpuv3x2"), (1, 1))
    program = add_program(chip)
    run = simulate(chip, [Stream("a", program, 0, (0.0,)), Stream("b", program, 1, (0.0,))])
    grid, arguments = vector_add_launch(2 * ADD_N, ADD_BLOCK)
    together = KernelTimer(parse_kernel(vector_add(ADD_BLOCK)), chip.npu).time(Launch(grid, arguments))
    for request in run.requests:
        assert request.latency >= program.solo_cycles
        assert request.latency == pytest.approx(together.cycles, rel=0.02)


def test_sharing_never_makes_a_program_faster_than_alone():
    chip = Chip(npu("tpuv3x2"), (1, 1))
    programs = [matmul_program(chip), add_program(chip)]
    rng = random.Random(1)
    streams = [
        Stream(f"s{i}", programs[i], i, tuple(sorted(rng.uniform(0, 200) for _ in range(30)))) for i in range(2)
    ]
    run = simulate(chip, streams)
    for request in run.requests:
        assert request.service >= request.program.solo_cycles * (1 - 1e-12)
        assert request.start >= request.arrival


# -- item 2: streams of requests ----------------------------------------------


def test_a_partitioned_chip_at_low_load_gives_each_program_its_solo_latency():
    """ResNet-like (compute) and memory-bound programs on the two partitions, each at 1% load:
    the median request sees its program's solo latency, and the mean is within 1% of it."""
    chip = Chip(npu("tpuv3x2"), (1, 1))
    programs = [matmul_program(chip), add_program(chip)]
    streams = []
    for partition, program in enumerate(programs):
        rate = 0.01 / chip.npu.cycles_to_us(program.solo_cycles) * 1e6  # requests per second at 1% load
        streams.append(Stream(program.name, program, partition, poisson_arrivals(rate, 300, seed=partition)))
    run = simulate(chip, streams)
    for program in programs:
        stats = run.latency_stats(program.name)
        solo = chip.npu.cycles_to_us(program.solo_cycles)
        assert stats["solo_us"] == pytest.approx(solo)
        assert stats["p50_us"] == pytest.approx(solo, rel=1e-9)
        assert solo <= stats["mean_us"] <= 1.01 * solo


def md1_latency(service: float, load: float) -> float:
    """An M/D/1 queue's mean time in system (Pollaczek-Khinchine): service + load × service / (2(1 - load))."""
    return service + load * service / (2 * (1 - load))


@pytest.mark.parametrize("load", [0.3, 0.5, 0.7, 0.8])
def test_latency_grows_with_the_arrival_rate_as_an_md1_queue(load):
    """One stream of a deterministic program on the whole chip, Poisson arrivals at `load` of its
    capacity: the mean latency of 20,000 requests is within 5% of the M/D/1 formula (seeded)."""
    chip = Chip(npu("tpuv3x2"), (2,))
    program = matmul_program(chip, cores=2, programs=2)
    service_us = chip.npu.cycles_to_us(program.solo_cycles)
    arrivals = poisson_arrivals(load / service_us * 1e6, 20_000, seed=7)
    run = simulate(chip, [Stream("mm", program, 0, arrivals)])
    mean = run.latency_stats("mm")["mean_us"]
    assert mean == pytest.approx(md1_latency(service_us, load), rel=0.05)


def test_percentiles_grow_with_the_load():
    chip = Chip(npu("tpuv3x2"), (1, 1))
    program = Program("p", (Step("s", 1000.0),))
    service_us = chip.npu.cycles_to_us(1000.0)
    rows = []
    for load in (0.2, 0.5, 0.8):
        run = simulate(chip, [Stream("p", program, 0, poisson_arrivals(load / service_us * 1e6, 5000, seed=3))])
        stats = run.latency_stats("p")
        assert stats["p50_us"] <= stats["p90_us"] <= stats["p99_us"]
        rows.append((stats["p50_us"], stats["p90_us"], stats["p99_us"]))
    assert rows == sorted(rows) and rows[0] < rows[-1]


def test_nearest_rank_percentiles():
    values = [float(v) for v in range(1, 101)]
    assert [percentile(values, p) for p in (50, 90, 99, 100)] == [50, 90, 99, 100]
    assert percentile([3.0], 99) == 3.0


def test_poisson_arrivals_are_seeded_and_at_the_rate():
    assert poisson_arrivals(1000, 5, seed=4) == poisson_arrivals(1000, 5, seed=4)
    assert poisson_arrivals(1000, 5, seed=4) != poisson_arrivals(1000, 5, seed=5)
    times = poisson_arrivals(1000, 20_000, seed=1)
    assert times == tuple(sorted(times))
    assert times[-1] / len(times) == pytest.approx(1000.0, rel=0.03)  # µs per request


def test_a_partition_serves_its_streams_first_come_first_served():
    chip = Chip(npu("tpuv3x2"), (1, 1))
    program = Program("p", (Step("a", 500.0), Step("b", 500.0)))
    f = chip.npu.core_freq_mhz
    run = simulate(chip, [Stream("x", program, 0, (0.0,)), Stream("y", program, 0, (100 / f,))])
    x, y = run.of("x")[0], run.of("y")[0]
    assert (x.start, x.finish, y.start, y.finish) == pytest.approx((0, 1000, 1000, 2000))
    assert [name for name, *_ in y.step_spans] == ["a", "b"]
    assert run.utilization()["cores"] == pytest.approx([1.0, 0.0])


def test_a_serving_loop_submits_as_requests_finish():
    """The engine a serving loop drives: submit, run until something finishes, submit again."""
    chip = Chip(npu("tpuv3x2"), (1, 1))
    scheduler = ChipScheduler(chip)
    program = Program("p", (Step("s", 100.0),))
    scheduler.submit("loop", 0, program, 0, 0.0)
    done = []
    for index in range(1, 4):
        finished = scheduler.run(until=scheduler.now + 150)
        done += finished
        scheduler.submit("loop", index, program, 0, scheduler.now)
    done += scheduler.run()
    assert [r.finish for r in done] == pytest.approx([100, 250, 400, 550])
    assert scheduler.idle() and scheduler.run(until=10.0) == [] and scheduler.now == pytest.approx(550)


def test_the_trace_has_a_track_per_stream_and_per_core():
    chip = Chip(npu("tpuv3x2"), (1, 1))
    programs = [matmul_program(chip), add_program(chip)]
    run = simulate(chip, [Stream(p.name, p, i, (0.0, 10.0, 20.0)) for i, p in enumerate(programs)])
    events = run.chrome_trace()["traceEvents"]
    names = {(e["pid"], e["tid"]): e["args"]["name"] for e in events if e["name"] == "thread_name"}
    assert names == {(0, 0): "matmul (partition 0)", (0, 1): "add (partition 1)", (1, 0): "core 0", (1, 1): "core 1"}
    for core in (0, 1):
        slices = sorted((e["ts"], e["dur"]) for e in events if e["ph"] == "X" and e["pid"] == 1 and e["tid"] == core)
        assert len(slices) == 3
        assert all(a[0] + a[1] <= b[0] + 1e-6 for a, b in zip(slices, slices[1:]))


# -- bad input ---------------------------------------------------------------


def test_a_partition_larger_than_the_chip_is_refused():
    with pytest.raises(ScheduleError, match=r"^partitions: 2 \+ 1 = 3 cores asked for, and tpuv3x2 has 2$"):
        Chip(npu("tpuv3x2"), (2, 1))


def test_negative_arrival_times_are_refused():
    chip = Chip(npu("tpuv3x2"), (1, 1))
    program = Program("p", (Step("s", 100.0),))
    with pytest.raises(ScheduleError, match=r"^p: arrival 1: time -5.0 µs is negative$"):
        simulate(chip, [Stream("p", program, 0, (0.0, -5.0))])


def test_a_program_timed_for_another_partition_size_is_refused():
    chip = Chip(npu("tpuv3x2"), (1, 1))
    with pytest.raises(ScheduleError, match="timed on 2 cores, and partition 0 has 1"):
        simulate(chip, [Stream("p", Program("p", (Step("s", 1.0),), cores=2), 0, (0.0,))])
    assert math.isfinite(partition_npu(chip.npu, 1).dram_bytes_per_cycle)


def test_a_launchs_fixed_cost_uses_no_dram():
    """Two memory-bound steps that start with 100 cycles of launch cost: both take it at once at solo
    speed, then share the DRAM for their 900 cycles of work: 100 + 2 x 900 each.  Averaged over the
    whole step (demand 0.9), the sharing would have granted each 0.5 / 0.9 of its solo speed: 1,800."""
    chip = Chip(npu("tpuv3x2"), (1, 1))
    program = Program("p", (Step("add", 1000.0, dram_cycles=900.0, fixed_cycles=100.0),), cores=1)
    assert program.steps[0].dram_demand == 1.0
    run = simulate(chip, [Stream("a", program, 0, (0.0,)), Stream("b", program, 1, (0.0,))])
    assert [request.latency for request in run.requests] == [pytest.approx(1900.0)] * 2
