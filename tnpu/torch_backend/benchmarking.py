"""Inductor's benchmarks of tnpu kernels read the modeled NPU's time.

Inductor ranks the configurations of a generated kernel (its
`CachingAutotuner`, on the kernel's first call) and the choices for a
GEMM or a convolution (`select_algorithm`, while compiling) by timing
them with `benchmarker.benchmark_cpu(fn)` for CPU tensors: the host's
wall clock.  In the scope of `modeled_benchmarks()` a call that launches
tnpu kernels is timed on the modeled NPU instead — its launches are
timed, not run (`profile.modeled_ms`), so the ranking is by simulated
cycles and the same model and NPU always give the same choices.  A call
that launches no tnpu kernel (an aten choice Inductor offers beside its
templates, such as a 1×1 convolution as an aten mm) runs on the host, not
on the NPU, and cannot be ranked with it: its time is infinite, so it is
chosen only where nothing else can be.

Why an attribute of Inductor's benchmarker object: the template path
calls `benchmark_cpu` directly rather than through the device registry
(`register_benchmarker`) the kernel path consults, so `benchmark_cpu` is
the one place every CPU benchmark passes.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from torch._inductor.runtime.benchmarking import benchmarker

from tnpu.triton_backend import profile


@contextlib.contextmanager
def modeled_benchmarks() -> Iterator[None]:
    """Inductor's CPU benchmarks of tnpu kernels return modeled milliseconds in the scope."""
    earlier = benchmarker.__dict__.get("benchmark_cpu")

    def benchmark_cpu(fn: Callable[[], Any], *args: Any, **kwargs: Any) -> float:
        modeled = profile.modeled_ms(fn)
        return float("inf") if modeled is None else modeled

    benchmarker.benchmark_cpu = benchmark_cpu  # pyright: ignore[reportAttributeAccessIssue]  # torch's or transformers' annotations
    try:
        yield
    finally:
        if earlier is None:
            del benchmarker.benchmark_cpu
        else:
            benchmarker.benchmark_cpu = earlier
