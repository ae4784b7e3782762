"""Every Inductor corpus kernel: Triton's interpreter (the oracle) and the TTIR
interpreter agree on the same inputs, or the oracle refuses the case for the
Triton-interpreter limitation docs/oracle-exceptions.md lists it with, or
skips it for the oracle fault listed there (a wrong answer of Triton's
interpreter, recognised from the TTIR).

Both run with bounds checks and device asserts on, so a wrong index, an input
generated out of range or a missing op fails here too.  A listed case that
runs, or refuses for another reason, fails: the table holds no stale rows.
The tile interpreter is checked against the TTIR interpreter by
test/interpreters/tile/test_tile_corpus.py.
"""

from __future__ import annotations

import re

import pytest
from conftest import INDUCTOR_CASES, ROOT, case_id

from tnpu.execution.case import load_case
from tnpu.execution.oracle import Oracle
from tnpu.execution.oracle_faults import ORACLE_FAULTS
from tnpu.execution.runner import run_case

EXCEPTIONS_TABLE = ROOT / "docs" / "oracle-exceptions.md"

NOT_INTERPRETABLE = {
    "inline_asm_fma__triton_poi_fused_relu_0": "PTX inline assembly",
}
"""Cases the TTIR interpreter refuses, with why (GPU-only constructs)."""


def oracle_exceptions() -> dict[str, str]:
    """Case name -> limitation name, from the table under '## Cases'."""
    cases = EXCEPTIONS_TABLE.read_text().split("\n## Cases\n", 1)[1]
    rows = re.findall(r"^\| (\w+) \| ([\w-]+) \|$", cases, re.MULTILINE)
    return {case: limitation for case, limitation in rows if case != "case"}


EXCEPTIONS = oracle_exceptions()


def test_exceptions_name_corpus_cases():
    assert EXCEPTIONS, f"no rows read from {EXCEPTIONS_TABLE}"
    assert set(EXCEPTIONS) <= {directory.name for directory in INDUCTOR_CASES}


@pytest.fixture(scope="module")
def oracle(tmp_path_factory):
    with Oracle(cache_dir=tmp_path_factory.mktemp("oracle-cache")) as process:
        yield process


@pytest.fixture(autouse=True)
def oracle_and_ttir_rungs_only(monkeypatch):
    from tnpu.execution import runner

    monkeypatch.setattr(runner, "RUNGS", {name: runner.RUNGS[name] for name in ("oracle", "ttir")})


@pytest.mark.parametrize("directory", INDUCTOR_CASES, ids=case_id)
def test_corpus_case_matches_triton_interpreter(directory, oracle):
    result = run_case(load_case(directory), oracle=oracle)
    triton_interpreter, ttir = result.rungs
    if directory.name in NOT_INTERPRETABLE:
        assert ttir.status == "refused" and NOT_INTERPRETABLE[directory.name] in ttir.message
    else:
        assert ttir.status == "ok", ttir.message
    if EXCEPTIONS.get(directory.name) in {fault.name for fault in ORACLE_FAULTS}:
        assert triton_interpreter.status == "skipped", triton_interpreter.message
        assert result.oracle_fault == EXCEPTIONS[directory.name] and result.error is None
        return
    if directory.name in EXCEPTIONS:
        assert triton_interpreter.status == "refused", (
            f"the oracle {triton_interpreter.status}: drop the case from {EXCEPTIONS_TABLE.name}"
        )
        assert triton_interpreter.notes["limitation"] == EXCEPTIONS[directory.name], triton_interpreter.message
        return
    assert triton_interpreter.status == "ok", triton_interpreter.message
    assert result.match, result.mismatch
    # Both pick libdevice symbols on their own (Triton's wrappers, the TTIR's calls).
    assert triton_interpreter.notes["libdevice_stand_ins"] == ttir.notes["libdevice_references"]
