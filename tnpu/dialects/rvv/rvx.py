"""The `rvx` dialect: scalar RISC-V ops xDSL 0.75's `riscv`/`rv64` lack, and structured control.

Instructions (register-typed like xDSL's `riscv` ops):

* the A extension: `rvx.amo<op>.w`/`.d` (old value := the word at an address,
  which becomes op(old, value)), `rvx.lr.w`/`.d` and `rvx.sc.w`/`.d`;
* `rvx.lwu`, `rvx.fmv.d.x`, `rvx.fmv.x.d`, `rvx.lla` (a symbol's address),
  `rvx.call` (a call that does not return: the launch runtime's failure
  exit), `rvx.fsrmi`/`rvx.fsrm` (the float rounding mode);
* `rvx.stack_argument`: an argument the caller passed on the stack, read
  relative to the stack pointer the function was entered with (the frame
  pass sets `frame`, the bytes the function's own frame takes).

Structured control, which the assembly printer writes as labels and branches:

* `rvx.loop`: a do-while loop; its block's arguments are the loop-carried
  values, `rvx.repeat_if COND lhs, rhs carrying values` ends each trip and
  branches back while `lhs COND rhs` holds (`b<cond> lhs, rhs, head`);
* `rvx.if`: runs its first region when `lhs COND rhs` holds, else its
  second; both end in `rvx.yield` of the results.

A loop-carried value is one variable: the loop's operand, its block
argument, the value `repeat_if` carries and the loop's result share a
register after allocation, as an `rvx.if`'s yielded values and its results do.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.backend.assembly_printer import AssemblyPrinter
from xdsl.dialects.builtin import I32, IntegerAttr, StringAttr, i32
from xdsl.dialects.riscv import FloatRegisterType, IntRegisterType
from xdsl.dialects.riscv.abstract_ops import (
    RdRsFloatOperation,
    RdRsImmIntegerOperation,
    RdRsIntegerOperation,
    RsRsImmIntegerOperation,
)
from xdsl.ir import Attribute, Block, Dialect, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, MemoryReadEffect, MemoryWriteEffect
from xdsl.utils.exceptions import VerifyException

from tnpu.dialects.rvv.ops import RvvInstruction, register_name
from tnpu.dialects.rvv.types import MaskRegisterType, VectorRegisterType

_REGISTER = IntRegisterType | FloatRegisterType | VectorRegisterType | MaskRegisterType

CONDITIONS = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "ltu": "geu", "geu": "ltu"}
"""Branch conditions and their negations."""


# -- the A extension ---------------------------------------------------------------


class AtomicMemoryOp(RvvInstruction):
    """rd := the word at `address`, which becomes op(rd, value), atomically."""

    address = operand_def(IntRegisterType)
    value = operand_def(IntRegisterType)
    rd = result_def(IntRegisterType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$value `,` $address attr-dict `:` functional-type(operands, results)"

    def __init__(self, address: SSAValue, value: SSAValue):
        super().__init__(operands=[address, value], result_types=[IntRegisterType.unallocated()])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.value, f"({register_name(self.address)})"


def _amo(stem: str, width: str) -> type[AtomicMemoryOp]:
    name = f"{stem}.{width}"
    return irdl_op_definition(type(name, (AtomicMemoryOp,), {"name": f"rvx.{name}"}))


AMOS = {
    (stem, width): _amo(stem, width)
    for stem in ("amoadd", "amoand", "amoor", "amoxor", "amomax", "amomin", "amomaxu", "amominu", "amoswap")
    for width in ("w", "d")
}
"""The AMO instructions by (mnemonic stem, width): `AMOS["amoadd", "w"]` is `amoadd.w`."""


class LoadReservedOp(RvvInstruction):
    """rd := the word at `address`, reserving it for a `sc`."""

    address = operand_def(IntRegisterType)
    rd = result_def(IntRegisterType)
    traits = traits_def(MemoryReadEffect())
    assembly_format = "$address attr-dict `:` functional-type(operands, results)"

    def __init__(self, address: SSAValue):
        super().__init__(operands=[address], result_types=[IntRegisterType.unallocated()])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, f"({register_name(self.address)})"


LOAD_RESERVED = {
    width: irdl_op_definition(type(f"lr.{width}", (LoadReservedOp,), {"name": f"rvx.lr.{width}"}))
    for width in ("w", "d")
}
STORE_CONDITIONAL = {
    width: irdl_op_definition(type(f"sc.{width}", (AtomicMemoryOp,), {"name": f"rvx.sc.{width}"}))
    for width in ("w", "d")
}
"""`sc`: `value` to `address` if the reservation holds; rd := 0 if it did (an AMO's operands)."""


# -- other scalar instructions --------------------------------------------------------


class ScalarLoadOp(RdRsImmIntegerOperation):
    """rd := the integer at offset(rs1), sign- or zero-extended (`lb`, `lbu`, `lh`, `lhu`, `lwu`)."""

    traits = traits_def(MemoryReadEffect())

    def assembly_line(self) -> str | None:
        return AssemblyPrinter.assembly_line(
            self.assembly_instruction_name(),
            f"{register_name(self.rd)}, {self.immediate.value.data}({register_name(self.rs1)})",  # pyright: ignore[reportAttributeAccessIssue]  # a field every subclass defines
        )


class ScalarStoreOp(RsRsImmIntegerOperation):
    """The low bits of rs2 to offset(rs1) (`sb`, `sh`)."""

    def assembly_line(self) -> str | None:
        return AssemblyPrinter.assembly_line(
            self.assembly_instruction_name(),
            f"{register_name(self.rs2)}, {self.immediate.value.data}({register_name(self.rs1)})",
        )


def _scalar_memory(mnemonic: str, kind: type) -> type:
    return irdl_op_definition(type(mnemonic, (kind,), {"name": f"rvx.{mnemonic}"}))  # pyright: ignore[reportArgumentType]  # an op class made with type()


LbOp, LbuOp, LhOp, LhuOp, LwuOp = (_scalar_memory(m, ScalarLoadOp) for m in ("lb", "lbu", "lh", "lhu", "lwu"))
SbOp, ShOp = (_scalar_memory(m, ScalarStoreOp) for m in ("sb", "sh"))
"""xDSL 0.75 has lb/lbu/lh/lhu/sb/sh, but prints them `lb rd, rs1, offset`, which the
assembler rejects; these print `lb rd, offset(rs1)`."""


@irdl_op_definition
class FMvDXOp(RdRsFloatOperation[IntRegisterType]):
    """A float register := the 64 bits of an integer register."""

    name = "rvx.fmv.d.x"


@irdl_op_definition
class FMvXDOp(RdRsIntegerOperation[FloatRegisterType]):
    """An integer register := the 64 bits of a float register."""

    name = "rvx.fmv.x.d"


@irdl_op_definition
class LlaOp(RvvInstruction):
    """rd := the address of `symbol` (pc-relative)."""

    name = "rvx.lla"
    symbol = prop_def(StringAttr)
    rd = result_def(IntRegisterType)
    assembly_format = "$symbol attr-dict `:` type($rd)"

    def __init__(self, symbol: str, rd: IntRegisterType | None = None):
        super().__init__(properties={"symbol": StringAttr(symbol)}, result_types=[rd or IntRegisterType.unallocated()])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.symbol.data


@irdl_op_definition
class CallOp(RvvInstruction):
    """A call of `callee` that does not return (its arguments are in a0, a1, ...)."""

    name = "rvx.call"
    callee = prop_def(StringAttr)
    arguments = var_operand_def(IntRegisterType)
    assembly_format = "$callee `(` $arguments `)` attr-dict `:` type($arguments)"

    def __init__(self, callee: str, arguments: Sequence[SSAValue]):
        super().__init__(operands=[arguments], properties={"callee": StringAttr(callee)})

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return (self.callee.data,)


@irdl_op_definition
class FsrmiOp(RvvInstruction):
    """rd := the float rounding mode, which becomes `mode` (1: toward zero)."""

    name = "rvx.fsrmi"
    mode = prop_def(IntegerAttr[I32])
    rd = result_def(IntRegisterType)
    traits = traits_def(MemoryReadEffect(), MemoryWriteEffect())
    assembly_format = "$mode attr-dict `:` type($rd)"

    def __init__(self, mode: int):
        super().__init__(properties={"mode": IntegerAttr(mode, i32)}, result_types=[IntRegisterType.unallocated()])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, self.mode.value.data


@irdl_op_definition
class FsrmOp(RvvInstruction):
    """The float rounding mode := `mode` (a register, as fsrmi returned it)."""

    name = "rvx.fsrm"
    mode = operand_def(IntRegisterType)
    traits = traits_def(MemoryWriteEffect())
    assembly_format = "$mode attr-dict `:` type($mode)"

    def __init__(self, mode: SSAValue):
        super().__init__(operands=[mode])

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return (self.mode,)


@irdl_op_definition
class StackArgumentOp(RvvInstruction):
    """rd := the `index`th argument the caller passed on the stack (8 bytes each)."""

    name = "rvx.stack_argument"
    index = prop_def(IntegerAttr[I32])
    frame = prop_def(IntegerAttr[I32])
    rd = result_def(IntRegisterType)
    traits = traits_def(MemoryReadEffect())
    assembly_format = "$index `frame` $frame attr-dict `:` type($rd)"

    def __init__(self, index: int):
        super().__init__(
            properties={"index": IntegerAttr(index, i32), "frame": IntegerAttr(0, i32)},
            result_types=[IntRegisterType.unallocated()],
        )

    def assembly_instruction_name(self) -> str:
        return "ld"

    def assembly_line_args(self) -> Sequence[SSAValue | str | int]:
        return self.rd, f"{self.frame.value.data + 8 * self.index.value.data}(sp)"


# -- structured control --------------------------------------------------------------


def _parse_condition(parser: Parser) -> StringAttr:
    position = parser.pos
    condition = parser.parse_identifier()
    if condition not in CONDITIONS:
        parser.raise_error(f"expected one of {', '.join(CONDITIONS)}", position, parser.pos)
    return StringAttr(condition)


def _verify_condition(op: IRDLOperation, condition: StringAttr) -> None:
    if condition.data not in CONDITIONS:
        raise VerifyException(f"{op.name}: unknown condition '{condition.data}'")


@irdl_op_definition
class RepeatIfOp(IRDLOperation):
    """Ends a trip of `rvx.loop`: another trip while `lhs COND rhs`, carrying `carried`."""

    name = "rvx.repeat_if"
    condition = prop_def(StringAttr)
    lhs = operand_def(IntRegisterType)
    rhs = operand_def(IntRegisterType)
    carried = var_operand_def(_REGISTER)
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(LoopOp)))

    def __init__(self, condition: str, lhs: SSAValue, rhs: SSAValue, carried: Sequence[SSAValue] = ()):
        super().__init__(operands=[lhs, rhs, carried], properties={"condition": StringAttr(condition)})

    def verify_(self) -> None:
        _verify_condition(self, self.condition)
        loop = self.parent_op()
        assert isinstance(loop, LoopOp)
        if tuple(v.type for v in self.carried) != tuple(v.type for v in loop.iter_args):
            raise VerifyException("rvx.repeat_if carries values of the loop's carried types")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.condition.data} ")
        printer.print_list((self.lhs, self.rhs), printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list((self.lhs.type, self.rhs.type), printer.print_attribute)
        if self.carried:
            printer.print_string(" carrying ")
            printer.print_list(self.carried, printer.print_ssa_value)
            printer.print_string(" : ")
            printer.print_list(self.carried.types, printer.print_attribute)

    @classmethod
    def parse(cls, parser: Parser) -> RepeatIfOp:
        condition = _parse_condition(parser)
        lhs, rhs = _parse_typed_operands(parser)
        carried: Sequence[SSAValue] = ()
        if parser.parse_optional_keyword("carrying"):
            carried = _parse_typed_operands(parser)
        return RepeatIfOp(condition.data, lhs, rhs, carried)


def _parse_typed_operands(parser: Parser) -> Sequence[SSAValue]:
    position = parser.pos
    names: list[UnresolvedOperand] = parser.parse_comma_separated_list(
        parser.Delimiter.NONE, parser.parse_unresolved_operand
    )
    parser.parse_punctuation(":")
    types = parser.parse_comma_separated_list(parser.Delimiter.NONE, parser.parse_type)
    return parser.resolve_operands(names, types, position)


@irdl_op_definition
class LoopOp(IRDLOperation):
    """A do-while loop over its block; the block's arguments are the values it carries."""

    name = "rvx.loop"
    iter_args = var_operand_def(_REGISTER)
    res = var_result_def(_REGISTER)
    body = region_def("single_block")

    def __init__(self, iter_args: Sequence[SSAValue], body: Region):
        super().__init__(operands=[iter_args], result_types=[[v.type for v in iter_args]], regions=[body])

    def verify_(self) -> None:
        if tuple(self.body.block.arg_types) != tuple(v.type for v in self.iter_args):
            raise VerifyException("rvx.loop's block takes one argument per carried value, of its type")
        if not isinstance(self.body.block.last_op, RepeatIfOp):
            raise VerifyException("rvx.loop's block ends in rvx.repeat_if")

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.iter_args, printer.print_ssa_value)
        printer.print_string(") : (")
        printer.print_list(self.iter_args.types, printer.print_attribute)
        printer.print_string(") ")
        printer.print_region(self.body, print_entry_block_args=True)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> LoopOp:
        position = parser.pos
        names = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_unresolved_operand)
        parser.parse_punctuation(":")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        operands = parser.resolve_operands(names, types, position)
        body = parser.parse_region()
        op = LoopOp(operands, body)
        op.attributes |= parser.parse_optional_attr_dict()
        return op


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a region of `rvx.if` with the values of its results."""

    name = "rvx.yield"
    values = var_operand_def(_REGISTER)
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(IfOp)))
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue] = ()):
        super().__init__(operands=[values])


@irdl_op_definition
class IfOp(IRDLOperation):
    """Runs `then` when `lhs COND rhs`, else `otherwise`; results from their `rvx.yield`s."""

    name = "rvx.if"
    condition = prop_def(StringAttr)
    lhs = operand_def(IntRegisterType)
    rhs = operand_def(IntRegisterType)
    res = var_result_def(_REGISTER)
    then = region_def("single_block")
    otherwise = region_def("single_block")

    def __init__(self, condition: str, lhs: SSAValue, rhs: SSAValue, result_types: Sequence[Attribute],
                 then: Region, otherwise: Region):  # fmt: skip
        super().__init__(
            operands=[lhs, rhs], result_types=[result_types], regions=[then, otherwise],
            properties={"condition": StringAttr(condition)},
        )  # fmt: skip

    def verify_(self) -> None:
        _verify_condition(self, self.condition)
        for region in (self.then, self.otherwise):
            yielded = region.block.last_op
            if not isinstance(yielded, YieldOp) or tuple(yielded.values.types) != tuple(self.res.types):
                raise VerifyException("each region of rvx.if yields values of its result types")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.condition.data} ")
        printer.print_list((self.lhs, self.rhs), printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_list((self.lhs.type, self.rhs.type), printer.print_attribute)
        printer.print_string(" -> (")
        printer.print_list(self.res.types, printer.print_attribute)
        printer.print_string(") ")
        printer.print_region(self.then, print_entry_block_args=False)
        printer.print_string(" else ")
        printer.print_region(self.otherwise, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    @classmethod
    def parse(cls, parser: Parser) -> IfOp:
        condition = _parse_condition(parser)
        lhs, rhs = _parse_typed_operands(parser)
        parser.parse_punctuation("->")
        types = parser.parse_comma_separated_list(parser.Delimiter.PAREN, parser.parse_type)
        then = parser.parse_region()
        parser.parse_keyword("else")
        otherwise = parser.parse_region()
        op = IfOp(condition.data, lhs, rhs, types, then, otherwise)
        op.attributes |= parser.parse_optional_attr_dict()
        return op


def branch_line(condition: str, lhs: SSAValue, rhs: SSAValue, label: str) -> str:
    """`b<cond> lhs, rhs, label`, as `beqz`/`bnez`/`bltz`/`bgez` when rhs is `zero`."""
    left, right = register_name(lhs), register_name(rhs)
    if right == "zero" and condition in ("eq", "ne", "lt", "ge"):
        return AssemblyPrinter.assembly_line(f"b{condition}z", f"{left}, {label}")
    return AssemblyPrinter.assembly_line(f"b{condition}", f"{left}, {right}, {label}")


def empty_block(arg_types: Sequence[Attribute] = ()) -> Block:
    return Block(arg_types=arg_types)


RVX = Dialect(
    "rvx",
    [
        *AMOS.values(), *LOAD_RESERVED.values(), *STORE_CONDITIONAL.values(),
        LbOp, LbuOp, LhOp, LhuOp, LwuOp, SbOp, ShOp, FMvDXOp, FMvXDOp, LlaOp, CallOp, FsrmiOp, FsrmOp, StackArgumentOp,
        RepeatIfOp, LoopOp, YieldOp, IfOp,
    ],
    [],
)  # fmt: skip
