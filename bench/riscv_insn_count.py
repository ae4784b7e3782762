"""Dynamic instructions per element: tnpu's RVV code against clang-19's and gcc's.

    .venv/bin/python bench/riscv_insn_count.py [--vlens 128,256,512]

For five corpus kernels (elementwise add, a row-sum reduction, a softmax
and a layer norm over rows, a matmul) it counts the instructions
qemu-riscv64 retires (the TCG plugin in `tnpu/backend_riscv/insn_count`) for

* tnpu: the kernel through tnpu-to-rvv and backend_riscv, launched over
  its grid (X, Y, Z), minus the same ELF launched over the empty grid
  (X, Y, 0), so the runtime's start-up and launch-file parsing are not
  counted: both launch files have the same digits but the last, and the
  runtime reads them with the same instructions (a grid of (0, 1, 1) made
  the runtime parse fewer digits than the real launch, an error of about
  50 instructions: 0.006 per element of the add);
* clang-19: the same computation as a plain C loop nest, `clang-19
  --target=riscv64-linux-gnu -march=rv64gcv -O3`, whose loop vectorizer
  emits scalable RVV (VLEN-agnostic, like tnpu's), minus the same program
  with the kernel call skipped, at each VLEN;
* gcc: the same C with `riscv64-linux-gnu-gcc -O3 -march=rv64gcv`, once:
  Debian's gcc 12 does not auto-vectorize for RVV (that arrived in gcc
  13/14), so its loops are scalar and its count does not depend on VLEN.

"Per element" is per output element (elementwise), per input element
(reductions, softmax, layer norm) and per multiply-accumulate (matmul).
clang-19 and lld-19 are Debian 12 packages (`apt-get install clang-19
lld-19`); without them the clang columns say so.  The C is what a person
would write: no `-ffast-math`, so a float sum is an ordered reduction and
`expf` a libm call, as tnpu keeps Triton's order and accuracy too.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tnpu.backend_riscv.insn_count import counting_plugin, parse_count  # noqa: E402
from tnpu.backend_riscv.qemu_launch import CROSS_GCC, KernelSpec, qemu_command  # noqa: E402
from tnpu.compiler.kernel import compile_ttir  # noqa: E402
from tnpu.execution.case import TensorArg, load_case  # noqa: E402
from tnpu.execution.inputs import generate_inputs  # noqa: E402
from tnpu.ir_helpers import kernel_function  # noqa: E402
from tnpu.ttir_import import import_ttir  # noqa: E402

CORPUS = ROOT / "test" / "fixtures" / "corpus" / "inductor"


@dataclass(frozen=True)
class Benchmark:
    computation: str
    case: str
    elements: int
    c_kernel: str
    """C source defining `void kernel(void)` over the static arrays it declares."""


BENCHMARKS = (
    Benchmark(
        "elementwise add", "ew_add__triton_poi_fused_add_0", 64 * 128,
        """
        #define N 8192
        float x[N], y[N], out[N];
        __attribute__((noinline)) void kernel(void) {
            for (long i = 0; i < N; i++) out[i] = x[i] + y[i];
        }
        """,
    ),
    Benchmark(
        "row sum 64x500", "red_sum_rows__triton_per_fused_sum_0", 64 * 500,
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
        "softmax rows 64x100", "softmax__triton_per_fused__softmax_0", 64 * 100,
        """
        #include <math.h>
        #define ROWS 64
        #define COLS 100
        float x[ROWS * COLS], out[ROWS * COLS];
        __attribute__((noinline)) void kernel(void) {
            for (long r = 0; r < ROWS; r++) {
                const float *row = x + r * COLS;
                float *result = out + r * COLS;
                float largest = -INFINITY, sum = 0.0f;
                for (long c = 0; c < COLS; c++) largest = fmaxf(largest, row[c]);
                for (long c = 0; c < COLS; c++) sum += result[c] = expf(row[c] - largest);
                for (long c = 0; c < COLS; c++) result[c] /= sum;
            }
        }
        """,
    ),
    Benchmark(
        "layer norm rows 64x256", "layer_norm__triton_per_fused_native_layer_norm_0", 64 * 256,
        """
        #include <math.h>
        #define ROWS 64
        #define COLS 256
        float x[ROWS * COLS], weight[COLS], bias[COLS], out[ROWS * COLS];
        __attribute__((noinline)) void kernel(void) {
            for (long r = 0; r < ROWS; r++) {
                const float *row = x + r * COLS;
                float sum = 0.0f, squares = 0.0f;
                for (long c = 0; c < COLS; c++) sum += row[c];
                float mean = sum / COLS;
                for (long c = 0; c < COLS; c++) squares += (row[c] - mean) * (row[c] - mean);
                float scale = 1.0f / sqrtf(squares / COLS + 1e-5f);
                for (long c = 0; c < COLS; c++) out[r * COLS + c] = (row[c] - mean) * scale * weight[c] + bias[c];
            }
        }
        """,
    ),
    Benchmark(
        "matmul 64x128x96", "mm__triton_tem_fused_mm_0", 64 * 128 * 96,
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


CLANG = "clang-19"
C_COMPILERS = {
    CLANG: [CLANG, "--target=riscv64-linux-gnu", "-march=rv64gcv", "-mabi=lp64d", "-O3", "-fuse-ld=lld"],
    "gcc": [CROSS_GCC, "-march=rv64gcv", "-mabi=lp64d", "-O3"],
}


def c_instructions(benchmark: Benchmark, compiler: str, vlens: list[int], work: Path) -> list[int]:
    """Instructions the C kernel retires at each VLEN: with the call, minus without it."""
    name = f"{benchmark.case}-{compiler}"
    source = work / f"{name}.c"
    source.write_text(benchmark.c_kernel + _C_MAIN)
    elf = work / f"{name}.elf"
    subprocess.run([*C_COMPILERS[compiler], "-static", str(source), "-o", str(elf), "-lm"], check=True)
    counts = []
    for vlen in vlens:
        with_call, without = (
            parse_count(subprocess.run([*qemu_command(elf, vlen, counting_plugin()), run_kernel],
                                       capture_output=True, text=True, check=True).stderr)
            for run_kernel in ("1", "0")
        )  # fmt: skip
        counts.append(with_call - without)
    return counts


def per_element(counts: list[int], benchmark: Benchmark) -> list[str]:
    """Instruction counts as table cells, per element of the benchmark."""
    return [f"{count / benchmark.elements:.3f}" for count in counts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vlens", default="128,256,512")
    args = parser.parse_args()
    vlens = [int(v) for v in args.vlens.split(",")]
    have_clang = shutil.which(CLANG) is not None
    if not have_clang:
        print(f"{CLANG} not found (apt-get install clang-19 lld-19): its columns are empty", file=sys.stderr)
    header = ["kernel", "elements", *(f"tnpu VLEN={v}" for v in vlens), *(f"clang-19 VLEN={v}" for v in vlens),
              "gcc 12 -O3"]  # fmt: skip
    print(" | ".join(header))
    print(" | ".join("---" for _ in header))
    with tempfile.TemporaryDirectory(prefix="tnpu-bench-") as work:
        for benchmark in BENCHMARKS:
            cells = per_element([tnpu_instructions(benchmark, v) for v in vlens], benchmark)
            if have_clang:
                cells += per_element(c_instructions(benchmark, CLANG, vlens, Path(work)), benchmark)
            else:
                cells += ["-"] * len(vlens)
            cells += per_element(c_instructions(benchmark, "gcc", vlens[:1], Path(work)), benchmark)
            print(" | ".join([benchmark.computation, str(benchmark.elements), *cells]), flush=True)


if __name__ == "__main__":
    main()
