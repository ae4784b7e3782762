"""DSE throughput: points timed per second by the local pool and by Ray, with 1 and 2 workers.

A study of --kernels corpus kernels (the first in name order) over a space
of 3 × 3 × 2 = 18 points, run into a fresh store by each executor with 1
and then 2 workers (a local Ray runtime of that many CPUs, started and shut
down by the executor, as `tnpu dse --executor ray` without --address
does).  A point is one kernel timed on one configuration.  Two rates per
run: over the whole run, starting the workers (and Ray) included; and
steady, from the first task's records to the last (each worker compiles
its kernels either way).  Then the ratios: Ray over local at equal
workers, and 2 workers over 1 per executor.  The load average before and
after is printed: the machine is shared.

    .venv/bin/python bench/dse_throughput.py [--kernels 40] [--rounds 1]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tnpu.dse.space import space_from_options  # noqa: E402
from tnpu.dse.store import Store  # noqa: E402
from tnpu.dse.study import run_study  # noqa: E402
from tnpu.dse.workload import workloads_from_cases  # noqa: E402
from tnpu.execution.sweep import find_cases  # noqa: E402

CORPUS = ROOT / "test" / "fixtures" / "corpus" / "inductor"
AXES = ["systolic_array_rows=64,128,256", "dram_channels=8,16,32", "vpu_num_lanes=64,128"]
RUNS = [("local", 1), ("local", 2), ("ray", 1), ("ray", 2)]


def measure(executor: str, workers: int, workloads, points) -> tuple[float, float]:
    """(points per second over the whole run, steady points per second)."""
    finished: list[tuple[float, int]] = []
    with tempfile.TemporaryDirectory() as directory, Store(Path(directory) / "s.sqlite") as store:
        start = time.perf_counter()
        outcome = run_study(
            store, workloads, points, executor=executor, workers=workers,
            progress=lambda count: finished.append((time.perf_counter(), count)),
        )
        end = time.perf_counter()
    assert outcome.skipped == 0 and outcome.timed == sum(count for _, count in finished)
    first_time, first_count = finished[0]
    steady = (outcome.timed - first_count) / (finished[-1][0] - first_time)
    return outcome.timed / (end - start), steady


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=1, help="runs of each (the median is shown)")
    args = parser.parse_args()
    # A local Ray runtime needs no token; without this Ray 2.5x writes one under $HOME.
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    workloads = workloads_from_cases(find_cases(CORPUS)[: args.kernels])
    points = space_from_options("tpuv3", AXES, [], None).points()
    kernels = sum(len(w.kernels) for w in workloads)
    print(f"{kernels} kernels × {len(points)} points = {kernels * len(points)} points per run; "
          f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    rates: dict[tuple[str, int], list[tuple[float, float]]] = {run: [] for run in RUNS}
    for _ in range(args.rounds):
        for executor, workers in RUNS:
            rates[(executor, workers)].append(measure(executor, workers, workloads, points))
    median = {
        run: tuple(statistics.median(r[i] for r in found) for i in range(2))
        for run, found in rates.items()
    }
    print(f"{'executor':10} {'workers':>7} {'points/s (whole run)':>21} {'points/s (steady)':>18}")
    for (executor, workers), (whole, steady) in median.items():
        print(f"{executor:10} {workers:7} {whole:21.1f} {steady:18.1f}")
    for column, name in ((0, "whole run"), (1, "steady")):
        ratios = ", ".join(
            [f"ray/local at {w}: {median[('ray', w)][column] / median[('local', w)][column]:.2f}" for w in (1, 2)]
            + [f"{e} 2/1: {median[(e, 2)][column] / median[(e, 1)][column]:.2f}" for e in ("local", "ray")]
        )
        print(f"ratios ({name}): {ratios}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
