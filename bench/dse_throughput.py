"""DSE throughput: points timed per second by the local pool and by Ray, with 1 and 2 workers.

A study of the corpus's kernels (or the first --kernels in name order) over a space
of 3 × 3 × 2 = 18 points, run into a fresh store by each executor with 1
and then 2 workers (a local Ray runtime of that many CPUs, started and shut
down by the executor, as `tnpu dse --executor ray` without --address
does).  A point is one kernel timed on one configuration.  Two rates per
run: over the whole run, starting the workers (and Ray) included; and
steady, from the first task's records to the last (each worker compiles
its kernels either way).  Then the ratios: Ray over local at equal
workers, and 2 workers over 1 per executor.  The load average before and
after is printed: the machine is shared.

On a shared machine the rates say as much about the other jobs as about
the executor, so each run also counts the CPU time it used: its own
process and every process below it (pool workers; Ray's raylet, GCS and
workers), read from /proc after each task.  CPU milliseconds per point
are what a point costs whatever the load (a ratio near 1 between 2
workers and 1 means the second worker does no extra work per point, so
with a free core the rate doubles), and CPUs busy (CPU seconds over
wall-clock seconds) is how much of the machine the run got.

With `--model NAME` (repeatable) the workloads are those models of the
suite instead (`tnpu dse --model`: their captured launches, read from
tnpu's cache, captured first if they are not there; the capture is not
part of any run).

    .venv/bin/python bench/dse_throughput.py [--kernels N] [--rounds 1]
    .venv/bin/python bench/dse_throughput.py --model llama_tiny --model resnet18
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tnpu.dse.model_workloads import model_workloads  # noqa: E402
from tnpu.dse.space import space_from_options  # noqa: E402
from tnpu.dse.store import Store  # noqa: E402
from tnpu.dse.study import run_study  # noqa: E402
from tnpu.dse.workload import workloads_from_cases  # noqa: E402
from tnpu.execution.sweep import find_cases  # noqa: E402

CORPUS = ROOT / "test" / "fixtures" / "corpus" / "inductor"
AXES = ["systolic_array_rows=64,128,256", "dram_channels=8,16,32", "vpu_num_lanes=64,128"]
RUNS = [("local", 1), ("local", 2), ("ray", 1), ("ray", 2)]


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def descendants_cpu_seconds(root: int) -> dict[int, float]:
    """User + system CPU seconds of every live process below `root`, by pid (/proc)."""
    parent, seconds = {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()  # after the command's name
        except OSError:  # the process ended meanwhile
            continue
        parent[int(entry)] = int(fields[1])
        seconds[int(entry)] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    below = {root}
    changed = True
    while changed:
        changed = False
        for pid, ppid in parent.items():
            if ppid in below and pid not in below:
                below.add(pid)
                changed = True
    return {pid: seconds[pid] for pid in below - {root}}


@dataclass
class Run:
    whole: float
    """Points per second over the whole run."""
    steady: float
    """Points per second from the first task's records to the last."""
    cpu_ms_per_point: float
    """CPU milliseconds of this process and every process below it, per point."""
    cpus_busy: float
    """CPU seconds over wall-clock seconds."""


def measure(executor: str, workers: int, workloads, points) -> Run:
    finished: list[tuple[float, int]] = []
    children: dict[int, float] = {}  # the most CPU time seen of each process below this one

    def progress(count: int) -> None:
        finished.append((time.perf_counter(), count))
        for pid, seconds in descendants_cpu_seconds(os.getpid()).items():
            children[pid] = max(seconds, children.get(pid, 0.0))

    with tempfile.TemporaryDirectory() as directory, Store(Path(directory) / "s.sqlite") as store:
        start, own = time.perf_counter(), time.process_time()
        outcome = run_study(store, workloads, points, executor=executor, workers=workers, progress=progress)
        end, own = time.perf_counter(), time.process_time() - own
    assert outcome.skipped == 0 and outcome.timed == sum(count for _, count in finished)
    first_time, first_count = finished[0]
    steady = (outcome.timed - first_count) / (finished[-1][0] - first_time)
    cpu = own + sum(children.values())
    return Run(outcome.timed / (end - start), steady, 1000 * cpu / outcome.timed, cpu / (end - start))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", type=int, help="the first N kernels only (default: all 152, so that "
                        "starting the workers, a few seconds, is a small part of each run)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each (the median is shown)")
    parser.add_argument("--model", action="append", metavar="NAME", help="a model of the suite instead of the corpus")
    args = parser.parse_args()
    # A local Ray runtime needs no token; without this Ray 2.5x writes one under $HOME.
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    workloads = (
        model_workloads(args.model, progress=print) if args.model
        else workloads_from_cases(find_cases(CORPUS)[: args.kernels])
    )
    points = space_from_options("tpuv3", AXES, [], None).points()
    kernels = len({(k.ttir_hash, k.launch_hash) for w in workloads for k in w.kernels})
    print(f"{kernels} kernels × {len(points)} points = {kernels * len(points)} points per run; "
          f"load average before: {os.getloadavg()[0]:.2f} ({os.cpu_count()} CPUs)")
    runs: dict[tuple[str, int], list[Run]] = {run: [] for run in RUNS}
    for _ in range(args.rounds):
        for executor, workers in RUNS:
            runs[(executor, workers)].append(measure(executor, workers, workloads, points))
    median = {
        run: Run(*(statistics.median(getattr(r, name) for r in found) for name in Run.__dataclass_fields__))
        for run, found in runs.items()
    }
    print(f"{'executor':10} {'workers':>7} {'points/s (whole run)':>21} {'points/s (steady)':>18}"
          f" {'CPU ms/point':>13} {'CPUs busy':>10}")  # fmt: skip
    for (executor, workers), run in median.items():
        print(f"{executor:10} {workers:7} {run.whole:21.1f} {run.steady:18.1f}"
              f" {run.cpu_ms_per_point:13.1f} {run.cpus_busy:10.2f}")  # fmt: skip
    for field, name in (("whole", "whole run"), ("steady", "steady"), ("cpu_ms_per_point", "CPU per point")):
        ratios = ", ".join(
            [f"ray/local at {w}: {getattr(median[('ray', w)], field) / getattr(median[('local', w)], field):.2f}"
             for w in (1, 2)]
            + [f"{e} 2/1: {getattr(median[(e, 2)], field) / getattr(median[(e, 1)], field):.2f}"
               for e in ("local", "ray")]
        )  # fmt: skip
        print(f"ratios ({name}): {ratios}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
