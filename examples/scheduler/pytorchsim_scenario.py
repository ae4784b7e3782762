"""PyTorchSim's scheduler scenario on tnpu: ResNet-18 and a transformer encoder block sharing a TPUv3 chip.

The chip is `tpuv3x2` (two TensorCores, one HBM) split into two one-core
partitions: ResNet-18 on one 1 × 3 × 224 × 224 image runs on partition 0,
a 768-wide, 12-head encoder block on 128 tokens on partition 1
(`models.py`), each a stream of requests.  Printed (and written as
Markdown and a plot with --out):

1. each program's solo latency on one core, on both cores, and on tpuv4;
2. both requests at once: what sharing the DRAM costs each;
3. Poisson arrivals at rising load on both partitions: p50/p90/p99 and
   mean latency per stream beside the M/D/1 estimate of its mean;
4. the same offered load on the chip unpartitioned (both programs on one
   two-core partition, first come first served).

    PYTHONPATH=. python examples/scheduler/pytorchsim_scenario.py --out /tmp/scheduler
    # add --trace run.json for a Perfetto trace of the 50%-load run

The models are compiled once in timing mode (captured through `tnpu dse`'s
workload cache, tens of seconds each) and every launch is timed on each
partition size; the runs themselves take seconds.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from tnpu.compiler.kernel import Kernel
from tnpu.dse.model_workloads import model_workloads
from tnpu.dse.workload import Workload
from tnpu.scheduler import Chip, Program, Stream, poisson_arrivals, simulate, time_program
from tnpu.timing.npu_config import NPUConfig, load_npu_config

HERE = Path(__file__).resolve().parent
MODELS = {"resnet18": f"{HERE / 'models.py'}:resnet18", "encoder": f"{HERE / 'models.py'}:encoder"}
LOADS = (0.1, 0.3, 0.5, 0.7, 0.8, 0.9)
REQUESTS = 2000
"""Requests of the slower stream at each load; the faster one gets as many as arrive meanwhile."""
SEED = 2026


def program(workload: Workload, name: str, npu: NPUConfig, cores: int) -> Program:
    kernels: dict[str, Kernel] = {}
    launches = []
    for launch in workload.kernels:
        if launch.ttir_hash not in kernels:
            kernels[launch.ttir_hash] = Kernel.from_tile(launch.ir, launch.kernel_name, source=launch.source)
        launches.append((launch.name, kernels[launch.ttir_hash], launch.launch))
    return time_program(name, launches, npu, cores)


def md1_mean(service: float, load: float) -> float:
    """Pollaczek-Khinchine for deterministic service: service + load × service / (2 (1 - load))."""
    return service + load * service / (2 * (1 - load))


def arrivals_at(load: float, programs: dict[str, Program], solo_us: dict[str, float], partitions: tuple[int, ...]) -> list[Stream]:
    """A Poisson stream per program at `load` of its solo latency on one core (`solo_us`), over the
    time `REQUESTS` requests of the slowest take to arrive."""
    duration_s = REQUESTS * max(solo_us.values()) / 1e6 / load
    return [
        Stream(name, programs[name], partition,
               poisson_arrivals(load / solo_us[name] * 1e6, round(duration_s * load / solo_us[name] * 1e6), seed=SEED + i))
        for i, (name, partition) in enumerate(zip(programs, partitions))
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, help="write figures.md and scheduler.png there")
    parser.add_argument("--trace", type=Path, help="write the Perfetto trace of the 50%%-load run")
    args = parser.parse_args()

    workloads = dict(zip(MODELS, model_workloads(list(MODELS.values()), progress=print)))
    v3x2, v4 = load_npu_config("tpuv3x2"), load_npu_config("tpuv4")
    lines: list[str] = []

    def say(line: str = "") -> None:
        print(line)
        lines.append(line)

    # 1. Solo latencies.
    one = {name: program(w, name, v3x2, 1) for name, w in workloads.items()}
    solo_us = {name: v3x2.cycles_to_us(p.solo_cycles) for name, p in one.items()}
    two = {name: program(w, name, v3x2, 2) for name, w in workloads.items()}
    v4_two = {name: program(w, name, v4, 2) for name, w in workloads.items()}
    us = v3x2.cycles_to_us
    say("### Solo latency (µs)\n")
    say("| program | launches | tpuv3x2, 1 core | tpuv3x2, 2 cores | speedup | tpuv4, 2 cores | DRAM demand on 1 core |")
    say("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in MODELS:
        p1, p2, p4 = one[name], two[name], v4_two[name]
        demand = sum(s.dram_cycles for s in p1.steps) / p1.solo_cycles
        say(f"| {name} | {len(p1.steps)} | {us(p1.solo_cycles):,.1f} | {us(p2.solo_cycles):,.1f} | "
            f"{p1.solo_cycles / p2.solo_cycles:.2f} × | {v4.cycles_to_us(p4.solo_cycles):,.1f} | {demand:.0%} |")

    # 2. Both at once, one request each.
    chip = Chip(v3x2, (1, 1))
    run = simulate(chip, [Stream(name, one[name], i, (0.0,)) for i, name in enumerate(MODELS)])
    say("\n### One request of each at time 0, partitions [1, 1]\n")
    say("| program | solo µs | latency µs | slowdown from the shared DRAM |")
    say("| --- | ---: | ---: | ---: |")
    for name in MODELS:
        (request,) = run.of(name)
        say(f"| {name} | {us(one[name].solo_cycles):,.1f} | {us(request.latency):,.1f} | "
            f"{request.latency / one[name].solo_cycles - 1:+.2%} |")

    # 3. Poisson load on both partitions.
    say("\n### Poisson arrivals at rising load, partitions [1, 1]\n")
    say(f"Load is each stream's arrival rate times its solo latency; both streams arrive over the same\n"
        f"time, {REQUESTS} requests of the slower one (seeds {SEED} and {SEED + 1}).  Utilization is over the run.\n")
    say("| load | program | rate /s | p50 µs | p90 µs | p99 µs | mean µs | M/D/1 mean µs | mean / M/D/1 | core util | DRAM util |")
    say("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    curves: dict[str, list[tuple[float, float, float, float, float]]] = {name: [] for name in MODELS}
    for load in LOADS:
        streams = arrivals_at(load, one, solo_us, partitions=(0, 1))
        run = simulate(chip, streams)
        util = run.utilization()
        if args.trace and load == 0.5:
            args.trace.parent.mkdir(parents=True, exist_ok=True)
            args.trace.write_text(json.dumps(run.chrome_trace()))
        for i, (name, stream) in enumerate(zip(MODELS, streams)):
            s = run.latency_stats(name)
            md1 = md1_mean(s["solo_us"], load)
            curves[name].append((load, s["p50_us"], s["p90_us"], s["p99_us"], md1))
            rate = load / s["solo_us"] * 1e6
            say(f"| {load:.1f} | {name} | {rate:,.0f} | {s['p50_us']:,.0f} | {s['p90_us']:,.0f} | {s['p99_us']:,.0f} | "
                f"{s['mean_us']:,.0f} | {md1:,.0f} | {s['mean_us'] / md1:.3f} | {util['cores'][i]:.0%} | {util['dram']:.1%} |")

    # 4. The same offered load, the chip unpartitioned.
    shared = Chip(v3x2, (2,))
    say("\n### The same arrivals on the unpartitioned chip (both programs on both cores, first come first served)\n")
    say("| load per stream | program | p50 µs | p99 µs | mean µs | partitioned mean µs |")
    say("| ---: | --- | ---: | ---: | ---: | ---: |")
    for load in (0.1, 0.5, 0.8):
        streams = arrivals_at(load, two, solo_us, partitions=(0, 0))
        run = simulate(shared, streams)
        partitioned = simulate(chip, [Stream(s.name, one[s.name], i, s.arrivals_us) for i, s in enumerate(streams)])
        for name in MODELS:
            s, p = run.latency_stats(name), partitioned.latency_stats(name)
            say(f"| {load:.1f} | {name} | {s['p50_us']:,.0f} | {s['p99_us']:,.0f} | {s['mean_us']:,.0f} | {p['mean_us']:,.0f} |")

    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "figures.md").write_text("\n".join(lines) + "\n")
        plot(curves, args.out / "scheduler.png")


def plot(curves: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(curves), figsize=(5 * len(curves), 3.6))
    for ax, (name, rows) in zip(axes, curves.items()):
        loads = [r[0] for r in rows]
        for column, label, style in ((1, "p50", "o-"), (2, "p90", "s-"), (3, "p99", "^-"), (4, "M/D/1 mean", "k--")):
            ax.plot(loads, [r[column] / 1000 for r in rows], style, label=label)
        ax.set_title(f"{name} (partition of 1 core, tpuv3x2)")
        ax.set_xlabel("load (arrival rate × solo latency)")
        ax.set_ylabel("latency (ms)")
        ax.set_yscale("log")
        ax.grid(alpha=0.3)
        ax.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
