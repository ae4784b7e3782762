"""tnpu's `tpuv3` against a real TPUv3 on PyTorchSim's 17 validation operations.

    .venv/bin/python bench/tpuv3_validation.py [--only gemm,conv] [--models] [--plot errors.png] [--json out.json]

Each operation is written as PyTorchSim's workload programs write it
(`experiments/{gemm,conv,layernorm,softmax,attention}.py`, sizes from
`experiments/artifact/cycle_validation/run_cycle.sh`), in fp32, compiled with
`torch.compile(f, backend="tnpu")` and timed on `tpuv3` inside
`tnpu.profile(config="tpuv3")`, in the timing-only execution mode
(`options={"execution": "timing"}`): the kernels are compiled and timed, not
emulated (these sizes would take hours under qemu).  A row's cycles are the
sum of its launches'.

Printed beside each row: the real TPUv3's cycles and the other simulators'
(mNPUsim, Timeloop, MAESTRO, SCALE-Sim v3), all from PyTorchSim's artifact
`experiments/artifact/baseline_cycle.csv` (github.com/PSAL-POSTECH/PyTorchSim;
the MICRO '25 paper's cycle validation), each simulator's error against the
chip and the mean absolute error (MAE) over the rows it covers.  `--plot`
draws the error per workload per simulator, as the artifact's figure does.

The machine's one calibrated parameter, `launch_overhead_cycles`, is fitted
here: with every row run, the bench prints the per-launch cost that minimises
the MAE over the 17 rows (each row's cycles less its launches' overhead),
beside the value the `tpuv3` preset holds.

`--models` also times PyTorchSim's five whole-model rows (ResNet-18 and
ResNet-50 on one 224 x 224 image, channels-last; its BERT encoder block at
three sizes over 512 tokens), held out: printed in a table of their own,
never in the MAE nor the fit.  The shapes and cycles are public data; the
programs here are ours.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SOURCE = "PyTorchSim, experiments/artifact/baseline_cycle.csv (github.com/PSAL-POSTECH/PyTorchSim, mirror WHUDYF/PyTorchSim 509f425)"
SIMULATORS = ("mNPUsim", "Timeloop", "MAESTRO", "SCALE-Sim v3")


@dataclass(frozen=True)
class Row:
    """One validation workload: its name in the CSV, its shape, and the published cycles."""

    name: str
    kind: str
    shape: tuple[int, ...]
    tpuv3: int
    """The real TPUv3's cycles."""
    others: tuple[int | None, ...]
    """mNPUsim, Timeloop, MAESTRO, SCALE-Sim v3 (None where the CSV has no figure)."""


# From SOURCE, as published: Workload, TPUv3, mNPUSim, Timeloop, Maestro, SCALE-Sim v3.
ROWS = (
    Row("gemm_256x256x256", "gemm", (256, 256, 256), 3101, (2426, 512, 522, 1020)),
    Row("gemm_512x512x512", "gemm", (512, 512, 512), 9490, (8584, 4096, 4162, 6128)),
    Row("gemm_1024x1024x1024", "gemm", (1024, 1024, 1024), 47099, (32625, 32768, 33282, 40896)),
    Row("gemm_2048x2048x2048", "gemm", (2048, 2048, 2048), 317435, (3046069, 262144, 266242, 294656)),
    # B H W C_in C_out kernel stride padding (run_cycle.sh)
    Row("conv_64x56x56x64x64x3x1x1", "conv", (64, 56, 56, 64, 64, 3, 1, 1), 1496802, (1076160, 451584, 1683074, 610880)),
    Row("conv_64x28x28x128x128x3x1x1", "conv", (64, 28, 28, 128, 128, 3, 1, 1), 241935, (577408, 225792, 391042, 269952)),
    Row("conv_64x14x14x256x256x3x1x1", "conv", (64, 14, 14, 256, 256, 3, 1, 1), 246790, (540160, 451584, 167426, 327424)),
    Row("conv_64x7x7x512x512x3x1x1", "conv", (64, 7, 7, 512, 512, 3, 1, 1), 247383, (1128192, 903168, 117762, 622336)),
    Row("layernorm_512x768", "layernorm", (512, 768), 24895, (None, None, None, None)),
    Row("layernorm_2048x768", "layernorm", (2048, 768), 98234, (None, None, None, None)),
    Row("layernorm_8192x768", "layernorm", (8192, 768), 389863, (None, None, None, None)),
    Row("softmax_512x512", "softmax", (512, 512), 12902, (None, None, None, None)),
    Row("softmax_2048x2048", "softmax", (2048, 2048), 169750, (None, None, None, None)),
    Row("softmax_8192x8192", "softmax", (8192, 8192), 2700994, (None, None, None, None)),
    Row("attention_12x512x64", "attention", (12, 512, 64), 110093, (101964, 30720, 49944, 48912)),
    Row("attention_16x512x64", "attention", (16, 512, 64), 145425, (135952, 40960, 66592, 65216)),
    Row("attention_32x512x64", "attention", (32, 512, 64), 288250, (271904, 196608, 133184, 130432)),
)

# The CSV's whole-model rows, held out (issue 29): checked, never fitted to.
# resnet: depths and widths of torchvision's; bert: width, heads (experiments/BERT.py), 512 tokens.
MODEL_ROWS = (
    Row("resnet18", "resnet", (2, 2, 2, 2), 844524, (232699, 495520, 1518676, 206111)),
    Row("resnet50", "resnet", (3, 4, 6, 3), 1094428, (524398, 721016, 1596151, 398447)),
    Row("bert_base", "bert", (768, 12, 512), 305077, (493756, 169984, 149820, 706886)),
    Row("bert_large", "bert", (1024, 16, 512), 445317, (785205, 286720, 249676, 237056)),
    Row("bert_xlarge", "bert", (2048, 32, 512), 1283925, (3030001, 1507328, 898700, 990016)),
)


def attention(query: Any, key: Any, value: Any) -> Any:
    """`experiments/attention.py`'s attention: softmax of `K Qᵀ / √d` along dim −2, then `Vᵀ · P`."""
    import torch

    scores = torch.matmul(key, query.transpose(-2, -1)) / math.sqrt(query.size(-1))
    return torch.matmul(value.transpose(-1, -2), scores.softmax(dim=-2))


def encoder_block(width: int, heads: int) -> Any:
    """The encoder block PyTorchSim's BERT rows run (experiments/BERT.py), as it computes.

    Q, K and V projections; per head the attention above; its heads' outputs
    viewed back as (tokens, width) without an output projection; then twice a
    weight-times-transposed-input product plus bias, transposed back, added to
    the residual and layer-normed: after the attention with a width × width
    weight, after the ReLU feed-forward (width → 4 width) with a width × 4
    width one.
    """
    import torch

    class ProductAndNorm(torch.nn.Module):
        def __init__(self, inner: int, outer: int) -> None:
            super().__init__()
            self.weight = torch.nn.Parameter(torch.randn(outer, inner))
            self.bias = torch.nn.Parameter(torch.randn(outer))
            self.norm = torch.nn.LayerNorm(outer)

        def forward(self, x: Any, residual: Any) -> Any:
            product = torch.matmul(self.weight, x.transpose(-1, -2)) + self.bias[:, None]
            return self.norm(product.transpose(-1, -2) + residual)

    class EncoderBlock(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.projections = torch.nn.ModuleList(torch.nn.Linear(width, width) for _ in range(3))
            self.after_attention = ProductAndNorm(width, width)
            self.feed_forward = torch.nn.Linear(width, 4 * width)
            self.after_feed_forward = ProductAndNorm(4 * width, width)

        def forward(self, x: Any) -> Any:
            query, key, value = (projection(x).view(-1, heads, width // heads).transpose(0, 1)
                                 for projection in self.projections)  # fmt: skip
            hidden = self.after_attention(attention(query, key, value).reshape(-1, width), x)
            return self.after_feed_forward(torch.relu(self.feed_forward(hidden)), hidden)

    return EncoderBlock().eval()


def resnet(depths: tuple[int, ...]) -> Any:
    """torchvision's ResNet-18 (basic blocks 2-2-2-2) or ResNet-50 (bottlenecks 3-4-6-3), 1,000 classes."""
    import torch
    from transformers import ResNetConfig, ResNetForImageClassification

    bottleneck = sum(depths) > 8
    config = ResNetConfig(layer_type="bottleneck" if bottleneck else "basic", depths=list(depths),
                          hidden_sizes=[256, 512, 1024, 2048] if bottleneck else [64, 128, 256, 512],
                          embedding_size=64, num_labels=1000)  # fmt: skip
    model = ResNetForImageClassification(config).eval().to(memory_format=torch.channels_last)  # pyright: ignore[reportCallIssue]  # torch's or transformers' annotations

    def logits(image: Any) -> Any:
        return model(image).logits

    return logits


def program(row: Row) -> tuple[Callable[..., Any], tuple[Any, ...]]:
    """The workload as PyTorchSim's program writes it, and its inputs (fp32, seeded)."""
    import torch

    torch.manual_seed(0)
    if row.kind == "gemm":
        m, k, n = row.shape
        return (lambda a, b: torch.matmul(a, b)), (torch.randn(m, k), torch.randn(k, n))
    if row.kind == "conv":
        batch, height, width, in_c, out_c, kernel, stride, padding = row.shape
        conv = torch.nn.Conv2d(in_c, out_c, kernel, stride=stride, padding=padding, bias=False)
        weight = torch.randn(out_c, in_c, kernel, kernel).to(memory_format=torch.channels_last)
        conv.weight = torch.nn.Parameter(weight, requires_grad=False)
        x = torch.randn(batch, in_c, height, width).to(memory_format=torch.channels_last)
        return conv, (x,)
    if row.kind == "layernorm":
        return torch.nn.LayerNorm(row.shape[-1]), (torch.randn(*row.shape),)
    if row.kind == "softmax":
        return torch.nn.Softmax(dim=1), (torch.randn(*row.shape),)
    if row.kind == "attention":
        return attention, tuple(torch.randn(*row.shape) for _ in range(3))
    if row.kind == "resnet":
        return resnet(row.shape), (torch.randn(1, 3, 224, 224).contiguous(memory_format=torch.channels_last),)
    if row.kind == "bert":
        width, heads, tokens = row.shape
        return encoder_block(width, heads), (torch.randn(tokens, width),)
    raise ValueError(row.kind)


def measure(row: Row, config: str = "tpuv3") -> dict[str, Any]:
    """Compile the row's program with the tnpu backend and time its launches on `config`."""
    import torch

    import tnpu

    torch._dynamo.reset()  # each row compiled afresh, at its static shapes (PyTorchSim's dynamic=False)
    function, inputs = program(row)
    compiled = torch.compile(function, backend="tnpu", dynamic=False, options={"execution": "timing"})
    started = time.perf_counter()
    with torch.no_grad(), tnpu.profile(config=config) as prof:
        compiled(*inputs)
    launches = prof.launches
    untimed = [launch.kernel for launch in launches if launch.report is None]
    if untimed:
        raise RuntimeError(f"{row.name}: launches not timed: {untimed}")
    return {
        "name": row.name,
        "cycles": sum(launch.report.cycles for launch in launches),
        "launches": [{"kernel": launch.kernel, "grid": launch.grid, "cycles": launch.report.cycles,
                      "roofline_ratio": launch.report.roofline_ratio} for launch in launches],
        "fallbacks": [fallback.op for fallback in prof.fallbacks],
        "seconds": time.perf_counter() - started,
    }  # fmt: skip


def error(cycles: float | None, real: int) -> float | None:
    """Signed relative error against the chip, in %."""
    return None if cycles is None else 100.0 * (cycles - real) / real


def mae(errors: list[float | None]) -> float | None:
    known = [abs(value) for value in errors if value is not None]
    return sum(known) / len(known) if known else None


def _percent(value: float | None) -> str:
    return "" if value is None else f"{value:+,.1f}%"


def table(measured: dict[str, float], rows: tuple[Row, ...] = ROWS) -> str:
    """The markdown table: per row the chip's cycles, tnpu's, each simulator's, with errors; then MAE."""
    header = ["workload", "TPUv3", "tnpu", "tnpu err", *(f"{name} err" for name in SIMULATORS)]
    lines = ["| " + " | ".join(header) + " |", "| --- |" + " ---: |" * (len(header) - 1)]
    columns: dict[str, list[float | None]] = {name: [] for name in ("tnpu", *SIMULATORS)}
    for row in rows:
        if row.name not in measured:
            continue
        ours = measured[row.name]
        columns["tnpu"].append(error(ours, row.tpuv3))
        cells = [row.name, f"{row.tpuv3:,}", f"{ours:,.0f}", _percent(columns["tnpu"][-1])]
        for name, cycles in zip(SIMULATORS, row.others):
            columns[name].append(error(cycles, row.tpuv3))
            cells.append(_percent(columns[name][-1]))
        lines.append("| " + " | ".join(cells) + " |")
    summary = ["**MAE**", "", "", *(f"**{value:.1f}%**" if (value := mae(columns[name])) is not None else ""
                                    for name in ("tnpu", *SIMULATORS))]  # fmt: skip
    lines.append("| " + " | ".join(summary) + " |")
    worst = max((abs(value), row) for value, row in zip(columns["tnpu"], [r.name for r in rows if r.name in measured])
                if value is not None) if columns["tnpu"] else None  # fmt: skip
    if worst:
        lines.append(f"\n{len(columns['tnpu'])} rows; tnpu's largest error {worst[0]:.1f}% ({worst[1]}).")
    return "\n".join(lines)


def plot(measured: dict[str, float], path: Path) -> None:
    """Error per workload per simulator (grouped bars), as PyTorchSim's artifact draws it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [row for row in ROWS if row.name in measured]
    series = {"tnpu": [error(measured[row.name], row.tpuv3) for row in rows]}
    for index, name in enumerate(SIMULATORS):
        series[name] = [error(row.others[index], row.tpuv3) for row in rows]
    figure, axes = plt.subplots(figsize=(max(8, 0.7 * len(rows)), 4.5))
    width = 0.8 / len(series)
    for offset, (name, values) in enumerate(series.items()):
        xs = [index + (offset - (len(series) - 1) / 2) * width for index in range(len(rows))]
        ys = [0.0 if value is None else value for value in values]
        label = f"{name} (MAE {m:.0f}%)" if (m := mae(values)) is not None else name
        axes.bar(xs, ys, width, label=label)
    axes.axhline(0, color="black", linewidth=0.8)
    axes.set_yscale("symlog", linthresh=100)
    axes.set_xticks(range(len(rows)), [row.name.replace("_", "\n", 1) for row in rows], fontsize=7, rotation=90)
    axes.set_ylabel("error vs real TPUv3 cycles (%)")
    axes.set_title("Cycle error per workload against a real TPUv3 (PyTorchSim's validation set)")
    axes.legend(fontsize=7, ncol=len(series))
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)


def fitted_launch_overhead(results: dict[str, dict[str, Any]], overhead: float) -> tuple[float, float]:
    """(per-launch cost, MAE) minimising the MAE over the rows of `results`.

    Each row's programs take its cycles less `overhead` per launch (the value
    they were timed with).  The MAE is convex and piecewise linear in the
    per-launch cost, so its minimum lies where some row's error is zero (or
    at no cost): those are the candidates.
    """
    rows = [(result["cycles"] - overhead * len(result["launches"]), len(result["launches"]), real)
            for result, real in ((results[row.name], row.tpuv3) for row in ROWS)]  # fmt: skip

    def mean_error(cost: float) -> float:
        return sum(abs(programs + cost * launches - real) / real for programs, launches, real in rows) / len(rows)

    candidates = [0.0, *(max(0.0, (real - programs) / launches) for programs, launches, real in rows)]
    best = min(candidates, key=mean_error)
    return best, 100.0 * mean_error(best)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated kinds or row names (gemm, conv, layernorm, ...)")
    parser.add_argument("--plot", type=Path, help="write the error plot here (.png or .svg)")
    parser.add_argument("--json", type=Path, help="write each row's cycles and launches here")
    parser.add_argument("--models", action="store_true",
                        help="also time the five held-out whole-model rows (several minutes)")  # fmt: skip
    args = parser.parse_args(argv)
    wanted = set(args.only.split(",")) if args.only else None
    selected = [row for row in (*ROWS, *(MODEL_ROWS if args.models else ()))
                if not wanted or row.kind in wanted or row.name in wanted]  # fmt: skip
    results: dict[str, dict[str, Any]] = {}
    for row in selected:
        try:
            results[row.name] = measure(row)
        except Exception as failure:  # one row's failure is reported; the others still run
            print(f"{row.name}: failed: {type(failure).__name__}: {failure}", file=sys.stderr, flush=True)
            continue
        print(f"{row.name}: {results[row.name]['cycles']:,.0f} cycles "
              f"({error(results[row.name]['cycles'], row.tpuv3):+.1f}%, {results[row.name]['seconds']:.0f} s)",
              file=sys.stderr, flush=True)  # fmt: skip
    measured = {name: result["cycles"] for name, result in results.items()}
    if any(row.name in measured for row in ROWS):
        print(table(measured))
    if all(row.name in results for row in ROWS):
        from tnpu.timing.npu_config import load_npu_config

        overhead = load_npu_config("tpuv3").launch_overhead_cycles
        fitted, fitted_mae = fitted_launch_overhead(results, overhead)
        print(f"\nThe per-launch cost minimising the MAE over the {len(ROWS)} rows: {fitted:,.0f} cycles "
              f"(MAE {fitted_mae:.2f}%); tpuv3's launch_overhead_cycles: {overhead:,.0f}.")  # fmt: skip
    if any(row.name in measured for row in MODEL_ROWS):
        print("\nHeld out (whole models; in neither the operations' MAE nor the fit):\n")
        print(table(measured, MODEL_ROWS))
    print(f"\nReal TPUv3 and other simulators' cycles: {SOURCE}.")
    if args.plot:
        plot(measured, args.plot)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
