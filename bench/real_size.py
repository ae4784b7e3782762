"""The real-size suite entries in the `timing` mode: compile and timing seconds, cold and warm, beside Inductor's C++.

    .venv/bin/python bench/real_size.py [--models resnet50 bert_base ...] [--repeats 2] [--retime tpuv6e]

Per model (`tnpu/models/real_size.py`), each measurement in a fresh
process, `repeats` times, medians printed:

* tnpu, cold: empty Inductor and Triton caches; `torch.compile(model,
  backend="tnpu", options={"execution": "timing"})` with the backend's
  other defaults (GEMM and convolution templates autotuned by simulated
  cycles) and its first call under `tnpu.profile(config="tpuv3")`.
  *timing s* is the host time of the program's launches (each timed on
  the modeled NPU, none run); *compile s* is the rest of the first call
  (dynamo, Inductor, autotuning, Triton's front end, tnpu's lowering, the
  host's run of each graph's values).  *re-time s* is every launch of that
  call timed again for another NPU (`--retime`, tpuv6e by default), from
  the compiled kernels the call captured (`profile.capture()`, what `tnpu
  dse --model` starts from).
* tnpu, warm: a fresh process over the caches a cold run left.
* Inductor's default CPU backend (C++ built by gcc), cold and warm: the
  seconds of the first call.
* `--no-autotune`: one more cold tnpu run with `autotune=False` (each GEMM
  and convolution template its first configuration): the compile without
  the autotuning candidates' compiles (*untuned*).

Loads: the machine's 1-minute load average before each model is printed.
`--report FILE` writes the launches of the first cold run, timed on tpuv3
and on the `--retime` NPU, as `tnpu suite`'s report.json, from which
`bench/model_times.py` makes docs/model-times.md's table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

MODELS = ("resnet50", "bert_base", "gpt2_small", "llama3_8b_layer", "qwen3_moe_layer", "vit_base", "t5_base")

_SIDE = """
import json, sys, time, torch
import tnpu
from tnpu.models.suite import entry
from tnpu.timing.npu_config import load_npu_config
from tnpu.triton_backend.profile import capture
backend, name, retime = sys.argv[1], sys.argv[2], sys.argv[3]
torch.manual_seed(0)
workload = entry(name).build()
options = {"options": {"execution": "timing"}} if backend.startswith("tnpu") else {}
if backend == "tnpu-no-autotune":
    options["options"]["autotune"] = False
backend = backend.split("-")[0]
compiled = torch.compile(workload.program, backend=backend, **options)
with torch.no_grad():
    if backend != "tnpu":
        start = time.perf_counter()
        compiled(*workload.inputs)
        print(json.dumps({"first": time.perf_counter() - start}))
        sys.exit(0)
    with tnpu.profile(config="tpuv3") as prof, capture() as launches:
        start = time.perf_counter()
        compiled(*workload.inputs)
        first = time.perf_counter() - start
timing = sum(record.wall_us for record in prof.launches) / 1e6
npu = load_npu_config(retime)
start = time.perf_counter()
reports, retimed_reports = {}, []
for launch in launches:  # a launch repeated (a layer's) is timed once, as tnpu dse times it
    key = (id(launch.kernel), launch.launch.grid, tuple(launch.launch.arguments),
           tuple(sorted(launch.launch.buffer_bytes.items())))
    if key not in reports:
        reports[key] = launch.kernel.timer(npu).time(launch.launch)
    retimed_reports.append(reports[key])
retimed = time.perf_counter() - start
from tnpu.models.run import kernel_kind
def times(report):
    return {"cycles": report.cycles, "time_us": report.time_us, "roofline_ratio": report.roofline_ratio}
print(json.dumps({
    "first": first, "timing": timing, "compile": first - timing, "retime": retimed, "launches": len(prof.launches),
    "kernels": len({id(launch.kernel) for launch in launches}), "tpuv3_us": sum(r.time_us for r in prof.launches),
    "retime_us": sum(report.time_us for report in retimed_reports),
    "records": [{"kernel": record.kernel, "kind": kernel_kind(record.kernel),
                 "times": {"tpuv3": times(record.report), retime: times(report)}}
                for record, report in zip(prof.launches, retimed_reports)],
}))
"""


def run_side(backend: str, model: str, caches: str, retime: str) -> dict[str, float]:
    """One process: `backend` is `tnpu`, `tnpu-no-autotune` or `inductor`."""
    env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=f"{caches}/inductor", TRITON_CACHE_DIR=f"{caches}/triton")
    done = subprocess.run([sys.executable, "-c", _SIDE, backend, model, retime], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{model} on {backend} failed: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def measure(backend: str, model: str, repeats: int, retime: str) -> tuple[list[dict], list[dict]]:
    """`repeats` cold runs, each followed by a warm run over the caches it left."""
    cold, warm = [], []
    for _ in range(repeats):
        with tempfile.TemporaryDirectory(prefix="tnpu-bench-") as caches:
            cold.append(run_side(backend, model, caches, retime))
            warm.append(run_side(backend, model, caches, retime))
    return cold, warm


def median(runs: list[dict], key: str) -> float:
    return statistics.median(run[key] for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", nargs="+", default=list(MODELS))
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--retime", default="tpuv6e", help="the NPU the captured launches are re-timed for")
    parser.add_argument("--no-inductor", action="store_true", help="leave Inductor's C++ backend out")
    parser.add_argument("--no-autotune", action="store_true",
                        help="also one cold run with options autotune=False (each template its first configuration)")
    parser.add_argument("--json", help="also write every run's numbers to this file")
    parser.add_argument("--report", help="write the first cold run's launches, timed on tpuv3 and the --retime NPU, "
                                         "as a suite report.json for bench/model_times.py")
    args = parser.parse_args()
    header = (f"{'model':16} {'load':>5} {'kernels':>7} {'launches':>8} {'cold s':>7} {'compile':>8} {'timing':>7} "
              f"{'warm s':>7} {'re-time':>7} {'C++ cold':>8} {'C++ warm':>8} {'untuned':>9}")  # fmt: skip
    print(header, flush=True)
    everything = {}
    for model in args.models:
        load = os.getloadavg()[0]
        cold, warm = measure("tnpu", model, args.repeats, args.retime)
        cxx_cold, cxx_warm = ([], []) if args.no_inductor else measure("inductor", model, args.repeats, args.retime)
        untuned = []
        if args.no_autotune:
            with tempfile.TemporaryDirectory(prefix="tnpu-bench-") as caches:
                untuned.append(run_side("tnpu-no-autotune", model, caches, args.retime))
        everything[model] = {"load": load, "cold": cold, "warm": warm, "cxx_cold": cxx_cold, "cxx_warm": cxx_warm,
                             "cold_no_autotune": untuned}
        cxx = (f"{median(cxx_cold, 'first'):8.1f} {median(cxx_warm, 'first'):8.1f}" if cxx_cold
               else f"{'-':>8} {'-':>8}")  # fmt: skip
        print(f"{model:16} {load:5.1f} {cold[0]['kernels']:7} {cold[0]['launches']:8} {median(cold, 'first'):7.1f} "
              f"{median(cold, 'compile'):8.1f} {median(cold, 'timing'):7.2f} {median(warm, 'first'):7.1f} "
              f"{median(cold, 'retime'):7.2f} {cxx} {median(untuned, 'first') if untuned else float('nan'):9.1f}",
              flush=True)  # fmt: skip
        if args.json:
            with open(args.json, "w") as file:
                json.dump(everything, file, indent=1)
        if args.report:
            report = {name: {"stage": "timed", "delivered": True, "launches": runs["cold"][0]["records"]}
                      for name, runs in everything.items()}
            with open(args.report, "w") as file:
                json.dump(report, file, indent=1)


if __name__ == "__main__":
    main()
