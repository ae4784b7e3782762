"""Dynamic instructions per element: tnpu's RVV code against gcc -O3 -march=rv64gcv.

    .venv/bin/python bench/riscv_insn_count.py [--vlens 128,256,512]

For three corpus kernels (elementwise add, a row-sum reduction, a matmul)
it counts the instructions qemu-riscv64 retires (the TCG plugin in
`tnpu/backend_riscv/insn_count`) for

* tnpu: the kernel through tnpu-to-rvv and backend_riscv, launched over
  its grid (X, Y, Z), minus the same ELF launched over the empty grid
  (X, Y, 0), so the runtime's start-up and launch-file parsing are not
  counted: both launch files have the same digits but the last, and the
  runtime reads them with the same instructions (a grid of (0, 1, 1) made
  the runtime parse fewer digits than the real launch, an error of about
  50 instructions: 0.006 per element of the add);
* gcc: the same computation as a plain C loop nest compiled with
  `riscv64-linux-gnu-gcc -O3 -march=rv64gcv`, minus the same program with
  the kernel call skipped.

"Per element" is per output element (elementwise), per input element
(reduction) and per multiply-accumulate (matmul).  Debian's gcc 12 does
not auto-vectorize for RVV (that arrived in gcc 13/14), so its loops are
scalar; the comparison is still the one the issue asks for.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tnpu.backend_riscv.insn_count import counting_plugin, parse_count  # noqa: E402
from tnpu.backend_riscv.launch import CROSS_GCC, KernelSpec, qemu_command  # noqa: E402
from tnpu.compiler.kernel import compile_ttir  # noqa: E402
from tnpu.execution.case import TensorArg, load_case  # noqa: E402
from tnpu.execution.inputs import generate_inputs  # noqa: E402
from tnpu.interpreters.kernel import kernel_function  # noqa: E402
from tnpu.ttir_import import import_ttir  # noqa: E402

CORPUS = ROOT / "test" / "fixtures" / "corpus" / "inductor"


@dataclass(frozen=True)
class Benchmark:
    kind: str
    case: str
    elements: int
    c_kernel: str
    """C source defining `void kernel(void)` over the static arrays it declares."""


BENCHMARKS = (
    Benchmark(
        "elementwise", "ew_add__triton_poi_fused_add_0", 64 * 128,
        """
        #define N 8192
        float x[N], y[N], out[N];
        __attribute__((noinline)) void kernel(void) {
            for (long i = 0; i < N; i++) out[i] = x[i] + y[i];
        }
        """,
    ),
    Benchmark(
        "reduction", "red_sum_rows__triton_per_fused_sum_0", 64 * 500,
        """
        #define ROWS 64
        #define COLS 500
        float x[ROWS * COLS], out[ROWS];
        __attribute__((noinline)) void kernel(void) {
            for (long r = 0; r < ROWS; r++) {
                float sum = 0.0f;
                for (long c = 0; c < COLS; c++) sum += x[r * COLS + c];
                out[r] = sum;
            }
        }
        """,
    ),
    Benchmark(
        "matmul", "mm__triton_tem_fused_mm_0", 64 * 128 * 96,
        """
        #define M 64
        #define K 128
        #define N 96
        float a[M * K], b[K * N], c[M * N];
        __attribute__((noinline)) void kernel(void) {
            for (long i = 0; i < M; i++)
                for (long j = 0; j < N; j++) {
                    float acc = 0.0f;
                    for (long k = 0; k < K; k++) acc += a[i * K + k] * b[k * N + j];
                    c[i * N + j] = acc;
                }
        }
        """,
    ),
)

_C_MAIN = """
#include <stdlib.h>
int main(int argc, char **argv) {
    if (argc > 1 && atoi(argv[1])) kernel();
    return 0;
}
"""


def tnpu_instructions(benchmark: Benchmark, vlen: int) -> int:
    case = load_case(CORPUS / benchmark.case)
    module = import_ttir(case.ttir_path.read_text(), str(case.ttir_path))  # type: ignore[union-attr]
    inputs = generate_inputs(case, kernel_function(module, case.kernel_name))
    kernel = compile_ttir(module, case.kernel_name).rvv
    arguments, storages = [], []
    for name, arg in case.args.items():
        if isinstance(arg, TensorArg):
            arguments.append({"shape": arg.shape, "stride": arg.stride})
            storages.append(inputs.storages[name])
        else:
            arguments.append(inputs.scalars[name])
            storages.append(None)
    counts = []
    for grid in (case.grid, (*case.grid[:2], 0)):
        spec = KernelSpec.describe(kernel.code, grid, arguments)
        counts.append(kernel.launch(spec, storages, vlen=vlen, count_instructions=True).instructions)
    return counts[0] - counts[1]  # type: ignore[operator]


def gcc_instructions(benchmark: Benchmark, work: Path) -> int:
    source = work / f"{benchmark.kind}.c"
    source.write_text(benchmark.c_kernel + _C_MAIN)
    elf = work / f"{benchmark.kind}.elf"
    subprocess.run(
        [CROSS_GCC, "-O3", "-march=rv64gcv", "-mabi=lp64d", "-static", str(source), "-o", str(elf)],
        check=True,
    )
    counts = []
    for run_kernel in ("1", "0"):
        command = [*qemu_command(elf, 256, counting_plugin()), run_kernel]
        result = subprocess.run(command, capture_output=True, text=True, check=True)
        counts.append(parse_count(result.stderr))
    return counts[0] - counts[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vlens", default="128,256,512")
    args = parser.parse_args()
    vlens = [int(v) for v in args.vlens.split(",")]
    header = ["kernel", "elements", *(f"tnpu VLEN={v}" for v in vlens), "gcc -O3"]
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    with tempfile.TemporaryDirectory(prefix="tnpu-bench-") as work:
        for benchmark in BENCHMARKS:
            ours = [tnpu_instructions(benchmark, v) / benchmark.elements for v in vlens]
            theirs = gcc_instructions(benchmark, Path(work)) / benchmark.elements
            cells = [benchmark.kind, str(benchmark.elements), *(f"{x:.3f}" for x in ours), f"{theirs:.3f}"]
            print(" | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
