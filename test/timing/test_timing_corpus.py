"""Every Inductor kernel the lowering accepts is timed, and none beats its roofline."""

from __future__ import annotations

import pytest
from conftest import INDUCTOR_CASES
from xdsl.utils.exceptions import DiagnosticException

from tnpu.compiler.kernel import compile_ttir
from tnpu.execution.case import case_launch, load_case
from tnpu.timing.npu_config import load_npu_config
from tnpu.timing.simulator import SimulationOptions

LOWERED_AT_LEAST = 100
"""Kernels ttir-to-tile lowered when this test was written (120 of 152): a floor,
so that a lowering regression cannot empty the test."""


@pytest.fixture(scope="module")
def lowered_kernels():
    """(case, compiled kernel) of every corpus case that lowers, math expanded for tpuv3."""
    tpuv3 = load_npu_config("tpuv3")
    kernels = []
    for directory in INDUCTOR_CASES:
        case = load_case(directory)
        try:
            kernel = compile_ttir(case.ttir_path.read_text(), case.kernel_name, source=str(case.ttir_path))
            kernel.npu_tile(tpuv3)
        except DiagnosticException:  # a refusal of the lowering, tested with it
            continue
        kernels.append((case, kernel))
    return kernels


@pytest.mark.parametrize("preset", ["tpuv3", "tpuv6e"])
def test_no_kernel_is_faster_than_either_roofline(lowered_kernels, preset):
    """Neither the kernel's own roofline nor the compulsory one is beaten, and the
    compulsory traffic is the launch's buffers, each moved at most once."""
    npu = load_npu_config(preset)
    assert len(lowered_kernels) >= LOWERED_AT_LEAST
    beaten = []
    for case, kernel in lowered_kernels:
        timer = kernel.timer(npu)
        launch = case_launch(case)
        report = timer.time(launch)
        assert report.cycles > 0, case.name
        for name, bound in (("roofline", report.roofline_cycles),
                            ("compulsory", report.compulsory_cycles)):
            if report.cycles < bound * (1 - 1e-9):
                beaten.append(f"{case.name}: {report.cycles} < {name} {bound}")
        traffic = timer.bind(launch).traffic()
        assert sum(r for r, _ in traffic.values()) == report.bytes_read, case.name
        assert sum(w for _, w in traffic.values()) == report.bytes_written, case.name
        touched = {b for b, (r, w) in traffic.items() if r or w}
        assert report.compulsory_bytes <= 2 * sum(launch.buffer_bytes[b] for b in touched)
        assert report.compulsory_cycles <= report.roofline_cycles * (1 + 1e-9), case.name
    assert beaten == []


def test_fast_forward_does_not_change_a_corpus_kernels_time(lowered_kernels):
    npu = load_npu_config("tpuv3")
    exact = SimulationOptions(fast_forward=False)
    differ = []
    for case, kernel in lowered_kernels:
        timer = kernel.timer(npu)
        fast, slow = timer.time(case_launch(case)), timer.time(case_launch(case), exact)
        if fast.cycles != pytest.approx(slow.cycles, rel=1e-9) or fast.flops != slow.flops:
            differ.append(f"{case.name}: {fast.cycles} != {slow.cycles}")
    assert differ == []
