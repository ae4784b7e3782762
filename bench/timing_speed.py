"""Timer speed: compiling a kernel against re-timing it, on the corpus and at scale.

Part 1, every corpus kernel the lowering accepts (on --config).  Each of
--repeat rounds runs the whole pipeline from the TTIR text, timing each
stage: compile = import + lower (`compile_ttir`, then `Kernel.npu_tile`:
tnpu-to-npu's steps) + the `KernelTimer` (`Kernel.timer`: its TOG and
launch binder); re-time = bind the case's launch + simulate it (with the
steady-state fast-forward).  Event-by-event simulation is timed too.  A
kernel's figure per stage is its median over the rounds; both sides of
every ratio come from the same rounds, so a busy machine slows them alike.
The summary gives re-time as a fraction of compile and of lowering alone
(median and worst kernel), the time to time the whole corpus, and the
simulators' speed in tile ops per second (a launch's tile ops are those
event-by-event simulation runs; fast-forward skips most of them).

Part 2, the same compiled kernels re-timed for growing launches without
recompiling: a vector add (1024 per program) and a matmul (128x128 tiles,
K = 1024) from 10^2 to 10^5 programs (event by event only up to about 10^4).

    .venv/bin/python bench/timing_speed.py [--config tpuv3] [--repeat 5] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "timing"))

from timing_kernels import matmul, parse_kernel, vector_add, vector_add_launch  # noqa: E402

from tnpu.compiler.kernel import Kernel, compile_ttir  # noqa: E402
from tnpu.execution.case import Case, case_launch, load_case  # noqa: E402
from tnpu.timing.launch_binding import Launch  # noqa: E402
from tnpu.timing.npu_config import NPUConfig, load_npu_config  # noqa: E402
from tnpu.timing.simulator import SimulationOptions, Simulator  # noqa: E402
from tnpu.timing.timer import KernelTimer  # noqa: E402
from tnpu.ttir_import import import_ttir  # noqa: E402

CORPUS = ROOT / "test" / "fixtures" / "corpus" / "inductor"
EXACT = SimulationOptions(fast_forward=False)
EVENT_BY_EVENT_LIMIT = 20_000
"""Programs beyond which part 2 does not simulate event by event (it takes minutes)."""
STAGES = ("import", "lower", "tog", "bind", "simulate", "exact")


def seconds(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


@dataclass
class KernelTimes:
    """One kernel's median seconds per stage, and the tile ops its launch simulates."""

    name: str
    stages: dict[str, float]
    tasks: int
    """Tile ops of the launch: those event-by-event simulation runs."""
    tasks_fast: int
    """Tile ops the fast-forward simulated event by event."""

    @property
    def compile(self) -> float:
        return self.stages["import"] + self.stages["lower"] + self.stages["tog"]

    @property
    def retime(self) -> float:
        return self.stages["bind"] + self.stages["simulate"]


def lower(module: ModuleOp, case: Case, npu: NPUConfig) -> Kernel:
    """The case's kernel with its tile IR for `npu` built (tnpu-to-tile, then the NPU's steps)."""
    kernel = compile_ttir(module, case.kernel_name)
    kernel.npu_tile(npu)
    return kernel


def time_rounds(name: str, case: Case, npu: NPUConfig, repeat: int) -> KernelTimes:
    """The pipeline from the TTIR text, `repeat` times; DiagnosticException if refused."""
    text = case.ttir_path.read_text()
    launch = case_launch(case)
    rounds: dict[str, list[float]] = {stage: [] for stage in STAGES}
    for _ in range(repeat):
        measured: dict[str, float] = {}
        measured["import"], module = seconds(lambda: import_ttir(text, str(case.ttir_path)))
        measured["lower"], kernel = seconds(lambda: lower(module, case, npu))
        measured["tog"], timer = seconds(lambda: kernel.timer(npu))
        measured["bind"], bound = seconds(lambda: timer.bind(launch))
        measured["simulate"], fast = seconds(lambda: Simulator(npu).run(bound))
        measured["exact"], exact = seconds(lambda: Simulator(npu, EXACT).run(bound))
        for stage, value in measured.items():
            rounds[stage].append(value)
    medians = {stage: statistics.median(values) for stage, values in rounds.items()}
    return KernelTimes(name, medians, exact.tasks_simulated, fast.tasks_simulated)


def corpus(npu: NPUConfig, repeat: int, only: str | None) -> None:
    print(f"{'kernel':<56} {'import':>7} {'lower':>7} {'tog':>6} {'bind':>6} {'sim':>6} "
          f"{'exact':>7} {'re/comp':>7} {'re/low':>7} {'tasks':>6}")
    kernels: list[KernelTimes] = []
    for directory in sorted(p for p in CORPUS.iterdir() if (p / "meta.json").is_file()):
        if only and only not in directory.name:
            continue
        try:
            k = time_rounds(directory.name, load_case(directory), npu, repeat)
        except DiagnosticException:
            continue
        kernels.append(k)
        ms = {stage: 1e3 * value for stage, value in k.stages.items()}
        print(f"{k.name[:56]:<56} {ms['import']:7.2f} {ms['lower']:7.2f} {ms['tog']:6.2f} "
              f"{ms['bind']:6.2f} {ms['simulate']:6.2f} {ms['exact']:7.2f} "
              f"{k.retime / k.compile:7.1%} {k.retime / k.stages['lower']:7.1%} {k.tasks:6d}")
    if kernels:
        summarize(kernels, repeat)


def summarize(kernels: list[KernelTimes], repeat: int) -> None:
    def line(name: str, values: list[float], unit: str = "ms") -> None:
        if unit == "ms":
            print(f"  {name:<34} {1e3 * statistics.median(values):9.3f} {1e3 * max(values):9.3f}")
        else:
            print(f"  {name:<34} {statistics.median(values):9.1%} {max(values):9.1%}")

    print(f"\n{len(kernels)} kernels, medians of {repeat} rounds; across kernels:")
    print(f"  {'':<34} {'median':>9} {'max':>9}")
    for stage in STAGES:
        line(f"{stage} (ms)", [k.stages[stage] for k in kernels])
    line("compile = import+lower+tog (ms)", [k.compile for k in kernels])
    line("re-time = bind+simulate (ms)", [k.retime for k in kernels])
    line("re-time / compile", [k.retime / k.compile for k in kernels], unit="%")
    line("re-time / lower", [k.retime / k.stages["lower"] for k in kernels], unit="%")

    timing = sum(k.stages["tog"] + k.retime for k in kernels)
    pipeline = sum(k.compile + k.retime for k in kernels)
    print(f"Timing the whole corpus: {timing:.2f} s (tog+bind+simulate); "
          f"{pipeline:.2f} s from TTIR text (import+lower+tog+bind+simulate).")
    tasks = sum(k.tasks for k in kernels)
    fast = sum(k.stages["simulate"] for k in kernels)
    exact = sum(k.stages["exact"] for k in kernels)
    skipped = 1 - sum(k.tasks_fast for k in kernels) / tasks
    print(f"Simulation speed, {tasks} tile ops: {tasks / exact:,.0f} tile ops/s event by event; "
          f"{tasks / fast:,.0f} tile ops/s with fast-forward ({skipped:.0%} of them skipped).")


def scaling(npu: NPUConfig) -> None:
    add = KernelTimer(parse_kernel(vector_add(1024)), npu)
    product = KernelTimer(parse_kernel(matmul(128, 128, 64)), npu)
    print(f"\n{'kernel':<8} {'programs':>9} {'bind':>7} {'sim':>7} {'exact':>8} {'tasks':>7} "
          f"{'exact':>9}  cycles   (seconds; tasks simulated)")
    for programs in (100, 1_000, 10_000, 100_000):
        side = int(programs**0.5)
        for name, timer, launch in (
            ("add", add, Launch(*vector_add_launch(programs * 1024 + 7, 1024))),
            ("matmul", product, Launch((side, side, 1), [None, None, None, 128 * side, 128 * side, 1024])),
        ):
            bind, bound = seconds(lambda: timer.bind(launch))
            simulate, fast = seconds(lambda: Simulator(npu).run(bound))
            exact = "-"
            exact_tasks = "-"
            if launch.instance_count <= EVENT_BY_EVENT_LIMIT:
                exact_time, slow = seconds(lambda: Simulator(npu, EXACT).run(bound))
                exact, exact_tasks = f"{exact_time:.3f}", str(slow.tasks_simulated)
            print(f"{name:<8} {launch.instance_count:>9} {bind:7.3f} {simulate:7.3f} {exact:>8} "
                  f"{fast.tasks_simulated:7d} {exact_tasks:>9}  {fast.cycles:,.0f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config", default="tpuv3")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", help="corpus kernels whose name contains this")
    args = parser.parse_args()
    npu = load_npu_config(args.config)
    corpus(npu, args.repeat, args.only)
    scaling(npu)


if __name__ == "__main__":
    main()
