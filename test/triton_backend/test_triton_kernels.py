"""One kernel of each kind through `kernel[grid](...)` on tnpu, checked against eager PyTorch.

Each runs under qemu (the default execution) on CPU tensors; the kinds are
the ones Triton's own test suite exercises that tnpu does not list as
expected failures.
"""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest
import torch
import triton
import triton.language as tl
from torch._inductor.runtime import triton_helpers
from triton.language.extra import libdevice

from triton_backend_driver import tnpu_driver  # noqa: F401 (an autouse fixture)
from tnpu.triton_backend.settings import settings


@triton.jit
def elementwise(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.where(x > y, x * y - 1.5, tl.exp(x) / (1 + y * y)), mask=mask)


def test_elementwise_with_a_ragged_last_block():
    x, y = torch.randn(1000), torch.randn(1000)
    out = torch.empty(1000)
    elementwise[(triton.cdiv(1000, 256),)](x, y, out, 1000, BLOCK=256)
    torch.testing.assert_close(out, torch.where(x > y, x * y - 1.5, torch.exp(x) / (1 + y * y)))


@triton.jit
def cast(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask).to(out_ptr.dtype.element_ty), mask=mask)


CAST_DTYPES = [torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8,
               torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.bool]  # fmt: skip


def _values(dtype: torch.dtype) -> torch.Tensor:
    generator = torch.Generator().manual_seed(1)
    if dtype == torch.bool:
        return torch.rand(100, generator=generator) > 0.5
    if dtype.is_floating_point:  # within every integer type's range: out of it, casts are undefined
        return (torch.rand(100, generator=generator) * 100).to(dtype)
    low = 0 if dtype == torch.uint8 else -100
    return torch.randint(low, 100, (100,), generator=generator).to(dtype)


@pytest.mark.parametrize("source", CAST_DTYPES, ids=str)
def test_every_cast_from_one_dtype(source):
    """One launch per target dtype: `.to()` as torch converts (floats to ints truncate;
    f16 <-> bf16 is Triton's `tt.fp_to_fp`)."""
    x = _values(source)
    for target in CAST_DTYPES:
        out = torch.empty(100, dtype=target)
        cast[(1,)](x, out, 100, BLOCK=128)
        torch.testing.assert_close(out, x.to(target), msg=f"{source} -> {target}")


FP8 = {torch.float8_e5m2: ml_dtypes.float8_e5m2, torch.float8_e4m3fn: ml_dtypes.float8_e4m3fn,
       torch.float8_e5m2fnuz: ml_dtypes.float8_e5m2fnuz, torch.float8_e4m3fnuz: ml_dtypes.float8_e4m3fnuz}  # fmt: skip
WIDER = {torch.float16: np.float16, torch.bfloat16: ml_dtypes.bfloat16, torch.float32: np.float32,
         torch.float64: np.float64}  # fmt: skip


def _to_torch(array: np.ndarray, dtype: torch.dtype) -> torch.Tensor:
    """numpy (ml_dtypes) values as a torch tensor of `dtype`, through their bits."""
    bits = {1: np.uint8, 2: np.int16, 4: np.int32, 8: np.int64}[array.itemsize]
    return torch.from_numpy(array.view(bits).copy()).view(dtype)


@pytest.mark.parametrize("fp8", FP8, ids=str)
def test_fp8_casts_to_and_from_every_float(fp8):
    """Triton's `tt.fp_to_fp`, bit for bit as ml_dtypes converts.

    Every one of the 256 fp8 patterns widened (exactly) to f16, bf16, f32
    and f64; and values of those types rounded to fp8: every fp8 value,
    every tie between two neighbours and the floats just beside each tie,
    subnormals, overflow (to infinity, or NaN in e4m3fn and the FNUZ
    formats, which have none), infinities, NaN, and -0 (+0 in FNUZ).
    """
    patterns = np.arange(256, dtype=np.uint8).view(FP8[fp8])
    for wide, numpy_type in WIDER.items():
        out = torch.empty(256, dtype=wide)
        cast[(1,)](_to_torch(patterns, fp8), out, 256, BLOCK=256)
        expected = _to_torch(patterns.astype(numpy_type), wide)
        nan = expected.isnan()  # NaN payloads are not compared: ml_dtypes drops them, numpy keeps them
        assert torch.equal(out.isnan(), nan), f"{fp8} -> {wide}"
        assert torch.equal(out[~nan].view(torch.uint8), expected[~nan].view(torch.uint8)), f"{fp8} -> {wide}"
    values = np.unique(patterns[np.isfinite(patterns)].astype(np.float32))
    ties = (values[1:] + values[:-1]) / 2
    specials = [1e30, 70000.0, 61440.0, 464.0, 463.9, 248.0, 2.0**-20, 0.0, np.inf, np.nan]
    candidates = np.concatenate([values, ties, np.nextafter(ties, np.float32(np.inf)),
                                 np.nextafter(ties, np.float32(-np.inf)), specials, np.negative(specials)])  # fmt: skip
    for wide, numpy_type in WIDER.items():
        with np.errstate(over="ignore"):
            source = candidates.astype(np.float32).astype(numpy_type)
        out = torch.empty(len(source), dtype=fp8)
        cast[(1,)](_to_torch(source, wide), out, len(source), BLOCK=triton.next_power_of_2(len(source)))
        expected = source.astype(FP8[fp8]).view(np.uint8)
        assert np.array_equal(out.view(torch.uint8).numpy(), expected), f"{wide} -> {fp8}"


@triton.jit
def reduce_and_scan(x_ptr, sum_ptr, max_ptr, cumsum_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + rows * N + cols)
    outer = tl.arange(0, N if AXIS == 0 else M)
    tl.store(sum_ptr + outer, tl.sum(x, axis=AXIS))
    tl.store(max_ptr + outer, tl.max(x, axis=AXIS))
    tl.store(cumsum_ptr + rows * N + cols, tl.cumsum(x, axis=AXIS))


@pytest.mark.parametrize("axis", [0, 1])
def test_reductions_and_scans_on_each_axis(axis):
    x = torch.randn(8, 32)
    sums, maxes = torch.empty(x.shape[1 - axis]), torch.empty(x.shape[1 - axis])
    cumsum = torch.empty_like(x)
    reduce_and_scan[(1,)](x, sums, maxes, cumsum, 8, 32, AXIS=axis)
    torch.testing.assert_close(sums, x.sum(axis))
    torch.testing.assert_close(maxes, x.amax(axis))
    torch.testing.assert_close(cumsum, x.cumsum(axis))


@triton.jit
def sum_along(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr):
    rows = tl.arange(0, M)[:, None]
    cols = tl.arange(0, N)[None, :]
    outer = tl.arange(0, N if AXIS == 0 else M)
    tl.store(out_ptr + outer, tl.sum(tl.load(x_ptr + rows * N + cols), axis=AXIS))


def _neighbour_tree_sum(x: torch.Tensor, axis: int) -> torch.Tensor:
    """Neighbours added pairwise, level by level, each sum rounded to x's type (a GPU's order)."""
    x = x.movedim(axis, -1)
    while x.shape[-1] > 1:
        x = x[..., 0::2] + x[..., 1::2]
    return x[..., 0]


@pytest.mark.parametrize("execution", ["qemu", "interp"])
@pytest.mark.parametrize(("shape", "axis"), [((1, 1024), 1), ((1024, 4), 0)], ids=["lanes-are-pairs", "rows-are-pairs"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_16_bit_float_sums_combine_neighbours_as_a_gpu_does(dtype, shape, axis, execution):
    """Triton sums f16/bf16 in their own type, every step rounded; the order decides the answer.

    Summed in order, 1024 threes in f16 come to 3412 (each step past 2048
    rounds), and 1024 bf16 ones stop at 256; combined as neighbours, as
    Triton's GPU code and tnpu's interpreters do, they are exact.
    """
    threes = torch.full(shape, 3.0, dtype=dtype)
    normal = torch.randn(shape, generator=torch.Generator().manual_seed(7)).to(dtype)
    with settings.scoped(execution=execution):
        for x in (threes, normal):
            out = torch.empty(shape[1 - axis], dtype=dtype)
            sum_along[(1,)](x, out, *shape, AXIS=axis)
            assert torch.equal(out, _neighbour_tree_sum(x, axis)), (x[0, :4], out)
    assert torch.equal(_neighbour_tree_sum(threes, axis), torch.full_like(out, 3072.0))


@triton.jit
def inductor_arg_extremes(x_ptr, largest_ptr, argmax_ptr, smallest_ptr, argmin_ptr, columns,
                          ROWS: tl.constexpr, BLOCK: tl.constexpr):  # fmt: skip
    """torch.max/min(x, 1) as Inductor writes them: masked columns read -inf (+inf), indices an iota."""
    rows = tl.arange(0, ROWS)[:, None]
    index = tl.arange(0, BLOCK)[None, :]
    valid = index < columns
    x = tl.load(x_ptr + rows * columns + index, valid, other=0.0)
    indices = tl.broadcast_to(index, x.shape)
    largest, argmax = triton_helpers.max_with_index(tl.where(valid, x, float("-inf")), indices, 1)
    smallest, argmin = triton_helpers.min_with_index(tl.where(valid, x, float("inf")), indices, 1)
    out = tl.arange(0, ROWS)
    tl.store(largest_ptr + out, largest)
    tl.store(argmax_ptr + out, argmax)
    tl.store(smallest_ptr + out, smallest)
    tl.store(argmin_ptr + out, argmin)


def _rows_with_ties_and_nans(columns: int) -> torch.Tensor:
    """16 rows of `columns` floats: random ones, and the cases an argmax/argmin decides by order."""
    nan, inf = float("nan"), float("inf")
    rows = torch.randn(16, columns, generator=torch.Generator().manual_seed(columns))
    last = columns - 1
    rows[1, [last // 3, last]] = nan  # NaN wins, the first one
    rows[2] = nan
    rows[3] = -inf
    rows[4] = inf
    rows[5, [last // 2, last // 4, last]] = 9.0  # repeated maxima
    rows[5, [last, last // 3, 0]] = -9.0  # repeated minima
    rows[6] = -1.0  # a zero maximum: -0.0 first, then +0.0
    rows[6, [last // 2, last]] = torch.tensor([-0.0, 0.0])
    rows[7] = -1.0  # +0.0 first, then -0.0
    rows[7, [last // 2, last]] = torch.tensor([0.0, -0.0])
    rows[8] = 1.0  # a zero minimum: -0.0 first, then +0.0
    rows[8, [last // 2, last]] = torch.tensor([-0.0, 0.0])
    rows[9] = 1.0  # +0.0 first, then -0.0
    rows[9, [last // 2, last]] = torch.tensor([0.0, -0.0])
    rows[10] = 0.0  # zeros of both signs everywhere
    rows[10, ::3] = -0.0
    rows[11, last] = nan  # a NaN in the last (partial) strip
    rows[12, [0, last]] = -inf  # infinities beside NaNs
    rows[12, last // 2] = nan
    rows[13, last] = inf  # extremes in the last column only
    rows[13, last // 2] = -inf
    return rows


def _first_position_of_extreme(x: np.ndarray, largest: bool) -> np.ndarray:
    """Per row, the first NaN, else the first element equal to the row's max (min): Inductor's answer."""
    nans = np.isnan(x)
    extreme = (np.max if largest else np.min)(np.where(nans, -np.inf if largest else np.inf, x), axis=1)
    return np.where(nans.any(axis=1), nans.argmax(axis=1), (x == extreme[:, None]).argmax(axis=1))


@pytest.mark.parametrize("vlen", [128, 256, 512])
@pytest.mark.parametrize(("columns", "block"), [(1, 1), (37, 64), (500, 512), (512, 512)])
def test_inductor_argmax_and_argmin_take_the_first_extreme(columns, block, vlen):
    """Inductor's max_with_index/min_with_index: a NaN beats any number, -0.0 ties with +0.0, the
    lower index wins a tie; the value is the one at that index, sign of zero and all.

    Its indices an iota, RVV reduces the row (vfredmax/vfredmin) and then finds the first position
    holding the result; the answers are torch's, and bit for bit the elements at those positions.
    """
    x = _rows_with_ties_and_nans(columns)
    largest, smallest = torch.empty(16), torch.empty(16)
    argmax, argmin = torch.empty(16, dtype=torch.int32), torch.empty(16, dtype=torch.int32)
    with settings.scoped(vlen=vlen):
        inductor_arg_extremes[(1,)](x, largest, argmax, smallest, argmin, columns, ROWS=16, BLOCK=block)
    for found, at, is_largest in ((largest, argmax, True), (smallest, argmin, False)):
        expected = torch.from_numpy(_first_position_of_extreme(x.numpy(), is_largest)).to(torch.int32)
        assert torch.equal(at, expected), (is_largest, at, expected)
        assert torch.equal(at.long(), x.argmax(1) if is_largest else x.argmin(1))
        at_positions = x.gather(1, at.long()[:, None])[:, 0]
        assert torch.equal(found.view(torch.int32), at_positions.view(torch.int32)), (is_largest, found, at_positions)


@triton.jit
def inductor_int_arg_extremes(x_ptr, argmax_ptr, argmin_ptr, ROWS: tl.constexpr, COLUMNS: tl.constexpr):
    index = tl.arange(0, COLUMNS)[None, :]
    x = tl.load(x_ptr + tl.arange(0, ROWS)[:, None] * COLUMNS + index)
    indices = tl.broadcast_to(index, x.shape)
    out = tl.arange(0, ROWS)
    tl.store(argmax_ptr + out, triton_helpers.max_with_index(x, indices, 1)[1])
    tl.store(argmin_ptr + out, triton_helpers.min_with_index(x, indices, 1)[1])


@pytest.mark.parametrize("vlen", [128, 256, 512])
def test_inductor_integer_argmax_and_argmin_take_the_first_extreme(vlen):
    """Integers (no NaN parts in the combiner) reduce with vredmax/vredmin, then find the first."""
    x = torch.randint(-5, 5, (8, 128), dtype=torch.int32, generator=torch.Generator().manual_seed(3))
    x[1] = torch.iinfo(torch.int32).min
    x[2] = torch.iinfo(torch.int32).max
    argmax, argmin = torch.empty(8, dtype=torch.int32), torch.empty(8, dtype=torch.int32)
    with settings.scoped(vlen=vlen):
        inductor_int_arg_extremes[(1,)](x, argmax, argmin, ROWS=8, COLUMNS=128)
    assert torch.equal(argmax.long(), x.argmax(1)), (argmax, x.argmax(1))
    assert torch.equal(argmin.long(), x.argmin(1)), (argmin, x.argmin(1))


@triton.jit
def cumsum_along(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr):
    offsets = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    tl.store(out_ptr + offsets, tl.cumsum(tl.load(x_ptr + offsets), axis=AXIS, reverse=REVERSE))


def _doubling_scan_sum(x: torch.Tensor, axis: int, reverse: bool) -> torch.Tensor:
    """Element i plus element i - d for d = 1, 2, 4, ..., each sum rounded to x's type (a GPU's order)."""
    x = x.movedim(axis, -1)
    x = x.flip(-1) if reverse else x
    distance = 1
    while distance < x.shape[-1]:
        x = torch.cat([x[..., :distance], x[..., :-distance] + x[..., distance:]], dim=-1)
        distance *= 2
    return (x.flip(-1) if reverse else x).movedim(-1, axis)


@pytest.mark.parametrize("execution", ["qemu", "interp"])
@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
@pytest.mark.parametrize(("shape", "axis"), [((1, 1024), 1), ((1024, 4), 0)], ids=["along-a-row", "down-columns"])
@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_16_bit_float_scans_add_in_doubling_steps_as_a_gpu_does(dtype, shape, axis, reverse, execution):
    """A scan rounded at every step loses what a sequential fold adds late.

    Folded in order, a cumulative sum of 1024 f16 threes ends at 3412 and
    one of bf16 threes stalls far below; added at distances 1, 2, 4, ...,
    as a GPU scans across lanes and tnpu's interpreters do, each element
    is rounded at most ten times and the total is exact.
    """
    threes = torch.full(shape, 3.0, dtype=dtype)
    normal = torch.randn(shape, generator=torch.Generator().manual_seed(11)).to(dtype)
    with settings.scoped(execution=execution):
        for x in (threes, normal):
            out = torch.empty_like(x)
            cumsum_along[(1,)](x, out, *shape, AXIS=axis, REVERSE=reverse)
            assert torch.equal(out, _doubling_scan_sum(x, axis, reverse)), (x.flatten()[:4], out.flatten()[:4])
    total = _doubling_scan_sum(threes, axis, reverse).flatten()[0 if reverse else -1]
    assert total == 3072.0


@triton.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    rm = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K, BLOCK_K):
        rk = k + tl.arange(0, BLOCK_K)
        a = tl.load(a_ptr + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + rk[:, None] * N + rn[None, :], mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        accumulator += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], accumulator, mask=(rm[:, None] < M) & (rn[None, :] < N))


def test_dot_over_a_2d_grid_with_masked_edges():
    a, b = torch.randn(40, 50), torch.randn(50, 24)
    c = torch.empty(40, 24)
    matmul[(triton.cdiv(40, 16), triton.cdiv(24, 16))](a, b, c, 40, 24, 50, BLOCK_M=16, BLOCK_N=16, BLOCK_K=16)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)


@triton.jit
def histogram(x_ptr, bins_ptr, total_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    tl.atomic_add(bins_ptr + tl.load(x_ptr + offsets, mask=mask), 1, mask=mask)
    tl.atomic_max(total_ptr, tl.max(tl.load(x_ptr + offsets, mask=mask, other=0), axis=0))


def test_atomics_accumulate_across_programs():
    x = torch.randint(0, 10, (1000,), dtype=torch.int32)
    bins, largest = torch.zeros(10, dtype=torch.int32), torch.zeros(1, dtype=torch.int32)
    histogram[(triton.cdiv(1000, 128),)](x, bins, largest, 1000, BLOCK=128)
    torch.testing.assert_close(bins, torch.bincount(x, minlength=10).to(torch.int32))
    assert largest.item() == x.max().item()


@triton.jit
def fp8_abs_and_dot(a_ptr, b_ptr, abs_ptr, dot_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(abs_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], tl.abs(a))
    tl.store(dot_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], tl.dot(a, b))


@pytest.mark.parametrize("fp8", FP8, ids=str)
def test_fp8_arithmetic_and_dot_compute_in_f32(fp8):
    """fp8 arithmetic and tl.dot run in f32 (RVV has no fp8): |a| exact, the dot of
    exact products summed in f32."""
    generator = torch.Generator().manual_seed(11)
    a = torch.randn(16, 32, generator=generator).to(fp8)
    b = torch.randn(32, 16, generator=generator).to(fp8)
    magnitudes, product = torch.empty_like(a), torch.empty(16, 16)
    fp8_abs_and_dot[(1,)](a, b, magnitudes, product, 16, 16, 32)
    assert torch.equal(magnitudes.float(), a.float().abs())
    torch.testing.assert_close(product, a.double() @ b.double(), check_dtype=False, rtol=1e-6, atol=1e-6)


@triton.jit
def microscaled_dot(a_ptr, a_scale_ptr, b_ptr, b_scale_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                    A_FORMAT: tl.constexpr, B_FORMAT: tl.constexpr, A_SCALED: tl.constexpr, B_SCALED: tl.constexpr):  # fmt: skip
    A_K: tl.constexpr = K // 2 if A_FORMAT == "e2m1" else K
    B_K: tl.constexpr = K // 2 if B_FORMAT == "e2m1" else K
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * A_K + tl.arange(0, A_K)[None, :])
    b = tl.load(b_ptr + tl.arange(0, B_K)[:, None] * N + tl.arange(0, N)[None, :])
    if A_FORMAT == "e4m3":
        a = a.to(tl.float8e4nv, bitcast=True)
    if B_FORMAT == "e5m2":
        b = b.to(tl.float8e5, bitcast=True)
    a_scale = None
    b_scale = None
    if A_SCALED:
        a_scale = tl.load(a_scale_ptr + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    if B_SCALED:
        b_scale = tl.load(b_scale_ptr + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    product = tl.dot_scaled(a, a_scale, A_FORMAT, b, b_scale, B_FORMAT)
    tl.store(out_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], product)


E2M1 = torch.tensor([0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0], dtype=torch.float64)


def _decoded(values: torch.Tensor, format_: str) -> torch.Tensor:
    """MX elements as float64, K last (e2m1: two codes a byte, low nibble first)."""
    if format_ == "e2m1":
        codes = torch.stack([values & 15, values >> 4], -1).reshape(values.shape[0], -1).long()
        return torch.where(codes & 8 != 0, -E2M1[codes & 7], E2M1[codes & 7])
    dtypes = {"e4m3": torch.float8_e4m3fn, "e5m2": torch.float8_e5m2}
    return (values.view(dtypes[format_]) if format_ in dtypes else values).double()


def _finite_bytes(shape: tuple[int, ...], format_: str, generator: torch.Generator) -> torch.Tensor:
    """Random e2m1/e4m3/e5m2 bytes, with the fp8 infinity and NaN patterns made finite."""
    values = torch.randint(0, 256, shape, dtype=torch.uint8, generator=generator)
    special = {"e4m3": (0x7F, 0x7F), "e5m2": (0x7C, 0x7C)}.get(format_)
    if special is not None:
        values = torch.where(values & special[0] == special[1], values & 0x83, values)
    return values


@pytest.mark.parametrize(("a_format", "b_format", "a_scaled", "b_scaled"), [
    ("e2m1", "fp16", True, False), ("e4m3", "fp16", True, False), ("fp16", "e2m1", False, True),
    ("bf16", "e5m2", False, True), ("e2m1", "e2m1", True, True),
])  # fmt: skip
def test_microscaled_dot(a_format, b_format, a_scaled, b_scaled):
    """tl.dot_scaled: e2m1 (packed along K) and fp8 operands, each group of 32 along K
    scaled by an e8m0 byte (2^(byte - 127); 255 is NaN), against a float64 product."""
    M, N, K = 16, 8, 64
    generator = torch.Generator().manual_seed(7)
    halves = {"fp16": torch.float16, "bf16": torch.bfloat16}

    def operand(rows: int, format_: str) -> torch.Tensor:  # [rows, K] logically, K last
        if format_ in halves:
            return torch.randn(rows, K, generator=generator).to(halves[format_])
        return _finite_bytes((rows, K // 2 if format_ == "e2m1" else K), format_, generator)

    a, b_t = operand(M, a_format), operand(N, b_format)
    a_scale = torch.randint(120, 135, (M, K // 32), dtype=torch.uint8, generator=generator)
    b_scale = torch.randint(120, 135, (N, K // 32), dtype=torch.uint8, generator=generator)
    a_scale[3, 1] = 255
    out = torch.empty(M, N)
    microscaled_dot[(1,)](a, a_scale, b_t.t().contiguous(), b_scale, out, M, N, K,
                          A_FORMAT=a_format, B_FORMAT=b_format, A_SCALED=a_scaled, B_SCALED=b_scaled)  # fmt: skip
    lhs, rhs = _decoded(a, a_format), _decoded(b_t, b_format)
    if a_scaled:
        lhs = lhs * torch.where(a_scale == 255, torch.nan, 2.0 ** (a_scale.double() - 127)).repeat_interleave(32, 1)
    if b_scaled:
        rhs = rhs * (2.0 ** (b_scale.double() - 127)).repeat_interleave(32, 1)
    expected = (lhs @ rhs.t()).float()
    assert out[3].isnan().all() == a_scaled
    torch.testing.assert_close(out, expected, rtol=1e-5, atol=1e-5, equal_nan=True)


@triton.jit
def rows_bounded_by_a_count(x_ptr, out_ptr, rows, ROWS: tl.constexpr, COLUMNS: tl.constexpr):
    offsets = tl.program_id(0) * ROWS * COLUMNS + tl.arange(0, ROWS)[:, None] * COLUMNS + tl.arange(0, COLUMNS)[None, :]
    x = tl.load(x_ptr + offsets, mask=offsets < rows * COLUMNS, other=-1)
    tl.store(out_ptr + offsets, x * 2, mask=offsets < (rows + 1) * COLUMNS)


def test_2d_mask_from_a_flat_element_count():
    """A mask `offsets < rows * COLUMNS` on [ROWS, COLUMNS] offsets: each program's valid
    rows are (rows * COLUMNS - its start) floor-divided by the row length, negative for
    the programs past the end."""
    rows = 5
    x = torch.arange(rows * 16, dtype=torch.int32)
    out = torch.full((4 * 4 * 16,), 7, dtype=torch.int32)
    rows_bounded_by_a_count[(4,)](x, out, rows, ROWS=4, COLUMNS=16)
    expected = torch.full_like(out, 7)
    expected[: rows * 16] = x * 2
    expected[rows * 16 : (rows + 1) * 16] = -2
    torch.testing.assert_close(out, expected)


@triton.jit
def half_float_atomic_add(z_ptr, x_ptr, old_ptr, SLOTS: tl.constexpr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    old = tl.atomic_add(z_ptr + offsets % SLOTS, tl.load(x_ptr + offsets), mask=offsets < N - 1)
    tl.store(old_ptr + offsets, old)


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=str)
def test_16_bit_float_atomic_add_rounds_each_sum(dtype):
    """RVA has no 16-bit AMO: each add goes through the word holding the halfword.

    Five adjacent slots (both halves of words) take 15 adds in the program's
    row-major order; each sum is rounded to the 16-bit type, as torch adds.
    """
    generator = torch.Generator().manual_seed(3)
    x = torch.randn(16, generator=generator).to(dtype)
    z = torch.randn(5, generator=generator).to(dtype)
    expected, expected_old = z.clone(), torch.zeros(16, dtype=dtype)
    for i in range(15):
        expected_old[i] = expected[i % 5]
        expected[i % 5] = expected[i % 5] + x[i]
    old = torch.full((16,), 7.0, dtype=dtype)
    half_float_atomic_add[(1,)](z, x, old, SLOTS=5, N=16)
    assert torch.equal(z, expected)
    assert torch.equal(old, expected_old)


@triton.jit
def compare_and_swap(x_ptr, old_ptr, N: tl.constexpr):
    offsets = tl.arange(0, N)
    zeros = tl.zeros((N,), x_ptr.dtype.element_ty)
    tl.store(old_ptr + offsets, tl.atomic_cas(x_ptr + offsets, zeros, zeros + 3))


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16, torch.int16], ids=str)
def test_16_bit_compare_and_swap_leaves_the_other_halfword(dtype):
    """On a view one element in, so every word holds one swapped and one kept halfword."""
    storage = torch.zeros(18, dtype=dtype)
    storage[2::3] = 5
    before = storage.clone()
    old = torch.empty(16, dtype=dtype)
    compare_and_swap[(1,)](storage[1:17], old, N=16)
    assert torch.equal(old, before[1:17])
    expected = before.clone()
    expected[1:17] = torch.where(before[1:17] == 0, 3, before[1:17]).to(dtype)
    assert torch.equal(storage, expected)


@triton.jit
def segmented_sum_step(count_a, total_a, value_a, count_b, total_b, value_b):
    return count_a + count_b, tl.where(count_b == 1, value_a, 0) + total_b, value_b


@triton.jit
def three_operand_scan(x_ptr, out_ptr, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, REVERSE: tl.constexpr):
    offsets = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(x_ptr + offsets)
    ones, zeros = tl.full((M, N), 1, tl.int32), tl.zeros((M, N), tl.int32)
    _, previous, _ = tl.associative_scan((ones, zeros, x), AXIS, segmented_sum_step, reverse=REVERSE)
    tl.store(out_ptr + offsets, previous)


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("axis", [0, 1])
def test_associative_scan_of_three_operands(axis, reverse):
    """Nine operands streamed at one stride (axis 1): one stride register for them all.

    The combiner's second result is, at each position, the input one step
    before it along the scan (0 at the first), as its `where` picks it.
    """
    x = torch.randint(-50, 50, (8, 16), dtype=torch.int32, generator=torch.Generator().manual_seed(5))
    out = torch.empty_like(x)
    three_operand_scan[(1,)](x, out, 8, 16, AXIS=axis, REVERSE=reverse)
    shifted = x.flip(axis) if reverse else x
    shifted = torch.roll(shifted, 1, axis)
    shifted.select(axis, 0).zero_()
    torch.testing.assert_close(out, shifted.flip(axis) if reverse else shifted)


@triton.jit
def control_flow(x_ptr, out_ptr, n, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask, other=-7.0)
    if tl.program_id(0) == 0:
        for _ in range(STEPS):
            x = x * 0.5 + 1.0
    else:
        x = -x
    count = 0
    while count < n:
        count += 16
    tl.store(out_ptr + tl.program_id(0) * BLOCK + offsets, x + count, mask=offsets < BLOCK)


def test_control_flow_and_masked_loads_with_other():
    x = torch.randn(50)
    out = torch.empty(2, 64)
    control_flow[(2,)](x, out, 50, STEPS=3, BLOCK=64)
    padded = torch.cat([x, torch.full((14,), -7.0)])
    expected = padded.clone()
    for _ in range(3):
        expected = expected * 0.5 + 1.0
    torch.testing.assert_close(out[0], expected + 64)
    torch.testing.assert_close(out[1], -padded + 64)


@triton.jit(do_not_specialize=["flag", "small", "wide"])
def scalars_of_each_kind(ints_ptr, floats_ptr, flag, small, wide, half, N: tl.constexpr):
    offsets = tl.arange(0, N)
    tl.store(ints_ptr + offsets, tl.where(flag, small, -small) + wide + offsets)
    tl.store(floats_ptr + offsets, half + offsets)


@pytest.mark.parametrize("execution", ["qemu", "interp"])
@pytest.mark.parametrize("flag", [True, False])
def test_scalar_arguments_of_each_signature_type(flag, execution):
    """A Python bool arrives as `u1`, 7 as `i32`, 2**40 as `i64`, 0.5 as `fp32`, each in its C type."""
    ints, floats = torch.empty(8, dtype=torch.int64), torch.empty(8)
    with settings.scoped(execution=execution):
        scalars_of_each_kind[(1,)](ints, floats, flag, 7, 2**40, 0.5, N=8)
    assert torch.equal(ints, (7 if flag else -7) + 2**40 + torch.arange(8))
    assert torch.equal(floats, 0.5 + torch.arange(8.0))


@triton.jit(noinline=True)
def scale_or_shift(x_ptr, out_ptr, factor, N: tl.constexpr):
    offsets = tl.arange(0, N)
    if factor > 2:
        tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) * factor)
        return
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets) + factor)


@triton.jit(noinline=True)
def half_and_successor(factor):
    return factor * 0.5, factor + 1


@triton.jit
def calls_noinline_functions(x_ptr, out_ptr, factor, N: tl.constexpr):
    half, successor = half_and_successor(factor)
    scale_or_shift(x_ptr, out_ptr, half, N)
    scale_or_shift(x_ptr, out_ptr + N, successor, N)


def test_noinline_functions_with_early_returns_and_several_results():
    """Triton leaves `noinline` functions as tt.call: each call is inlined."""
    x = torch.randn(16)
    out = torch.empty(32)
    calls_noinline_functions[(1,)](x, out, 4.0, 16)
    torch.testing.assert_close(out[:16], x + 2.0)
    torch.testing.assert_close(out[16:], x * 5.0)


@triton.jit
def grid_ids(out_ptr):
    x, y, z = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    nx, ny = tl.num_programs(0), tl.num_programs(1)
    tl.store(out_ptr + (z * ny + y) * nx + x, x + 10 * y + 100 * z + 1000 * tl.num_programs(2))


@pytest.mark.parametrize("grid", [(5, 3), (4, 3, 2)], ids=["2d", "3d"])
def test_program_ids_of_2d_and_3d_grids(grid):
    x, y, z = (*grid, 1)[:3]
    out = torch.full((z, y, x), -1, dtype=torch.int32)
    grid_ids[grid](out)
    zz, yy, xx = torch.meshgrid(torch.arange(z), torch.arange(y), torch.arange(x), indexing="ij")
    torch.testing.assert_close(out, (xx + 10 * yy + 100 * zz + 1000 * z).to(torch.int32))


@triton.jit
def libdevice_calls(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offsets = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets)
    tl.store(out_ptr + offsets, libdevice.erf(x) + libdevice.tanh(x) + libdevice.rsqrt(x * x + 1.0))
    tl.store(out_ptr + BLOCK + offsets, libdevice.pow(x * x + 0.5, 1.5) + libdevice.isnan(x / 0.0).to(tl.float32))


def test_libdevice():
    x = torch.randn(64)
    out = torch.empty(128)
    libdevice_calls[(1,)](x, out, BLOCK=64)
    torch.testing.assert_close(out[:64], torch.erf(x) + torch.tanh(x) + torch.rsqrt(x * x + 1))
    torch.testing.assert_close(out[64:], (x * x + 0.5) ** 1.5 + torch.isnan(x / 0.0).float())
