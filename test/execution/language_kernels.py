"""Triton kernels with the patterns of Triton's fp16 tutorials, written for tnpu's tests.

Matmul (tutorial 03): a tl.dot over a K loop with masked K tails into an
accumulator of the output's type (fp16 x fp16 -> fp32 or fp16, bf16, fp32 at
either input precision, fp64, int8 -> int32; 3-D batched too).  Layer norm
(tutorial 05): fp16 forward over column chunks with f32 statistics, the
backward's dx with per-group dw/db partial sums taken under a spin lock
(`while tl.atomic_cas(...) == 1: pass`), and the dw/db column reduction.
Attention (tutorial 06): a forward pass with fp16 q, k, v, scores in f32,
an online softmax in base 2 and an optional causal mask.  Sort: `tl.sort`
of 512 elements, whose bitonic network builds rank-9 tiles.  And bf16
arithmetic and integer -> bf16 conversion, which Triton's interpreter gets
wrong (docs/oracle-exceptions.md), and f64 math through expand-math.

`test/backend_riscv/test_riscv_language.py` runs each through every rung of `tnpu run --exec qemu`.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def dot_k_loop(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, PRECISION: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = A + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = B + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=C.dtype.element_ty)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        a = tl.load(a_ptrs, mask=(rm[:, None] < M) & (rk[None, :] < left), other=0)
        b = tl.load(b_ptrs, mask=(rk[:, None] < left) & (rn[None, :] < N), other=0)
        acc = tl.dot(a, b, acc, input_precision=PRECISION)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c_ptrs = C + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@triton.jit
def batched_dot(A, B, C, BATCH: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rb = tl.arange(0, BATCH)[:, None, None]
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(A + rb * BM * BK + rm[None, :, None] * BK + rk[None, None, :])
    b = tl.load(B + rb * BK * BN + rk[None, :, None] * BN + rn[None, None, :])
    c = tl.dot(a, b, out_dtype=C.dtype.element_ty)
    tl.store(C + rb * BM * BN + rm[None, :, None] * BN + rn[None, None, :], c)


@triton.jit
def layer_norm_forward(X, Y, W, Bias, Mean, Rstd, stride, N, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    X += row * stride
    Y += row * stride
    total = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        total += tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
    mean = tl.sum(total, axis=0) / N
    squares = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(X + cols, mask=cols < N, other=0.0).to(tl.float32)
        centred = tl.where(cols < N, x - mean, 0.0)
        squares += centred * centred
    rstd = 1 / tl.sqrt(tl.sum(squares, axis=0) / N + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    for start in range(0, N, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        inside = cols < N
        x = tl.load(X + cols, mask=inside, other=0.0).to(tl.float32)
        w = tl.load(W + cols, mask=inside)
        b = tl.load(Bias + cols, mask=inside)
        tl.store(Y + cols, (x - mean) * rstd * w + b, mask=inside)


@triton.jit
def layer_norm_backward_dx(DX, DY, PartialDW, PartialDB, X, W, Mean, Rstd, Locks, stride, N,
                           GROUPS: tl.constexpr, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    inside = cols < N
    x = tl.load(X + row * stride + cols, mask=inside, other=0).to(tl.float32)
    dy = tl.load(DY + row * stride + cols, mask=inside, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=inside).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    xhat = tl.where(inside, (x - mean) * rstd, 0.0)
    wdy = tl.where(inside, w * dy, 0.0)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    tl.store(DX + row * stride + cols, (wdy - (xhat * c1 + c2)) * rstd, mask=inside)
    # Rows of one group add their dw/db into the group's partial sums, one at a time.
    group = row % GROUPS
    lock = Locks + group
    count = Locks + GROUPS + group
    dw = (dy * xhat).to(w.dtype)
    db = dy.to(w.dtype)
    while tl.atomic_cas(lock, 0, 1) == 1:
        pass
    if tl.load(count) == 0:
        tl.atomic_xchg(count, 1)
    else:
        dw += tl.load(PartialDW + group * N + cols, mask=inside)
        db += tl.load(PartialDB + group * N + cols, mask=inside)
    tl.store(PartialDW + group * N + cols, dw.to(PartialDW.dtype.element_ty), mask=inside)
    tl.store(PartialDB + group * N + cols, db.to(PartialDB.dtype.element_ty), mask=inside)
    tl.atomic_xchg(lock, 0)


@triton.jit
def layer_norm_backward_dwdb(PartialDW, PartialDB, DW, DB, GROUPS, N,
                             BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    dw = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for start in range(0, GROUPS, BLOCK_M):
        rows = start + tl.arange(0, BLOCK_M)
        inside = (rows[:, None] < GROUPS) & (cols[None, :] < N)
        offsets = rows[:, None] * N + cols[None, :]
        dw += tl.load(PartialDW + offsets, mask=inside, other=0.0).to(tl.float32)
        db += tl.load(PartialDB + offsets, mask=inside, other=0.0).to(tl.float32)
    tl.store(DW + cols, tl.sum(dw, axis=0).to(DW.dtype.element_ty), mask=cols < N)
    tl.store(DB + cols, tl.sum(db, axis=0).to(DB.dtype.element_ty), mask=cols < N)


@triton.jit
def attention_forward(Q, K, V, Out, Lse, sm_scale, N_CTX, HEAD: tl.constexpr,
                      BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, CAUSAL: tl.constexpr):
    start_m = tl.program_id(0)
    head = tl.program_id(1)
    base = head.to(tl.int64) * N_CTX * HEAD
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD)
    q = tl.load(Q + base + offs_m[:, None] * HEAD + offs_d[None, :], mask=offs_m[:, None] < N_CTX, other=0.0)
    scale = sm_scale * 1.44269504  # scores in base 2: exp(x) = exp2(x log2 e)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD], dtype=tl.float32)
    end = tl.minimum((start_m + 1) * BLOCK_M, N_CTX) if CAUSAL else N_CTX
    for start_n in range(0, end, BLOCK_N):
        offs_n = start_n + tl.arange(0, BLOCK_N)
        k = tl.load(K + base + offs_n[None, :] * HEAD + offs_d[:, None], mask=offs_n[None, :] < N_CTX, other=0.0)
        qk = tl.dot(q, k) * scale
        keep = offs_n[None, :] < N_CTX
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= offs_n[None, :])
        qk = tl.where(keep, qk, -1.0e6)
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = tl.load(V + base + offs_n[:, None] * HEAD + offs_d[None, :], mask=offs_n[:, None] < N_CTX, other=0.0)
        acc = tl.dot(p.to(tl.float16), v, acc * alpha[:, None])
        m_i = m_new
    rows = offs_m < N_CTX
    tl.store(Lse + head * N_CTX + offs_m, m_i + tl.math.log2(l_i), mask=rows)
    tl.store(Out + base + offs_m[:, None] * HEAD + offs_d[None, :], (acc / l_i[:, None]).to(tl.float16),
             mask=rows[:, None])


@triton.jit
def sort_rows(X, Y, ROWS: tl.constexpr, COLUMNS: tl.constexpr, DESCENDING: tl.constexpr):
    i = tl.arange(0, ROWS)[:, None] * COLUMNS + tl.arange(0, COLUMNS)[None, :]
    tl.store(Y + i, tl.sort(tl.load(X + i), dim=1, descending=DESCENDING))


@triton.jit
def bf16_arithmetic(X, Out, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(X + r)
    tl.store(Out + r, -x)
    tl.store(Out + BLOCK + r, tl.maximum(x, -x))
    tl.store(Out + 2 * BLOCK + r, tl.minimum(tl.maximum(x, -0.25), 0.5))  # tl.clamp of bf16: test_riscv_tile_lowerings
    tl.store(Out + 3 * BLOCK + r, x * x + x)


@triton.jit
def int_to_bf16(X, Y, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    tl.store(Y + r, (tl.load(X + r) * 2796203).to(tl.bfloat16))


@triton.jit
def f64_math(X, Y, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(X + r)
    tl.store(Y + r, tl.exp(x) - tl.log(tl.abs(x) + 1e-3))
    tl.store(Y + BLOCK + r, tl.sin(x * 1e5) * tl.cos(x))
    tl.store(Y + 2 * BLOCK + r, tl.math.erf(x) + tl.exp2(x) - tl.log2(tl.abs(x) + 1.0))
    tl.store(Y + 3 * BLOCK + r, tl.math.rsqrt(tl.abs(x) + 0.5) + tl.sqrt(tl.abs(x)))


@triton.jit
def many_loads(X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15,
               X16, X17, X18, X19, X20, X21, X22, X23, Out, n, BLOCK: tl.constexpr):
    """The pattern of a pointwise Llama attention kernel (Inductor's
    `triton_poi_fused__scaled_dot_product_efficient_attention_...`): one body
    reading 24 buffers, here products of pairs summed, as rotary embeddings do."""
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    acc = tl.load(X0 + offs, m) * tl.load(X1 + offs, m) + tl.load(X2 + offs, m) * tl.load(X3 + offs, m)
    acc += tl.load(X4 + offs, m) * tl.load(X5 + offs, m) + tl.load(X6 + offs, m) * tl.load(X7 + offs, m)
    acc += tl.load(X8 + offs, m) * tl.load(X9 + offs, m) + tl.load(X10 + offs, m) * tl.load(X11 + offs, m)
    acc += tl.load(X12 + offs, m) * tl.load(X13 + offs, m) + tl.load(X14 + offs, m) * tl.load(X15 + offs, m)
    acc += tl.load(X16 + offs, m) * tl.load(X17 + offs, m) + tl.load(X18 + offs, m) * tl.load(X19 + offs, m)
    acc += tl.load(X20 + offs, m) * tl.load(X21 + offs, m) + tl.load(X22 + offs, m) * tl.load(X23 + offs, m)
    tl.store(Out + offs, acc, m)
