"""The GPU-only ops TTIR carries, so that it imports before `strip-gpu-only` runs.

* `llvm.intr.assume %c : i1` — from `tl.assume` (every Inductor GEMM template
  has `pid >= 0` pairs); xDSL 0.75's `llvm` dialect lacks it.
* `gpu.barrier` — Triton 3.6's `tl.debug_barrier`; xDSL's op has no custom
  syntax, so the printed form would not parse.
* `ttg.barrier all` — Triton 3.9's `tl.debug_barrier`, with its address-space
  flags (`local|global_read`, ...).

`LLVM` and `GPU` below are xDSL's dialects with these ops added or replaced;
tnpu's context registers them in place of xDSL's.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import gpu as xdsl_gpu
from xdsl.dialects import llvm as xdsl_llvm
from xdsl.dialects.builtin import ArrayAttr, IntegerType
from xdsl.dialects.utils.enum_attribute import EnumAttribute
from xdsl.ir import Dialect, SpacedOpaqueSyntaxAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """`llvm.intr.assume %cond : i1`: an optimisation hint that `cond` holds."""

    name = "llvm.intr.assume"

    cond = operand_def(IntegerType(1))

    assembly_format = "$cond attr-dict `:` type($cond)"


@irdl_op_definition
class GpuBarrierOp(IRDLOperation):
    """`gpu.barrier`: synchronise the threads of a GPU block."""

    name = "gpu.barrier"

    assembly_format = "attr-dict"


class BarrierScope(StrEnum):
    LOCAL = "local"
    GLOBAL_READ = "global_read"
    GLOBAL_WRITE = "global_write"
    TENSOR_READ = "tensor_read"
    TENSOR_WRITE = "tensor_write"
    ALL = "all"


@irdl_attr_definition
class BarrierScopeAttr(EnumAttribute[BarrierScope], SpacedOpaqueSyntaxAttribute):
    name = "ttg.barrier_scope"


@irdl_op_definition
class TtgBarrierOp(IRDLOperation):
    """`ttg.barrier local|global_read`: a CTA barrier over the named address spaces."""

    name = "ttg.barrier"

    addrSpace = prop_def(ArrayAttr[BarrierScopeAttr])

    def __init__(self, scopes: Sequence[BarrierScope]):
        super().__init__(
            properties={"addrSpace": ArrayAttr(BarrierScopeAttr(s) for s in scopes)}
        )

    @classmethod
    def parse(cls, parser: Parser) -> TtgBarrierOp:
        scopes = [parser.parse_str_enum(BarrierScope)]
        while parser.parse_optional_punctuation("|"):
            scopes.append(parser.parse_str_enum(BarrierScope))
        op = cls(scopes)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" " + "|".join(s.data.value for s in self.addrSpace))
        printer.print_op_attributes(self.attributes)


LLVM = Dialect(
    "llvm",
    [*xdsl_llvm.LLVM.operations, AssumeOp],
    list(xdsl_llvm.LLVM.attributes),
    list(xdsl_llvm.LLVM._interfaces)  # pyright: ignore[reportPrivateUsage],
)

GPU = Dialect(
    "gpu",
    [
        *(op for op in xdsl_gpu.GPU.operations if op.name != GpuBarrierOp.name),
        GpuBarrierOp,
    ],
    list(xdsl_gpu.GPU.attributes),
    list(xdsl_gpu.GPU._interfaces)  # pyright: ignore[reportPrivateUsage],
)

TTG = Dialect("ttg", [TtgBarrierOp], [BarrierScopeAttr])
