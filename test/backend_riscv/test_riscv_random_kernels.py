"""Random Triton kernels compiled to RVV and run under qemu agree with Triton's interpreter.

The kernels come from the execution-truth generator (`kernel_gen`); each
runs through every rung of `tnpu run --exec qemu` (oracle, TTIR and tile
interpreters, qemu at VLEN 128, 256 and 512), and all must agree.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings

from tnpu.execution.kernel_gen import kernel_specs
from tnpu.execution.oracle import Oracle
from tnpu.execution.runner import run_case
from tnpu.registry import ALL_PASSES


@pytest.fixture(scope="module")
def oracle():
    with Oracle() as process:
        yield process


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=kernel_specs())
def test_qemu_matches_triton_interpreter(spec, oracle):
    # tl.exp needs expand-math, which rewrites it for targets without it.
    assume("expand-math" in ALL_PASSES or "tl.exp" not in spec.source())
    with tempfile.TemporaryDirectory() as directory:
        result = run_case(spec.case(Path(directory)), mode="qemu", oracle=oracle)
    assert [(r.name, r.status) for r in result.rungs] == [
        ("oracle", "ok"), ("ttir", "ok"), ("tile", "ok"), ("qemu", "ok")
    ], (result.error, spec.source())
    assert result.match, (result.mismatch, spec.source())
