"""torch.compile of the suite's models: tnpu's backend beside Inductor's default CPU backend (C++).

    .venv/bin/python bench/torch_compile.py [--models mlp resnet18 llama_tiny ...] [--repeats 3]

Per model, each side in a fresh process with empty Inductor and Triton
caches: the seconds from `torch.compile(model, backend=...)` through the
first forward (compiling every kernel: for tnpu, Triton's TTIR, tnpu's
lowering, the RVV assembly and its ELF; for Inductor's default, C++ with
gcc), then the median seconds of one more forward (for tnpu, every kernel
under qemu and timed on the modeled NPU; for Inductor, native C++), and
the ratios tnpu / Inductor, in one run so that both sides see the same
machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

DEFAULT_MODELS = ("mlp", "resnet18", "bert_tiny", "gpt2_tiny", "llama_tiny", "mixtral_tiny", "clip_vision_tiny")

_SIDE = """
import json, statistics, sys, time, torch
from tnpu.models.suite import entry
backend, name, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])
torch.manual_seed(0)
workload = entry(name).build()
options = {{"options": {{"autotune": False}}}} if backend == "tnpu" else {{}}
compiled = torch.compile(workload.program, backend=backend, **options)
with torch.no_grad():
    start = time.perf_counter()
    compiled(*workload.inputs)
    first = time.perf_counter() - start
    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        compiled(*workload.inputs)
        runs.append(time.perf_counter() - start)
print(json.dumps({{"compile": first, "forward": statistics.median(runs)}}))
"""


def measure(backend: str, model: str, repeats: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="tnpu-bench-") as caches:
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=f"{caches}/inductor", TRITON_CACHE_DIR=f"{caches}/triton")
        done = subprocess.run(
            [sys.executable, "-c", _SIDE.format(), backend, model, str(repeats)],
            env=env, capture_output=True, text=True,
        )  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"{model} on {backend} failed: {done.stderr.strip().splitlines()[-1]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=list(DEFAULT_MODELS))
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"{'model':18} {'tnpu compile s':>15} {'C++ compile s':>14} {'ratio':>6} {'tnpu fwd s':>11} {'C++ fwd s':>10} {'ratio':>8}")
    for model in args.models:
        tnpu, inductor = measure("tnpu", model, args.repeats), measure("inductor", model, args.repeats)
        print(f"{model:18} {tnpu['compile']:15.1f} {inductor['compile']:14.1f} {tnpu['compile'] / inductor['compile']:6.1f} "
              f"{tnpu['forward']:11.3f} {inductor['forward']:10.4f} {tnpu['forward'] / inductor['forward']:8.0f}")  # fmt: skip


if __name__ == "__main__":
    main()
