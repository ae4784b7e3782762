"""Every Inductor corpus kernel that lowers runs under qemu and matches.

One ELF per kernel runs at VLEN 128, 256 and 512 (the qemu rung fails if
the three differ by a bit) and is compared with the TTIR interpreter on the
same inputs; the TTIR interpreter is checked against Triton's interpreter
by test/execution/test_execution_corpus.py.  A kernel the backend refuses
must be listed here with the reason; a listed kernel that compiles fails,
so the table holds no stale rows.
"""

from __future__ import annotations

import pytest
from conftest import INDUCTOR_CASES, case_id

from tnpu.execution.case import load_case
from tnpu.execution.runner import run_case

REFUSED = {
    "inline_asm_fma__triton_poi_fused_relu_0": "inline PTX assembly has no meaning on the NPU",
}
"""Kernels the RISC-V route refuses, with (part of) the reason it gives."""


@pytest.fixture(autouse=True)
def ttir_and_qemu_rungs_only(monkeypatch):
    from tnpu.execution import runner

    monkeypatch.setattr(runner, "RUNGS", {name: runner.RUNGS[name] for name in ("ttir", "qemu")})


def test_at_least_95_percent_of_the_corpus_is_compiled():
    assert len(REFUSED) <= 0.05 * len(INDUCTOR_CASES)


@pytest.mark.parametrize("directory", INDUCTOR_CASES, ids=case_id)
def test_corpus_kernel_matches_under_qemu_at_every_vlen(directory):
    result = run_case(load_case(directory), mode="qemu")
    qemu = next(rung for rung in result.rungs if rung.name == "qemu")
    if directory.name in REFUSED:
        assert qemu.status == "refused" and REFUSED[directory.name] in qemu.message
        return
    assert qemu.status == "ok", qemu.message
    assert qemu.notes["vlens"] == ["128", "256", "512"]
    assert result.reference == "ttir" and result.match, result.mismatch
