"""Tensor-capable replacements for the arith ops xDSL 0.75 restricts to scalars.

TTIR applies `arith.cmpi`, `cmpf`, `select` and the integer/float casts to
tensors; xDSL 0.75 declares their results (or conditions) as scalars, and has
no `arith.remf`.  This module redefines exactly those ops with MLIR's rule
(same shape, element type changed) and builds an `arith` dialect holding
xDSL's other ops unchanged.  tnpu's context registers it in place of xDSL's;
once xDSL accepts tensors here, delete this file and use xDSL's.

The textual syntax is MLIR's; `cmpi`/`cmpf` reuse xDSL's parser and printer.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects import arith as xdsl_arith
from xdsl.dialects.builtin import (
    AnyFloatConstr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AnyOf,
    BaseAttr,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tnpu.dialects.shapes import element_type_of, i1_like


def _container_of(constraint):
    return AnyOf.get(
        constraint, VectorType.constr(constraint), TensorType.constr(constraint)
    )


_INT_LIKE = _container_of(BaseAttr(IntegerType) | BaseAttr(IndexType))
_FLOAT_LIKE = _container_of(AnyFloatConstr)
_BOOL_LIKE = _container_of(IntegerType(1))


def shape_or_none(type_: Attribute) -> tuple[int, ...] | None:
    """The shape of a vector or tensor type; None for a scalar."""
    if isinstance(type_, TensorType | VectorType):
        return type_.get_shape()
    return None


def _container_kind(type_: Attribute) -> type[Attribute] | None:
    """TensorType or VectorType for a shaped type, None for a scalar."""
    return type(type_) if isinstance(type_, TensorType | VectorType) else None


def _bitwidth(type_: Attribute) -> int:
    if isinstance(type_, IndexType):
        return 64
    return type_.bitwidth  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------
# Comparisons and select
# ---------------------------------------------------------------------------


class _Comparison(IRDLOperation):
    """Comparisons yield i1 in the operands' shape."""

    T: ClassVar = VarConstraint("T", AnyAttr())
    predicate = prop_def(IntegerAttr)
    result = result_def(_BOOL_LIKE)

    traits = traits_def(Pure())

    PREDICATES: ClassVar[list[str]]

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        predicate: int | str,
        properties: dict[str, Attribute] | None = None,
    ):
        lhs = SSAValue.get(lhs)
        if isinstance(predicate, str):
            if predicate not in self.PREDICATES:
                raise VerifyException(f"unknown comparison predicate '{predicate}'")
            predicate = self.PREDICATES.index(predicate)
        super().__init__(
            operands=[lhs, rhs],
            result_types=[i1_like(lhs.type)],
            properties={"predicate": IntegerAttr(predicate, 64), **(properties or {})},
        )

    def verify_(self) -> None:
        expected = i1_like(self.operands[0].type)
        if self.result.type != expected:
            raise VerifyException(f"result must be {expected}, got {self.result.type}")
        if not 0 <= self.predicate.value.data < len(self.PREDICATES):
            raise VerifyException(f"predicate {self.predicate.value.data} out of range")


@irdl_op_definition
class CmpiOp(_Comparison):
    name = "arith.cmpi"

    PREDICATES: ClassVar[list[str]] = xdsl_arith.CMPI_COMPARISON_OPERATIONS
    T: ClassVar = VarConstraint("T", _INT_LIKE)
    lhs = operand_def(T)
    rhs = operand_def(T)

    @classmethod
    def parse(cls, parser: Parser) -> CmpiOp:
        predicate = parser.parse_identifier()
        if predicate not in cls.PREDICATES:
            parser.raise_error(f"unknown comparison predicate '{predicate}'")
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        lhs, rhs = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        op = cls(lhs, rhs, predicate)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.PREDICATES[self.predicate.value.data]}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class CmpfOp(_Comparison):
    name = "arith.cmpf"

    PREDICATES: ClassVar[list[str]] = xdsl_arith.CMPF_COMPARISON_OPERATIONS
    T: ClassVar = VarConstraint("T", _FLOAT_LIKE)
    lhs = operand_def(T)
    rhs = operand_def(T)
    fastmath = prop_def(
        xdsl_arith.FastMathFlagsAttr,
        default_value=xdsl_arith.FastMathFlagsAttr("none"),
    )

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        predicate: int | str,
        fastmath: xdsl_arith.FastMathFlagsAttr | None = None,
    ):
        super().__init__(
            lhs,
            rhs,
            predicate,
            {"fastmath": fastmath or xdsl_arith.FastMathFlagsAttr("none")},
        )

    @classmethod
    def parse(cls, parser: Parser) -> CmpfOp:
        predicate = parser.parse_identifier()
        if predicate not in cls.PREDICATES:
            parser.raise_error(f"unknown comparison predicate '{predicate}'")
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        fastmath = None
        if parser.parse_optional_keyword("fastmath"):
            fastmath = xdsl_arith.FastMathFlagsAttr(
                xdsl_arith.FastMathFlagsAttr.parse_parameter(parser)
            )
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        lhs, rhs = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        op = cls(lhs, rhs, predicate, fastmath)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.PREDICATES[self.predicate.value.data]}, ")
        printer.print_operand(self.lhs)
        printer.print_string(", ")
        printer.print_operand(self.rhs)
        if self.fastmath != xdsl_arith.FastMathFlagsAttr("none"):
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.lhs.type)


@irdl_op_definition
class SelectOp(IRDLOperation):
    """`arith.select %c, %a, %b : T` (scalar i1 condition) or `: C, T` (elementwise)."""

    name = "arith.select"

    T: ClassVar = VarConstraint("T", AnyAttr())
    cond = operand_def(_BOOL_LIKE)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)

    traits = traits_def(Pure())

    def __init__(
        self,
        cond: SSAValue | Operation,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
    ):
        lhs = SSAValue.get(lhs)
        super().__init__(operands=[cond, lhs, rhs], result_types=[lhs.type])

    def verify_(self) -> None:
        if shape_or_none(self.cond.type) is not None and self.cond.type != i1_like(
            self.result.type
        ):
            raise VerifyException(
                f"condition {self.cond.type} must be i1 or have the shape of the "
                f"result {self.result.type}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        cond_type: Attribute = IntegerType(1)
        value_type = parser.parse_type()
        if parser.parse_optional_punctuation(","):
            cond_type, value_type = value_type, parser.parse_type()
        operands = parser.resolve_operands(
            names, [cond_type, value_type, value_type], parser.pos
        )
        op = cls(*operands)
        op.attributes |= attrs
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        if shape_or_none(self.cond.type) is not None:
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


# ---------------------------------------------------------------------------
# Casts
# ---------------------------------------------------------------------------


class _ShapedCast(IRDLOperation):
    """An elementwise cast `$input : T to U`; T and U differ in element type only."""

    traits = traits_def(Pure())
    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"

    def __init__(self, input: SSAValue | Operation, target_type: Attribute):
        super().__init__(operands=[input], result_types=[target_type])

    def verify_(self) -> None:
        source, target = self.operands[0].type, self.results[0].type
        if _container_kind(source) is not _container_kind(target) or shape_or_none(
            source
        ) != shape_or_none(target):
            raise VerifyException(
                f"operand type {source} and result type {target} must have the same shape"
            )
        self.verify_elements(element_type_of(source), element_type_of(target))

    def verify_elements(self, source: Attribute, target: Attribute) -> None:
        pass


class _Widening(_ShapedCast):
    def verify_elements(self, source: Attribute, target: Attribute) -> None:
        if not _bitwidth(target) > _bitwidth(source):
            raise VerifyException(
                "destination bit-width must be larger than the input bit-width"
            )


class _Narrowing(_ShapedCast):
    def verify_elements(self, source: Attribute, target: Attribute) -> None:
        if not _bitwidth(target) < _bitwidth(source):
            raise VerifyException(
                "destination bit-width must be smaller than the input bit-width"
            )


@irdl_op_definition
class ExtSIOp(_Widening):
    name = "arith.extsi"
    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)


@irdl_op_definition
class ExtUIOp(_Widening):
    name = "arith.extui"
    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)


@irdl_op_definition
class TruncIOp(_Narrowing):
    name = "arith.trunci"
    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)


@irdl_op_definition
class SIToFPOp(_ShapedCast):
    name = "arith.sitofp"
    input = operand_def(_INT_LIKE)
    result = result_def(_FLOAT_LIKE)


@irdl_op_definition
class UIToFPOp(_ShapedCast):
    name = "arith.uitofp"
    input = operand_def(_INT_LIKE)
    result = result_def(_FLOAT_LIKE)


@irdl_op_definition
class FPToSIOp(_ShapedCast):
    name = "arith.fptosi"
    input = operand_def(_FLOAT_LIKE)
    result = result_def(_INT_LIKE)


@irdl_op_definition
class FPToUIOp(_ShapedCast):
    name = "arith.fptoui"
    input = operand_def(_FLOAT_LIKE)
    result = result_def(_INT_LIKE)


@irdl_op_definition
class IndexCastOp(_ShapedCast):
    name = "arith.index_cast"
    input = operand_def(_INT_LIKE)
    result = result_def(_INT_LIKE)

    def verify_elements(self, source: Attribute, target: Attribute) -> None:
        if isinstance(source, IndexType) == isinstance(target, IndexType):
            raise VerifyException(
                f"operand type {self.input.type} and result type {self.result.type} "
                "are cast incompatible"
            )


@irdl_op_definition
class BitcastOp(_ShapedCast):
    name = "arith.bitcast"
    input = operand_def(_INT_LIKE | _FLOAT_LIKE)
    result = result_def(_INT_LIKE | _FLOAT_LIKE)

    def verify_elements(self, source: Attribute, target: Attribute) -> None:
        if _bitwidth(source) != _bitwidth(target):
            raise VerifyException("operand and result types must have equal bitwidths")


@irdl_op_definition
class RemFOp(xdsl_arith.FloatingPointLikeBinaryOperation):
    """`arith.remf`: the floating-point remainder, with the sign of the dividend (C fmod)."""

    name = "arith.remf"


REPLACED_OPS: tuple[type[Operation], ...] = (
    CmpiOp,
    CmpfOp,
    SelectOp,
    ExtSIOp,
    ExtUIOp,
    TruncIOp,
    SIToFPOp,
    UIToFPOp,
    FPToSIOp,
    FPToUIOp,
    IndexCastOp,
    BitcastOp,
)
"""The ops redefined here; each keeps the name of the xDSL op it replaces."""

_REPLACED_NAMES = {op.name for op in REPLACED_OPS}

Arith = Dialect(
    "arith",
    [
        *(op for op in xdsl_arith.Arith.operations if op.name not in _REPLACED_NAMES),
        *REPLACED_OPS,
        RemFOp,
    ],
    list(xdsl_arith.Arith.attributes),
    list(xdsl_arith.Arith._interfaces),  # pyright: ignore[reportPrivateUsage]
)
