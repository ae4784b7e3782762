"""Random Triton kernels: the TTIR and tile interpreters agree with Triton's interpreter."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tnpu.execution.kernel_gen import kernel_specs
from tnpu.execution.oracle import Oracle
from tnpu.execution.runner import run_case


@pytest.fixture(scope="module")
def oracle():
    with Oracle() as process:
        yield process


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(spec=kernel_specs())
def test_interpreters_match_triton_interpreter(spec, oracle):
    with tempfile.TemporaryDirectory() as directory:
        result = run_case(spec.case(Path(directory)), oracle=oracle)
    assert [(r.name, r.status) for r in result.rungs] == [
        ("oracle", "ok"), ("ttir", "ok"), ("tile", "ok")
    ], (result.error, spec.source())
    assert result.match, (result.mismatch, spec.source())
