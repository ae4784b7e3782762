"""Compile-time benchmark: TTIR -> tile IR in tnpu vs TTIR -> LLVM IR in Triton.

For every corpus kernel, times (median of --repeat runs, each from the text):

* tnpu: `compile_ttir` from the text: import + verify, then `tnpu-to-tile`
  (strip-gpu-only, lower-libdevice, structure-early-return, ttir-to-tile,
  fuse-tile-maps, cse, dce);
* Triton: parse + Triton's own CUDA lowering `make_ttgir` + `make_llir`
  (the stages after TTIR, for sm_80), in C++.

Prints one line per kernel and the medians and their ratio.  Kernels tnpu
refuses are listed with the reason and left out of the medians.

    .venv/bin/python bench/lower_speed.py [--repeat 3] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("TRITON_CACHE_DIR", str(Path(tempfile.gettempdir()) / "tnpu-bench-triton"))
os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")

from xdsl.utils.exceptions import DiagnosticException  # noqa: E402

from tnpu.compiler.kernel import compile_ttir  # noqa: E402
from tnpu.diagnostics import one_line  # noqa: E402

CORPUS = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "corpus" / "inductor"


def time_tnpu(text: str, name: str) -> float:
    start = time.perf_counter()
    compile_ttir(text, source=name)
    return time.perf_counter() - start


class TritonLowering:
    """Triton's CUDA backend stages after TTIR: make_ttgir, make_llir (sm_80)."""

    def __init__(self) -> None:
        from triton._C.libtriton import ir
        from triton.backends.compiler import GPUTarget, Language
        from triton.compiler.compiler import make_backend

        self.ir = ir
        self.target = GPUTarget("cuda", 80, 32)
        self.backend = make_backend(self.target)
        self.options = self.backend.parse_options({"num_warps": 4, "num_stages": 1})
        self.stages: dict = {}
        self.backend.add_stages(self.stages, self.options, Language.TRITON)

    def time(self, path: Path) -> float:
        start = time.perf_counter()
        context = self.ir.context()
        self.ir.load_dialects(context)
        self.backend.load_dialects(context)
        module = self.ir.parse_mlir_module(str(path), context)
        module.context = context
        metadata = {"target": self.target, **self.options.__dict__}
        ttgir = self.stages["ttgir"](module, metadata)
        self.stages["llir"](ttgir, metadata)
        return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="")
    args = parser.parse_args()
    triton = TritonLowering()
    tnpu_times: list[float] = []
    triton_times: list[float] = []
    refused: list[tuple[str, str]] = []
    print(f"{'kernel':64} {'tnpu ms':>9} {'triton ms':>10} {'ratio':>7}")
    for case in sorted(p for p in CORPUS.iterdir() if args.only in p.name):
        path = case / "kernel.ttir"
        if not path.is_file():
            continue
        text = path.read_text()
        try:
            ours = statistics.median(time_tnpu(text, str(path)) for _ in range(args.repeat))
        except DiagnosticException as error:
            refused.append((case.name, one_line(error)))
            continue
        theirs = statistics.median(triton.time(path) for _ in range(args.repeat))
        tnpu_times.append(ours)
        triton_times.append(theirs)
        print(f"{case.name[:64]:64} {ours * 1e3:9.1f} {theirs * 1e3:10.1f} {ours / theirs:7.1f}")
    for name, reason in refused:
        print(f"refused: {name}: {reason}")
    if not tnpu_times:
        sys.exit("no kernel lowered")
    median_ours = statistics.median(tnpu_times)
    median_theirs = statistics.median(triton_times)
    ratios = [a / b for a, b in zip(tnpu_times, triton_times)]
    print(
        f"\n{len(tnpu_times)} kernels; median tnpu {median_ours * 1e3:.1f} ms, "
        f"median Triton {median_theirs * 1e3:.1f} ms, ratio of medians "
        f"{median_ours / median_theirs:.1f}, median per-kernel ratio {statistics.median(ratios):.1f}"
    )


if __name__ == "__main__":
    main()
