"""One bad case never stops a sweep: a crash, a hang and a memory hog are each recorded, with artifacts.

`executors.map_unordered` is checked with work that kills its own process,
sleeps, and allocates without end; then `tnpu sweep` runs a directory of
deliberately broken cases beside good ones and must write the whole
report: a case whose kernel.py kills its job's process group when Triton's
interpreter imports it (the job dies of SIGSEGV), a kernel whose loop never
ends (past the time limit), a case asking for an 8 GiB tensor (past the
memory limit), and two corpus cases that match.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time

import numpy as np
from conftest import CORPUS

from tnpu.execution.executors import Failure, map_unordered

GOOD = ["ew_add__triton_poi_fused_add_0", "ew_relu__triton_poi_fused_relu_0"]
TIME_LIMIT_S = 60
"""Long enough for a good case on two busy cores (Triton's interpreter starts in about 10 s)."""
MEMORY_LIMIT_GIB = 3


def work(item: str) -> str:
    if item == "crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    if item == "hang":
        time.sleep(3600)
    if item == "memory":
        hoard = []
        while True:
            hoard.append(np.ones(2**24))  # 128 MiB, touched
    if item == "raise":
        raise ValueError("work's own exception")
    return item.upper()


def test_a_lost_worker_is_a_failure_and_the_others_go_on():
    results = dict(map_unordered(
        work, ["a", "crash", "b", "hang", "memory", "c"], workers=2, time_limit=20, memory_limit=2**29,
    ))
    assert results["a"] == "A" and results["b"] == "B" and results["c"] == "C"
    assert results["crash"] == Failure("crash", "the worker died (killed by SIGSEGV)")
    assert results["hang"] == Failure("timeout", "ran longer than the time limit of 20 s")
    assert isinstance(results["memory"], Failure) and results["memory"].kind == "memory"
    assert results["memory"].message.endswith("more than the memory limit of 512 MiB")


def test_an_exception_of_the_work_reaches_the_caller():
    try:
        dict(map_unordered(work, ["a", "raise"], workers=1))
    except ValueError as error:
        assert str(error) == "work's own exception"
    else:
        raise AssertionError("the exception was swallowed")


def _case(directory, name: str, source: str) -> None:
    shutil.copytree(CORPUS / "inductor" / source, directory / name)


def test_a_sweep_reports_every_case_of_a_directory_with_broken_ones(tmp_path):
    cases = tmp_path / "cases"
    for name in GOOD:
        _case(cases, name, name)
    _case(cases, "crash", GOOD[0])
    (cases / "crash" / "kernel.py").write_text(
        "import os, signal\nos.killpg(os.getpgrp(), signal.SIGSEGV)  # kills the sweep's job\n"
    )
    _case(cases, "hang", GOOD[0])
    (cases / "hang" / "kernel.py").unlink()
    (cases / "hang" / "kernel.ttir").write_text(NEVER_ENDING)
    _case(cases, "memory", GOOD[0])
    meta = json.loads((cases / "memory" / "meta.json").read_text())
    meta["launches"][0]["args"][0] = {"shape": [2**31], "stride": [1], "dtype": "float32"}
    (cases / "memory" / "meta.json").write_text(json.dumps(meta))
    report = tmp_path / "report"
    run = subprocess.run(
        [sys.executable, "-m", "tnpu.tools.tnpu_main", "sweep", str(cases), "--jobs", "2", "--out", str(report),
         "--time-limit", str(TIME_LIMIT_S), "--memory-limit", str(MEMORY_LIMIT_GIB)],
        capture_output=True, text=True, timeout=900,
    )
    assert run.returncode == 1, run.stderr
    records = {record["kernel"]: record for record in json.loads(report.with_suffix(".json").read_text())}
    assert set(records) == {*GOOD, "crash", "hang", "memory"}
    assert all(records[name]["match"] is True and records[name]["error"] is None for name in GOOD)
    assert records["crash"]["error"] == "crash: the worker died (killed by SIGSEGV)"
    assert records["hang"]["error"] == f"timeout: ran longer than the time limit of {TIME_LIMIT_S} s"
    assert records["memory"]["error"].startswith("memory: held ")
    assert {records[name]["lost"] for name in ("crash", "hang", "memory")} == {"crash", "timeout", "memory"}
    text = report.with_suffix(".md").read_text()
    assert "5 cases; 2 match, 0 mismatch, 3 with an error." in text
    for cause in ("job crashed", "over the time limit", "over the memory limit"):
        assert f"| none | {cause} | 1 |" in text
    for name in ("crash", "hang", "memory"):
        kept = tmp_path / "report-artifacts" / name
        assert sorted(path.name for path in kept.iterdir()) >= ["error.txt", "kernel.ttir", "meta.json", "result.json"]
        assert (kept / "error.txt").read_text().strip() == records[name]["error"]


NEVER_ENDING = """\
module {
  tt.func public @triton_poi_fused_add_0(%in_ptr0: !tt.ptr<f32>, %in_ptr1: !tt.ptr<f32>, %out_ptr0: !tt.ptr<f32>, %xnumel: i32) {
    %c0 = arith.constant 0 : i32
    %r = scf.while (%i = %c0) : (i32) -> i32 {
      %go = arith.cmpi sge, %i, %c0 : i32
      scf.condition(%go) %i : i32
    } do {
    ^bb0(%j: i32):
      scf.yield %j : i32
    }
    tt.return
  }
}
"""
