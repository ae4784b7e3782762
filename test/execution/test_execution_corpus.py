"""Every Inductor corpus kernel runs on the TTIR interpreter without a fault.

The comparison with Triton's interpreter over the whole corpus is
`tnpu sweep test/fixtures/corpus/inductor --jobs 2` (slow: the Triton
interpreter runs custom reductions element by element); here the TTIR rung
alone runs every case, with bounds checks and device asserts on, so a wrong
index, an input generated out of range or a missing op implementation fails.
"""

from __future__ import annotations

import pytest
from conftest import INDUCTOR_CASES, case_id

from tnpu.execution.case import load_case
from tnpu.execution.runner import run_case

NOT_INTERPRETABLE = {
    "inline_asm_fma__triton_poi_fused_relu_0": "PTX inline assembly",
}
"""Cases the TTIR interpreter refuses, with why (GPU-only constructs)."""


@pytest.fixture(autouse=True)
def ttir_rung_only(monkeypatch):
    from tnpu.execution import rungs

    monkeypatch.setattr(rungs, "RUNGS", {"ttir": rungs.RUNGS["ttir"]})
    monkeypatch.setattr("tnpu.execution.runner.RUNGS", rungs.RUNGS)


@pytest.mark.parametrize("directory", INDUCTOR_CASES, ids=case_id)
def test_ttir_interpreter_runs_corpus_case(directory):
    result = run_case(load_case(directory))
    (rung,) = result.rungs
    if directory.name in NOT_INTERPRETABLE:
        assert rung.status == "refused" and NOT_INTERPRETABLE[directory.name] in rung.message
    else:
        assert rung.status == "ok", rung.message
        assert result.stage_reached == "ttir"
