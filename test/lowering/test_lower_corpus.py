"""Both corpora (Triton 3.9 Inductor kernels, Triton 3.6 samples) lower to tile IR.

After `tnpu-to-tile` no `tt.*` op is left and the module verifies, or the
lowering refuses with the one-line reason listed in `REFUSED`.  Whether the
lowered kernels compute the right thing is test_tile_corpus.py's business.
"""

from __future__ import annotations

import pytest
from conftest import ALL_TTIR, case_id
from xdsl.utils.exceptions import DiagnosticException

from tnpu.compiler.tnpu_to_tile import TnpuToTilePipeline
from tnpu.context import tnpu_context
from tnpu.dialects import tile
from tnpu.ttir_import import import_ttir

REFUSED = {
    "inline_asm_fma__triton_poi_fused_relu_0": "'tt.elementwise_inline_asm' op cannot be "
    "lowered to the tile dialect: inline PTX assembly has no meaning on the NPU",
}
"""Kernels the lowering refuses, with the reason it gives."""


@pytest.mark.parametrize("path", ALL_TTIR, ids=case_id)
def test_lowers_to_tile(path):
    module = import_ttir(path.read_text(), str(path))
    name = path.parent.name
    if name in REFUSED:
        with pytest.raises(DiagnosticException) as refusal:
            TnpuToTilePipeline().apply(tnpu_context(), module)
        assert REFUSED[name] in str(refusal.value)
        assert "\n" not in str(refusal.value)
        return
    TnpuToTilePipeline().apply(tnpu_context(), module)
    module.verify()
    assert not [op.name for op in module.walk() if op.name.startswith("tt.")]
    assert [op for op in module.walk() if isinstance(op, tile.KernelOp)]
