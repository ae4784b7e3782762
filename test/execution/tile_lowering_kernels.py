"""Triton kernels using the ops ttir-to-tile lowered last, written for tnpu's tests.

One or more kernels per op: `tl.clamp` (both NaN policies, the symmetric
clamp of Triton's tests), `tl.cat`, `tl.join` (of tensors, of scalars, and
feeding a `tl.dot`), `tl.interleave`, `tl.split` (into tensors and into
scalars), `tl.gather` along either axis, `tl.histogram` (with a mask),
`tl.where` of pointers (into one buffer and into two, by a scalar and by an
elementwise condition), and tensor descriptors (`tl.make_tensor_descriptor`
block loads and stores with tails and negative starts, NaN padding, row
gathers and scatters), plus `every_op`, which uses all of them and the rest
of issue 17's ops (16-bit and int8 dots, f16 arithmetic, f64 math, a sort, a
while loop without loop-carried values, an early return in nested ifs).  Shapes and
dtypes are those Triton's own `test_core.py` passes (`test_cat`,
`test_join*`, `test_interleave*`, `test_split*`, `test_gather`,
`test_histogram`, `test_clamp*`, `test_where`).

`test/backend_riscv/test_riscv_tile_lowerings.py` runs each through every rung of
`tnpu run --exec qemu --config tpuv3`.
"""

from __future__ import annotations

import triton
import triton.language as tl


@triton.jit
def clamp(X, Lo, Hi, Out, n, BLOCK: tl.constexpr):
    """tl.clamp with propagate_nan none and all; x is NaN where it was above 1 (a sixth of it)."""
    r = tl.arange(0, BLOCK)
    inside = r < n
    x = tl.load(X + r, mask=inside)
    x = tl.where(x > 1, float("nan"), x)
    a = tl.load(Lo + r, mask=inside)
    b = tl.load(Hi + r, mask=inside)
    low = tl.minimum(a, b)
    high = tl.maximum(a, b)
    tl.store(Out + r, tl.clamp(x, low, high), mask=inside)
    tl.store(Out + BLOCK + r, tl.clamp(x, low, high, propagate_nan=tl.PropagateNan.ALL), mask=inside)


@triton.jit
def clamp_symmetric(X, Limit, Out, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    inside = r < n
    x = tl.load(X + r, mask=inside)
    limit = tl.abs(tl.load(Limit + r, mask=inside))
    tl.store(Out + r, tl.clamp(x, -limit, limit), mask=inside)


@triton.jit
def cat(X, Y, Z, N: tl.constexpr):
    r = tl.arange(0, N)
    both = tl.cat(tl.load(X + r), tl.load(Y + r), can_reorder=True)
    tl.store(Z + tl.arange(0, 2 * N), both)


@triton.jit
def cat_along(X, Y, Z, ROWS: tl.constexpr, COLUMNS: tl.constexpr, DIM: tl.constexpr):
    """Triton 3.9's default tl.cat (join, permute, reshape) of two row-major blocks."""
    rows = tl.arange(0, ROWS)[:, None]
    columns = tl.arange(0, COLUMNS)[None, :]
    x = tl.load(X + rows * COLUMNS + columns)
    y = tl.load(Y + rows * COLUMNS + columns)
    both = tl.cat(x, y, dim=DIM)
    if DIM == 0:
        tl.store(Z + tl.arange(0, 2 * ROWS)[:, None] * COLUMNS + columns, both)
    else:
        tl.store(Z + rows * 2 * COLUMNS + tl.arange(0, 2 * COLUMNS)[None, :], both)


@triton.jit
def join(X, Y, Z, N: tl.constexpr):
    r = tl.arange(0, N)
    pairs = tl.join(tl.load(X + r), tl.load(Y + r))
    tl.store(Z + r[:, None] * 2 + tl.arange(0, 2)[None, :], pairs)


@triton.jit
def join_scalars(X, Y, Z):
    tl.store(Z + tl.arange(0, 2), tl.join(tl.load(X), tl.load(Y)))


@triton.jit
def join_into_dot(X, Z):
    """A (32, 16) block joined with twice itself and reshaped to (32, 32), squared by tl.dot."""
    x = tl.load(X + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :])
    square = tl.reshape(tl.join(x, 2 * x), (32, 32))
    tl.store(Z + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], tl.dot(square, square))


@triton.jit
def interleave(Z, N: tl.constexpr):
    tl.store(Z + tl.arange(0, 2 * N), tl.interleave(tl.arange(0, N), tl.arange(N, 2 * N)))


@triton.jit
def interleave_scalars(a, b, Z):
    tl.store(Z + tl.arange(0, 2), tl.interleave(a, b))


@triton.jit
def split(X, Z1, Z2, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    first, second = tl.split(tl.reshape(x, (N // 2, 2)))
    tl.store(Z1 + tl.arange(0, N // 2), first)
    tl.store(Z2 + tl.arange(0, N // 2), second)


@triton.jit
def split_to_scalars(X, Z1, Z2):
    first, second = tl.split(tl.load(X + tl.arange(0, 2)))
    tl.store(Z1, first)
    tl.store(Z2, second)


@triton.jit
def gather_1d(Src, Index, Out, SRC: tl.constexpr, N: tl.constexpr):
    source = tl.load(Src + tl.arange(0, SRC))
    tl.store(Out + tl.arange(0, N), tl.gather(source, tl.load(Index + tl.arange(0, N)), 0))


@triton.jit
def gather_2d(Src, Index, Out, AXIS: tl.constexpr, SRC0: tl.constexpr, SRC1: tl.constexpr,
              INDEX0: tl.constexpr, INDEX1: tl.constexpr):
    source = tl.load(Src + tl.arange(0, SRC0)[:, None] * SRC1 + tl.arange(0, SRC1)[None, :])
    at = tl.arange(0, INDEX0)[:, None] * INDEX1 + tl.arange(0, INDEX1)[None, :]
    tl.store(Out + at, tl.gather(source, tl.load(Index + at), AXIS))


@triton.jit
def histogram(X, Z, M: tl.constexpr, N: tl.constexpr):
    tl.store(Z + tl.arange(0, N), tl.histogram(tl.load(X + tl.arange(0, M)), N))


@triton.jit
def histogram_masked(X, Z, n, M: tl.constexpr, N: tl.constexpr):
    """Values past n are masked off; values outside [0, N) are not counted."""
    r = tl.arange(0, M)
    counts = tl.histogram(tl.load(X + r), N, mask=r < n)
    tl.store(Z + tl.arange(0, N), counts)


@triton.jit
def where_scalar_pointer(Cond, A, B, Out, n, BLOCK: tl.constexpr):
    """Triton's test_where with TEST_SCALAR_POINTERS: one buffer or the other, for the whole launch."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    chosen = tl.where(tl.load(Cond), A, B)
    tl.store(Out + offsets, tl.load(chosen + offsets, mask=inside), mask=inside)


@triton.jit
def where_addresses(Cond, A, B, Out, n, BLOCK: tl.constexpr):
    """Triton's test_where of `*int32`: integers cast to pointers, chosen, cast back."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    decide = tl.load(Cond + offsets, mask=inside)
    a = tl.load(A + offsets, mask=inside).to(tl.pi32_t)
    b = tl.load(B + offsets, mask=inside).to(tl.pi32_t)
    tl.store(Out + offsets, tl.where(decide, a, b), mask=inside)


@triton.jit
def where_pointers(Cond, A, B, Out, n, BLOCK: tl.constexpr):
    """Pointers chosen element by element from two buffers, read and written through;
    and from one buffer (a reversal of the block's second half)."""
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    inside = offsets < n
    decide = tl.load(Cond + offsets, mask=inside, other=False)
    chosen = tl.where(decide, A + offsets, B + offsets)
    tl.store(Out + offsets, tl.load(chosen, mask=inside, other=-1), mask=inside)
    tl.store(chosen, tl.load(chosen, mask=inside) * 3, mask=inside)
    mirrored = tl.program_id(0) * BLOCK + BLOCK - 1 - tl.arange(0, BLOCK)
    own = tl.where(tl.arange(0, BLOCK) < BLOCK // 2, A + offsets, A + mirrored)
    tl.store(Out + n + offsets, tl.load(own, mask=inside & (mirrored < n)), mask=inside)


@triton.jit
def descriptor_blocks(X, Y, M, N, BM: tl.constexpr, BN: tl.constexpr):
    """Blocks of an M x N tensor copied (times two) block by block: tails in both dimensions."""
    source = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    target = tl.make_tensor_descriptor(Y, shape=[M, N], strides=[N, 1], block_shape=[BM, BN])
    m = tl.program_id(0) * BM
    k = tl.program_id(1) * BN
    target.store([m, k], source.load([m, k]) * 2)


@triton.jit
def descriptor_edges(X, Y, N, start, BN: tl.constexpr):
    """One row block starting at a negative column, NaN padding, loaded as a 1-D block."""
    row = tl.make_tensor_descriptor(X, shape=[1, N], strides=[N, 1], block_shape=[1, BN],
                                    padding_option="nan")
    padded = tl.reshape(row.load([0, start]), (BN,))
    tl.store(Y + tl.arange(0, BN), tl.where(padded != padded, -7.0, padded))


@triton.jit
def descriptor_rows(X, Y, Rows, M, N, R: tl.constexpr, BN: tl.constexpr):
    """desc.gather of rows (some outside the tensor) from a column, desc.scatter back elsewhere."""
    source = tl.make_tensor_descriptor(X, shape=[M, N], strides=[N, 1], block_shape=[1, BN])
    target = tl.make_tensor_descriptor(Y, shape=[M, N], strides=[N, 1], block_shape=[1, BN])
    rows = tl.load(Rows + tl.arange(0, R))
    picked = source.gather(rows, tl.program_id(0) * BN - 4)
    target.scatter(picked + 1, rows, tl.program_id(0) * BN)


@triton.jit
def descriptor_cat(X, Y, Z, s0, s1, s2, s3, t0, t1, t2, DIM: tl.constexpr):
    """Triton's test_cat_nd at rank 4: blocks of (2, 4, 8, 16) through descriptors of
    runtime shape and strides, concatenated along DIM, stored through another."""
    x = tl.make_tensor_descriptor(X, shape=[s0, s1, s2, s3], strides=[t0, t1, t2, 1], block_shape=[2, 4, 8, 16])
    y = tl.make_tensor_descriptor(Y, shape=[s0, s1, s2, s3], strides=[t0, t1, t2, 1], block_shape=[2, 4, 8, 16])
    both = tl.cat(x.load([0, 0, 0, 0]), y.load([0, 0, 0, 0]), dim=DIM)
    tl.store(Z + tl.arange(0, 2048), tl.reshape(both, (2048,)))


@triton.jit
def every_op(X, Y, I, Out, Counts, Flags, H, HOut, Q, QOut, D, DOut, SOut, Lock, n, N: tl.constexpr):
    """Every op of issue 17 in one kernel: clamp, cat, join, interleave, split, gather,
    histogram, pointers chosen by tl.where and a tensor descriptor (Out holds 5 N); f16
    arithmetic, f16 and int8 dots (H and Q hold N x 2N, HOut and QOut N x N), f64 exp2
    and log, a sort, a while loop without loop-carried values (a spin lock on Lock), and
    a return inside nested ifs (Triton's cf.cond_br)."""
    r = tl.arange(0, N)
    x = tl.load(X + r)
    y = tl.load(Y + r)
    index = tl.load(I + r) & (N - 1)  # any integer, as a position in [0, N)
    clamped = tl.clamp(x, -0.5, 0.5) + tl.clamp(x, y, y + 1, propagate_nan=tl.PropagateNan.ALL)
    first, second = tl.split(tl.reshape(tl.cat(clamped, y, can_reorder=True), (N, 2)))
    joined = tl.reshape(tl.join(first - second, tl.gather(x, index, 0)), (2 * N,))
    tl.store(Out + tl.arange(0, 4 * N), tl.cat(joined, tl.interleave(x, y), can_reorder=True))
    tl.store(Counts + tl.arange(0, 16), tl.histogram(index, 16, mask=r < n))
    chosen = tl.where(tl.load(Flags + r) > 0, X + r, Y + r)  # Flags are floats, not indices
    block = tl.make_tensor_descriptor(Out, shape=[5 * N], strides=[1], block_shape=[N])
    wide = r[:, None] * (2 * N) + tl.arange(0, 2 * N)[None, :]  # N x 2N: an int8 dot takes K >= 32
    square = r[:, None] * N + r[None, :]
    h = tl.load(H + wide)
    tl.store(HOut + square, tl.dot(h * h - h, tl.trans(h)))
    q = tl.load(Q + wide)
    tl.store(QOut + square, tl.dot(q, tl.trans(q)))
    d = tl.load(D + r)
    tl.store(DOut + r, tl.exp2(d) - tl.log(tl.abs(d) + 1.0))
    tl.store(SOut + r, tl.sort(x))
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    tl.atomic_xchg(Lock, 0)
    both = tl.load(chosen) + block.load([N])
    if n % 2 == 1:
        if n > 64:
            return
        block.store([4 * N], both)
    else:
        block.store([4 * N], both * 2)
