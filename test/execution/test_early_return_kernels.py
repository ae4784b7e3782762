"""Kernels with `return` inside nested `if`/`else`, through the whole harness.

`tnpu run FILE.py:kernel --exec qemu` compiles each kernel of
test/passes/structure-early-return/Inputs/early_return.py with Triton, and
runs Triton's interpreter, the TTIR interpreter, the tile interpreter and
the RVV binary under qemu on the same inputs.  Program ids pick the paths,
so the one launch of 8 instances takes every one of them.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import ROOT

KERNELS = ROOT / "test" / "passes" / "structure-early-return" / "Inputs" / "early_return.py"


def tnpu_run(kernel: str) -> dict:
    run = subprocess.run(
        [
            sys.executable, "-m", "tnpu.tools.tnpu_main", "run", f"{KERNELS}:{kernel}",
            "--signature", "x=*fp32,out=*fp32,n=i32,BLOCK=constexpr", "--constexpr", "BLOCK=64",
            "--grid", "8", "--arg", "x=float32[512]", "--arg", "out=float32[512]", "--arg", "n=500",
            "--exec", "qemu", "--json",
        ],
        capture_output=True, text=True, timeout=600,
    )
    assert run.stdout, run.stderr
    return json.loads(run.stdout)


@pytest.mark.parametrize(
    "kernel",
    ["nested_return", "return_then_join", "three_levels", "inlined_return", "return_before_loop"],
)
def test_every_rung_agrees_with_triton_interpreter(kernel):
    result = tnpu_run(kernel)
    assert [(r["name"], r["status"]) for r in result["rungs"]] == [
        ("oracle", "ok"), ("ttir", "ok"), ("tile", "ok"), ("qemu", "ok"),
    ], result
    assert result["reference"] == "oracle" and result["match"] is True, result


def test_a_pointer_merged_past_a_return_is_refused_by_the_lowering():
    tile = tnpu_run("pointer_past_return")["rungs"][2]
    assert tile["status"] == "refused"
    assert "'scf.if' op an scf.if yielding pointers is not supported" in tile["message"]
    assert "early_return.py:" in tile["message"]
