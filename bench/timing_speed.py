"""Timer speed: how long tnpu takes to time a kernel, per stage, on the corpus and at scale.

Part 1, every corpus kernel the lowering accepts (on --config): seconds to
build the TOG, to bind the case's launch, to simulate it with the steady-state
fast-forward and event by event, and the tasks each simulated.  Lowering
(`tnpu-to-tile`) is timed apart: it is the compiler's, paid once per kernel.

Part 2, the same compiled kernels re-timed for growing launches without
recompiling: a vector add (1024 per program) and a matmul (128x128 tiles,
K = 1024) from 10^2 to 10^5 programs (event by event only up to about 10^4).

    .venv/bin/python bench/timing_speed.py [--config tpuv3] [--only SUBSTRING]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from xdsl.utils.exceptions import DiagnosticException

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "test" / "timing"))

from timing_kernels import matmul, parse_kernel, vector_add, vector_add_launch  # noqa: E402

from tnpu.execution.case import load_case  # noqa: E402
from tnpu.execution.tile_rung import tile_kernel  # noqa: E402
from tnpu.timing.launch import Launch  # noqa: E402
from tnpu.timing.npu_config import NPUConfig, load_npu_config  # noqa: E402
from tnpu.timing.simulator import SimulationOptions, Simulator  # noqa: E402
from tnpu.timing.timer import KernelTimer, case_launch, lower_for_npu  # noqa: E402
from tnpu.ttir_import import import_ttir  # noqa: E402

CORPUS = ROOT / "test" / "fixtures" / "corpus" / "inductor"
EXACT = SimulationOptions(fast_forward=False)
EVENT_BY_EVENT_LIMIT = 20_000
"""Programs beyond which part 2 does not simulate event by event (it takes minutes)."""


def seconds(work: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


def corpus(npu: NPUConfig, only: str | None) -> None:
    print(f"{'kernel':<60} {'lower':>7} {'tog':>7} {'bind':>7} {'sim':>7} {'exact':>7} "
          f"{'tasks':>7} {'exact':>7}   (seconds; tasks simulated)")
    rows = []
    for directory in sorted(p for p in CORPUS.iterdir() if (p / "meta.json").is_file()):
        if only and only not in directory.name:
            continue
        case = load_case(directory)
        module = import_ttir(case.ttir_path.read_text(), str(case.ttir_path))
        try:
            lower, lowered = seconds(lambda: lower_for_npu(module, npu))
        except DiagnosticException:
            continue
        build, timer = seconds(lambda: KernelTimer(tile_kernel(lowered, case.kernel_name), npu))
        bind, bound = seconds(lambda: timer.bind(case_launch(case)))
        simulate, fast = seconds(lambda: Simulator(npu).run(bound))
        exact_time, exact = seconds(lambda: Simulator(npu, EXACT).run(bound))
        rows.append((lower, build, bind, simulate, exact_time, build + bind + simulate))
        print(f"{directory.name[:60]:<60} {lower:7.3f} {build:7.3f} {bind:7.3f} {simulate:7.3f} "
              f"{exact_time:7.3f} {fast.tasks_simulated:7d} {exact.tasks_simulated:7d}")
    if not rows:
        return
    columns = list(zip(*rows))
    print(f"{len(rows)} kernels; median / max seconds:")
    for name, values in zip(("lower", "tog", "bind", "simulate", "exact", "tog+bind+simulate"), columns):
        print(f"  {name:<18} {statistics.median(values):7.4f} {max(values):7.4f}")


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
    parser.add_argument("--only", help="corpus kernels whose name contains this")
    args = parser.parse_args()
    npu = load_npu_config(args.config)
    corpus(npu, args.only)
    scaling(npu)


if __name__ == "__main__":
    main()
