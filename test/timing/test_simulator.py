"""The simulator's machine: cores sharing DRAM, DMA engines, windows, traces, sequences."""

from __future__ import annotations

import json
from collections import defaultdict

import pytest
from timing_kernels import matmul, npu, parse_kernel, time_kernel, vector_add, vector_add_launch

from tnpu.timing.launch_binding import Launch
from tnpu.timing.simulator import SimulationOptions, Simulator
from tnpu.timing.timer import KernelTimer, time_sequence
from tnpu.timing.tog_json import FORMAT, VERSION, tog_to_json
from tnpu.timing.trace import chrome_trace

N, BLOCK = 1 << 22, 1 << 14


def test_cores_share_the_dram_bandwidth():
    one = time_kernel(vector_add(BLOCK), *vector_add_launch(N, BLOCK), npu(num_cores=1))
    two = time_kernel(vector_add(BLOCK), *vector_add_launch(N, BLOCK), npu(num_cores=2))
    assert two.cycles == pytest.approx(one.cycles, rel=0.01)
    assert two.units["dram"].utilization > 0.98


def test_cores_split_compute_bound_work():
    # Four times tpuv3's channels, so that four cores stay compute-bound.
    arguments = [None, None, None, 2048, 1024, 16384]
    one = time_kernel(matmul(512, 512, 256), (4, 2, 1), arguments, npu(dram_channels=64))
    four = time_kernel(
        matmul(512, 512, 256), (4, 2, 1), arguments, npu(num_cores=4, dram_channels=64)
    )
    assert one.roofline_bound == four.roofline_bound == "matrix"
    assert four.roofline_cycles == pytest.approx(one.roofline_cycles / 4)
    assert four.cycles == pytest.approx(one.cycles / 4, rel=0.05)


def test_more_dma_engines_do_not_add_bandwidth():
    one = time_kernel(vector_add(BLOCK), *vector_add_launch(N, BLOCK))
    four = time_kernel(vector_add(BLOCK), *vector_add_launch(N, BLOCK), npu(dma_engines_per_core=4))
    assert four.cycles == pytest.approx(one.cycles, rel=0.01)


def test_tiles_that_do_not_fit_twice_are_not_double_buffered():
    # 1 KB per lane: 128 KB of scratchpad; three 64 KB tiles fit once, not twice.
    small = npu(vpu_spad_size_kb_per_lane=1)
    launch = vector_add_launch(64 * BLOCK, BLOCK)
    assert time_kernel(vector_add(BLOCK), *launch, small).cycles == pytest.approx(
        time_kernel(vector_add(BLOCK), *launch, small, double_buffering=False).cycles
    )
    assert time_kernel(vector_add(BLOCK), *launch, small).cycles > time_kernel(
        vector_add(BLOCK), *launch
    ).cycles


def traced(text, grid, arguments, config=None):
    return time_kernel(text, grid, arguments, config, trace=True)


def test_the_trace_shows_each_unit_doing_one_thing_at_a_time():
    report = traced(matmul(256, 256, 128), (2, 2, 1), [None, None, None, 512, 512, 1024], npu(num_cores=2))
    by_track = defaultdict(list)
    for event in report.trace:
        by_track[event.core, event.track].append(event)
    assert {track for _, track in by_track} == {"dma0", "vector", "matrix"}
    for events in by_track.values():
        events.sort(key=lambda e: e.start)
        for before, after in zip(events, events[1:]):
            assert after.start >= before.start + before.duration - 1e-6
        assert events[-1].start + events[-1].duration <= report.cycles + 1e-6
    for unit in ("dma", "vector", "matrix"):
        traced_busy = sum(e.duration for (_, track), es in by_track.items() for e in es if track.startswith(unit))
        assert traced_busy == pytest.approx(report.units[unit].busy_cycles)
    iterations = {e.iteration for e in report.trace if e.track == "matrix"}
    assert iterations == {(k,) for k in range(1024 // 128)}


def test_a_sequence_runs_its_launches_back_to_back():
    config = npu()
    add = KernelTimer(parse_kernel(vector_add(BLOCK)), config)
    product = KernelTimer(parse_kernel(matmul(256, 256, 128)), config)
    launches = [
        (add, Launch(*vector_add_launch(N, BLOCK))),
        (product, Launch((2, 2, 1), [None, None, None, 512, 512, 1024])),
    ]
    options = SimulationOptions(trace=True)
    sequence = time_sequence(launches, options)
    alone = [timer.time(launch, options) for timer, launch in launches]
    assert sequence.cycles == pytest.approx(sum(r.cycles for r in alone))
    assert sequence.roofline_cycles == pytest.approx(sum(r.roofline_cycles for r in alone))
    summary = sequence.to_json()
    assert summary["flops"] == sum(r.flops for r in alone)
    assert [launch["kernel"] for launch in summary["launches"]] == ["add", "matmul"]

    trace = chrome_trace(sequence.launches, config)["traceEvents"]
    spans = [e for e in trace if e["ph"] == "X" and e["pid"] == config.num_cores]
    assert [(e["name"], e["ts"]) for e in spans] == [
        ("add", 0.0), ("matmul", pytest.approx(config.cycles_to_us(alone[0].cycles)))
    ]
    matmul_events = [e for e in trace if e["ph"] == "X" and e["args"].get("kernel") == "matmul"]
    assert min(e["ts"] for e in matmul_events) >= config.cycles_to_us(alone[0].cycles)
    json.dumps(trace)


def test_the_tog_json_names_every_schedule_it_references():
    config = npu()
    timer = KernelTimer(parse_kernel(matmul(64, 64, 32)), config)
    bound = timer.bind(Launch((3, 2, 1), [None, None, None, 192, 128, 100]))
    document = json.loads(json.dumps(tog_to_json(bound, Simulator(config))))
    assert (document["format"], document["version"]) == (FORMAT, VERSION)
    assert sum(count for _, count in document["instances"]) == 6
    schedules = document["schedules"]
    loop = document["graph"]["nodes"][1]
    # Two loads per iteration: 1 + outstanding / 2 iterations in flight.
    depth = 1 + config.dma_outstanding_per_engine // 2
    assert loop["kind"] == "loop" and loop["body"]["window"] == depth
    assert document["npu"]["dma_outstanding_per_engine"] == config.dma_outstanding_per_engine
    assert [n["op"] for n in loop["body"]["nodes"]] == ["tile.load", "tile.load", "tile.matmul"]
    assert loop["body"]["nodes"][2]["carried"] == {"deps": [2], "chained": [2]}
    for index, _ in document["instances"]:
        # 100 = 3 x 32 + 4, but the kernel has no bounds: four iterations move the box.
        [[iteration, count]] = schedules[index][1]["runs"]
        assert count == 4
        load_a, load_b, product = schedules[iteration]
        assert load_a["transfer"]["read_bytes"] == load_b["transfer"]["read_bytes"] == 4 * 64 * 32
        assert product is None


def simulate_both_ways(text, grid, arguments, config, double_buffering=True):
    timer = KernelTimer(parse_kernel(text), config)
    bound = timer.bind(Launch(grid, arguments))
    return [
        Simulator(config, SimulationOptions(double_buffering, fast_forward=fast)).run(bound)
        for fast in (False, True)
    ]


@pytest.mark.parametrize(
    "text, grid, arguments, changes, double_buffering",
    [
        (vector_add(1024), *vector_add_launch(3000 * 1024 + 5, 1024), {}, True),
        (vector_add(1024), *vector_add_launch(3000 * 1024 + 5, 1024), {}, False),
        (vector_add(1024), *vector_add_launch(3000 * 1024 + 5, 1024), {"num_cores": 3}, True),
        (vector_add(1024), *vector_add_launch(6000 * 1024, 1024), {"dma_engines_per_core": 2}, True),
        (matmul(128, 128, 64), (16, 16, 1), [None, None, None, 2048, 2048, 1000], {}, True),
        (matmul(128, 128, 64), (16, 16, 1), [None, None, None, 2048, 2048, 1000], {"num_cores": 2}, True),
    ],
    ids=["add", "add-synchronous", "add-3-cores", "add-2-engines", "matmul", "matmul-2-cores"],
)
def test_fast_forward_gives_the_event_by_event_result(text, grid, arguments, changes, double_buffering):
    exact, fast = simulate_both_ways(text, grid, arguments, npu(**changes), double_buffering)
    assert fast.programs_fast_forwarded > 0
    assert fast.tasks_simulated < exact.tasks_simulated / 10
    assert fast.cycles == pytest.approx(exact.cycles, rel=1e-9)
    assert fast.dram_busy_cycles == pytest.approx(exact.dram_busy_cycles, rel=1e-9)
    for unit, activity in exact.units.items():
        assert fast.units[unit].busy_cycles == pytest.approx(activity.busy_cycles, rel=1e-9)
        assert fast.units[unit].ideal_cycles == pytest.approx(activity.ideal_cycles, rel=1e-9)
    assert (fast.read_bytes, fast.written_bytes, fast.dram_bytes, fast.flops) == (
        exact.read_bytes, exact.written_bytes, exact.dram_bytes, exact.flops
    )
