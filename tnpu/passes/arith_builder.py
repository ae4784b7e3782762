"""`ArithBuilder`: elementwise `arith` (and `math`) code, written like formulas.

The libdevice substitutions and the math expansions build straight-line code
on scalars or tensors of one shape.  `ArithBuilder` inserts that code before
the op being rewritten, gives every new op the location of the op it
replaces (so later diagnostics still name the Python line), and turns Python
numbers into constants of the other operand's type, so a formula reads as
one: `b.add(b.mul(x, 0.5), 1.0)`.  A constant, or the bits of a value, is
built once per builder and reused.

Comparisons return `i1` values of the operands' shape; `bits` reinterprets
a float as the integer of its width, `bitcast` any value as another type.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence

from xdsl.dialects import arith as xdsl_arith
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    LocationAttr,
    TensorType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter

from tnpu.dialects import arith
from tnpu.dialects.shapes import element_type_of, with_element_type

QUIET_NAN_FORMATS = {32: ("<f", "<I"), 64: ("<d", "<Q")}
"""`struct` formats of a float and of its bits, by width (the widths NaN splats come in)."""

Operand = SSAValue | float | int
"""An SSA value, or a Python number standing for a constant of the other operand's type."""


class ArithBuilder:
    """Inserts elementwise ops before `rewriter`'s op, each located at `location`."""

    def __init__(self, rewriter: PatternRewriter, location: LocationAttr):
        self.rewriter = rewriter
        self.location = location
        self._constants: dict[tuple[Attribute, float | int], SSAValue] = {}
        self._bits: dict[SSAValue, SSAValue] = {}

    def insert(self, op: Operation) -> SSAValue:
        """Insert `op` and return its (first) result."""
        op.location = self.location
        self.rewriter.insert(op)
        return op.results[0]

    # -- constants ---------------------------------------------------------

    def constant(self, value: float | int, type_: Attribute) -> SSAValue:
        """`value` as a constant of `type_` (splat for a tensor); one op per value."""
        key = (type_, value)
        if key not in self._constants:
            element = element_type_of(type_)
            if value != value and isinstance(type_, TensorType | VectorType):
                self._constants[key] = self._nan_splat(type_)
                return self._constants[key]
            if isinstance(element, IndexType):
                scalar = IntegerAttr(int(value), element)
            elif isinstance(element, IntegerType):
                width = element.width.data
                value = int(value) & ((1 << width) - 1)
                if value >= 1 << (width - 1):  # two's complement, as MLIR prints it
                    value -= 1 << width
                scalar = IntegerAttr(value, element)  # pyright: ignore[reportArgumentType, reportCallIssue]  # xDSL's attribute constructors want the exact element type
            else:
                scalar = FloatAttr(float(value), element)  # pyright: ignore[reportArgumentType, reportCallIssue]  # xDSL's attribute constructors want the exact element type
            attr = (
                DenseIntOrFPElementsAttr.from_list(type_, [scalar.value.data])
                if isinstance(type_, TensorType | VectorType)
                else scalar
            )
            self._constants[key] = self.insert(xdsl_arith.ConstantOp(attr))
        return self._constants[key]

    def _nan_splat(self, type_: Attribute) -> SSAValue:
        """A quiet-NaN splat of f32 or f64 elements, as a bitcast of its bits.

        xDSL prints a dense NaN element by element (NaN != NaN defeats its
        splat test); the integer splat prints as one number.
        """
        element = element_type_of(type_)
        float_format, bits_format = QUIET_NAN_FORMATS[element.bitwidth]  # pyright: ignore[reportAttributeAccessIssue]  # an element type known to be an integer or a float
        (bits,) = struct.unpack(bits_format, struct.pack(float_format, float("nan")))
        integers = with_element_type(type_, IntegerType(element.bitwidth))  # pyright: ignore[reportAttributeAccessIssue]  # an element type known to be an integer or a float
        return self.bitcast(self.constant(bits, integers), element)

    def _values(self, *operands: Operand, like: SSAValue | None = None) -> list[SSAValue]:
        """The operands as SSA values; numbers become constants of the first value's type
        (or of `like`'s, when all operands are numbers)."""
        like = next((o for o in operands if isinstance(o, SSAValue)), like)
        assert like is not None, "a number operand needs a value to take its type from"
        return [o if isinstance(o, SSAValue) else self.constant(o, like.type) for o in operands]

    def _pair(self, lhs: Operand, rhs: Operand) -> tuple[SSAValue, SSAValue]:
        """`_values` of a binary op's two operands, as the pair the op's constructor takes."""
        first, second = self._values(lhs, rhs)
        return first, second

    # -- floating point ----------------------------------------------------

    def add(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.AddfOp(*self._pair(lhs, rhs)))

    def sub(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.SubfOp(*self._pair(lhs, rhs)))

    def mul(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.MulfOp(*self._pair(lhs, rhs)))

    def div(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.DivfOp(*self._pair(lhs, rhs)))

    def neg(self, value: SSAValue) -> SSAValue:
        return self.insert(xdsl_arith.NegfOp(value))

    def minnum(self, lhs: Operand, rhs: Operand) -> SSAValue:
        """The smaller operand; a NaN operand loses to a number (C `fmin`)."""
        return self.insert(xdsl_arith.MinnumfOp(*self._pair(lhs, rhs)))

    def maxnum(self, lhs: Operand, rhs: Operand) -> SSAValue:
        """The larger operand; a NaN operand loses to a number (C `fmax`)."""
        return self.insert(xdsl_arith.MaxnumfOp(*self._pair(lhs, rhs)))

    def polynomial(self, x: SSAValue, coefficients: Sequence[float]) -> SSAValue:
        """`c0 + x*(c1 + x*(c2 + ...))` by Horner's rule, lowest degree first."""
        *lower, result = coefficients
        for coefficient in reversed(lower):
            result = self.add(self.mul(result, x), coefficient)
        assert isinstance(result, SSAValue), "a polynomial needs degree >= 1"
        return result

    def compare(self, predicate: str, lhs: Operand, rhs: Operand) -> SSAValue:
        """`arith.cmpf` with an MLIR predicate (`olt`, `uno`, `une`, ...)."""
        return self.insert(arith.CmpfOp(*self._pair(lhs, rhs), predicate))

    def is_nan(self, value: SSAValue) -> SSAValue:
        return self.compare("uno", value, value)

    def select(
        self,
        condition: SSAValue,
        if_true: Operand,
        if_false: Operand,
        like: SSAValue | None = None,
    ) -> SSAValue:
        """`if_true` where `condition` holds, else `if_false`; two numbers take `like`'s type."""
        return self.insert(arith.SelectOp(condition, *self._values(if_true, if_false, like=like)))

    def convert(self, value: SSAValue, element: Attribute) -> SSAValue:
        """`value` widened (`extf`) or narrowed (`truncf`) to float type `element`."""
        source = element_type_of(value.type)
        assert isinstance(source, AnyFloat) and isinstance(element, AnyFloat)
        target = with_element_type(value.type, element)
        if element.bitwidth > source.bitwidth:
            return self.insert(xdsl_arith.ExtFOp(value, target))
        return self.insert(xdsl_arith.TruncFOp(value, target))

    def call(self, op_type: type[Operation], *operands: Operand) -> SSAValue:
        """A `math` op (or any op of operands of one type and a result of that type)."""
        return self.insert(op_type(*self._values(*operands)))

    # -- integers and bits -------------------------------------------------

    def bitcast(self, value: SSAValue, element: Attribute) -> SSAValue:
        """`value`'s bits reinterpreted as type `element` (of the same width)."""
        return self.insert(arith.BitcastOp(value, with_element_type(value.type, element)))

    def bits(self, value: SSAValue) -> SSAValue:
        """The bits of a float value as the signless integer of its width (one op per value)."""
        if value not in self._bits:
            width = element_type_of(value.type).bitwidth  # pyright: ignore[reportAttributeAccessIssue]  # an element type known to be an integer or a float
            self._bits[value] = self.bitcast(value, IntegerType(width))
        return self._bits[value]

    def to_int(self, value: SSAValue, element: Attribute | None = None) -> SSAValue:
        """`fptosi` to integer type `element` (default: of the float's width), toward zero."""
        if element is None:
            element = IntegerType(element_type_of(value.type).bitwidth)  # pyright: ignore[reportAttributeAccessIssue]  # an element type known to be an integer or a float
        return self.insert(arith.FPToSIOp(value, with_element_type(value.type, element)))  # pyright: ignore[reportArgumentType]  # with_element_type returns an Attribute; the op takes the exact type

    def to_float(self, value: SSAValue, float_type: Attribute) -> SSAValue:
        """`sitofp` of an integer value to `float_type` (a scalar float type)."""
        return self.insert(arith.SIToFPOp(value, with_element_type(value.type, float_type)))  # pyright: ignore[reportArgumentType]  # with_element_type returns an Attribute; the op takes the exact type

    def addi(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.AddiOp(*self._pair(lhs, rhs)))

    def subi(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.SubiOp(*self._pair(lhs, rhs)))

    def andi(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.AndIOp(*self._pair(lhs, rhs)))

    def ori(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.OrIOp(*self._pair(lhs, rhs)))

    def xori(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.XOrIOp(*self._pair(lhs, rhs)))

    def shli(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.ShLIOp(*self._pair(lhs, rhs)))

    def shrsi(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.ShRSIOp(*self._pair(lhs, rhs)))

    def shrui(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.ShRUIOp(*self._pair(lhs, rhs)))

    def compare_int(self, predicate: str, lhs: Operand, rhs: Operand) -> SSAValue:
        """`arith.cmpi` with an MLIR predicate (`slt`, `eq`, `ult`, ...)."""
        return self.insert(arith.CmpiOp(*self._pair(lhs, rhs), predicate))

    def extui(self, value: SSAValue, element: Attribute) -> SSAValue:
        """Zero-extend `value` (an `i1` flag, say) to integer type `element`."""
        return self.insert(arith.ExtUIOp(value, with_element_type(value.type, element)))  # pyright: ignore[reportArgumentType]  # with_element_type returns an Attribute; the op takes the exact type

    def trunci(self, value: SSAValue, element: Attribute) -> SSAValue:
        """The low bits of integer `value` as the narrower integer type `element`."""
        return self.insert(arith.TruncIOp(value, with_element_type(value.type, element)))  # pyright: ignore[reportArgumentType]  # with_element_type returns an Attribute; the op takes the exact type

    def muli(self, lhs: Operand, rhs: Operand) -> SSAValue:
        return self.insert(xdsl_arith.MuliOp(*self._pair(lhs, rhs)))
