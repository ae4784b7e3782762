"""A study's results per workload and point, over the launches every point timed.

A workload's figures on a point are its launches' sums.  Only launches
that every point of the study timed count, so every point is judged on the
same work; a launch refused at some point is left out at all of them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from tnpu.dse.space import Point
from tnpu.dse.store import Store
from tnpu.dse.workload import Workload


@dataclass(frozen=True)
class WorkloadFigures:
    """A workload's launches on one point, summed: what the roofline plot reads of a launch."""

    kernel: str
    time_us: float
    cycles: float
    roofline_cycles: float
    compulsory_cycles: float
    flops: int
    bytes_moved: int
    compulsory_bytes: int

    @property
    def arithmetic_intensity(self) -> float | None:
        return self.flops / self.bytes_moved if self.bytes_moved else None

    @property
    def roofline_ratio(self) -> float | None:
        return self.cycles / self.roofline_cycles if self.roofline_cycles else None

    @property
    def compulsory_ratio(self) -> float | None:
        return self.cycles / self.compulsory_cycles if self.compulsory_cycles else None


def workload_figures(
    store: Store, points: Sequence[Point], workloads: Sequence[Workload]
) -> dict[str, dict[str, WorkloadFigures]]:
    """config hash -> workload -> its figures, over the launches every point timed."""
    hashes = {p.config_hash for p in points}
    names = {w.name for w in workloads}
    reports: dict[str, dict[tuple[str, str], dict]] = defaultdict(dict)
    for config_hash in hashes:
        for workload, kernel, report in store.reports(config_hash):
            if workload in names:
                reports[config_hash][(workload, kernel)] = report
    common = set.intersection(*(set(reports[h]) for h in hashes)) if hashes else set()
    figures: dict[str, dict[str, WorkloadFigures]] = {}
    for config_hash in hashes:
        by_workload: dict[str, list[dict]] = defaultdict(list)
        for (workload, kernel), report in sorted(reports[config_hash].items()):
            if (workload, kernel) in common:
                by_workload[workload].append(report)
        figures[config_hash] = {
            workload: WorkloadFigures(
                workload,
                sum(r["time_us"] for r in launches), sum(r["cycles"] for r in launches),
                sum(r["roofline_cycles"] for r in launches), sum(r["compulsory_cycles"] for r in launches),
                sum(r["flops"] for r in launches),
                sum(r["bytes_read"] + r["bytes_written"] for r in launches),
                sum(r["compulsory_bytes"] for r in launches),
            )
            for workload, launches in by_workload.items()
        }
    return figures


def total_time(figures: dict[str, dict[str, WorkloadFigures]], point: Point) -> float:
    """The time of every workload on `point`, summed (µs)."""
    return sum(w.time_us for w in figures[point.config_hash].values())
