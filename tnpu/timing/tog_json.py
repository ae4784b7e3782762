"""A bound TOG as JSON, for other simulators to read: docs/tog-format.md is the reference.

The graph (nodes, edges, loops and branches as nested graphs, static costs)
comes once; the launch-bound costs come as a table of distinct schedules,
and the program instances as runs of schedule indices in launch order.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from tnpu.diagnostics import describe_location
from tnpu.timing.cost_model import ComputeCost, TransferCost
from tnpu.timing.launch_binding import BoundLaunch, BranchChoice, LoopRuns, Schedule
from tnpu.timing.simulator import Simulator
from tnpu.timing.tog import BranchNode, Dependency, LoopNode, Node, TileGraph

FORMAT = "tnpu-tog"
VERSION = 2


def tog_to_json(bound: BoundLaunch, simulator: Simulator) -> dict[str, Any]:
    npu = simulator.npu
    table = _ScheduleTable()
    instances = [[table.index(schedule), count] for schedule, count in bound.instance_runs()]
    return {
        "format": FORMAT,
        "version": VERSION,
        "kernel": bound.tog.name,
        "grid": list(bound.launch.grid),
        "npu": {
            "name": npu.name,
            "num_cores": npu.num_cores,
            "core_freq_mhz": npu.core_freq_mhz,
            "dma_engines_per_core": npu.dma_engines_per_core,
            "dma_outstanding_per_engine": npu.dma_outstanding_per_engine,
            "dma_issue_cycles": npu.dma_issue_cycles,
            "dram_bytes_per_cycle": npu.dram_bytes_per_cycle,
        },
        "graph": _graph(bound.tog.graph, simulator.depths(bound.tog.graph)),
        "schedules": table.entries,
        "instances": instances,
        "assumptions": bound.assumptions,
    }


def _graph(graph: TileGraph, depths: Mapping[TileGraph, int]) -> dict[str, Any]:
    return {
        "window": depths.get(graph, 1),
        "scratchpad_bytes": graph.holds(depths)[0],
        "nodes": [_node(node, depths) for node in graph.nodes],
    }


def _edges(deps: tuple[Dependency, ...]) -> dict[str, list[int]]:
    return {
        "deps": [d.node for d in deps],
        "chained": [d.node for d in deps if d.chained],
    }


def _node(node: Node, depths: Mapping[TileGraph, int]) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": node.index,
        "op": node.op.name,
        "location": describe_location(node.op.location),
        **_edges(node.deps),
        "carried": _edges(node.carried_deps),
    }
    if isinstance(node, LoopNode):
        entry |= {"kind": "loop", "body": _graph(node.body, depths)}
    elif isinstance(node, BranchNode):
        entry |= {"kind": "branch", "branches": [_graph(g, depths) for g in node.branches]}
    else:
        entry["kind"] = node.unit.value
        if node.compute is not None:
            entry["compute"] = _compute(node.compute)
        if node.transfer is not None:
            entry["transfer"] = asdict(node.transfer)
    return entry


def _compute(cost: ComputeCost) -> dict[str, Any]:
    return {key: value for key, value in asdict(cost).items() if key != "unit"}


class _ScheduleTable:
    """Every schedule reachable from the instances, numbered children first."""

    def __init__(self) -> None:
        self.entries: list[list[Any]] = []
        self.numbers: dict[int, int] = {}

    def index(self, schedule: Schedule) -> int:
        if id(schedule) not in self.numbers:
            parts = [self.part(part) for part in schedule.parts]
            self.numbers[id(schedule)] = len(self.entries)
            self.entries.append(parts)
        return self.numbers[id(schedule)]

    def part(self, part: TransferCost | LoopRuns | BranchChoice | None) -> Any:
        if isinstance(part, TransferCost):
            return {"transfer": asdict(part)}
        if isinstance(part, LoopRuns):
            return {"runs": [[self.index(s), count] for s, count in part.runs]}
        if isinstance(part, BranchChoice):
            return {"taken": part.taken, "schedule": self.index(part.schedule)}
        return None
