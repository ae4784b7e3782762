"""The xDSL context tnpu parses and transforms in.

It holds every dialect xDSL knows, tnpu's own (`tt`, `ttg`, `tile`, ...),
and tnpu's replacements of `arith` (tensor-capable), `llvm` and `gpu` (with
the GPU-only ops TTIR carries), `scf` (`scf.while` as MLIR writes it) and
`math` (with `math.erfc`); see the modules in `tnpu.dialects`.  A replaced
op subclasses xDSL's op of its name, and tnpu builds the replacing classes,
so each op in a module is of the class registered here for its name.
Dialects load lazily, as in `xdsl-opt`.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.context import Context
from xdsl.ir import Dialect
from xdsl.universe import Universe


def _arith() -> Dialect:
    from tnpu.dialects.arith import Arith

    return Arith


def _llvm() -> Dialect:
    from tnpu.dialects.gpu_only import LLVM

    return LLVM


def _gpu() -> Dialect:
    from tnpu.dialects.gpu_only import GPU

    return GPU


def _scf() -> Dialect:
    from tnpu.dialects.scf import SCF

    return SCF


def _math() -> Dialect:
    from tnpu.dialects.math import Math

    return Math


REPLACED_DIALECTS: dict[str, Callable[[], Dialect]] = {
    "arith": _arith,
    "llvm": _llvm,
    "gpu": _gpu,
    "scf": _scf,
    "math": _math,
}
"""xDSL dialects that tnpu's context holds in an extended form."""


def register_dialects(ctx: Context) -> None:
    """Register all dialects of the environment in `ctx`, with tnpu's replacements."""
    for name, factory in Universe.get_multiverse().all_dialects.items():
        ctx.register_dialect(name, REPLACED_DIALECTS.get(name, factory))


def tnpu_context(allow_unregistered: bool = False) -> Context:
    """A fresh context with every dialect tnpu and xDSL provide."""
    ctx = Context(allow_unregistered=allow_unregistered)
    register_dialects(ctx)
    return ctx


def has_tnpu_dialects(ctx: Context) -> bool:
    """Whether `ctx` resolves `arith` to tnpu's tensor-capable version."""
    from tnpu.dialects.arith import CmpiOp

    return ctx.get_optional_op("arith.cmpi") is CmpiOp
