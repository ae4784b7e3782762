"""A study's plots, each as PNG and SVG (matplotlib):

* `time-vs-parameters`: a panel per varied parameter; for each workload,
  its time at each value of the parameter (the best over the other axes)
  over its best time anywhere in the space, so workloads of any size share
  the axis.  With many workloads, each is a thin grey line, the geometric
  mean a bold one, and the few most sensitive to the parameter (by more than
  1%) are coloured and named.
* `pareto`: every point's time (all workloads together, the sum of their
  launches) against the space's cost proxy, the Pareto front (no other
  point both cheaper and faster) drawn and labelled.
* `roofline-best`: the fastest point's workloads on that NPU's roofline
  (timing's roofline plot; a workload's figures are its launches' sums).

Only the launches every point timed count (`results.workload_figures`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from tnpu.dse.results import total_time, workload_figures
from tnpu.dse.space import Point, Space
from tnpu.dse.store import Store
from tnpu.dse.workload import Workload
from tnpu.timing.roofline_plot import FORMATS, write_roofline_plot

SENSITIVE_SHOWN = 5
"""With many workloads, how many of the most sensitive to a parameter are named."""

SENSITIVITY = 0.01
"""A workload is named as sensitive to a parameter only if some value costs it more than this."""


def write_plots(
    directory: Path, store: Store, space: Space, points: Sequence[Point], workloads: Sequence[Workload]
) -> list[Path]:
    """Write the three plots into `directory`; the paths written."""
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.fonttype"] = "none"
    from matplotlib import pyplot

    directory.mkdir(parents=True, exist_ok=True)
    figures = workload_figures(store, points, workloads)
    written = []
    for name, draw in (("time-vs-parameters", _time_against_parameters), ("pareto", _pareto)):
        figure = draw(space, points, figures)
        for suffix in FORMATS:
            path = directory / f"{name}{suffix}"
            figure.savefig(path, dpi=120)
            written.append(path)
        pyplot.close(figure)
    best = min(points, key=lambda p: total_time(figures, p))
    rows = sorted(figures[best.config_hash].values(), key=lambda w: w.kernel)
    for suffix in FORMATS:
        path = directory / f"roofline-best{suffix}"
        write_roofline_plot(path, rows, best.npu, what="workload")  # pyright: ignore[reportArgumentType]  # WorkloadFigures has the TimingReport fields the plot reads
        written.append(path)
    return written


def _time_against_parameters(space: Space, points: Sequence[Point], figures):
    from matplotlib import pyplot

    axes_names = space.axis_names
    workloads = sorted({w for per_point in figures.values() for w in per_point})
    figure, panels = pyplot.subplots(
        1, len(axes_names), figsize=(5.5 * len(axes_names) + 1, 5.5), squeeze=False,
        layout="constrained", sharey=True,
    )
    best_anywhere = {w: min(figures[p.config_hash][w].time_us for p in points) for w in workloads}
    colours = pyplot.get_cmap("tab10")
    for index, (panel, axis) in enumerate(zip(panels[0], axes_names)):
        values = list(dict(space.axes)[axis])
        curves = {}
        for workload in workloads:
            curves[workload] = [
                min(figures[p.config_hash][workload].time_us for p in points if dict(p.values)[axis] == value)
                / best_anywhere[workload]
                for value in values
            ]
        positions = range(len(values))
        if len(workloads) <= 10:
            for number, (workload, curve) in enumerate(curves.items()):
                panel.plot(positions, curve, marker="o", color=colours(number % 10), label=workload)
        else:
            for curve in curves.values():
                panel.plot(positions, curve, color="grey", alpha=0.25, linewidth=0.8)
            sensitive = sorted(
                (w for w in curves if max(curves[w]) > 1 + SENSITIVITY), key=lambda w: -max(curves[w])
            )[:SENSITIVE_SHOWN]
            for number, workload in enumerate(sensitive):
                panel.plot(positions, curves[workload], marker="o", color=colours(number % 10),
                           label=workload, linewidth=1.5)
            mean = [math.exp(sum(math.log(c[i]) for c in curves.values()) / len(curves)) for i in positions]
            panel.plot(positions, mean, color="black", linewidth=2.5, marker="s",
                       label=f"geometric mean of {len(curves)} workloads")
        panel.set_xticks(list(positions), [str(v) for v in values])
        panel.set_xlabel(axis)
        panel.set_yscale("log")
        panel.yaxis.set_major_formatter(_times)
        panel.yaxis.set_minor_formatter(_times)
        panel.grid(True, which="both", alpha=0.3)
        panel.legend(fontsize=8, loc="best")
        if index == 0:
            panel.set_ylabel("time / the workload's best time in the space\n(best over the other parameters)")
    figure.suptitle(f"Workload time against each parameter ({len(points)} points from {space.base.name})")
    return figure


def _times(value: float, _position: int) -> str:
    """A ratio tick of a log axis: 1×, 1.5×, 2×."""
    return f"{value:.3g}×"


def _plain(value: float, _position: int) -> str:
    return f"{value:.3g}"


def _pareto(space: Space, points: Sequence[Point], figures):
    from matplotlib import pyplot

    costs = {p.config_hash: space.cost_of(p.npu) for p in points}
    totals = {p.config_hash: total_time(figures, p) for p in points}
    ordered = sorted(points, key=lambda p: (costs[p.config_hash], totals[p.config_hash]))
    front, fastest = [], math.inf
    for point in ordered:
        if totals[point.config_hash] < fastest:
            front.append(point)
            fastest = totals[point.config_hash]
    figure, axes = pyplot.subplots(figsize=(10, 6.5), layout="constrained")
    axes.scatter([costs[p.config_hash] for p in points], [totals[p.config_hash] for p in points],
                 color="grey", alpha=0.6, label="a point of the space")
    xs = [costs[p.config_hash] for p in front]
    ys = [totals[p.config_hash] for p in front]
    axes.step(xs, ys, where="post", color="tab:red", linewidth=1.5)
    axes.scatter(xs, ys, color="tab:red", zorder=3, label="Pareto front")
    for point, x, y in zip(front, xs, ys):
        axes.annotate(point.label.replace(", ", "\n"), (x, y), textcoords="offset points", xytext=(6, 4),
                      fontsize=7, color="tab:red")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.yaxis.set_major_formatter(_plain)  # pyright: ignore[reportArgumentType]  # matplotlib's stubs type the tick position as a float
    axes.yaxis.set_minor_formatter(_plain)  # pyright: ignore[reportArgumentType]  # matplotlib's stubs type the tick position as a float
    axes.set_xlabel(f"cost proxy: {space.cost}")
    workloads = len(next(iter(figures.values()))) if figures else 0
    axes.set_ylabel(f"time of all {workloads} workloads (µs, summed)")
    axes.set_title(f"Time against cost over {len(points)} points from {space.base.name}")
    axes.grid(True, which="both", alpha=0.3)
    axes.legend(loc="best", fontsize=9)
    return figure

