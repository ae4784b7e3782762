"""The cost of a `kernel[grid](...)` call on tnpu against the same call under TRITON_INTERPRET=1.

    .venv/bin/python bench/triton_launch.py [--sizes 1024 65536 1048576 4194304 16777216] [--repeats 3]

Tutorial 01's vector add (BLOCK_SIZE=1024) on float32 CPU tensors.  Per
size: the median wall time of one launch of the already compiled kernel
on tnpu (the RVV binary under qemu, timing included) and under Triton's
interpreter (in a subprocess, as TRITON_INTERPRET is read at import), and
their ratio.  Each repetition changes an input element, so that tnpu runs
the kernel rather than replaying an identical launch.  Then the first
launch of the kernel (1,024 elements) in a process with an empty Triton
cache (a compile) against the same in a fresh process whose cache holds the
kernel (a cache hit: no stage runs, the tile IR is read back for the timer).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import torch
import triton
import triton.language as tl

SIZES = (1024, 65536, 1 << 20, 1 << 22, 1 << 24)
BLOCK = 1024


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def launch_seconds(sizes: list[int], repeats: int) -> dict[int, float]:
    """Median seconds of one launch per size, after a first launch that compiles."""
    medians = {}
    for n in sizes:
        x, y, out = torch.rand(n), torch.rand(n), torch.empty(n)
        grid = (triton.cdiv(n, BLOCK),)
        add_kernel[grid](x, y, out, n, BLOCK_SIZE=BLOCK)
        times = []
        for repeat in range(repeats):
            x[0] = repeat
            start = time.perf_counter()
            add_kernel[grid](x, y, out, n, BLOCK_SIZE=BLOCK)
            times.append(time.perf_counter() - start)
        assert torch.equal(out, x + y), f"wrong result at {n} elements"
        medians[n] = statistics.median(times)
    return medians


@triton.jit
def copy_kernel(x_ptr, y_ptr, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    tl.store(y_ptr + offsets, tl.load(x_ptr + offsets))


def compile_seconds() -> float:
    """Seconds of the first launch of add_kernel in this process (compiling it, or a cache hit),
    after another kernel's launch has paid for the imports and Triton's own cache key."""
    x, y = torch.rand(BLOCK), torch.empty(BLOCK)
    copy_kernel[(1,)](x, y, BLOCK_SIZE=BLOCK)
    start = time.perf_counter()
    add_kernel[(1,)](x, x, y, BLOCK, BLOCK_SIZE=BLOCK)
    return time.perf_counter() - start


def worker(args: argparse.Namespace) -> None:
    if args.worker == "compile":
        print(json.dumps(compile_seconds()))
    else:
        print(json.dumps(launch_seconds(args.sizes, args.repeats)))


def run_worker(kind: str, env: dict[str, str], args: argparse.Namespace) -> object:
    command = [sys.executable, __file__, "--worker", kind, "--repeats", str(args.repeats),
               "--sizes", *map(str, args.sizes)]  # fmt: skip
    result = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    return json.loads(result.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--worker", choices=("launch", "compile"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args)
        return
    with tempfile.TemporaryDirectory(prefix="tnpu-bench-") as caches:
        env = dict(os.environ, TRITON_CACHE_DIR=f"{caches}/triton", TNPU_CACHE_DIR=f"{caches}/tnpu")
        tnpu = {int(n): s for n, s in run_worker("launch", dict(env, TRITON_INTERPRET="0"), args).items()}
        interp = {int(n): s for n, s in run_worker("launch", dict(env, TRITON_INTERPRET="1"), args).items()}
        fresh = dict(env, TRITON_CACHE_DIR=f"{caches}/compile-triton", TNPU_CACHE_DIR=f"{caches}/compile-tnpu")
        first, hit = run_worker("compile", fresh, args), run_worker("compile", fresh, args)
    print(f"vector add, BLOCK_SIZE={BLOCK}, float32; median of {args.repeats} launches of the compiled kernel")
    print(f"{'elements':>10}  {'tnpu (qemu) ms':>14}  {'interpreter ms':>14}  {'interpreter / tnpu':>18}")
    for n in args.sizes:
        print(f"{n:>10}  {tnpu[n] * 1e3:>14.1f}  {interp[n] * 1e3:>14.1f}  {interp[n] / tnpu[n]:>18.2f}")
    print(f"first launch, compiling: {first * 1e3:.0f} ms; first launch, a cache hit in a fresh process: "
          f"{hit * 1e3:.0f} ms ({first / hit:.1f}x)")  # type: ignore[operator]


if __name__ == "__main__":
    main()
