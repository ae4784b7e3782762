"""What tnpu prints, Triton's own parser reads back as the IR Triton printed.

For each Inductor kernel and each probe kernel (test/import/probe_kernels.py,
compiled here by tnpu.frontend), tnpu imports Triton's TTIR and prints it;
Triton's C++ parser (`triton._C.libtriton.ir.parse_mlir_module`) reads that
print and prints it again.  That must equal Triton's own reprint of the
original text:

* exactly, character for character, when tnpu prints locations
  (`--print-debuginfo`), in the custom and in the generic form: Triton
  names values after their locations, so even the SSA names agree;
* up to SSA names and locations when tnpu prints without them (its default).

`builtin.module` needs no normalising: tnpu prints xDSL's spelling, which
MLIR's parser accepts, and only Triton's reprints are compared.  Triton 3.9
reads Triton 3.9's syntax only, so the Triton 3.6 samples are not here
(their round trip through tnpu is in test_import_corpus.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import INDUCTOR_CASES, ROOT, case_id, print_module
from tnpu.dialects.tt import TT
from tnpu.ttir_import import import_ttir

PROBE_DIR = ROOT / "test" / "import"

# Triton 3.9 makes tt.cat only for tl.cat(can_reorder=True), which it deprecates.
pytestmark = pytest.mark.filterwarnings("ignore:tl.cat\\(can_reorder=True\\) is deprecated")


@pytest.fixture(scope="module")
def triton_reprint(tmp_path_factory):
    """`text -> str(parse_mlir_module(text))` with Triton's dialects loaded."""
    from triton._C.libtriton import ir

    context = ir.context()
    ir.load_dialects(context)
    path = tmp_path_factory.mktemp("triton") / "input.mlir"

    def reprint(text: str) -> str:
        path.write_text(text)
        return str(ir.parse_mlir_module(str(path), context))

    return reprint


@pytest.fixture(scope="module")
def probe_ttir() -> dict[str, str]:
    """Triton's TTIR for every probe kernel, compiled once for the module."""
    import sys

    from tnpu.frontend import KernelSource, compile_to_ttir

    sys.path.insert(0, str(PROBE_DIR))
    try:
        from probe_kernels import PROBES
    finally:
        sys.path.remove(str(PROBE_DIR))
    return {
        probe.name: compile_to_ttir(
            KernelSource(probe.kernel, probe.signature, probe.constexprs, options={"debug": True}),
            ("cuda", probe.arch, 32),
        )
        for probe in PROBES
    }


_LOCATION = re.compile(r" loc\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)")
_SSA_NAME = re.compile(r"%[\w.$-]+")


def without_names_and_locations(text: str) -> str:
    """Drop `loc(...)` and `#loc` lines, and every SSA name (`%tmp0` -> `%`).

    Names cannot simply be renumbered: without locations MLIR reuses
    `%arg3` in sibling regions where Triton's names differ.  Which value an
    operand names is checked by the exact comparisons with locations, which
    print operands with the same code.
    """
    lines = [line for line in text.splitlines() if not line.startswith("#loc")]
    return _SSA_NAME.sub("%", _LOCATION.sub("", "\n".join(lines)))


def check_against_triton(text: str, name: str, reprint) -> None:
    expected = reprint(text)
    module = import_ttir(text, name)
    for generic in (False, True):
        printed = print_module(module, print_debuginfo=True, print_generic_format=generic)
        assert reprint(printed) == expected, f"generic={generic}"
    plain = reprint(print_module(module))
    assert without_names_and_locations(plain) == without_names_and_locations(expected)


def test_normalisation_keeps_what_matters():
    a = '%x = tt.splat %y : i32 -> tensor<4xi32> loc("x"(#loc1))\n#loc1 = loc("k.py":1:2)'
    b = "%0 = tt.splat %arg0 : i32 -> tensor<4xi32> loc(#loc)"
    assert without_names_and_locations(a) == without_names_and_locations(b)
    c = "%0 = tt.splat %arg0 : i32 -> tensor<8xi32> loc(#loc)"
    assert without_names_and_locations(a) != without_names_and_locations(c)
    d = 'tt.call @f(%x) : (i32) -> () loc(callsite("a"("k.py":1:2) at #loc))'
    assert without_names_and_locations(d) == "tt.call @f(%) : (i32) -> ()"


@pytest.mark.parametrize("case", INDUCTOR_CASES, ids=case_id)
def test_corpus_prints_as_triton_does(case: Path, triton_reprint):
    path = case / "kernel.ttir"
    check_against_triton(path.read_text(), str(path), triton_reprint)


def test_probes_print_as_triton_does(probe_ttir, triton_reprint, subtests):
    for name, text in probe_ttir.items():
        with subtests.test(probe=name):
            check_against_triton(text, name, triton_reprint)


def test_hand_written_syntax_is_tritons(triton_reprint):
    """The lit test's one example of every op (in Triton 3.9 syntax) is Triton's syntax too."""
    text = (ROOT / "test" / "dialects" / "tt" / "roundtrip.mlir").read_text()
    printed = print_module(import_ttir(text, "roundtrip.mlir"))
    expected = without_names_and_locations(triton_reprint(text))
    assert without_names_and_locations(triton_reprint(printed)) == expected


def test_probes_cover_triton_39_op_set(probe_ttir):
    """Every tt op of Triton 3.9 occurs in a probe (block pointers are 3.6-only)."""
    emitted = {
        name for text in probe_ttir.values() for name in re.findall(r"\btt\.[a-z_.]+\b", text)
    }
    triton_36_only = {"tt.make_tensor_ptr", "tt.advance"}
    missing = {op.name for op in TT.operations} - triton_36_only - emitted
    assert not missing, f"no probe emits {sorted(missing)}"
