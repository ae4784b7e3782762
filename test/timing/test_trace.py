"""The Perfetto traces of a GEMM and a softmax: valid trace-event JSON that shows
DMA of one tile overlapping compute on another, and none of that overlap once
double buffering is off.

The checks follow the Trace Event Format document (Google, the format
chrome://tracing and https://ui.perfetto.dev read): a JSON object with a
`traceEvents` array; complete events (`ph: "X"`) with a name, integer
`pid`/`tid` and `ts`/`dur` in microseconds; metadata events (`ph: "M"`)
`process_name`/`thread_name` naming every process and thread used.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS, Track, check_trace_event_format

from tnpu.tools.tnpu_main import main

GEMM = CORPUS / "inductor" / "mm__triton_tem_fused_mm_0"
SOFTMAX = CORPUS / "inductor" / "softmax__triton_per_fused__softmax_0"

def write_trace(case: Path, path: Path, *options: str) -> dict[str, Any]:
    with pytest.raises(SystemExit) as exit_:
        main(["time", str(case), "--config", "tpuv3", "--trace", str(path), *options])
    assert exit_.value.code == 0
    return json.loads(path.read_text())


def overlap_us(trace: dict[str, Any], threads: dict[Track, str], compute: str) -> float:
    """Microseconds during which a core's DMA engines move one tile (program instance
    and loop iteration) while its `compute` unit works on another: the overlap that
    double buffering buys.  (Independent ops of one iteration may overlap anyway.)"""
    busy: dict[tuple[int, bool], list[tuple[float, float, Any]]] = {}
    for event in trace["traceEvents"]:
        name = threads.get((event["pid"], event["tid"]), "")
        if event["ph"] == "X" and (name.startswith("dma") or name == compute):
            tile = (event["args"]["instance"], tuple(event["args"]["iteration"]))
            span = (event["ts"], event["ts"] + event["dur"], tile)
            busy.setdefault((event["pid"], name == compute), []).append(span)
    return sum(
        max(0.0, min(a_end, b_end) - max(a_start, b_start))
        for (core, is_compute), spans in busy.items() if is_compute
        for a_start, a_end, a_tile in spans
        for b_start, b_end, b_tile in busy.get((core, False), [])
        if a_tile != b_tile
    )


@pytest.mark.parametrize("case, compute", [(GEMM, "matrix"), (SOFTMAX, "vector")])
def test_the_trace_is_valid_and_shows_dma_overlapping_compute_on_another_tile(tmp_path, case, compute):
    trace = write_trace(case, tmp_path / "trace.json")
    threads = check_trace_event_format(trace)
    assert {"dma0", "vector", "matrix"} <= set(threads.values())
    assert overlap_us(trace, threads, compute) > 0


@pytest.mark.parametrize("case, compute", [(GEMM, "matrix"), (SOFTMAX, "vector")])
def test_without_double_buffering_dma_and_compute_take_turns(tmp_path, case, compute):
    trace = write_trace(case, tmp_path / "trace.json", "--no-double-buffering")
    threads = check_trace_event_format(trace)
    assert overlap_us(trace, threads, compute) == pytest.approx(0, abs=1e-9)
