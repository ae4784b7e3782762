"""Triton's tutorials 01, 02, 03, 05 and 06 through tnpu's backend, checked against torch on the CPU.

    .venv/bin/python bench/triton_tutorials.py CHECKOUT [--only 01 03] [--vlens 128,256,512]

CHECKOUT is a Triton source tree (`python/tutorials/` is read there, never
copied).  Each tutorial runs as its own script (`__main__`), in a fresh
process, on tnpu, with its own correctness checks (`assert
torch.allclose(...)`, `torch.testing.assert_close`); what each tutorial
checks beyond its main script is called as the tutorial defines it:

* 01 vector add, 02 fused softmax, 03 matmul (fp16, with its autotune
  configurations): the script's own comparison with torch;
* 05 layer norm: `test_layer_norm(1151, 8192, torch.float16)` (forward and
  backward), as the tutorial calls it.  Its reference is torch's
  `layer_norm` on the same fp16 tensors, which on a GPU accumulates in
  fp32 (PyTorch's CUDA kernels sum in `acc_type`, float for half) but on
  the CPU sums `dw` and `db` in fp16: 0.066 and 0.063 away from an fp32
  evaluation at this size, beyond the tutorial's tolerance of 0.01, while
  tnpu's (and Triton's interpreter's) are 0.008 away.  So the runner makes
  fp16 and bf16 `layer_norm` compute in fp32 and round once, as on a GPU
  (`--cpu-reference` keeps torch's CPU kernel);
* 06 fused attention: `test_op(..., causal=True, mode="bwd")`, which
  checks the forward and the backward, at its smallest shape (Z=1, H=2,
  N_CTX=128, HEAD_DIM=64), as its parametrization runs it: `causal=True`
  only, "FIXME: Non-causal tests do not pass" (its backward kernel
  `_attn_bwd` computes the causal gradients whatever `causal` is), and
  `mode="fwd"` skips itself in fp16.  A non-causal backward is tested in
  test/triton_backend/test_triton_attention.py instead.

Each tutorial runs once per VLEN of --vlens (TNPU_VLEN: the RVV vector
length qemu runs the kernels at; default the backend's, 256).

The tutorials' performance sweeps (`benchmark.run(...)`) compare against
cuBLAS and torch on a GPU, over sizes of up to hundreds of megabytes: they
are not run (`triton.testing.Mark.run` does nothing here).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

TUTORIALS = {
    "01": ("01-vector-add.py", []),
    "02": ("02-fused-softmax.py", []),
    "03": ("03-matrix-multiplication.py", []),
    "05": ("05-layer-norm.py", ["test_layer_norm(1151, 8192, torch.float16)"]),
    "06": ("06-fused-attention.py", ["test_op(1, 2, 128, 64, True, False, 'bwd', 'triton-fp16')"]),
}

RUNNER = """
import os, runpy, sys, torch, triton.testing
triton.testing.Mark.run = lambda self, *args, **kwargs: None  # no GPU performance sweeps
if not os.environ.get("TNPU_TUTORIAL_CPU_REFERENCE"):
    cpu_layer_norm = torch.nn.functional.layer_norm

    def layer_norm(x, shape, weight=None, bias=None, eps=1e-5):  # in fp32, rounded once, as CUDA's
        if x.dtype not in (torch.float16, torch.bfloat16):
            return cpu_layer_norm(x, shape, weight, bias, eps)
        wide = [None if t is None else t.float() for t in (weight, bias)]
        return cpu_layer_norm(x.float(), shape, *wide, eps).to(x.dtype)

    torch.nn.functional.layer_norm = layer_norm
namespace = runpy.run_path(sys.argv[1], run_name="__main__")
for call in sys.argv[2:]:
    try:
        eval(call, namespace)
    except BaseException as error:
        if type(error).__name__ != "Skipped":  # pytest.skip inside test_op: a case it does not run
            raise
        print("skipped:", call, "-", error)
    else:
        print("passed:", call)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path)
    parser.add_argument("--only", nargs="+", choices=sorted(TUTORIALS), default=sorted(TUTORIALS))
    parser.add_argument("--vlens", default="256", help="comma-separated VLENs, each a run (TNPU_VLEN)")
    parser.add_argument("--cpu-reference", action="store_true",
                        help="torch's CPU layer_norm of fp16 as the tutorials' reference (sums in fp16)")
    args = parser.parse_args()
    environment = {**os.environ, **({"TNPU_TUTORIAL_CPU_REFERENCE": "1"} if args.cpu_reference else {})}
    failures = 0
    for number in args.only:
        script, calls = TUTORIALS[number]
        path = args.checkout / "python" / "tutorials" / script
        for vlen in args.vlens.split(","):
            start = time.perf_counter()
            result = subprocess.run(
                [sys.executable, "-c", RUNNER, str(path), *calls],
                capture_output=True, text=True, env={**environment, "TNPU_VLEN": vlen},
            )  # fmt: skip
            seconds = time.perf_counter() - start
            if result.returncode == 0:
                print(f"{number} {script} at VLEN {vlen}: matches torch ({seconds:.0f} s)")
            else:
                failures += 1
                last = [line for line in result.stderr.splitlines() if line.strip()]
                print(f"{number} {script} at VLEN {vlen}: FAILED ({seconds:.0f} s): {last[-1] if last else 'no message'}")
            for line in result.stdout.splitlines():
                if line.startswith(("passed:", "skipped:")):
                    print("   ", line)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
