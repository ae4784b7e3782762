"""Every launch timed on the modeled NPU: the profile, do_bench in modeled time, autotuning by cycles."""

from __future__ import annotations

import json

import pytest
import torch
import triton
import triton.language as tl

from triton_backend_driver import tnpu_driver  # noqa: F401 (an autouse fixture)
import tnpu
from tnpu.timing.launch_binding import Launch
from tnpu.triton_backend import profile
from tnpu.triton_backend.settings import settings
from tnpu.timing.npu_config import load_npu_config


@triton.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def _add(n: int, block: int = 1024) -> triton.compiler.CompiledKernel:
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    compiled = add[(triton.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    torch.testing.assert_close(out, x + y)
    return compiled


def test_the_profile_holds_each_launch_timed_as_the_compile_api_times_it(tmp_path):
    with tnpu.profile(config="tpuv6e") as prof:
        compiled = _add(5000)
        _add(70000)
    assert [record.kernel for record in prof.launches] == ["add", "add"]
    assert prof.launches[1].grid == (69, 1, 1)
    # The same TTIR through the compile API, timed for the same launch: the same figures.
    timer = tnpu.compile_ttir(compiled.asm["ttir"]).timer(load_npu_config("tpuv6e"))
    expected = timer.time(Launch((69, 1, 1), [None, None, None, 70000]))
    last = prof.launches[1]
    assert (last.cycles, last.bytes_read, last.bytes_written) == (expected.cycles, 70000 * 8, 70000 * 4)
    assert last.roofline_cycles <= last.cycles and last.time_us == pytest.approx(expected.time_us)
    assert (last.roofline_ratio, last.compulsory_cycles, last.compulsory_ratio) == (
        expected.roofline_ratio, expected.compulsory_cycles, expected.compulsory_ratio)
    assert last.compulsory_cycles <= last.roofline_cycles
    assert prof.total_cycles == prof.launches[0].cycles + prof.launches[1].cycles
    table = prof.table()
    assert table.count("\nadd ") == 2 and "tpuv6e" in table
    assert "× roofline  × compulsory" in table and f"{last.compulsory_ratio:.2f}" in table
    prof.export_chrome_trace(tmp_path / "trace.json")
    events = json.loads((tmp_path / "trace.json").read_text())["traceEvents"]
    launches = [e for e in events if e.get("ph") == "X" and e["name"] == "add"]
    assert [e["args"]["grid"] for e in launches] == [[5, 1, 1], [69, 1, 1]]
    assert launches[1]["ts"] == pytest.approx(launches[0]["dur"])


def test_do_bench_reports_modeled_milliseconds():
    n = 100000
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    with tnpu.profile() as prof:
        add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024)
    modeled_ms = prof.launches[0].time_us / 1e3
    with tnpu.profile() as benched:
        measured = triton.testing.do_bench(lambda: add[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK=1024))
    assert measured == pytest.approx(modeled_ms)
    # do_bench repeats the call thousands of times; identical launches replay the first results.
    runs = {record.execution for record in benched.launches}
    assert len(benched.launches) > 1000 and runs == {"qemu", "replayed"}
    torch.testing.assert_close(out, x + y)


def test_a_capture_holds_the_program_launches_with_their_kernels_and_buffer_sizes():
    n = 5000
    x, y, out = torch.randn(3 * n)[n:], torch.randn(n), torch.empty(n)
    with profile.capture() as launches:
        add[(5,)](x, y, out, n, BLOCK=1024)
        profile.modeled_ms(lambda: add[(5,)](x, y, out, n, BLOCK=1024))  # benchmarked: not the program's
        add[(0,)](x, y, out, 0, BLOCK=1024)  # an empty grid runs nothing
    (captured,) = launches
    assert captured.kernel.name == "add" and captured.kernel.tile_kernel.sym_name.data == "add"
    # A buffer's size is its tensor's storage from its first element on: x starts n floats into 3 n.
    assert captured.launch == Launch((5, 1, 1), [None, None, None, n], {0: 2 * n * 4, 1: n * 4, 2: n * 4})


BLOCKS = (64, 256, 1024, 4096)


@triton.autotune(configs=[triton.Config({"BLOCK": block}) for block in BLOCKS], key=["n"])
@triton.jit
def tuned_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def test_autotune_picks_the_config_with_the_fewest_simulated_cycles():
    n = 200000
    x, y, out = torch.randn(n), torch.randn(n), torch.empty(n)
    with tnpu.profile() as prof:
        tuned_add[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, out, n)
    torch.testing.assert_close(out, x + y)
    # One timed-only launch per config, listed apart from the program's; then the chosen one, run.
    benchmarked, (chosen,) = prof.benchmarked, prof.launches
    assert [record.execution for record in benchmarked] == ["not run"] * 4 and chosen.execution == "qemu"
    block_of_grid = {triton.cdiv(n, block): block for block in BLOCKS}
    cycles = {block_of_grid[record.grid[0]]: record.cycles for record in benchmarked}
    assert sorted(cycles) == sorted(BLOCKS) and len(set(cycles.values())) == len(BLOCKS)
    fastest = min(cycles, key=cycles.__getitem__)
    assert tuned_add.best_config.kwargs["BLOCK"] == fastest
    assert chosen.grid[0] == triton.cdiv(n, fastest) and chosen.cycles == cycles[fastest]


@triton.jit
def scaled_sum(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    total = tl.zeros((BLOCK,), dtype=tl.float32)
    for start in range(0, n, BLOCK):
        total += tl.load(x_ptr + start + tl.arange(0, BLOCK), mask=start + tl.arange(0, BLOCK) < n, other=0.0)
    tl.store(out_ptr + tl.arange(0, BLOCK), total)


def test_a_loop_no_program_enters_is_timed():
    out = torch.full((16,), 5.0)
    with tnpu.profile() as prof:
        scaled_sum[(3,)](torch.empty(0), out, 0, BLOCK=16)
    assert torch.equal(out, torch.zeros(16))
    (record,) = prof.launches
    assert record.untimed is None and record.bytes_read == 0 and record.bytes_written == 3 * 16 * 4


@triton.jit
def sum_of_five(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    total = tl.load(x_ptr + offsets) + tl.load(x_ptr + BLOCK + offsets) + tl.load(x_ptr + 2 * BLOCK + offsets)
    total += tl.load(x_ptr + 3 * BLOCK + offsets) + tl.load(x_ptr + 4 * BLOCK + offsets)
    tl.store(out_ptr + offsets, total)


def test_a_kernel_is_held_to_the_scratchpad_of_the_npu_it_is_launched_on():
    """One program summing five blocks of 2^20 f32 (Triton's largest tensor) holds more than
    tpuv3's 16 MB of scratchpad and less than tpuv6e's 128 MB.  The same compiled kernel,
    launched on tpuv6e, then on tpuv3, then on tpuv6e again: refused on tpuv3 only, naming it
    (Triton checks a kernel's shared memory once, against a limit it caches per process; the
    NPU in force changes within one)."""
    from triton.runtime.errors import OutOfResources

    block = 1 << 20
    x, out = torch.randn(5 * block), torch.empty(block)
    with settings.scoped(execution="timing"), pytest.warns(UserWarning, match="not written"):
        with tnpu.profile(config="tpuv6e") as first:
            compiled = sum_of_five[(1,)](x, out, BLOCK=block)
        assert load_npu_config("tpuv3").scratchpad_bytes < compiled.metadata.shared
        with tnpu.profile(config="tpuv3"), pytest.raises(OutOfResources, match="tpuv3's scratchpad"):
            sum_of_five[(1,)](x, out, BLOCK=block)
        with tnpu.profile(config="tpuv6e") as again:
            sum_of_five[(1,)](x, out, BLOCK=block)
    assert first.launches[0].cycles == again.launches[0].cycles > 0
