"""Triton kernels the timing tests time, compiled as a user's would be: `@triton.jit`
→ TTIR (tnpu's frontend) → tile IR for the NPU → a `KernelTimer`."""

from __future__ import annotations

import functools
from pathlib import Path

import triton
import triton.language as tl

from tnpu.compiler.kernel import compile_ttir
from tnpu.frontend import KernelSource, compile_to_ttir, load_jit_function
from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.timer import KernelTimer


add_kernel = load_jit_function(Path(__file__).parent.parent / "tools" / "Inputs" / "add.py", "add_kernel")
"""`out = x + y`, `BLOCK` elements per program, the tail masked."""


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    columns = tl.arange(0, BLOCK)
    mask = columns < n_cols
    x = tl.load(x_ptr + row * n_cols + columns, mask=mask, other=float("-inf"))
    shifted = x - tl.max(x, axis=0)
    numerator = tl.exp(shifted)
    tl.store(out_ptr + row * n_cols + columns, numerator / tl.sum(numerator, axis=0), mask=mask)


@triton.jit
def scale_in_place_kernel(x_ptr, n, BLOCK: tl.constexpr):
    """Reads and writes its own block of one buffer (Inductor's `in_out_ptr`)."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(x_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) * 2.0, mask=mask)


@triton.jit
def store_then_load_kernel(x_ptr, scratch_ptr, out_ptr, n, BLOCK: tl.constexpr):
    """Writes its block of `scratch`, then reads back the block before it: the read
    sees what the previous program instance stored."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(scratch_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + 1.0, mask=mask)
    before = offsets - BLOCK
    previous = tl.load(scratch_ptr + before, mask=mask & (before >= 0), other=0.0)
    tl.store(out_ptr + offsets, previous, mask=mask)


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rows = tl.program_id(0) * BM + tl.arange(0, BM)
    cols = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        ks = k + tl.arange(0, BK)
        a = tl.load(a_ptr + rows[:, None] * K + ks[None, :])
        b = tl.load(b_ptr + ks[:, None] * N + cols[None, :])
        acc += tl.dot(a, b, input_precision="ieee")
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], acc)


POINTER = "*fp32"
SIGNATURES = {
    add_kernel: {"x_ptr": POINTER, "y_ptr": POINTER, "out_ptr": POINTER, "n": "i32"},
    softmax_kernel: {"x_ptr": POINTER, "out_ptr": POINTER, "n_cols": "i32"},
    scale_in_place_kernel: {"x_ptr": POINTER, "n": "i32"},
    store_then_load_kernel: {
        "x_ptr": POINTER, "scratch_ptr": POINTER, "out_ptr": POINTER, "n": "i32"
    },
    matmul_kernel: {
        "a_ptr": POINTER, "b_ptr": POINTER, "c_ptr": POINTER, "M": "i32", "N": "i32", "K": "i32"
    },
}


@functools.cache
def _ttir(kernel, constexprs: tuple[tuple[str, int], ...]) -> str:
    signature = SIGNATURES[kernel] | dict.fromkeys(dict(constexprs), "constexpr")
    return compile_to_ttir(KernelSource(kernel, signature, dict(constexprs)))


def triton_timer(kernel, npu: NPUConfig, **constexprs: int) -> KernelTimer:
    """A timer of `kernel` specialised to `constexprs`, lowered for `npu`."""
    text = _ttir(kernel, tuple(sorted(constexprs.items())))
    return compile_ttir(text, kernel.__name__, source=f"{kernel.__name__}.ttir").timer(npu)
