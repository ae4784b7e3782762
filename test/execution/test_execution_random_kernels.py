"""Random Inductor-shaped kernels (tnpu.execution.kernel_gen): the TTIR interpreter and the
tile interpreter (after tnpu-to-tile) agree with Triton's interpreter on each.

Derandomized, so every run checks the same examples; a failure prints the kernel's source.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tnpu.execution.kernel_gen import GeneratedKernel, matmul_kernels, pointwise_kernels, reduction_kernels
from tnpu.execution.oracle import Oracle
from tnpu.execution.runner import run_case

EXAMPLES = settings(
    max_examples=20,
    deadline=None,  # compiling to TTIR and starting the oracle's worker take seconds
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    with Oracle(cache_dir=tmp_path_factory.mktemp("oracle-cache")) as process:
        yield process


@pytest.fixture(autouse=True)
def interpreter_rungs_only(monkeypatch):
    from tnpu.execution import runner

    monkeypatch.setattr(runner, "RUNGS", {name: runner.RUNGS[name] for name in ("oracle", "ttir", "tile")})


def check_against_triton_interpreter(kernel: GeneratedKernel, oracle: Oracle) -> None:
    with tempfile.TemporaryDirectory() as directory:
        result = run_case(kernel.case(Path(directory)), oracle=oracle)
    statuses = [(rung.name, rung.status, rung.message) for rung in result.rungs]
    assert [status[:2] for status in statuses] == [("oracle", "ok"), ("ttir", "ok"), ("tile", "ok")], (
        statuses, kernel.source()
    )
    assert result.match, (result.mismatch, kernel.source())


@EXAMPLES
@given(kernel=pointwise_kernels())
def test_pointwise_kernels_match(kernel, oracle):
    check_against_triton_interpreter(kernel, oracle)


@EXAMPLES
@given(kernel=reduction_kernels())
def test_reduction_kernels_match(kernel, oracle):
    check_against_triton_interpreter(kernel, oracle)


@EXAMPLES
@given(kernel=matmul_kernels())
def test_matmul_kernels_match(kernel, oracle):
    check_against_triton_interpreter(kernel, oracle)
