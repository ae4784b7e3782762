"""The GPU-only ops TTIR carries, so that it imports before `strip-gpu-only` runs.

* `llvm.intr.assume %c : i1` — from `tl.assume` (every Inductor GEMM template
  has `pid >= 0` pairs); xDSL 0.75's `llvm` dialect lacks it.
* `gpu.barrier` — Triton 3.6's `tl.debug_barrier`; xDSL's op has no custom
  syntax, so the printed form would not parse.
* `ttg.barrier all` — Triton 3.9's `tl.debug_barrier`, with its address-space
  flags (`local|global_read`, ...).

Each stores its attributes as MLIR does, so the generic form is the one
Triton's parser reads.  `LLVM` and `GPU` below are xDSL's dialects with these
ops added or replaced (`GpuBarrierOp` subclasses xDSL's, so either class
matches it); tnpu's context registers them in place of xDSL's.  Drop
`AssumeOp` when xDSL's `llvm` has it and `GpuBarrierOp` when xDSL's prints
`gpu.barrier` in a form it parses back.
"""

from __future__ import annotations

from enum import IntFlag

from xdsl.dialects import gpu as xdsl_gpu
from xdsl.dialects import llvm as xdsl_llvm
from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, i1, i32
from xdsl.ir import Dialect
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tnpu.dialects.tt import parse_choice


@irdl_op_definition
class AssumeOp(IRDLOperation):
    """`llvm.intr.assume %cond : i1`: an optimisation hint that `cond` holds.

    MLIR's op also takes LLVM operand bundles (`["align"(%p, %n : ...)]`);
    Triton never emits them and tnpu refuses them.  The bundle operands and
    their sizes are still part of the op, empty, because MLIR's generic form
    requires `op_bundle_sizes` and the operand segment sizes.
    """

    name = "llvm.intr.assume"

    cond = operand_def(i1)
    op_bundle_operands = var_operand_def()
    op_bundle_sizes = prop_def(
        DenseArrayBase.constr(i32), default_value=DenseArrayBase.from_list(i32, [])
    )
    op_bundle_tags = opt_prop_def(ArrayAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, cond):
        super().__init__(operands=[cond, []])

    def verify_(self) -> None:
        if self.op_bundle_operands or self.op_bundle_sizes.get_values():
            raise VerifyException("operand bundles are not supported")

    @classmethod
    def parse(cls, parser: Parser) -> AssumeOp:
        cond = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        (cond,) = parser.resolve_operands([cond], [parser.parse_type()], parser.pos)
        op = cls(cond)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        # MLIR's format: `$cond (custom<OpBundles>(...)^)? : type($cond) attr-dict`.
        printer.print_string(" ")
        printer.print_operand(self.cond)
        printer.print_string(" : ")
        printer.print_attribute(self.cond.type)
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class GpuBarrierOp(xdsl_gpu.BarrierOp):
    """`gpu.barrier`: synchronise the threads of a GPU block (xDSL's op, with its syntax)."""

    name = "gpu.barrier"

    assembly_format = "attr-dict"


class AddrSpace(IntFlag):
    """Triton's `TTG_AddrSpace` bit enum: what a `ttg.barrier` makes visible."""

    NONE = 0
    LOCAL = 0b00001
    GLOBAL_READ = 0b00010
    GLOBAL_WRITE = 0b00100
    TENSOR_READ = 0b01000
    TENSOR_WRITE = 0b10000
    ALL = 0b11111

    @property
    def keyword(self) -> str:
        return self.name.lower()  # pyright: ignore[reportOptionalMemberAccess]


_SINGLE_SPACES = (
    AddrSpace.LOCAL,
    AddrSpace.GLOBAL_READ,
    AddrSpace.GLOBAL_WRITE,
    AddrSpace.TENSOR_READ,
    AddrSpace.TENSOR_WRITE,
)


@irdl_op_definition
class TtgBarrierOp(IRDLOperation):
    """`ttg.barrier local|global_read`: a CTA barrier over the named address spaces.

    `addrSpace` is the i32 bit mask Triton stores; the text names the bits,
    or says `all` or `none`, as Triton's printer does.
    """

    name = "ttg.barrier"

    addrSpace = prop_def(IntegerAttr.constr(type=i32))

    def __init__(self, spaces: AddrSpace):
        super().__init__(properties={"addrSpace": IntegerAttr(int(spaces), i32)})

    @property
    def spaces(self) -> AddrSpace:
        return AddrSpace(self.addrSpace.value.data)

    def verify_(self) -> None:
        if self.addrSpace.value.data & ~AddrSpace.ALL:
            raise VerifyException(f"invalid address space mask {self.addrSpace.value.data}")

    @classmethod
    def parse(cls, parser: Parser) -> TtgBarrierOp:
        keywords = {name.lower(): space for name, space in AddrSpace.__members__.items()}
        spaces = parse_choice(parser, keywords, "an address space")
        while parser.parse_optional_punctuation("|"):
            spaces |= parse_choice(parser, keywords, "an address space")
        op = cls(spaces)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        spaces = self.spaces
        if spaces in (AddrSpace.ALL, AddrSpace.NONE):
            text = spaces.keyword
        else:
            text = "|".join(s.keyword for s in _SINGLE_SPACES if s in spaces)
        printer.print_string(f" {text}")
        printer.print_op_attributes(self.attributes)


LLVM = Dialect(
    "llvm",
    [*xdsl_llvm.LLVM.operations, AssumeOp],
    list(xdsl_llvm.LLVM.attributes),
    list(xdsl_llvm.LLVM._interfaces),
)

GPU = Dialect(
    "gpu",
    [
        *(op for op in xdsl_gpu.GPU.operations if op.name != GpuBarrierOp.name),
        GpuBarrierOp,
    ],
    list(xdsl_gpu.GPU.attributes),
    list(xdsl_gpu.GPU._interfaces),
)

TTG = Dialect("ttg", [TtgBarrierOp])
