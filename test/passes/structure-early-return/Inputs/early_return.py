"""Kernels with `return` inside nested `if`/`else`, for which Triton emits cf.cond_br/cf.br.

Each takes `x`, `out` (float32), `n` and a constexpr `BLOCK`; which path a
program instance takes depends on its program id, so one launch over a grid
of 8 runs every path.
"""

import triton
import triton.language as tl


@triton.jit
def nested_return(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    if pid % 2 == 0:
        if pid > 4:
            return
        v = tl.load(x + offs, mask=mask)
        tl.store(out + offs, v * 2.0, mask=mask)
    else:
        v = tl.load(x + offs, mask=mask)
        tl.store(out + offs, v + 1.0, mask=mask)


@triton.jit
def return_then_join(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask)
    if pid < 4:
        w = v * 2.0
    else:
        if pid == 5:
            return
        w = v + 1.0
    tl.store(out + offs, w, mask=mask)


@triton.jit
def three_levels(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    scale = 1.0
    if pid > 1:
        scale = 2.0
        if pid > 3:
            scale = 3.0
            if pid == 6:
                return
        else:
            scale = 4.0
    v = tl.load(x + offs, mask=mask)
    tl.store(out + offs, v * scale, mask=mask)
    if pid == 2:
        return
    tl.store(out + offs, v * scale + 1.0, mask=mask & (offs % 2 == 0))


@triton.jit
def _scaled(v, pid):
    if pid % 3 == 0:
        return v * 2.0
    return v + 1.0


@triton.jit
def inlined_return(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    v = tl.load(x + offs, mask=mask)
    tl.store(out + offs, _scaled(v, pid), mask=mask)


@triton.jit
def return_before_loop(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    if pid % 4 == 3:
        if pid > 4:
            return
        tl.store(out + pid, -1.0)
        return
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, n, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(x + offs, mask=offs < n, other=0.0)
    tl.store(out + pid, tl.sum(acc) + pid)


@triton.jit
def pointer_past_return(x, out, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    if pid < 4:
        source = x
    else:
        if pid == 5:
            return
        source = out
    tl.store(out + offs, tl.load(source + offs, mask=mask) + 1.0, mask=mask)
