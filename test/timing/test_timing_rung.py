"""The `timing` rung: `tnpu run --config` and `tnpu sweep --config` report the model's figures."""

from __future__ import annotations

from conftest import CORPUS

from tnpu.compiler.kernel import compile_ttir
from tnpu.execution.case import case_launch, load_case
from tnpu.execution.runner import run_case
from tnpu.execution.sweep import report
from tnpu.timing.npu_config import load_npu_config

ADD = CORPUS / "inductor" / "ew_add__triton_poi_fused_add_0"


def test_run_without_execution_reports_the_timing():
    case = load_case(ADD)
    result = run_case(case, mode="none", config="tpuv3")
    [rung] = result.rungs
    assert (rung.name, rung.status) == ("timing", "ok")
    kernel = compile_ttir(case.ttir_path.read_text(), case.kernel_name)
    expected = kernel.timer(load_npu_config("tpuv3")).time(case_launch(case))
    assert rung.notes["cycles"] == round(expected.cycles, 3)
    assert result.cycles == round(expected.cycles)
    assert result.roofline_cycles == round(expected.roofline_cycles)
    record = result.to_json()
    assert record["error"] is None and record["stage_reached"] == "timing"
    timing = record["rungs"][0]
    for key in ("cycles", "time_us", "roofline_cycles", "bytes_read", "bytes_written", "flops",
                "roofline_ratio", "compulsory_cycles", "compulsory_bound", "compulsory_ratio"):
        assert key in timing
    assert timing["compulsory_cycles"] == round(expected.compulsory_cycles, 3)
    assert set(timing["utilization"]) == {"dma", "vector", "matrix", "dram"}
    assert "cycles" in rung.message and "× roofline" in rung.message
    assert "× compulsory" in rung.message


def test_timing_needs_a_configuration_and_a_bad_one_is_an_error():
    case = load_case(ADD)
    assert run_case(case, mode="none").rungs == []
    result = run_case(case, mode="none", config="tpuv9")
    assert result.rungs[0].status == "error"
    assert "unknown NPU 'tpuv9'" in result.error


def test_the_sweep_report_lists_cycles():
    record = run_case(load_case(ADD), mode="none", config="tpuv6e").to_json()
    text = report([record])
    assert "## Cycles on the modeled NPU" in text
    [timing] = record["rungs"]
    row = (f"| {ADD.name} | {record['cycles']} | {record['roofline_cycles']} | "
           f"{timing['roofline_ratio']:.2f} | {timing['compulsory_ratio']:.2f} |")
    assert row in text
