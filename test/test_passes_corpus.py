"""The corpus through strip-gpu-only, lower-libdevice and expand-math."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ALL_TTIR, case_id
from xdsl.passes import PassPipeline

from tnpu.context import tnpu_context
from tnpu.registry import ALL_PASSES
from tnpu.ttir_import import import_ttir
from tnpu.verifier import verify_with_diagnostics

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
def test_strip_lower_and_expand(path: Path):
    """strip-gpu-only and lower-libdevice leave nothing GPU-only; expand-math leaves no math.

    The target here executes fma natively (it has no exact arith form).
    """
    ctx = tnpu_context()
    module = import_ttir(path.read_text(), str(path), ctx)
    PassPipeline.parse_spec(ALL_PASSES, "strip-gpu-only,lower-libdevice").apply(ctx, module)
    verify_with_diagnostics(module)
    assert gpu_only_left(module) == []
    PassPipeline.parse_spec(ALL_PASSES, "expand-math{native=fma}").apply(ctx, module)
    verify_with_diagnostics(module)
    assert {op.name for op in module.walk() if op.dialect_name() == "math"} <= {"math.fma"}
