"""The Triton-style scripts in examples/triton/ run as they would on a GPU, match torch and print the profile."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT

EXAMPLES = sorted((ROOT / "examples" / "triton").glob("*.py"))


@pytest.mark.parametrize("script", EXAMPLES, ids=lambda path: path.stem)
def test_example_runs_matches_torch_and_prints_its_profile(script):
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    assert "matches torch" in result.stdout
    assert "(modeled on tpuv3)" in result.stdout and "\ntotal " in result.stdout


def test_there_are_the_three_examples():
    assert [path.stem for path in EXAMPLES] == ["fused_softmax", "matmul_autotune", "vector_add"]
