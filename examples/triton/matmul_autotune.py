"""A tiled matmul whose block sizes `@triton.autotune` picks by simulated cycles on the NPU.

    python examples/triton/matmul_autotune.py

Autotuning times each configuration on the modeled NPU (the driver's
benchmarker: modeled time, no run) and keeps the one with the fewest
cycles; then that configuration runs under qemu.
"""

import torch
import triton
import triton.language as tl

import tnpu


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32}),
        triton.Config({"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}),
        triton.Config({"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 64}),
    ],
    key=["M", "N", "K"],
)
@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    pid_m, pid_n = tl.program_id(0), tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    accumulator = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        kk = k * BLOCK_K + rk
        a = tl.load(a_ptr + rm[:, None] * stride_am + kk[None, :] * stride_ak,
                    mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * stride_bk + rn[None, :] * stride_bn,
                    mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        accumulator = tl.dot(a, b, accumulator)
    tl.store(c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn, accumulator,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    (M, K), (_, N) = a.shape, b.shape
    c = torch.empty((M, N))
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]), triton.cdiv(N, meta["BLOCK_N"]))
    matmul_kernel[grid](a, b, c, M, N, K, *a.stride(), *b.stride(), *c.stride())
    return c


if __name__ == "__main__":
    torch.manual_seed(0)
    a, b = torch.randn(256, 192), torch.randn(192, 320)
    with tnpu.profile() as prof:
        c = matmul(a, b)
    torch.testing.assert_close(c, a @ b, rtol=1e-4, atol=1e-4)
    print("matches torch.matmul; autotune chose", matmul_kernel.best_config.kwargs)
    print(prof.table())
