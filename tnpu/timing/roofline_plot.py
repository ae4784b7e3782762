"""Launches drawn on the NPU's roofline: arithmetic intensity against achieved FLOP/s.

The ceilings are the machine's: the DRAM's peak bandwidth (a slope: FLOP/s
= intensity × bytes/s) and the peak FLOP rates of all cores' systolic
arrays and, below it, of their vector lanes at f32 (a multiply-add per
element per cycle).  Each launch is a numbered point at the intensity of
the bytes it moves; a hollow point on the same level marks the intensity of
its compulsory traffic (each buffer moved once), so the segment between
them is what its tiling moves beyond that.  The legend names the launches
with both roofline ratios.  A launch without FLOPs has no place on the
log-log axes; the legend lists it as not drawn.

matplotlib writes the file; the format follows the suffix (`.png`, `.svg`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.report import TimingReport

FORMATS = (".png", ".svg")

LEGEND_ROWS = 20
"""Launches the legend lists in one column; more take two (and a wider figure)."""


def write_roofline_plot(
    path: Path, reports: Sequence[TimingReport], npu: NPUConfig, *, what: str = "launch"
) -> None:
    """Draw `reports` on `npu`'s roofline into `path` (`FORMATS`).

    `what` names the points in the title: a `launch`, or a `workload` whose
    figures are its launches' sums (`tnpu dse`).
    """
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text: searchable, smaller
    from matplotlib import pyplot

    hertz = npu.core_freq_mhz * 1e6
    bandwidth = npu.dram_bytes_per_cycle * hertz
    matrix_peak = 2 * npu.macs_per_cycle * npu.num_cores * hertz
    vector_peak = 2 * npu.vector_width(32) * npu.num_cores * hertz
    drawn = [r for r in reports if r.flops and r.arithmetic_intensity and r.time_us]

    intensities = [r.arithmetic_intensity for r in drawn] + [
        r.flops / r.compulsory_bytes for r in drawn if r.compulsory_bytes
    ]
    ridge = matrix_peak / bandwidth
    low = min([ridge / 1e3, *intensities]) / 4  # pyright: ignore[reportArgumentType]  # reports without these numbers are filtered out above
    high = max([ridge * 10, *intensities]) * 4  # pyright: ignore[reportArgumentType]  # reports without these numbers are filtered out above
    columns = 1 if len(reports) <= LEGEND_ROWS else 2  # a long legend in two columns, beside each other
    figure, axes = pyplot.subplots(
        figsize=(10 * columns, 6 * columns + 0.17 * math.ceil(len(reports) / columns)),
        layout="constrained",
    )
    axes.set_xscale("log")
    axes.set_yscale("log")
    x = [low * (high / low) ** (i / 200) for i in range(201)]
    axes.plot(x, [min(i * bandwidth, matrix_peak) for i in x], color="black", linewidth=2)
    axes.plot(x, [min(i * bandwidth, vector_peak) for i in x], color="black", linewidth=1,
              linestyle="--")
    slope_middle = (low * ridge) ** 0.5  # the label sits above the slope, clear of the points
    axes.text(slope_middle, slope_middle * bandwidth * 2, f"DRAM {bandwidth / 1e9:,.0f} GB/s",
              ha="right", fontsize=9)
    axes.text(high / 1.3, matrix_peak * 1.15, f"systolic arrays {matrix_peak / 1e12:,.1f} TFLOP/s",
              ha="right", fontsize=9)
    axes.text(high / 1.3, vector_peak * 1.15, f"vector lanes (f32) {vector_peak / 1e12:,.2f} TFLOP/s",
              ha="right", fontsize=9)

    colours = pyplot.get_cmap("tab10")
    for number, r in enumerate(reports, start=1):
        label = f"{number}. {r.kernel}: {_ratios(r)}"
        if r not in drawn:
            axes.scatter([], [], marker="x", color="grey", label=f"{label} (no FLOPs: not drawn)")
            continue
        colour = colours((number - 1) % 10)
        achieved = r.flops / (r.time_us * 1e-6)
        own = r.arithmetic_intensity
        if r.compulsory_bytes:
            compulsory = r.flops / r.compulsory_bytes
            axes.plot([own, compulsory], [achieved, achieved], color=colour, linewidth=1)  # pyright: ignore[reportArgumentType]  # reports without these numbers are filtered out above
            axes.scatter([compulsory], [achieved], s=40, facecolors="white", edgecolors=colour,
                         zorder=3)
        axes.scatter([own], [achieved], s=40, color=colour, zorder=4, label=label)  # pyright: ignore[reportArgumentType]  # reports without these numbers are filtered out above
        axes.annotate(str(number), (own, achieved), textcoords="offset points", xytext=(-4, 6),
                      ha="right", fontsize=9, color=colour, weight="bold")

    axes.set_xlim(low, high)
    floor = min([vector_peak / 1e3, *(r.flops / (r.time_us * 1e-6) for r in drawn)]) / 4
    axes.set_ylim(floor, matrix_peak * 3)
    axes.set_xlabel("arithmetic intensity (FLOP per byte read or written)")
    axes.set_ylabel("achieved FLOP/s")
    axes.set_title(
        f"{len(reports)} {what}{_plural(what, len(reports))} on {npu.name} "
        f"({npu.num_cores} core{'s' if npu.num_cores != 1 else ''}, {npu.core_freq_mhz:g} MHz)\n"
        "filled: the kernel's own traffic, hollow: its compulsory traffic",
        fontsize=10,
    )
    axes.grid(True, which="major", alpha=0.3)
    figure.legend(loc="outside lower center", ncols=columns, fontsize=8, frameon=False,
                  prop={"family": "monospace", "size": 8})
    figure.savefig(path, dpi=120)
    pyplot.close(figure)


def _plural(noun: str, count: int) -> str:
    return "" if count == 1 else "es" if noun.endswith("h") else "s"


def _ratios(report: TimingReport) -> str:
    own, compulsory = report.roofline_ratio, report.compulsory_ratio
    return (
        f"{'-' if own is None else f'{own:.2f}'} × roofline, "
        f"{'-' if compulsory is None else f'{compulsory:.2f}'} × compulsory"
    )
