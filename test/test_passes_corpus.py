"""After strip-gpu-only and lower-libdevice, no corpus kernel keeps anything GPU-only."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ALL_TTIR, case_id
from xdsl.passes import PassPipeline

from tnpu.context import tnpu_context
from tnpu.registry import ALL_PASSES
from tnpu.ttir_import import import_ttir, verify_with_diagnostics

GPU_ONLY_OPS = ("llvm.intr.assume", "gpu.barrier", "tt.extern_elementwise")


def gpu_only_left(module) -> list[str]:
    """Names of the GPU-only ops and `ttg.*` ops or attributes still in `module`."""
    left = []
    for op in module.walk():
        if op.name in GPU_ONLY_OPS or op.name.startswith("ttg."):
            left.append(op.name)
        left += [name for name in op.attributes if name.startswith("ttg.")]
    return left


def test_the_corpus_has_what_the_passes_remove():
    """The check below would be vacuous if the corpus carried none of it."""
    texts = [path.read_text() for path in ALL_TTIR]
    for name in (*GPU_ONLY_OPS, "ttg.barrier"):
        assert any(name in text for text in texts), name


@pytest.mark.parametrize("path", ALL_TTIR, ids=case_id)
def test_strip_and_lower_leave_nothing_gpu_only(path: Path):
    module = import_ttir(path.read_text(), str(path))
    pipeline = PassPipeline.parse_spec(ALL_PASSES, "strip-gpu-only,lower-libdevice")
    pipeline.apply(tnpu_context(), module)
    verify_with_diagnostics(module)
    assert gpu_only_left(module) == []
