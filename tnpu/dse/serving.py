"""A serving scenario as a DSE workload: one request trace served at every point of a space.

`tnpu dse --serving TRACE` (docs/serving.md, docs/dse.md): the decoder's
prefill and decode buckets are compiled once, their GEMMs mapped for the
space's base NPU (as `--model` captures a model once for every point), and
re-timed at each point; the trace is then served at each point under that
point's KV budget (its `dram_capacity_gib`).  A point's figures are the
serving run's: throughput, TTFT and TPOT percentiles, utilization.  Each
point's step table is kept in tnpu's cache (`serving.steps`), so a study
run again, or another trace over the same space, times nothing.  A point
that cannot serve the trace (the weights fill its DRAM, a request exceeds
its budget) is reported with its one-line reason and the study goes on.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

from tnpu.backend_riscv.toolchain import cache_root
from tnpu.dse.space import Point, Space, config_hash, config_mapping
from tnpu.serving.model import DecoderSpec
from tnpu.serving.scheduler import ServingError
from tnpu.serving.serve import ServingResult, serve
from tnpu.serving.steps import BucketError, Buckets
from tnpu.serving.trace import Request
from tnpu.timing.npu_config import load_npu_config, preset_names

COLUMNS = ("point", "tokens_per_s", "requests_per_s", "ttft_p50_ms", "ttft_p99_ms", "tpot_p50_ms", "tpot_p99_ms",
           "mean_batch", "kv_budget_tokens", "busy", "matrix_utilization", "refused")  # fmt: skip


@dataclass(frozen=True)
class ServingPoint:
    point: Point
    result: ServingResult | None
    refused: str | None = None

    def row(self) -> dict[str, object]:
        if self.result is None:
            return {"point": self.point.npu.name, "refused": self.refused}
        m = self.result.metrics
        return {
            "point": self.point.npu.name, "tokens_per_s": m.tokens_per_s, "requests_per_s": m.requests_per_s,
            "ttft_p50_ms": m.ttft_s[50] * 1e3, "ttft_p99_ms": m.ttft_s[99] * 1e3,
            "tpot_p50_ms": m.tpot_s[50] * 1e3, "tpot_p99_ms": m.tpot_s[99] * 1e3, "mean_batch": m.mean_batch,
            "kv_budget_tokens": self.result.budget.tokens, "busy": m.busy,
            "matrix_utilization": m.matrix_utilization, "refused": None,
        }  # fmt: skip


def mapping_spec(space: Space) -> str:
    """What the kernels are compiled for: the base preset's name, or the base written as YAML."""
    base = space.base
    if base.name in preset_names() and config_hash(load_npu_config(base.name)) == config_hash(base):
        return base.name
    path = cache_root() / "serving" / "mappings" / f"{config_hash(base)[:16]}.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    mapping = config_mapping(base)
    del mapping["name"]
    path.write_text(yaml.safe_dump(mapping, sort_keys=True))
    return str(path)


def serving_study(space: Space, points: Sequence[Point], spec: DecoderSpec, requests: Sequence[Request],
                  buckets: Buckets, policy: str = "fcfs", where: str = "trace",
                  progress: Callable[[str], None] | None = None) -> list[ServingPoint]:  # fmt: skip
    """The trace served at every point (module docstring)."""
    mapping = mapping_spec(space)
    served = []
    for point in points:
        try:
            result = serve(spec, point.npu, requests, mapping=mapping, buckets=buckets, policy=policy,
                           where=where, progress=progress)  # fmt: skip
        except (ServingError, BucketError) as error:
            served.append(ServingPoint(point, None, str(error)))
            continue
        served.append(ServingPoint(point, result))
        if progress is not None:
            m = result.metrics
            progress(f"{point.npu.name}: {m.tokens_per_s:,.1f} tokens/s, TTFT p99 {m.ttft_s[99] * 1e3:,.1f} ms, "
                     f"TPOT p99 {m.tpot_s[99] * 1e3:,.2f} ms")  # fmt: skip
    return served


def write_csv(path: Path, served: Sequence[ServingPoint]) -> None:
    with path.open("w", newline="") as stream:
        writer = csv.DictWriter(stream, COLUMNS)
        writer.writeheader()
        for item in served:
            writer.writerow(item.row())  # pyright: ignore[reportArgumentType]  # csv's stubs type a DictWriter's rows by its header


def write_serving_plot(directory: Path, served: Sequence[ServingPoint], title: str) -> list[Path]:
    """Throughput against TTFT p99 and against TPOT p99, a dot per point, the Pareto front drawn (the
    points no other beats on both: ringed, joined by a step line)."""
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [item.row() for item in served if item.result is not None]
    directory.mkdir(parents=True, exist_ok=True)
    figure, axes = plt.subplots(1, 2, figsize=(10, 4))
    for axis, latency, label in zip(axes, ("ttft_p99_ms", "tpot_p99_ms"), ("TTFT p99 (ms)", "TPOT p99 (ms)")):
        xs = [row[latency] for row in rows]
        ys = [row["tokens_per_s"] for row in rows]
        axis.scatter(xs, ys, s=18)
        front, best = [], -1.0
        for x, y in sorted(zip(xs, ys)):
            if y > best:  # pyright: ignore[reportOperatorIssue]  # the column holds numbers
                front.append((x, y))
                best = y
        if front:
            axis.step(*zip(*front), where="post", color="tab:red", linewidth=1, marker="o", markersize=8,
                      markerfacecolor="none", label="Pareto front")
        for row, x, y in zip(rows, xs, ys):
            axis.annotate(_short(str(row["point"])), (x, y), fontsize=6, xytext=(2, 2), textcoords="offset points")
        if xs and min(xs) > 0 and max(xs) >= 10 * min(xs):  # pyright: ignore[reportArgumentType]  # log only over a decade or more: else no tick
            axis.set_xscale("log")
            axis.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())  # no crowded 2×10⁰, 3×10⁰ ...
            axis.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        axis.set_xlabel(label)
        axis.set_ylabel("throughput (output tokens/s)")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=7)
    figure.suptitle(title)
    figure.tight_layout()
    paths = [directory / "serving-throughput-latency.png", directory / "serving-throughput-latency.svg"]
    for path in paths:
        figure.savefig(path, dpi=120)
    plt.close(figure)
    return paths


def _short(name: str) -> str:
    """A point's name without its base: the varied values."""
    return ",".join(part.split("=")[-1] for part in name.split("+")[1:]) or name
