"""The simulated timeline as a Chrome/Perfetto trace (JSON trace-event format).

One process per core, one thread (track) per unit: `dma0`, `dma1`, ...,
`vector`, `matrix`; every task is a complete event (`ph: X`) over its busy
cycles, named by its op, with its program instance and loop iteration in
`args`.  One more process, `launches`, shows each kernel of a sequence.
Times are microseconds of simulated time.  Open the file in
https://ui.perfetto.dev or chrome://tracing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tnpu.timing.npu_config import NPUConfig
from tnpu.timing.report import TimingReport


def chrome_trace(reports: Sequence[TimingReport], npu: NPUConfig) -> dict[str, Any]:
    """The trace of launches run back to back (each report simulated with `trace=True`)."""
    tracks = [f"dma{i}" for i in range(npu.dma_engines_per_core)] + ["vector", "matrix"]
    launches_pid = npu.num_cores
    events: list[dict[str, Any]] = []
    for core in range(npu.num_cores):
        events.append(_metadata("process_name", core, 0, f"core {core}"))
        events.extend(
            _metadata("thread_name", core, tid, name) for tid, name in enumerate(tracks)
        )
    events.append(_metadata("process_name", launches_pid, 0, "launches"))
    offset = 0.0
    for report in reports:
        events.append(
            _complete(report.kernel, launches_pid, 0, npu.cycles_to_us(offset), report.time_us,
                      {"cycles": report.cycles, "grid": list(report.grid)})
        )
        for event in report.trace:
            events.append(
                _complete(
                    event.name, event.core, tracks.index(event.track),
                    npu.cycles_to_us(offset + event.start), npu.cycles_to_us(event.duration),
                    {"kernel": report.kernel, "instance": event.instance,
                     "iteration": list(event.iteration)},
                )
            )
        offset += report.cycles
    return {"traceEvents": events, "displayTimeUnit": "ns", "otherData": {"npu": npu.name}}


def write_chrome_trace(path: Path, reports: Sequence[TimingReport], npu: NPUConfig) -> None:
    path.write_text(json.dumps(chrome_trace(reports, npu)))


def _metadata(kind: str, pid: int, tid: int, name: str) -> dict[str, Any]:
    return {"name": kind, "ph": "M", "pid": pid, "tid": tid, "args": {"name": name}}


def _complete(
    name: str, pid: int, tid: int, start_us: float, duration_us: float, args: dict[str, Any]
) -> dict[str, Any]:
    return {
        "name": name, "ph": "X", "pid": pid, "tid": tid, "ts": start_us, "dur": duration_us,
        "args": args,
    }
