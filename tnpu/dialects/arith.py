"""Tensor-capable `arith`: the ops xDSL 0.75 restricts to scalars, extended, and `arith.remf`.

Why it exists: TTIR applies `arith.cmpi`, `cmpf`, `select` and the integer
and float casts to tensors.  xDSL 0.75 declares the comparisons' results
scalar `i1`, `select`'s condition scalar, and the casts' operands and
results scalar (`index_cast` too), and it has no `arith.remf`.  MLIR's rule
is elementwise: scalars, vectors and tensors alike, the result in the
operand's shape with another element type.

How: each op here subclasses xDSL's op of the same name, widening only its
operand and result constraints and its verifier to MLIR's rules, with MLIR's
diagnostics.  `isinstance(op, xdsl.dialects.arith.CmpiOp)` therefore holds
for tnpu's ops, and xDSL's patterns (canonicalize) match them; `cmpi` folds
equal operands in their shape, before xDSL's pattern can make them a scalar.
(xDSL's `bitcast` takes tensors already; its subclass only adds MLIR's rules:
no `index`, equal shapes.)  `Arith` below is xDSL's dialect with these
classes in place of xDSL's; tnpu's context registers it, so what is parsed,
and what tnpu builds, is these classes.  The textual forms are MLIR's.

When xDSL's arith accepts tensors for these ops (and has `remf`), delete
this file, drop `arith` from `REPLACED_DIALECTS` in `tnpu/context.py`, and
import xDSL's classes wherever `tnpu.dialects.arith` is imported.

`is_splat` stands in for xDSL's, which compares dense elements by value;
`is_scalar_arithmetic` says which `arith`/`math` ops compute on scalars only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import arith as xdsl_arith
from xdsl.dialects.builtin import (
    AnyFloatConstr,
    BaseAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    SignlessIntegerConstraint,
    TensorType,
    VectorType,
    container_of,
    i1,
)
from xdsl.interfaces import HasFolderInterface
from xdsl.ir import Attribute, Dialect, Operation, SSAValue
from xdsl.irdl import (
    AnyAttr,
    IRDLOperation,
    MessageConstraint,
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
from xdsl.utils.hints import isa

from tnpu.dialects.shapes import element_type_of, i1_like, shape_of


def is_scalar_arithmetic(op: Operation) -> bool:
    """Whether `op` is an `arith` or `math` op on scalars: no tensor operand or result
    (a constant of a scalar, too), no region."""
    if op.dialect_name() not in ("arith", "math") or op.regions:
        return False
    return not any(isinstance(value.type, TensorType) for value in (*op.operands, *op.results))


def is_splat(value: DenseIntOrFPElementsAttr) -> bool:
    """Whether every element has the first's bits.

    xDSL 0.75's `DenseIntOrFPElementsAttr.is_splat` compares values, so a
    tensor of NaNs (`tl.where(c, float("nan"), x)`) is not a splat and one of
    0.0 and -0.0 is.
    """
    data = value.data.data
    width = len(data) // max(len(value), 1)
    return data == data[:width] * (len(data) // max(width, 1))


class _TypeClass(MessageConstraint):
    """A type constraint that fails as MLIR's do: "must be bool-like, but got 'i32'"."""

    def verify(self, attr: Attribute, constraint_context) -> None:
        try:
            self.constr.verify(attr, constraint_context)
        except VerifyException:
            raise VerifyException(f"must be {self.message}, but got '{attr}'") from None


_SIGNLESS_INT_OR_INDEX = _TypeClass(
    container_of(SignlessIntegerConstraint | BaseAttr(IndexType)), "signless-integer-like"
)
_SIGNLESS_INT = _TypeClass(
    container_of(SignlessIntegerConstraint), "signless-fixed-width-integer-like"
)
_FLOAT = _TypeClass(container_of(AnyFloatConstr), "floating-point-like")
_BOOL = _TypeClass(xdsl_arith.boolLike, "bool-like")
_INT_OR_FLOAT = _TypeClass(
    container_of(SignlessIntegerConstraint | AnyFloatConstr), "signless-integer-or-float-like"
)


def _is_shaped(type_: Attribute) -> bool:
    return isinstance(type_, TensorType | VectorType)


def _verify_same_shape(*types: Attribute) -> None:
    """MLIR's SameOperandsAndResultShape, and ElementwiseMappable's one kind of container."""
    shaped = {_is_shaped(t) for t in types}
    if len(shaped) > 1 or len({shape_of(t) for t in types}) > 1:
        raise VerifyException("requires the same shape for all operands and results")
    if len({type(t) for t in types if _is_shaped(t)}) > 1:
        raise VerifyException(
            "all non-scalar operands/results must have the same shape and base type"
        )


# ---------------------------------------------------------------------------
# Comparisons and select
# ---------------------------------------------------------------------------


class _ShapedComparison:
    """What `cmpi` and `cmpf` change in xDSL's: an `i1` result in the operands' shape.

    The text is MLIR's, `arith.cmpi slt, %a, %b {attrs} : T` (a `cmpf` has
    its `fastmath<...>` before the attributes); xDSL's drops the attributes.
    """

    predicate = prop_def(IntegerAttr)
    result = result_def(_BOOL)

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
        IRDLOperation.__init__(
            self,  # pyright: ignore[reportArgumentType]  # a mixin of IRDL ops
            operands=[lhs, rhs],
            result_types=[i1_like(lhs.type)],
            properties={"predicate": IntegerAttr(predicate, 64), **(properties or {})},
        )

    def verify_(self) -> None:
        (lhs, rhs), result = self.operand_types, self.result_types[0]  # pyright: ignore[reportAttributeAccessIssue]  # a mixin of IRDL ops
        if lhs != rhs:
            raise VerifyException("requires all operands to have the same type")
        if result != i1_like(lhs):
            raise VerifyException(
                "failed to verify that result type has i1 element type and same shape as operands"
            )
        if not 0 <= self.predicate.value.data < len(self.PREDICATES):
            raise VerifyException(
                f"attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless "
                f"integer cases: {', '.join(map(str, range(len(self.PREDICATES))))}"
            )

    @classmethod
    def parse(cls, parser: Parser):
        predicate = parser.parse_identifier()
        if predicate not in cls.PREDICATES:
            parser.raise_error(
                "expected string or keyword containing one of the following enum values "
                f"for attribute 'predicate' [{', '.join(cls.PREDICATES)}]"
            )
        parser.parse_punctuation(",")
        lhs = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        rhs = parser.parse_unresolved_operand()
        properties = cls.parse_properties(parser)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        type_ = parser.parse_type()
        lhs, rhs = parser.resolve_operands([lhs, rhs], [type_, type_], parser.pos)
        op = cls(lhs, rhs, predicate)
        op.properties |= properties
        op.attributes |= attrs  # pyright: ignore[reportAttributeAccessIssue]  # a mixin of IRDL ops
        return op

    @classmethod
    def parse_properties(cls, parser: Parser) -> dict[str, Attribute]:
        return {}

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.PREDICATES[self.predicate.value.data]}, ")
        printer.print_operand(self.operands[0])  # pyright: ignore[reportAttributeAccessIssue]  # a mixin of IRDL ops
        printer.print_string(", ")
        printer.print_operand(self.operands[1])  # pyright: ignore[reportAttributeAccessIssue]  # a mixin of IRDL ops
        self.print_properties(printer)
        printer.print_op_attributes(self.attributes)  # pyright: ignore[reportAttributeAccessIssue]  # a mixin of IRDL ops
        printer.print_string(" : ")
        printer.print_attribute(self.operands[0].type)  # pyright: ignore[reportAttributeAccessIssue]  # a mixin of IRDL ops

    def print_properties(self, printer: Printer) -> None:
        pass


@irdl_op_definition
class CmpiOp(_ShapedComparison, xdsl_arith.CmpiOp, HasFolderInterface):
    """`arith.cmpi P, %a, %b : T`: integers (or index) compared elementwise, i1 in T's shape."""

    name = "arith.cmpi"

    PREDICATES: ClassVar[list[str]] = xdsl_arith.CMPI_COMPARISON_OPERATIONS
    lhs = operand_def(_SIGNLESS_INT_OR_INDEX)
    rhs = operand_def(_SIGNLESS_INT_OR_INDEX)

    def fold(self) -> Sequence[SSAValue | Attribute] | None:
        """`cmpi P, %x, %x` is what P gives equal values (true for eq, sle, sge, ule, uge).

        MLIR's fold; it also runs before xDSL's canonicalization pattern for
        the same case, which would give a scalar `i1` for shaped operands.
        """
        if self.lhs != self.rhs:
            return None
        predicate = self.PREDICATES[self.predicate.value.data]
        holds = int(predicate in ("eq", "sle", "sge", "ule", "uge"))
        type_ = self.result.type
        if isa(type_, TensorType | VectorType):
            return (DenseIntOrFPElementsAttr.from_list(type_, [holds]),)  # pyright: ignore[reportArgumentType, reportCallIssue]  # xDSL's attribute constructors want the exact element type
        return (IntegerAttr(holds, type_),)  # pyright: ignore[reportArgumentType, reportCallIssue]  # xDSL's attribute constructors want the exact element type


@irdl_op_definition
class CmpfOp(_ShapedComparison, xdsl_arith.CmpfOp):
    """`arith.cmpf P, %a, %b : T`: floats compared elementwise, i1 in T's shape."""

    name = "arith.cmpf"

    PREDICATES: ClassVar[list[str]] = xdsl_arith.CMPF_COMPARISON_OPERATIONS
    lhs = operand_def(_FLOAT)
    rhs = operand_def(_FLOAT)
    fastmath = prop_def(
        xdsl_arith.FastMathFlagsAttr, default_value=xdsl_arith.FastMathFlagsAttr("none")
    )

    def __init__(
        self,
        lhs: SSAValue | Operation,
        rhs: SSAValue | Operation,
        predicate: int | str,
        fastmath: xdsl_arith.FastMathFlagsAttr | None = None,
    ):
        fastmath = fastmath or xdsl_arith.FastMathFlagsAttr("none")
        super().__init__(lhs, rhs, predicate, {"fastmath": fastmath})

    @classmethod
    def parse_properties(cls, parser: Parser) -> dict[str, Attribute]:
        if not parser.parse_optional_keyword("fastmath"):
            return {}
        flags = xdsl_arith.FastMathFlagsAttr.parse_parameter(parser)
        return {"fastmath": xdsl_arith.FastMathFlagsAttr(flags)}

    def print_properties(self, printer: Printer) -> None:
        if self.fastmath != xdsl_arith.FastMathFlagsAttr("none"):
            printer.print_string(" fastmath")
            self.fastmath.print_parameter(printer)


@irdl_op_definition
class SelectOp(xdsl_arith.SelectOp):
    """`arith.select %c, %a, %b : T` (one i1 condition) or `: C, T` (C: i1 in T's shape)."""

    name = "arith.select"

    cond = operand_def(_BOOL)
    lhs = operand_def(AnyAttr())
    rhs = operand_def(AnyAttr())
    result = result_def(AnyAttr())

    assembly_format = None  # `: C, T` or `: T`, parsed below

    def verify_(self) -> None:
        if not self.lhs.type == self.rhs.type == self.result.type:
            raise VerifyException(
                "failed to verify that all of {true_value, false_value, result} have same type"
            )
        condition = self.cond.type
        if not _is_shaped(condition):
            return
        if shape_of(condition) != shape_of(self.result.type) or not _is_shaped(self.result.type):
            raise VerifyException(
                "failed to verify that condition is signless i1 or has matching shape"
            )
        expected = i1_like(self.result.type)
        if condition != expected:
            raise VerifyException(
                "expected condition type to have the same shape as the result type, "
                f"expected {expected}, but got {condition}"
            )

    @classmethod
    def parse(cls, parser: Parser) -> SelectOp:
        names = [parser.parse_unresolved_operand()]
        for _ in range(2):
            parser.parse_punctuation(",")
            names.append(parser.parse_unresolved_operand())
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        cond_type: Attribute = i1
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
        if _is_shaped(self.cond.type):
            printer.print_attribute(self.cond.type)
            printer.print_string(", ")
        printer.print_attribute(self.result.type)


# ---------------------------------------------------------------------------
# Casts
# ---------------------------------------------------------------------------


class _ShapedCast:
    """An elementwise cast `%x : T to U`: same shape, element types as `cast_compatible` says."""

    assembly_format = "$input attr-dict `:` type($input) `to` type($result)"
    # The xDSL op's parse and print were generated from its own definition; with
    # Operation's here, `irdl_op_definition` generates this op's from the format.
    parse = vars(Operation)["parse"]
    print = Operation.print

    def verify_(self) -> None:
        source, target = self.operands[0].type, self.results[0].type  # pyright: ignore[reportAttributeAccessIssue]  # a mixin of IRDL ops
        _verify_same_shape(source, target)
        if not self.cast_compatible(element_type_of(source), element_type_of(target)):
            raise VerifyException(
                f"operand type '{source}' and result type '{target}' are cast incompatible"
            )

    @staticmethod
    def cast_compatible(source: Attribute, target: Attribute) -> bool:
        return True


class _Widening(_ShapedCast):
    @staticmethod
    def cast_compatible(source: Attribute, target: Attribute) -> bool:
        return target.bitwidth > source.bitwidth  # pyright: ignore[reportAttributeAccessIssue]  # an element type known to be an integer or a float


@irdl_op_definition
class ExtSIOp(_Widening, xdsl_arith.ExtSIOp):
    name = "arith.extsi"
    input = operand_def(_SIGNLESS_INT)
    result = result_def(_SIGNLESS_INT)
    traits = traits_def(Pure())


@irdl_op_definition
class ExtUIOp(_Widening, xdsl_arith.ExtUIOp):
    name = "arith.extui"
    input = operand_def(_SIGNLESS_INT)
    result = result_def(_SIGNLESS_INT)


@irdl_op_definition
class TruncIOp(_ShapedCast, xdsl_arith.TruncIOp):
    name = "arith.trunci"
    input = operand_def(_SIGNLESS_INT)
    result = result_def(_SIGNLESS_INT)

    @staticmethod
    def cast_compatible(source: Attribute, target: Attribute) -> bool:
        return target.bitwidth < source.bitwidth  # pyright: ignore[reportAttributeAccessIssue]  # an element type known to be an integer or a float


@irdl_op_definition
class SIToFPOp(_ShapedCast, xdsl_arith.SIToFPOp):
    name = "arith.sitofp"
    input = operand_def(_SIGNLESS_INT)
    result = result_def(_FLOAT)


@irdl_op_definition
class UIToFPOp(_ShapedCast, xdsl_arith.UIToFPOp):
    name = "arith.uitofp"
    input = operand_def(_SIGNLESS_INT)
    result = result_def(_FLOAT)


@irdl_op_definition
class FPToSIOp(_ShapedCast, xdsl_arith.FPToSIOp):
    name = "arith.fptosi"
    input = operand_def(_FLOAT)
    result = result_def(_SIGNLESS_INT)


@irdl_op_definition
class FPToUIOp(_ShapedCast, xdsl_arith.FPToUIOp):
    name = "arith.fptoui"
    input = operand_def(_FLOAT)
    result = result_def(_SIGNLESS_INT)


@irdl_op_definition
class IndexCastOp(_ShapedCast, xdsl_arith.IndexCastOp):
    name = "arith.index_cast"
    input = operand_def(_SIGNLESS_INT_OR_INDEX)
    result = result_def(_SIGNLESS_INT_OR_INDEX)

    @staticmethod
    def cast_compatible(source: Attribute, target: Attribute) -> bool:
        return isinstance(source, IndexType) != isinstance(target, IndexType)


@irdl_op_definition
class BitcastOp(_ShapedCast, xdsl_arith.BitcastOp):
    name = "arith.bitcast"
    input = operand_def(_INT_OR_FLOAT)
    result = result_def(_INT_OR_FLOAT)

    @staticmethod
    def cast_compatible(source: Attribute, target: Attribute) -> bool:
        return source.bitwidth == target.bitwidth  # pyright: ignore[reportAttributeAccessIssue]  # an element type known to be an integer or a float


@irdl_op_definition
class RemFOp(xdsl_arith.FloatingPointLikeBinaryOperation):
    """`arith.remf`: the floating-point remainder, with the sign of the dividend (C fmod)."""

    name = "arith.remf"

    T: ClassVar = VarConstraint("T", _FLOAT)
    lhs = operand_def(T)
    rhs = operand_def(T)
    result = result_def(T)


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
"""The ops redefined here; each subclasses the xDSL op whose name it keeps."""

_REPLACED_NAMES = {op.name for op in REPLACED_OPS}

Arith = Dialect(
    "arith",
    [
        *(op for op in xdsl_arith.Arith.operations if op.name not in _REPLACED_NAMES),
        *REPLACED_OPS,
        RemFOp,
    ],
    list(xdsl_arith.Arith.attributes),
    list(xdsl_arith.Arith._interfaces),
)
