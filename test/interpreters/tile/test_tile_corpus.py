"""Every Inductor corpus kernel lowers to tile IR, and the tile interpreter agrees
with the TTIR interpreter on it, or the lowering refuses it for a reason listed here.

The comparison with Triton's interpreter itself is
test/execution/test_execution_corpus.py; here the TTIR interpreter is the
reference, on the same generated inputs, so a wrong DMA descriptor, a wrong
lowering of an op or a wrong interpretation of a tile op fails, as does a
bounds check or device assert.
"""

from __future__ import annotations

import pytest
from conftest import INDUCTOR_CASES, case_id

from tnpu.execution.case import load_case
from tnpu.execution.runner import run_case

REFUSED: dict[str, str] = {
    "inline_asm_fma__triton_poi_fused_relu_0": "tt.elementwise_inline_asm",
}
"""Cases the lowering refuses, with a part of its one-line reason."""


@pytest.fixture(autouse=True)
def interpreter_rungs_only(monkeypatch):
    from tnpu.execution import runner

    monkeypatch.setattr(runner, "RUNGS", {name: runner.RUNGS[name] for name in ("ttir", "tile")})


@pytest.mark.parametrize("directory", INDUCTOR_CASES, ids=case_id)
def test_tile_interpreter_matches_ttir_interpreter(directory):
    result = run_case(load_case(directory))
    ttir, tile = result.rungs
    if directory.name in REFUSED:
        assert tile.status == "refused", "the lowering now accepts it: drop it from REFUSED"
        assert REFUSED[directory.name] in tile.message
        assert "\n" not in tile.message
        return
    assert ttir.status == "ok", ttir.message
    assert tile.status == "ok", tile.message
    assert result.match, result.mismatch
