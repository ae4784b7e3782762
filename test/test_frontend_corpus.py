"""tnpu's Triton frontend regenerates every corpus kernel's TTIR.

For each Inductor case, `kernel.py` is compiled from its `meta.json` (kernel
name, signature, constexprs, specialisation attributes, options, target) by
`tnpu.frontend`, and the TTIR must hold the same operations in the same
order as the checked-in `kernel.ttir`.  Locations differ (they hold the path
of `kernel.py`), and so may SSA names; the op sequence may not.

Everything runs in this process: torch and Triton are imported once (the
first case pays for that, some seconds), then each kernel takes a fraction
of a second to compile.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import INDUCTOR_CASES, case_id
from tnpu.frontend import case_kernel, compile_to_ttir

_OP_NAME = re.compile(r'^\s*(?:%[^=\n]*=\s*)?"?([a-z_]+\.[a-z_.]+)', re.MULTILINE)


def op_sequence(ttir: str) -> list[str]:
    """The name of every operation, in the order the text gives them (custom or generic)."""
    return _OP_NAME.findall(ttir)


def test_op_sequence_reads_custom_and_generic_ops():
    text = """#loc = loc("k.py":1:1)
module {
  tt.func public @k(%x: !tt.ptr<f32> loc("x"(#loc))) {
    %0:2 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
    ^bb0(%a: f32, %b: f32):
      tt.reduce.return %a : f32 loc(#loc)
    }) : (tensor<4xf32>) -> f32
    %lo, %hi = tt.split %y : tensor<4x2xf32> -> tensor<4xf32>
    tt.return
  } loc(#loc)
}
"""
    expected = ["tt.func", "tt.reduce", "tt.reduce.return", "tt.split", "tt.return"]
    assert op_sequence(text) == expected


@pytest.mark.parametrize("case", INDUCTOR_CASES, ids=case_id)
def test_frontend_regenerates_corpus_ttir(case: Path):
    source, target = case_kernel(case)
    expected = op_sequence((case / "kernel.ttir").read_text())
    assert op_sequence(compile_to_ttir(source, target)) == expected
