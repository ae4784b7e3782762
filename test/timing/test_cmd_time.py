"""`tnpu time`: cases and sequences of them, as a table, JSON, a trace and TOGs."""

from __future__ import annotations

import json

import pytest
from conftest import CORPUS

from tnpu.tools.tnpu_main import main

ADD = CORPUS / "inductor" / "ew_add__triton_poi_fused_add_0"
MM = CORPUS / "inductor" / "mm__triton_tem_fused_mm_0"


def tnpu_time(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exit_:
        main(["time", *args])
    out, err = capsys.readouterr()
    return exit_.value.code, out, err


def test_json_reports_a_sequence_and_each_launch(capsys, tmp_path):
    trace, tog = tmp_path / "trace.json", tmp_path / "tog.json"
    code, out, _ = tnpu_time(
        capsys, str(ADD), str(MM), "--config", "tpuv6e", "--json", "--trace", str(trace), "--tog", str(tog)
    )
    assert code == 0
    result = json.loads(out)
    add, mm = result["launches"]
    assert result["npu"] == add["npu"] == "tpuv6e"
    assert result["cycles"] == pytest.approx(add["cycles"] + mm["cycles"], abs=0.01)
    assert add["bytes_read"] == 2 * 8192 * 4 and add["bytes_written"] == 8192 * 4
    assert add["grid"] == [32, 1, 1]
    assert mm["flops"] > 0 and mm["utilization"]["matrix"] > 0
    assert add["cycles"] >= add["roofline_cycles"] >= add["compulsory_cycles"] > 0
    for launch in (add, mm):
        assert launch["compulsory_ratio"] == pytest.approx(launch["cycles"] / launch["compulsory_cycles"], rel=1e-3)
        assert launch["compulsory_bound"] in ("memory", "matrix", "vector")
    # The vector add touches each buffer once: both rooflines are its own traffic.
    assert add["compulsory_bytes"] == add["bytes_read"] + add["bytes_written"]
    assert result["compulsory_ratio"] == pytest.approx(result["cycles"] / result["compulsory_cycles"], rel=1e-3)
    assert set(add["utilization"]) == {"dma", "vector", "matrix", "dram"}
    assert add["time_us"] == pytest.approx(add["cycles"] / 3502)
    names = {e["args"]["name"] for e in json.loads(trace.read_text())["traceEvents"] if e["ph"] == "M"}
    assert {"core 0", "dma0", "vector", "matrix", "launches"} <= names
    assert [document["kernel"] for document in json.loads(tog.read_text())] == [
        "triton_poi_fused_add_0", "triton_tem_fused_mm_0"
    ]


def test_the_table_and_double_buffering_switch(capsys):
    code, out, _ = tnpu_time(capsys, str(ADD))
    assert code == 0 and "triton_poi_fused_add_0" in out
    assert "× roofline" in out and "× compulsory" in out
    _, with_double, _ = tnpu_time(capsys, str(ADD), "--json")
    _, without, _ = tnpu_time(capsys, str(ADD), "--json", "--no-double-buffering")
    assert json.loads(without)["cycles"] > json.loads(with_double)["cycles"]


def test_bad_input_is_one_line(capsys, tmp_path):
    code, _, err = tnpu_time(capsys, str(ADD), "--config", "tpuv9")
    assert code == 1 and err.count("\n") == 1 and "unknown NPU 'tpuv9'" in err
    code, _, err = tnpu_time(capsys, str(tmp_path))
    assert code == 1 and err.count("\n") == 1 and "no meta.json" in err


def test_the_plot_draws_every_launch_on_the_roofline(capsys, tmp_path):
    png, svg = tmp_path / "roofline.png", tmp_path / "roofline.svg"
    assert tnpu_time(capsys, str(ADD), str(MM), "--plot", str(png))[0] == 0
    assert png.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert tnpu_time(capsys, str(ADD), str(MM), "--config", "tpuv6e", "--plot", str(svg))[0] == 0
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    for label in ("1. triton_poi_fused_add_0", "2. triton_tem_fused_mm_0", "× compulsory",
                  "systolic arrays", "DRAM", "tpuv6e"):
        assert label in text
    code, _, err = tnpu_time(capsys, str(ADD), "--plot", str(tmp_path / "roofline.pdf"))
    assert code == 1 and err.count("\n") == 1 and "--plot writes .png or .svg" in err
