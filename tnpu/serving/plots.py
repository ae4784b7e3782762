"""Plots of a serving run: decode batch size over time, and TTFT/TPOT distributions (PNG and SVG)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tnpu.serving.serve import ServingResult


def write_plots(directory: Path, results: Sequence[ServingResult], name: str = "serving") -> list[Path]:
    """`NAME-batch.{png,svg}` (every result's decode batch over time) and `NAME-latency.{png,svg}`
    (the cumulative distributions of TTFT and TPOT); the paths written."""
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    directory.mkdir(parents=True, exist_ok=True)
    written = []
    figure, axis = plt.subplots(figsize=(8, 3.5))
    for result in results:
        decodes = [step for step in result.simulation.steps if step.kind == "decode"]
        axis.step([s.start_s for s in decodes], [s.batch for s in decodes], where="post", linewidth=0.8,
                  label=f"{result.npu.name} (mean {result.metrics.mean_batch:.1f})")  # fmt: skip
    axis.set_xlabel("time (s)")
    axis.set_ylabel("decode batch (requests)")
    axis.set_title(f"{results[0].model.name}: decode batch size over time")
    axis.legend()
    written += _save(figure, directory / f"{name}-batch")
    figure, axes = plt.subplots(1, 2, figsize=(9, 3.5))
    for result in results:
        states = result.simulation.requests
        ttft = sorted((s.first_token_s - s.request.arrival_s) * 1e3 for s in states)  # pyright: ignore[reportOptionalOperand]  # a finished run's requests have their times
        tpot = sorted((s.finish_s - s.first_token_s) / (s.request.output_tokens - 1) * 1e3  # pyright: ignore[reportOperatorIssue]  # a finished run's requests have their times
                      for s in states if s.request.output_tokens > 1)  # fmt: skip
        for axis, values in zip(axes, (ttft, tpot)):
            axis.plot(values, [(i + 1) / len(values) for i in range(len(values))], label=result.npu.name)
    for axis, title in zip(axes, ("time to first token (ms)", "time per output token (ms)")):
        axis.set_xlabel(title)
        axis.set_ylabel("share of requests")
        axis.set_xscale("log")
        axis.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())  # no crowded 2×10⁰, 3×10⁰ ...
        axis.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}"))
        axis.grid(alpha=0.3)
        axis.legend()
    figure.suptitle(f"{results[0].model.name}: latency distributions")
    written += _save(figure, directory / f"{name}-latency")
    return written


def _save(figure, stem: Path) -> list[Path]:
    paths = [stem.with_suffix(".png"), stem.with_suffix(".svg")]
    figure.tight_layout()
    for path in paths:
        figure.savefig(path, dpi=120)
    import matplotlib.pyplot as plt

    plt.close(figure)
    return paths
