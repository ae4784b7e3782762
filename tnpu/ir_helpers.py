"""Generic helpers on tnpu's IR that no one layer owns: a module's kernel, applying passes.

`kernel_function` finds a TTIR module's kernel (its `tt.func`) and
`parameter_names` names its parameters, as the compile API, the harness,
the TTIR interpreter and `tnpu run` all need; `apply_passes` runs passes in
order under `compiling`, so a bug of one is an `InternalError` naming it,
as every pipeline, the RISC-V backend and `tnpu-opt` run them.
"""

from __future__ import annotations

from collections.abc import Iterable

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.traits import SymbolTable

from tnpu.diagnostics import CompileError, compiling
from tnpu.dialects import tt


def kernel_function(module: ModuleOp, name: str | None = None) -> tt.FuncOp:
    """The kernel: the function called `name`, or else the module's only public `tt.func`."""
    if name is not None:
        found = SymbolTable.lookup_symbol(module, name)
        if not isinstance(found, tt.FuncOp):
            raise CompileError(module, f"has no tt.func named '{name}'")
        return found
    public = [
        op for op in module.ops
        if isinstance(op, tt.FuncOp) and (op.sym_visibility is None or op.sym_visibility.data == "public")
    ]
    if len(public) != 1:
        raise CompileError(module, f"has {len(public)} public tt.func ops; name the kernel")
    return public[0]


def parameter_names(function: tt.FuncOp) -> list[str]:
    return [arg.name_hint or f"arg{i}" for i, arg in enumerate(function.body.blocks[0].args)]


def apply_passes(ctx: Context, module: ModuleOp, passes: Iterable[ModulePass]) -> None:
    """Apply `passes` in order; a bug in one is an `InternalError` naming it and its op."""
    for step in passes:
        with compiling(step.name):
            step.apply(ctx, module)
