"""`tnpu model` and `tnpu suite`: a program against eager, every kernel on tnpu, the host's share named."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import check_trace_event_format

from tnpu.models.run import run_entry
from tnpu.models.suite import entry
from tnpu.models.suite_run import check_gate, run_suite

PROGRAMS = Path(__file__).resolve().parent / "programs.py"


def tnpu(*arguments: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "tnpu.tools.tnpu_main", *arguments]
    return subprocess.run(command, capture_output=True, text=True, timeout=900, env=dict(os.environ))


def test_a_suite_entry_is_delivered_timed_on_each_npu():
    result = run_entry(entry("relu"), configs=("tpuv3", "tpuv6e"))
    assert result.delivered and result.stage == "timed" and result.error is None
    (output,) = result.outputs
    assert output.match and output.shape == (37, 130)
    assert [launch.kind for launch in result.launches] == ["pointwise"]
    assert all(launch.times[npu]["cycles"] > 0 for launch in result.launches for npu in ("tpuv3", "tpuv6e"))
    assert result.total("tpuv3")["time_us"] != result.total("tpuv6e")["time_us"]


def test_a_program_of_the_users_by_file_and_factory(tmp_path):
    trace = tmp_path / "graph.json"
    done = tnpu("model", f"{PROGRAMS}:good", "--json", "--trace", str(trace))
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout)
    assert result["delivered"] and result["outputs"][0]["match"]
    threads = check_trace_event_format(json.loads(trace.read_text()))
    assert threads, "the launches are on named tracks"


def test_a_refused_kernel_is_one_line_naming_kernel_op_and_reason_and_the_report_still_comes():
    done = tnpu("model", f"{PROGRAMS}:refused")
    assert done.returncode == 1
    assert "not delivered (stage reached: TTIR" in done.stdout
    assert "tnpu cannot compile triton_poi_fused_add_erfinv_mul_0 (tile IR)" in done.stdout
    assert "'tt.extern_elementwise' op calls libdevice function '__nv_erfinvf'" in done.stdout
    assert "graph breaks:" in done.stdout and "Traceback" not in done.stdout + done.stderr


def test_computation_left_to_eager_mode_is_not_delivered():
    result = run_entry(entry(f"{PROGRAMS}:host_compute"))
    assert result.stage == "timed" and not result.delivered
    assert {"aten::exp", "aten::cos"} <= set(result.eager_ops) and "eager mode" in result.error


def test_bad_input_is_one_line():
    unknown = tnpu("model", "resnet1000")
    assert unknown.returncode == 1 and unknown.stderr.strip().count("\n") == 0
    assert "no suite entry 'resnet1000'" in unknown.stderr
    broken = tnpu("model", f"{PROGRAMS}:broken")
    assert broken.returncode == 1 and "the program fails in eager mode: RuntimeError" in broken.stdout


@pytest.mark.timeout(1200)
def test_the_suite_runner_survives_crashes_and_hangs_and_reports_every_entry(tmp_path):
    names = ["relu", f"{PROGRAMS}:refused", f"{PROGRAMS}:crashes", f"{PROGRAMS}:hangs"]
    report = run_suite(names, tmp_path, jobs=2, timeout=180)
    results = report.results
    assert set(results) == set(names)
    assert results["relu"]["delivered"] and not (tmp_path / "relu" / "triton").exists()
    assert results[f"{PROGRAMS}:refused"]["stage"] == "TTIR"
    assert "crashed (exit code" in results[f"{PROGRAMS}:crashes"]["error"]
    assert results[f"{PROGRAMS}:hangs"]["error"] == "timed out after 180 s"
    refused_dir = next(path for path in tmp_path.iterdir() if path.name.endswith("_refused"))
    assert list((refused_dir / "triton").rglob("*.ttir")), "the refused kernel's TTIR is kept"
    markdown = (tmp_path / "report.md").read_text()
    assert "1 of 4 delivered" in markdown and "tile IR" in markdown
    assert check_gate(report, ["relu", f"{PROGRAMS}:refused"]) == [f"{PROGRAMS}:refused"]
