"""Model figures on the corpus: every kernel the lowering accepts, timed on both presets.

Per kernel, side by side for tpuv3 and tpuv6e: simulated microseconds, the
ratio to the roofline and the ceiling that binds it, and the ratio to the
compulsory roofline; then the median and quartiles of both ratios, how many
kernels each ceiling binds, and how much slower the kernels are with
buffering off (the synchronous DMA of PyTorchSim's Triton route).

    .venv/bin/python bench/timing_corpus.py [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import statistics
from collections import Counter
from pathlib import Path

from xdsl.utils.exceptions import DiagnosticException

from tnpu.compiler.kernel import compile_ttir
from tnpu.execution.case import case_launch, load_case
from tnpu.timing.npu_config import load_npu_config
from tnpu.timing.simulator import SimulationOptions

CORPUS = Path(__file__).resolve().parent.parent / "test" / "fixtures" / "corpus" / "inductor"
PRESETS = ("tpuv3", "tpuv6e")
SYNCHRONOUS = SimulationOptions(double_buffering=False)


def quartiles(values: list[float]) -> str:
    low, median, high = statistics.quantiles(values, n=4)
    return f"median {median:.2f} (quartiles {low:.2f}, {high:.2f}; max {max(values):.1f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="kernels whose name contains this")
    args = parser.parse_args()
    npus = [load_npu_config(name) for name in PRESETS]
    header = "".join(
        f" {name + ' µs':>12} {'×roof':>7} {'bound':>7} {'×comp':>7}" for name in PRESETS
    )
    print(f"{'kernel':<60}{header}")
    ratios: dict[str, list[float]] = {name: [] for name in PRESETS}
    compulsory: dict[str, list[float]] = {name: [] for name in PRESETS}
    synchronous: dict[str, list[float]] = {name: [] for name in PRESETS}
    bounds: dict[str, Counter[str]] = {name: Counter() for name in PRESETS}
    for directory in sorted(p for p in CORPUS.iterdir() if (p / "meta.json").is_file()):
        if args.only and args.only not in directory.name:
            continue
        case = load_case(directory)
        try:
            kernel = compile_ttir(case.ttir_path.read_text(), case.kernel_name, source=str(case.ttir_path))
            timers = [kernel.timer(npu) for npu in npus]
        except DiagnosticException:
            continue
        line = f"{directory.name[:60]:<60}"
        for npu, timer in zip(npus, timers):
            report = timer.time(case_launch(case))
            slow = timer.time(case_launch(case), SYNCHRONOUS)
            ratio = report.roofline_ratio or 1.0
            ratios[npu.name].append(ratio)
            compulsory[npu.name].append(report.compulsory_ratio or 1.0)
            synchronous[npu.name].append(slow.cycles / report.cycles)
            bounds[npu.name][report.roofline_bound] += 1
            line += (f" {report.time_us:12.2f} {ratio:7.2f} {report.roofline_bound:>7}"
                     f" {compulsory[npu.name][-1]:7.2f}")
        print(line)
    for name in PRESETS:
        if not ratios[name]:
            continue
        print(f"\n{name}: {len(ratios[name])} kernels; ratio to roofline {quartiles(ratios[name])}")
        print(f"  ratio to the compulsory roofline {quartiles(compulsory[name])}")
        print(f"  bound by: {', '.join(f'{b} {n}' for b, n in bounds[name].most_common())}")
        print(f"  without buffering, slower by {quartiles(synchronous[name])}")


if __name__ == "__main__":
    main()
