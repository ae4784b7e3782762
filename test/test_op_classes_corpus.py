"""After every tnpu pipeline, each op is an instance of the class tnpu's context registers.

tnpu's context holds extended `arith`, `scf`, `gpu`, `llvm` and `math`
dialects whose ops subclass xDSL's of the same name; code that dispatches
on classes (the interpreters, the backend, the timer) relies on IR built by
tnpu's passes, and by the xDSL passes tnpu runs, being made of the
registered classes.  Every corpus kernel is checked as imported, after
`tnpu-to-tile`, after the RISC-V target's steps (`expand-math`,
`widen-half-floats`) and the tpuv3 NPU's (`expand-math`), as the compile
API builds them, each also followed by xDSL's canonicalize, cse and dce.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ALL_TTIR, case_id
from xdsl.context import Context
from xdsl.dialects import arith, builtin, func
from xdsl.ir import Operation
from xdsl.transforms.canonicalize import CanonicalizePass
from xdsl.transforms.common_subexpression_elimination import CommonSubexpressionElimination
from xdsl.transforms.dead_code_elimination import DeadCodeElimination

from tnpu.compiler.kernel import Kernel
from tnpu.context import tnpu_context
from tnpu.diagnostics import CompileError
from tnpu.timing.npu_config import load_npu_config
from tnpu.ttir_import import import_ttir
from tnpu.verifier import verify_with_diagnostics

REFUSED = {"inline_asm_fma__triton_poi_fused_relu_0"}
"""Kernels tnpu-to-tile refuses (inline PTX); only their TTIR is checked."""


def foreign_ops(module: Operation, ctx: Context) -> list[str]:
    """`name (class)` of each op in `module` whose class is not the one `ctx` registers."""
    return [
        f"{op.name} ({type(op).__module__}.{type(op).__name__})"
        for op in module.walk()
        if type(op) is not ctx.get_optional_op(op.name)
    ]


def cleaned_up(module: builtin.ModuleOp, ctx: Context) -> builtin.ModuleOp:
    """A copy of `module` after xDSL's canonicalize, cse and dce, verified."""
    copy = module.clone()
    for step in (CanonicalizePass(), CommonSubexpressionElimination(), DeadCodeElimination()):
        step.apply(ctx, copy)
    verify_with_diagnostics(copy)
    return copy


def test_an_op_of_xdsls_class_is_reported():
    """The check below can fail: xDSL's `arith.select` is not the class tnpu registers."""
    ctx = tnpu_context()
    function = func.FuncOp("f", ((builtin.i1, builtin.i32), ()))
    a, b = function.body.block.args
    function.body.block.add_ops([arith.SelectOp(a, b, b), func.ReturnOp()])
    assert foreign_ops(function, ctx) == ["arith.select (xdsl.dialects.arith.SelectOp)"]


@pytest.mark.parametrize("path", ALL_TTIR, ids=case_id)
def test_every_op_has_the_registered_class(path: Path):
    ctx = tnpu_context()
    ttir = import_ttir(path.read_text(), str(path), ctx)
    kernel = Kernel(ttir)
    stages = {"imported": ttir}
    if path.parent.name not in REFUSED:
        stages |= {
            "tnpu-to-tile": kernel.tile,
            "the RISC-V target's steps": kernel.rvv.tile,
            "the tpuv3 NPU's steps": kernel.npu_tile(load_npu_config("tpuv3")),
        }
    else:
        with pytest.raises(CompileError):
            kernel.tile  # noqa: B018
    for stage, module in list(stages.items()):
        stages[f"{stage}, then canonicalize, cse, dce"] = cleaned_up(module, ctx)
    for stage, module in stages.items():
        assert foreign_ops(module, ctx) == [], stage
