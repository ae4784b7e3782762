"""How a launch treats the caller's tensors, hooks and execution modes, and how it refuses bad use.

The tensors are real storages: views with offsets, strided and transposed
tensors and two views of one storage must see exactly the memory they
would on a GPU, and hold the result in place.  Every bad use is one clear
Python error, and leaves the user's tensors as they were.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest
import torch
import triton
import triton.language as tl
from triton import knobs

from triton_backend_driver import tnpu_driver  # noqa: F401 (an autouse fixture)
import tnpu
from tnpu.triton_backend.compiler import KernelRefusedError
from tnpu.triton_backend.launcher import TimingOnlyWarning, TnpuLaunchError
from tnpu.triton_backend.settings import settings


@triton.jit
def scale_2d(x_ptr, out_ptr, x_stride0, x_stride1, out_stride0, out_stride1, M, N, BLOCK: tl.constexpr):
    rows = tl.arange(0, BLOCK)[:, None]
    cols = tl.arange(0, BLOCK)[None, :]
    mask = (rows < M) & (cols < N)
    x = tl.load(x_ptr + rows * x_stride0 + cols * x_stride1, mask=mask)
    tl.store(out_ptr + rows * out_stride0 + cols * out_stride1, x * 2.0 + 1.0, mask=mask)


def _scale(x: torch.Tensor, out: torch.Tensor) -> None:
    scale_2d[(1,)](x, out, *x.stride(), *out.stride(), *x.shape, BLOCK=16)


def test_views_with_offsets_strides_and_transposes_are_written_in_place():
    base = torch.randn(20, 20)
    x = base[2:12:2, 3:15].t()  # an offset, a step and a transpose
    storage = torch.zeros(400)
    out = storage[7:7 + 12 * 5].view(5, 12).t()  # a view into a larger storage
    before = storage.clone()
    _scale(x, out)
    torch.testing.assert_close(out, x * 2 + 1)
    untouched = torch.ones(400, dtype=torch.bool)
    untouched[7:7 + 60] = False
    assert torch.equal(storage[untouched], before[untouched])


def test_two_views_of_one_storage_alias_as_on_a_gpu():
    """out is x shifted by one row: each row is computed from the original row above it."""
    buffer = torch.randn(9, 8)
    expected = buffer.clone()
    expected[1:] = buffer[:-1] * 2 + 1
    _scale(buffer[:-1], buffer[1:])
    torch.testing.assert_close(buffer, expected)


@triton.jit
def scale_block(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) * 2.0 + 1.0)


@pytest.mark.parametrize(("source", "destination"), [(0, 0), (0, 5), (5, 0), (0, 64), (64, 0)])
def test_a_block_read_and_written_in_place_reads_every_element_before_writing(source, destination):
    """The load and the store are contiguous and whole, so the map reads its input from
    the caller's memory and writes its result there; where the output starts
    inside the input (0, 5) it would overwrite elements it has yet to read, and
    the block must still be computed from the values a GPU reads first."""
    buffer = torch.randn(128)
    expected = buffer.clone()
    expected[destination : destination + 64] = buffer[source : source + 64] * 2 + 1
    scale_block[(1,)](buffer[source : source + 64], buffer[destination : destination + 64], BLOCK=64)
    torch.testing.assert_close(buffer, expected, rtol=0, atol=0)


def test_the_tile_interpreter_gives_the_same_result():
    x = torch.randn(10, 13)
    out_qemu, out_interp = torch.empty(10, 13), torch.empty(10, 13)
    _scale(x, out_qemu)
    settings.execution = "interp"
    try:
        _scale(x, out_interp)
    finally:
        settings.execution = None
    torch.testing.assert_close(out_interp, out_qemu, rtol=0, atol=0)
    torch.testing.assert_close(out_qemu, x * 2 + 1)


def test_enter_and_exit_hooks_are_called_around_the_launch():
    calls = []
    knobs.runtime.launch_enter_hook = lambda metadata: calls.append(("enter", metadata.get()["name"]))
    knobs.runtime.launch_exit_hook = lambda metadata: calls.append(("exit", metadata.get()["name"]))
    try:
        _scale(torch.ones(3, 3), torch.empty(3, 3))
    finally:
        knobs.runtime.launch_enter_hook = knobs.runtime.launch_exit_hook = None
    assert calls == [("enter", "scale_2d"), ("exit", "scale_2d")]


@triton.jit
def inline_ptx(x_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    y = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(x_ptr + offsets, y)


def test_a_gpu_only_feature_is_refused_with_the_op_and_the_line():
    x = torch.arange(8, dtype=torch.int32)
    with pytest.raises(KernelRefusedError) as refusal:
        inline_ptx[(1,)](x, BLOCK=8)
    message = str(refusal.value)
    assert "\n" not in message
    assert "tt.elementwise_inline_asm" in message and "inline PTX" in message
    assert "test_triton_launch.py:" in message  # the Python line
    assert refusal.value.__cause__ is None and refusal.value.__suppress_context__
    assert torch.equal(x, torch.arange(8, dtype=torch.int32))


@triton.jit
def out_of_bounds(x_ptr, n):
    tl.store(x_ptr + tl.arange(0, 16) * 100000, tl.full((16,), 1.0, tl.float32), mask=tl.arange(0, 16) < n)


def test_a_fault_raises_and_leaves_the_tensors_unchanged():
    x = torch.zeros(4)
    settings.execution = "interp"
    try:
        with pytest.raises(TnpuLaunchError, match="out_of_bounds"):
            out_of_bounds[(1,)](x, 16)
    finally:
        settings.execution = None
    assert torch.equal(x, torch.zeros(4))


def test_a_tensor_on_another_device_is_refused_before_anything_runs():
    x, out = torch.ones(3, 3), torch.empty(3, 3, device="meta")
    with pytest.raises(ValueError, match=r"argument 'out_ptr' is a tensor on 'meta'.*CPU tensors"):
        _scale(x, out)
    assert torch.equal(x, torch.ones(3, 3))


def test_an_argument_of_the_wrong_type_is_refused():
    x, out = torch.ones(3, 3), torch.zeros(3, 3)
    with pytest.raises(TypeError, match=r"argument 'x_ptr' \(\*fp32\) is a TensorLike"):

        class TensorLike:
            dtype = torch.float32

            def data_ptr(self):
                return x.data_ptr()

        scale_2d[(1,)](TensorLike(), out, 3, 1, 3, 1, 3, 3, BLOCK=16)
    assert torch.equal(out, torch.zeros(3, 3))


def test_a_bad_setting_is_one_line():
    settings.execution = "gpu"
    try:
        with pytest.raises(ValueError, match=r"^execution \(TNPU_EXEC\) is 'gpu': give qemu or interp or timing$"):
            _scale(torch.ones(2, 2), torch.empty(2, 2))
    finally:
        settings.execution = None


CACHED_LAUNCH = textwrap.dedent(
    """
    import sys, time
    import torch, triton, triton.language as tl

    @triton.jit
    def axpy(x_ptr, y_ptr, a, n, BLOCK: tl.constexpr):
        offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offsets < n
        tl.store(y_ptr + offsets, a * tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)

    hits = []
    triton.knobs.compilation.listener = lambda **kw: hits.append(kw["cache_hit"])
    x, y = torch.arange(100.0), torch.ones(100)
    axpy[(4,)](x, y, 0.5, 100, BLOCK=32)
    assert torch.equal(y, 0.5 * torch.arange(100.0) + 1), y
    print("hit" if hits == [True] else "miss")
    """
)


def run_in_a_fresh_process(tmp_path, source: str) -> subprocess.CompletedProcess:
    """`source` as a script in a new Python, with Triton's and tnpu's caches under tmp_path."""
    env = dict(os.environ, TRITON_CACHE_DIR=str(tmp_path / "triton-cache"), TNPU_CACHE_DIR=str(tmp_path / "tnpu-cache"))
    script = tmp_path / "script.py"
    script.write_text(source)
    return subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True)


def test_a_cache_hit_in_a_fresh_process_runs_no_stage(tmp_path):
    first = run_in_a_fresh_process(tmp_path, CACHED_LAUNCH)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["miss"]
    # A fresh process, and no ELF left in tnpu's cache: the binary carries everything.
    for elf in (tmp_path / "tnpu-cache" / "riscv-elf").iterdir():
        elf.unlink()
    second = run_in_a_fresh_process(tmp_path, CACHED_LAUNCH)
    assert second.returncode == 0, second.stderr
    assert second.stdout.split() == ["hit"]


KERNEL_FREED_UNDER_THE_HARNESS = textwrap.dedent(
    """
    import gc, torch, triton, triton.language as tl
    from tnpu.inductor_support import install_inductor_patches

    @triton.jit
    def iota(x_ptr, N: tl.constexpr):
        tl.store(x_ptr + tl.arange(0, N), tl.arange(0, N).to(tl.float32))

    x = torch.empty(16)
    iota[(1,)](x, N=16)
    install_inductor_patches()
    iota.device_caches.clear()
    gc.collect()
    print(x[15].item())
    """
)


def test_a_kernel_freed_after_the_harness_takes_the_driver_leaves_quietly(tmp_path):
    """CompiledKernel.__del__ unloads through whichever driver is active, the compile-only one too."""
    run = run_in_a_fresh_process(tmp_path, KERNEL_FREED_UNDER_THE_HARNESS)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["15.0"]
    assert "Exception ignored" not in run.stderr, run.stderr


@triton.jit
def _double(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=offsets < n) * 2, mask=offsets < n)


def test_in_the_timing_mode_a_launch_is_timed_not_run_and_says_its_outputs_are_unwritten():
    x, out = torch.arange(100.0), torch.full((100,), -1.0)
    with settings.scoped(execution="timing"), tnpu.profile() as prof, pytest.warns(TimingOnlyWarning, match="not written"):
        _double[(4,)](x, out, 100, BLOCK=32)
    assert torch.equal(out, torch.full((100,), -1.0)), "nothing ran"
    assert prof.launches[0].execution == "timing only" and prof.total_cycles > 0
